# (A Cyrillic letter typed into a Latin name is one of the repairs tested.)
"""``pdn fix``: repairs a person asks for, every change listed, the rest written as read."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.collections.fixing import FixOptions, certain_variant, fix_game, normalise_date
from pdn.text.names import Aliases

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


# Two games as the Dutch semi-finals archive of the PDN test suite writes them (DUTCH96H.pdn):
# moves in columns, a terminator on a line of its own, a day-first date.
DUTCH = """\
[Event "Dutch semifinales"]
[White "H.  van der Zee"]
[Black "H.  Clasquin"]
[Result "1-0"]
[Date "13-01-1996"]
[GameType "20"]

   1. 33-29 17-21   2. 39-33 21-26   3. 44-39 11-17   4. 50-44  6-11   5. 32-28 17-21
   6. 38-32 20-24   7. 29x20 15x24   8. 42-38 10-15   9. 47-42  5-10  10. 34-29 11-17
  11. 29x20 15x24  12. 40-34  7-11  13. 44-40 10-15  14. 34-29  4-10  15. 29x20 15x24
  16. 39-34 10-15  17. 43-39  1- 6  18. 49-43  2- 7  19. 34-29 17-22  20. 29x20 14x25
  21. 28x17 11x22  22. 32-28  7-11  23. 28x17 11x22  24. 35-30 25x34  25. 39x30  9-14
  26. 40-35  6-11  27. 45-40 12-17  28. 31-27 21x32  29. 37x28 26-31  30. 36x27 22x31
  31. 42-37 31x42  32. 48x37 18-22  33. 40-34 14-20  34. 41-36 20-25  35. 43-39 19-24
  36. 30x19 13x24  37. 34-29  8-12  38. 29x20 15x24  39. 39-34  3- 9  40. 34-29  9-13
  41. 29x20 25x14  42. 35-30 13-19  43. 37-31 14-20  44. 30-25 19-24  45. 25x14 24-29
  46. 33x24 22x42  47. 14-10 42-47  48. 24-19 17-21  49. 10- 4 21-26  50. 19-13 26x37
  51. 36-31 37x26  52. 46-41 47x 9  53.  4x 1\x20
1-0

[Event "Dutch semifinales"]
[White "A.  van Berkel"]
[Black "M.  Barkel"]
[Result "1/2-1/2"]
[Date "13-01-1996"]
[GameType "20"]

   1. 33-28 17-21   2. 39-33 21-26   3. 44-39 11-17   4. 50-44  7-11   5. 31-27 17-21
   6. 37-31 26x37   7. 42x31 21-26   8. 47-42 26x37   9. 42x31 19-23  10. 28x19 14x23
  11. 41-37 10-14  12. 34-29 23x34  13. 39x30  1- 7  14. 43-39 18-23  15. 40-34 14-19
  16. 46-41  5-10  17. 49-43 10-14  18. 44-40 11-17  19. 30-25 20-24  20. 34-29 23x34
  21. 40x20 15x24  22. 27-22 17x28  23. 33x22  7-11  24. 39-33 11-17  25. 22x11  6x17
  26. 45-40 12-18  27. 31-26  8-12  28. 37-31  3- 8  29. 32-27 17-21  30. 26x17 12x32
  31. 38x27  8-12  32. 41-37 19-23  33. 43-38  2- 7  34. 31-26  7-11  35. 48-43 14-19
  36. 37-31 12-17  37. 38-32  9-14  38. 33-28 23-29  39. 43-38 29-34  40. 40x 9 18-22
  41. 27x18 13x42  42. 25-20  4x13  43. 20-15 42-48  44. 15-10 48-25  45. 10- 4 19-24
  46.  4x18 25-20  47. 32-27 20- 3  48. 18-45 16-21  49. 27x 7 24-30  50. 35x24 17-21
  51. 26x17  3x15
