"""``pdn dedupe``, :mod:`pdn.duplicates` and the repeated-game warning of ``pdn report``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.duplicates import Deduper, Place, dedupe_games, game_key, pairing_key

BASE = '[Event "Club"]\n[Round "1"]\n[Black "Ann"]\n[White "Bob"]\n[Result "1-0"]\n'
MOVES = "1. 11-15 23-19 2. 8-11 22-17 1-0\n"

GAMES = [
    BASE + MOVES,  # 1
    BASE + MOVES,  # 2: a byte-for-byte copy of 1
    BASE.replace("\n[", "  \n[") + "1. 11-15  23-19\n2. 8-11 22-17 1-0\n",  # 3: 1 re-wrapped
    BASE.replace("Club", "Open") + "1. 11-15 23-19 {a note} 2. 8-11 (9-13) 22-17 1-0\n",  # 4
    # 5: another pair of players reaches 4's final position by transposition
    BASE.replace("Ann", "Cy") + "1. 11-15 22-17 2. 8-11 23-19 1-0\n",
    # 6: Ann and Bob again, the transposed order: same final position, same players
    BASE.replace("Club", "Cup") + "1. 11-15 22-17 2. 8-11 23-19 1-0\n",
    BASE + "*\n",  # 7: no moves
    BASE + "*\n",  # 8: no moves: the same text, but repeats nothing at the moves level
]


@pytest.fixture()
def collection(tmp_path: Path) -> Path:
    path = tmp_path / "dups.pdn"
    path.write_text("\n".join(GAMES), encoding="utf-8")
    return path


def repeats(path: Path, level: str) -> dict[int, int]:
    return {
        seen.place.index: seen.repeats.index
        for seen in dedupe_games([str(path)], level)  # type: ignore[arg-type]
        if seen.repeats is not None
    }


def test_text_level_is_the_same_text_white_space_aside(collection: Path) -> None:
    assert repeats(collection, "text") == {2: 1, 3: 1, 8: 7}


def test_moves_level_ignores_tags_comments_and_variations(collection: Path) -> None:
    assert repeats(collection, "moves") == {2: 1, 3: 1, 4: 1, 6: 5}


def test_position_level_is_the_final_position_and_the_players(collection: Path) -> None:
    # 5 has other players; 6 reaches 1's final position with the same players.
    assert repeats(collection, "position") == {2: 1, 3: 1, 4: 1, 6: 1}


def test_keys_are_small_digests() -> None:
    game = pdn.parse_game(GAMES[0])
    for level in ("text", "moves", "position"):
        key = game_key(game, level)  # type: ignore[arg-type]
        assert isinstance(key, bytes) and len(key) == 16
    assert game_key(pdn.parse_game(GAMES[6]), "moves") is None


def test_deduper_names_the_first_place() -> None:
    seen = Deduper()
    assert seen.check(b"a" * 16, Place("x.pdn", 10, 1)) is None
    assert seen.check(b"b" * 16, Place("y.pdn", 20, 1)) is None
    assert seen.check(b"a" * 16, Place("y.pdn", 30, 2)) == Place("x.pdn", 10, 1)
    assert seen.check(None, Place("y.pdn", 40, 3)) is None
    assert len(seen) == 2


def test_cli_keeps_the_first_and_says_what_it_dropped(collection: Path) -> None:
    result = CliRunner().invoke(main, ["dedupe", str(collection)], catch_exceptions=False)
    assert result.exit_code == 0
    kept = list(pdn.parse_games(result.stdout))
    assert [g.tags["Black"] for g in kept] == ["Ann", "Cy", "Ann", "Ann"]
    # Games written as read: the first game's text is in the output untouched.
    assert result.stdout.startswith(GAMES[0])
    # One summary line, not one line per repeat (--report FILE lists them).
    assert result.stderr == "8 games, 4 repeats dropped (by moves)\n"


def test_cli_report_lists_without_writing_games(collection: Path) -> None:
    result = CliRunner().invoke(
        main, ["dedupe", "--by", "text", "--report", "-", str(collection)], catch_exceptions=False
    )
    assert "[Event" not in result.stdout
    name = str(collection)
    second = GAMES[0].count("\n") + 2  # after game 1 and the blank line
    assert result.stdout.splitlines()[0] == f"{name}:{second}: game 2 repeats {name}:1 (game 1)"
    assert len(result.stdout.splitlines()) == 3


def test_report_warns_and_dedupe_counts_once(tmp_path: Path) -> None:
    path = tmp_path / "round.pdn"
    path.write_text(GAMES[0] + "\n" + GAMES[1], encoding="utf-8")
    plain = CliRunner().invoke(main, ["report", str(path)])
    assert f"{path}:8:1: warning: game 2 repeats {path}:1 (game 1), counted again" in (plain.stderr)
    assert "--dedupe counts each once" in plain.stderr
    once = CliRunner().invoke(main, ["report", str(path), "--dedupe"])
    assert "Games:       1" in once.stdout
    twice = CliRunner().invoke(main, ["report", str(path)])
    assert "Games:       2" in twice.stdout


def test_pairing_key_keeps_real_games_apart() -> None:
    one = pdn.parse_game(GAMES[0])
    other_round = pdn.parse_game(GAMES[0].replace('Round "1"', 'Round "2"'))
    assert pairing_key(one) == pairing_key(pdn.parse_game(GAMES[1]))
    assert pairing_key(one) != pairing_key(other_round)
