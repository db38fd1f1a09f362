# (A Cyrillic letter typed into a Latin name is one of the repairs tested.)
"""``pdn fix``: repairs a person asks for, every change listed, the rest written as read."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.fixing import FixOptions, certain_variant, fix_game, normalise_date
from pdn.names import Aliases

ROOT = Path(__file__).resolve().parents[1]
GERMAN_OPEN = ROOT / "examples" / "german-open-2004.pdn"

COLLECTION = """\
[Event "Spring Open"]
[Date "03.05.2024"]
[Black "Nemets D."]
[White "K\u043ek"]
[Result "*"]

{kept as written} 1. 11-15 {a comment} 23-19 (22-18) 2. 8-11 $1 22-17 1-0

[Event "spring open"]
[Date "2024-5-??"]
[Black "Nemets D"]
[White "Kok"]
[Result "0-1"]

1. 9-13 22-18 *

[Event "Spring Open"]
[Date "05/06/2024"]
[Black "Kok"]
[White "Nemets D"]
[Result "1/2-1/2"]

1. 10-14 24-20 1-1

[Event "Spring Open"]
[Black "Ann"]
[White "Bo"]

1. 9-14 22-17 0-1
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    path = tmp_path / "spring.pdn"
    path.write_text(COLLECTION, encoding="utf-8")
    return path


def games() -> list[pdn.Game]:
    return list(pdn.parse_games(COLLECTION))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024.05.03", "2024.05.03"),
        ("2024-5-3", "2024.05.03"),
        ("2024/05/03", "2024.05.03"),
        ("2024. 5. 3", "2024.05.03"),
        ("03.05.2024", "2024.05.03"),
        ("3-5-2024", "2024.05.03"),
        ("25/12/2024", "2024.12.25"),
        ("12/25/2024", "2024.12.25"),
        ("2024", "2024.??.??"),
        ("2024.05", "2024.05.??"),
        ("2024.??.03", "2024.??.03"),
        ("2024-5-??", "2024.05.??"),
        ("????.??.??", "????.??.??"),
        ("??.05.2024", "2024.05.??"),
        ("05/06/2024", None),  # 5 June or May 6: not certain
        ("2024.13.01", None),
        ("2024.02.32", None),
        ("spring 2024", None),
        ("24.05.03", None),
    ],
)
def test_dates(text: str, expected: str | None) -> None:
    assert normalise_date(text) == expected


def test_nothing_changes_without_options(collection: Path) -> None:
    code, _, err = run("fix", str(collection))
    assert code == 2
    assert "nothing to fix" in err


def test_dates_are_normalised_and_an_uncertain_one_is_said(collection: Path) -> None:
    code, out, err = run("fix", str(collection), "--dates")
    assert code == 0
    fixed = list(pdn.parse_games(out))
    assert [g.tags.get("Date") for g in fixed] == ["2024.05.03", "2024.05.??", "05/06/2024", None]
    assert f'{collection}:1: Date: "03.05.2024" -> "2024.05.03"' in err
    assert f'{collection}:9: Date: "2024-5-??" -> "2024.05.??"' in err
    assert f'{collection}:17: Date: "05/06/2024" left: not a date that reads for certain' in err
    assert "2 changes in 2 games" in err


def test_everything_else_is_written_as_read(collection: Path) -> None:
    code, out, _ = run("fix", str(collection), "--dates")
    assert code == 0
    # Only the two Date lines differ from the input.
    before, after = COLLECTION.splitlines(), out.splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=False) if a != b]
    assert changed == [
        ('[Date "03.05.2024"]', '[Date "2024.05.03"]'),
        ('[Date "2024-5-??"]', '[Date "2024.05.??"]'),
    ]
    assert len(before) == len(after)


def test_result_from_terminator_in_both_families(collection: Path) -> None:
    code, out, err = run("fix", str(collection), "--result-from-terminator")
    assert code == 0
    fixed = list(pdn.parse_games(out))
    # 1: "*" and 1-0 disagree: the tag takes 1-0.  2: a known 0-1 is never replaced by "*".
    # 3: "1/2-1/2" and "1-1" are one outcome in two families: no change.  4: a tag is added.
    assert [g.tags.get("Result") for g in fixed] == ["1-0", "0-1", "1/2-1/2", "0-1"]
    assert f'{collection}:1: Result: "*" -> "1-0"' in err
    assert f'{collection}:9: Result: "0-1" left: the result after the moves is * (unknown)' in err
    assert f'{collection}:25: Result: added "0-1"' in err
    assert ":17:" not in err


def test_terminator_from_result(collection: Path) -> None:
    code, out, err = run("fix", str(collection), "--terminator-from-result")
    assert code == 0
    fixed = list(pdn.parse_games(out))
    assert [g.terminator for g in fixed] == ["1-0", "0-1", "1-1", "0-1"]
    assert f'{collection}:9: (terminator): "*" -> "0-1"' in err
    assert f'{collection}:1: (terminator): "1-0" left: the Result tag is "*" (unknown)' in err


def test_the_two_result_directions_exclude_each_other(collection: Path) -> None:
    code, _, err = run(
        "fix", str(collection), "--result-from-terminator", "--terminator-from-result"
    )
    assert code == 2 and "choose one" in err


