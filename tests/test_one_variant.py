"""One variant per game, the one replay's, for every command (issue 33, item 2b).

``Game.variant`` is the reader's guess before the replay; the rules ``pdn validate`` replays a
game under may differ (a failing guess retried, the file's other games). ``report`` (who moved
first), ``select --variant``, ``split --by variant``, the JSON record and ``openings --stats``
must all say what ``validate`` says, for every fixture.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.game.gametype import first_mover, game_type_of
from pdn.rules.replays import Replays

FIXTURES = Path(__file__).parent / "fixtures"
FILES = sorted(FIXTURES.rglob("*.pdn"))
SUCCEED = FIXTURES / "corpus" / "wiegerw__pdn" / "games" / "succeed"

# Italian: White starts, from 21-32; read alone, the squares say English, where Black starts.
ITALIAN = (
    '[Event "E"]\n[White "Bianchi"]\n[Black "Neri"]\n[Result "1-0"]\n'
    "1. 21-18 11-15 2. 22-19 15x22 1-0\n"
)


def run(*args: str) -> str:
    """The standard output of ``pdn ARGS`` (exit 0 or 1: a file with errors still answers)."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.stdout


def validated(path: Path) -> dict[int, tuple[str | None, str | None]]:
    """Game number -> (the rules validate replays it under, its GameType tag), for each game
    of a file that is PDN (a file that is not has no game to select or split)."""
    games = json.loads(run("validate", "--format", "json", str(path)))["games"]
    return {
        game["index"]: (game["rules"]["variant"], dict(game["tags"]).get("GameType"))
        for game in games
        if not any(p["code"] == "not-pdn" for p in game["problems"])
    }


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_command_gives_the_variant_validate_replays_under(path: Path, tmp_path: Path) -> None:
    rules = validated(path)
    variants = {index: variant for index, (variant, _) in rules.items()}

    # The JSON record: the replay's rules.
    records = json.loads(run("convert", "--to", "json", str(path)))["games"]
    assert {r["index"]: r["variant"] for r in records if r["index"] in rules} == variants

    # select --variant keeps the games validate replays under that variant.
    for name, count in Counter(v for v in variants.values() if v is not None).items():
        assert int(run("select", "--variant", name, "--count", str(path))) == count, name

    # split --by variant: each game in its replay's variant's file.
    out = tmp_path / "out"
    run("split", "--by", "variant", "-o", str(out), str(path))
    with open(out / "index.csv", encoding="utf-8", newline="") as index:
        split = {int(row["game"]): row["group"] for row in csv.DictReader(index)}
    assert {i: g for i, g in split.items() if i in rules} == {
        i: v or "unknown variant" for i, v in variants.items()
    }

    # report: the first mover of the replay's rules, with or without the openings.
    for extra in ([], ["--no-openings"]):
        table = run("report", "--format", "csv", "--table", "games", *extra, str(path))
        for row in csv.DictReader(io.StringIO(table)):
            variant, game_type = rules[int(row["index"])]
            first = first_mover(variant, game_type_of(game_type))
            assert row["first_colour"] == {"W": "White", "B": "Black"}[first], row

    # openings --stats: the note on a table without English games counts the replay's rules.
    result = CliRunner().invoke(main, ["openings", "--stats", str(path)])
    if "no English game among" in result.stderr:
        others = Counter(v or "unknown" for v in variants.values())
        said = ", ".join(f"{name} {n}" for name, n in others.most_common())
        assert f"({said})" in result.stderr


def test_the_italian_game_is_credited_to_white_by_every_command(tmp_path: Path) -> None:
    path = tmp_path / "it.pdn"
    path.write_text(ITALIAN)
    table = run("report", "--format", "csv", "--table", "games", str(path))
    (row,) = csv.DictReader(io.StringIO(table))
    assert (row["first_colour"], row["first"], row["first_score"]) == ("White", "Bianchi", "1")
    text = run("report", str(path))
    assert "First mover: White" in text
    (record,) = json.loads(run("convert", "--to", "json", str(path)))["games"]
    assert (record["variant"], record["variant_source"]) == ("italian", "replay")
    assert "Italian draughts rules replay the whole game" in record["variant_evidence"]