1/2-1/2
"""


def test_a_date_fix_changes_the_date_line_alone(tmp_path: Path) -> None:
    # fix --in-place wrote every game it changed anew: 255 date fixes changed 1,808 lines.
    path = tmp_path / "dutch.pdn"
    path.write_bytes(DUTCH.encode())
    code, _, err = run("fix", "--dates", "--in-place", str(path))
    assert code == 0, err
    assert "2 changes in 2 games" in err
    old, new = DUTCH.encode().split(b"\n"), path.read_bytes().split(b"\n")
    assert len(new) == len(old)
    changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    assert changed == [(b'[Date "13-01-1996"]', b'[Date "1996.01.13"]')] * 2


@pytest.mark.parametrize(
    ("options", "text", "expected"),
    [
        # A result tag set from the terminator, spaced as written.
        (
            "--result-from-terminator",
            '[Result  "*" ]\n  1. 11-15 {x}\n1-0\n',
            '[Result  "1-0" ]\n  1. 11-15 {x}\n1-0\n',
        ),
        # A tag added on a line of its own after the last pair.
        (
            "--result-from-terminator",
            '[Event "E"]\n\n1. 11-15   23-19 {x} 0-1\n',
            '[Event "E"]\n[Result "0-1"]\n\n1. 11-15   23-19 {x} 0-1\n',
        ),
        # The terminator set from the tag, the moves as they were laid out.
        (
            "--terminator-from-result",
            '[Result "1-0"]\n1. 11-15   23-19\n  *\n',
            '[Result "1-0"]\n1. 11-15   23-19\n  1-0\n',
        ),
    ],
)
def test_a_change_is_made_in_its_own_line(
    tmp_path: Path, options: str, text: str, expected: str
) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("fix", options, str(path))
    assert code == 0, err
    assert out == expected
    assert "1 changes in 1 games" in err


def test_a_change_with_no_single_place_writes_the_game_anew(tmp_path: Path) -> None:
    # Two Date pairs: which one the reader took is not the text's to say; the game is written
    # by the faithful writer, with the date fixed.
    path = tmp_path / "g.pdn"
    path.write_text('[Date "2019-05-03"]\n[Date "x"]\n1.  11-15 *\n', encoding="utf-8")
    code, out, err = run("fix", "--dates", str(path))
    assert code == 0, err
    assert out == '[Date "2019.05.03"]\n[Date "x"]\n\n1. 11-15 *\n'


def test_a_tag_line_in_a_closed_comment_survives_a_fix_in_place(tmp_path: Path) -> None:
    # The reader cuts the game at the tag line (it takes the comment for unclosed): fix
    # wrote the first part anew, closing the comment, and the split became permanent.
    text = '[Event "a"]\n[Date "2019-05-03"]\n1. 11-15 {a comment\n[Event "x"]\n} 23-19 *\n'
    path = tmp_path / "c.pdn"
    path.write_text(text, encoding="utf-8")
    code, _, err = run("fix", "--dates", "--in-place", str(path))
    assert code == 0, err
    assert path.read_text(encoding="utf-8") == text.replace("2019-05-03", "2019.05.03")


def test_the_blank_lines_between_games_are_kept(tmp_path: Path) -> None:
    text = '[Date "2019-05-03"]\n1. 11-15 *\n\n\n\n[Date "x"]\n  1. 9-13 * [Date "y"] 1. 9-14 *\n'
    path = tmp_path / "g.pdn"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("fix", "--dates", str(path))
    assert code == 0, err
    assert out == text.replace("2019-05-03", "2019.05.03").replace(' [Date "y"]', '\n[Date "y"]')


# A 10x10 game whose squares are all below 33: the reader guesses English, but English rules
# stop at ply 1 and pdn validate replays it as International draughts (Frisian fits too).
TEN_BY_TEN = '[Event "E"]\n[Result "2 - 0"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'


def test_fix_decides_under_the_rules_the_replay_used(tmp_path: Path) -> None:
    path = tmp_path / "ten.pdn"
    path.write_text(TEN_BY_TEN)
    result = CliRunner().invoke(main, ["fix", "--terminator-from-result", str(path)])
    assert result.exit_code == 0, result.output
    # International's result family, not English's "1-0".
    assert result.stdout.rstrip().endswith("14x23 2-0")
    result = CliRunner().invoke(main, ["fix", "--add-gametype", str(path)])
    assert "not added (not certain): the moves fit international, frisian" in result.stderr
    game = pdn.parse_game(TEN_BY_TEN)
    assert certain_variant(game) == (None, ["international", "frisian"])


def test_fix_adds_the_gametype_of_the_replay_of_an_italian_game(tmp_path: Path) -> None:
    path = tmp_path / "it.pdn"
    path.write_text('[Result "1-0"]\n1. 21-18 11-15 2. 22-19 15x22 1-0\n')
    result = CliRunner().invoke(main, ["fix", "--add-gametype", str(path)])
    assert '[GameType "22"]' in result.stdout
