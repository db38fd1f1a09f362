"""``pdn dedupe``, :mod:`pdn.collections.duplicates` and the repeated-game warning of ``pdn
report``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_paths import OCA, WIEGERW_GAMES, needs_shared

import pdn
from pdn.cli import main
from pdn.collections.duplicates import Deduper, Place, dedupe_games, game_key, pairing_key

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


# --- issue 33: the moves level compares the moves replayed, not their spelling -------------

PLAYED = (
    "1. 9-13 23-19 2. 6-9 27-23 3. 9-14 22-18 4. 11-15 18x9 5. 5x14 25-22 6. 7-11 30-25 "
    "7. 1-5 22-17 8. 13x22 25x18x9 9. 5x14 *\n"
)
SPELLINGS = [
    PLAYED,
    # captures written with a hyphen, a quiet move with an x, the double jump written short
    "1. 9-13 23-19 2. 6x9 27-23 3. 9-14 22-18 4. 11-15 18-9 5. 5-14 25-22 6. 7-11 30-25 "
    "7. 1-5 22-17 8. 13-22 25x9 9. 5-14 *\n",
    # no move numbers, comments, a FEN tag of the start position: the same game
    '[FEN "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"]\n'
    "9-13 {a} 23-19 6-9 27-23 9-14 22-18 11-15 18x9 5x14 25-22 7-11 30-25 1-5 22-17 13x22 "
    "25-18-9 5x14 *\n",
]


def test_moves_level_is_every_spelling_of_one_game(tmp_path: Path) -> None:
    path = tmp_path / "spellings.pdn"
    path.write_text("\n".join(SPELLINGS), encoding="utf-8")
    assert repeats(path, "moves") == {2: 1, 3: 1}
    assert repeats(path, "text") == {}
    keys = {game_key(game, "moves") for game in pdn.parse_games("\n".join(SPELLINGS))}
    assert len(keys) == 1


def test_a_game_that_does_not_replay_is_its_replayed_prefix_then_its_written_rest(
    tmp_path: Path,
) -> None:
    # 2 spells 1's legal prefix otherwise and writes the same illegal move and rest; 3 has
    # another rest after the same illegal move; 4 differs only in an x for a - after it.
    games = [
        "1. 11-15 24-19 2. 15x24 28x19 3. 8-11 19-15 4. 11-15 22-17 *\n",
        "1. 11x15 24-19 2. 15-24 28-19 3. 8-11 19x15 4. 11-15 22-17 *\n",
        "1. 11-15 24-19 2. 15x24 28x19 3. 8-11 19-15 4. 11-15 22-18 *\n",
        "1. 11-15 24-19 2. 15x24 28x19 3. 8-11 19-15 4. 11x15 22-17 *\n",
    ]
    path = tmp_path / "broken.pdn"
    path.write_text("\n".join(games), encoding="utf-8")
    assert repeats(path, "moves") == {2: 1}


def test_dedupe_against_an_archive_drops_its_games_however_spelled(tmp_path: Path) -> None:
    archive = tmp_path / "archive.pdn"
    archive.write_text(BASE + PLAYED, encoding="utf-8")
    new = tmp_path / "new.pdn"
    new.write_text("\n".join(BASE.replace("Club", "Other") + s for s in SPELLINGS), "utf-8")
    result = CliRunner().invoke(main, ["dedupe", str(new), "--against", str(archive)])
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "3 games, 3 repeats dropped (by moves), 3 of them in the archive" in result.stderr
    text = CliRunner().invoke(main, ["dedupe", str(new), "--against", str(archive), "--by", "text"])
    assert "3 games, 0 repeats dropped (by text)" in text.stderr


@needs_shared(WIEGERW_GAMES)
def test_an_archive_respelled_is_all_repeats_of_itself(tmp_path: Path) -> None:
    # OCA's first games with every capture written as archives often do: a hyphen, and a
    # multi-jump from its first square to its last ("25-9" for 25x18x9).
    archive = WIEGERW_GAMES / "succeed" / "OCA_2.0.pdn"
    text = archive.read_text(encoding="utf-8")
    jump = re.compile(r"\b(\d+)((?:x\d+)+)\b")
    respelled = "\n".join(
        line if line.startswith("[") else jump.sub(lambda m: f"{m[1]}-{m[2].split('x')[-1]}", line)
        for line in text.split("\n")
    )
    assert respelled != text
    new = tmp_path / "respelled.pdn"
    new.write_text(respelled, encoding="utf-8")
    games = len(list(pdn.read_games(str(archive))))
    result = CliRunner().invoke(main, ["dedupe", str(new), "--against", str(archive)])
    assert f"{games} games, {games} repeats dropped (by moves), {games} of them" in result.stderr


@needs_shared(OCA, WIEGERW_GAMES)
def test_inferno_against_oca_finds_the_games_written_with_short_jumps() -> None:
    # inferno.pdn writes multi-jumps short (2x27), OCA in full (2x11x20x27): 3 repeats were
    # found by spelling, 15 by the moves played; each is the same game, move for move.
    inferno = WIEGERW_GAMES / "succeed" / "inferno.pdn"
    found = {
        seen.place.index: seen.repeats.index
        for seen in dedupe_games([str(inferno)], "moves", against=[str(OCA)])
        if seen.repeats is not None
    }
    assert len(found) >= 15
    archive = {index: None for index in found.values()}
    for game in pdn.read_games(str(OCA)):
        if game.index in archive:
            archive[game.index] = game
    for new in pdn.read_games(str(inferno)):
        if new.index in found:
            old = archive[found[new.index]]
            assert old is not None
            played = pdn.validate(new).mainline_moves()
            assert played == pdn.validate(old).mainline_moves() and played