def test_terminator_from_a_result_in_the_other_family() -> None:
    game = pdn.parse_game('[GameType "20"]\n[Result "1/2-1/2"]\n1. 32-28 *')
    changes = fix_game(game, FixOptions(terminator_from_result=True))
    assert game.terminator == "1/2-1/2"  # written as the tag writes it, a PDN result
    assert [c.text() for c in changes] == ['(terminator): "*" -> "1/2-1/2"']
    game = pdn.parse_game('[GameType "20"]\n[Result "½-½"]\n1. 32-28 *')
    fix_game(game, FixOptions(terminator_from_result=True))
    assert game.terminator == "1-1"  # the international family's draw


def test_names_from_an_alias_list_with_look_alike_letters(collection: Path, tmp_path: Path) -> None:
    suggested = tmp_path / "aliases.csv"
    code, _, _ = run("fix", str(collection), "--suggest-names", "-o", str(suggested))
    assert code == 0
    text = suggested.read_text(encoding="utf-8")
    assert "Nemets D.,Nemets D,player,dots; 1 vs 2 games" in text
    assert "K\u043ek,Kok,player,look-alike letters; 1 vs 2 games" in text
    assert "spring open,Spring Open,event,case; 1 vs 3 games" in text
    log = tmp_path / "changes.log"
    code, out, err = run("fix", str(collection), "--names", str(suggested), "--log", str(log))
    assert code == 0
    fixed = list(pdn.parse_games(out))
    assert {g.tags["Event"] for g in fixed} == {"Spring Open"}
    assert [(g.tags["Black"], g.tags["White"]) for g in fixed[:3]] == [
        ("Nemets D", "Kok"),
        ("Nemets D", "Kok"),
        ("Kok", "Nemets D"),
    ]
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines == [
        f'{collection}:1: Black: "Nemets D." -> "Nemets D"',
        f'{collection}:1: White: "K\u043ek" -> "Kok"',
        f'{collection}:9: Event: "spring open" -> "Spring Open"',
    ]
    assert "3 changes in 2 games" in err


def test_add_gametype_only_where_certain() -> None:
    game_one, game_two = list(pdn.read_games(GERMAN_OPEN))[:2]
    assert "GameType" not in game_one.tags and "GameType" not in game_two.tags
    # The first game never does what tells English checkers from American pool.
    assert certain_variant(game_one) == (None, ["english", "pool"])
    changes = fix_game(game_one, FixOptions(add_gametype=True))
    assert "GameType" not in game_one.tags
    assert [c.text() for c in changes] == [
        "GameType: not added (not certain): the moves fit english, pool"
    ]
    changes = fix_game(game_two, FixOptions(add_gametype=True))
    assert game_two.tags["GameType"] == "21"
    assert [c.text() for c in changes] == ['GameType: added "21"']
    # A game that already has one is left alone.
    assert fix_game(game_two, FixOptions(add_gametype=True)) == []


def test_fix_in_place_needs_the_flag(collection: Path) -> None:
    code, _, err = run("fix", str(collection), "--dates", "-o", str(collection))
    assert code == 2 and "refusing to overwrite" in err
    code, _, _ = run("fix", str(collection), "--dates", "-o", str(collection), "--in-place")
    assert code == 0
    assert '[Date "2024.05.03"]' in collection.read_text(encoding="utf-8")


def test_library_rename_is_listed() -> None:
    game = games()[0]
    aliases = Aliases.from_text("K\u043ek,Kok,player\n")
    changes = fix_game(game, FixOptions(aliases=aliases))
    assert [c.text() for c in changes] == ['White: "K\u043ek" -> "Kok"']
    assert game.tags["White"] == "Kok"


def test_add_gametype_through_the_command_line(tmp_path: Path) -> None:
    source = tmp_path / "two.pdn"
    source.write_text(GERMAN_OPEN.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run("fix", str(source), "--add-gametype")
    assert code == 0
    fixed = list(pdn.parse_games(out))
    assert fixed[0].tags.get("GameType") is None
    assert fixed[1].tags["GameType"] == "21"
    assert f"{source}:1: GameType: not added (not certain): the moves fit english, pool" in err
    assert f'{source}:12: GameType: added "21"' in err


def test_a_bad_alias_list_is_a_message(collection: Path, tmp_path: Path) -> None:
    names = tmp_path / "names.csv"
    names.write_text("old,new\nA,B\nA,C\n", encoding="utf-8")
    code, _, err = run("fix", str(collection), "--names", str(names))
    assert code == 2
    assert f"{names}:3: 'A' in Black is already renamed to 'B'" in err
    code, _, err = run("report", str(collection), "--names", str(names))
    assert code == 2 and "already renamed" in err


def test_reading_errors_are_said_and_the_game_is_still_written(tmp_path: Path) -> None:
    source = tmp_path / "broken.pdn"
    source.write_text('[Event "E"]\n[Date "2024-01-02"]\n\n1. 11-15 {unclosed\n', encoding="utf-8")
    code, out, err = run("fix", str(source), "--dates")
    assert code == 0
    assert f"{source}:4:" in err  # the reading error, with file, line and column
    assert f'{source}:1: Date: "2024-01-02" -> "2024.01.02"' in err
    assert "unclosed" in out and "Traceback" not in err


def test_certain_variant_weighs_only_rules_of_the_games_own_board() -> None:
    # Turkish is 8x8 too, but on all 64 squares: "41-33" replays there, and that says
    # nothing of a game on the 32 dark squares (engine.same_board).
    game = pdn.parse_game('[GameType "21"]\n1. 41-33 *')
    assert pdn.validate(game, "turkish").status == "ok"
    assert certain_variant(game) == (None, [])
    _, fitting = certain_variant(pdn.parse_game("1. 11-15 23-19 2. 8-11 22-17 *"))
    assert "turkish" not in fitting and {"english", "pool"} <= set(fitting)