def test_an_italian_championship_is_italian_for_select_and_split(tmp_path: Path) -> None:
    path = SUCCEED / "Campionato Assoluto 2005.pdn"
    assert run("select", "--variant", "italian", "--count", str(path)) == "53\n"
    assert run("select", "--variant", "english", "--count", str(path)) == "0\n"
    run("split", "--by", "variant", "-o", str(tmp_path / "out"), str(path))
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["index.csv", "italian.pdn"]
    czech = CliRunner().invoke(
        main,
        ["split", "--by", "variant", "-o", str(tmp_path / "cz"), str(SUCCEED / "mrcd2006.pdn")],
    )
    assert czech.exit_code == 0
    assert (tmp_path / "cz" / "czech.pdn").read_text().count("[Event ") == 34


def test_a_gametype_decides_select_without_a_replay(tmp_path: Path) -> None:
    # A tagged game is kept or left by its tag; an untagged one by its replay.
    path = tmp_path / "mixed.pdn"
    path.write_text('[GameType "22"]\n1. 21-18 11-15 *\n\n' + ITALIAN)
    assert run("select", "--variant", "italian", "--count", str(path)) == "2\n"
    assert run("select", "--variant", "italian", "--invert", "--count", str(path)) == "0\n"


@pytest.mark.parametrize("command", ["select", "split"])
def test_help_says_what_variant_means(command: str) -> None:
    text = CliRunner().invoke(main, [command, "--help"]).output
    assert "the rules pdn validate replays" in " ".join(text.split())


def test_replaying_commands_say_they_replay_under_variant() -> None:
    text = CliRunner().invoke(main, ["convert", "--help"]).output
    assert "Replay every game under these rules" in " ".join(text.split())


# Russian, Brazilian and Czech rules all replay it, but not the guess (Russian): the earlier
# games of its file break the tie.
TIE = (
    '[Event "t"]\n1. a3-b4 f6-g5 2. c3-d4 b6-c5 3. d4xb6 a7xa3 4. g3-h4 e7-f6 5. f2-g3 d6-e5 '
    "6. d2-c3 c7-d6 7. e1-f2 b8-c7 8. g3-f4 e5xe1 *\n"
)
BRAZILIAN, CZECH = (f'[GameType "{n}"]\n1. c3-d4 f6-g5 *\n' for n in ("26", "29"))


def test_one_method_gives_a_games_variant_a_gametype_without_a_replay() -> None:
    replays = Replays()
    tagged = pdn.parse_game(CZECH)
    assert replays.variant_of(tagged, "a.pdn") == "czech"
    assert replays.replayed == 0
    assert replays.variant_of(pdn.parse_game(ITALIAN), "a.pdn") == "italian"
    assert replays.replayed == 1
    assert Replays().variant_of(pdn.parse_game(ITALIAN), None) == "italian"


def test_a_game_whose_variant_was_read_then_replayed_counts_once(tmp_path: Path) -> None:
    # select --variant reads a Czech game's variant from its tag (noting it, not replayed),
    # then --clean replays it: the two Brazilian games before it still count for the tie,
    # which Brazilian rules win (2 to 1), in select, split and validate alike.
    path = tmp_path / "tie.pdn"
    path.write_text("\n".join([BRAZILIAN, BRAZILIAN, CZECH, TIE]))
    rules = [variant for variant, _ in validated(path).values()]
    assert rules == ["brazilian", "brazilian", "czech", "brazilian"]
    for name in ("czech", "brazilian"):
        count = run("select", "--variant", name, "--clean", "--count", str(path))
        assert int(count) == rules.count(name), name
    replays = Replays()
    games = list(pdn.read_games(path))
    for game in games[:3]:
        replays.variant_of(game, str(path))
        replays.skip(game, str(path))  # already noted: not noted twice
        replays.of(game, str(path))  # replayed after all: counted once
    assert replays.of(games[3], str(path)).variant_name == "brazilian"
