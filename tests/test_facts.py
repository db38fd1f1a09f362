"""One home for each variant fact, and every other place agreeing with it (issue 21).

The engine's :class:`~pdn.engine.Variant` is the home of a variant's GameType number, first
mover, board and numbering. The GameType rows pdn reads and writes (:mod:`pdn.game.gametype`), the
square counts of detection, the draw rules, the first mover that reports and headings show,
``docs/rules.md`` and the PDN standard's own table are checked against it here; where the
standard differs, the difference is named and decided (Thai draughts: White starts).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from shared_paths import REFERENCE, needs_shared

import pdn
from pdn.collections import splitting
from pdn.engine import VARIANTS, Color, Variant, board_for, get_variant, variant_for_game_type
from pdn.game import detection, gametype
from pdn.rules import draws
from pdn.rules.validation import validate
from pdn.study.tournament import first_mover_colour
from pdn.text import filenames
from pdn.writing.diagram import file_stem, snapshots

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
NOTES = REFERENCE / "pdn-syntax.md"

#: The standard's GameType table (PDN 3.0, ``gametype.rst`` at master), the full value of each
#: draughts row, as transcribed in the project's reference notes (``pdn-syntax.md`` section 4).
#: Type 23 has three rows; the bare ``"23"`` stands for American pool checkers, given here.
STANDARD = {
    20: "20,W,10,10,N2,0",
    21: "21,B,8,8,N1,0",
    22: "22,W,8,8,N2,1",
    23: "23,B,8,8,N1,0",
    24: "24,W,8,8,N1,1",
    25: "25,W,8,8,A0,0",
    26: "26,W,8,8,A0,0",
    27: "27,W,12,12,N2,0",
    28: "28,W,8,8,N1,1",
    29: "29,W,8,8,A0,0",
    30: "30,W,8,8,A0,0",
    31: "31,B,8,8,N2,0",
    40: "40,W,10,10,N2,0",
    41: "41,W,10,8,A0,0",
}

#: Where pdn's row differs from the standard's, and why: docs/rules.md's Thai section
#: ("White moves first", after the Thai sites and rule texts) decides against the table's B.
DIFFERENCES = {31: ("31,B,8,8,N2,0", "31,W,8,8,N2,0")}

ALL = sorted(VARIANTS.values(), key=lambda v: v.game_type)


def _corner(variant: Variant) -> int:
    """The corner of square 1 (a1 for algebraic notation) seen from the first mover, found
    on the engine's board: 0 bottom-left, 1 bottom-right, 2 top-left, 3 top-right."""
    board = board_for(variant)
    if variant.notation == "algebraic":
        one = board.square_of("a1")
        assert one is not None
    else:
        one = 1
    column, row = board.coordinates(one)  # row 0 at the top, seen from White
    seen_from_white = (2 if row < variant.height // 2 else 0) + (
        1 if column >= variant.width // 2 else 0
    )
    return seen_from_white if variant.first_mover is Color.WHITE else 3 - seen_from_white


@pytest.mark.parametrize("variant", ALL, ids=lambda v: v.name)
def test_the_gametype_row_pdn_reads_is_the_variants(variant: Variant) -> None:
    short = gametype.parse_game_type(str(variant.game_type))
    assert short.expanded and short.variant == variant.name
    assert short.start == variant.first_mover.letter
    assert (short.width, short.height) == (variant.width, variant.height)
    assert short.notation == ("A" if variant.notation == "algebraic" else "N")
    assert short.corner == _corner(variant)
    bottom_left = board_for(variant).square_at(0, variant.height - 1)
    assert short.invert is (bottom_left is None)
    # The row written in full reads back the same, and names the same rules.
    assert gametype.parse_game_type(short.full()).full() == short.full()
    assert short.full() == gametype.FULL_VALUES[variant.game_type] == gametype.full_value(variant)
    assert variant_for_game_type(variant.game_type) is variant
    assert gametype.variant_name(variant.game_type) == variant.name
    assert gametype.detect_variant(short, [], []) == (variant.name, "gametype")


def test_the_table_has_a_row_for_each_variant_and_the_standards_others() -> None:
    numbers = {v.game_type for v in VARIANTS.values()}
    assert len(numbers) == len(VARIANTS)  # one number per variant
    assert set(gametype.FULL_VALUES) == set(gametype.VARIANT_NAMES) == set(STANDARD)
    others = set(STANDARD) - numbers
    assert others == {28, 41}
    for number in others:  # rows pdn has no rules for: as the standard writes them
        assert gametype.FULL_VALUES[number] == STANDARD[number]
        assert gametype.VARIANT_NAMES[number] not in VARIANTS


def test_the_standards_table_agrees_but_for_the_named_differences() -> None:
    found = {
        number: (full, gametype.FULL_VALUES[number])
        for number, full in STANDARD.items()
        if gametype.FULL_VALUES[number] != full
    }
    assert found == DIFFERENCES
    # Thai: only the start colour differs, and docs/rules.md says why pdn's is White.
    standard, ours = (gametype.parse_game_type(text) for text in DIFFERENCES[31])
    assert (standard.start, ours.start) == ("B", "W")
    assert standard.full().replace(",B,", ",W,") == ours.full()
    thai = RULES[RULES.index("## Thai draughts") :]
    assert "* White moves first." in thai[: thai.index("\n## ")]


@needs_shared(NOTES)
def test_the_transcribed_table_is_the_reference_notes() -> None:
    section = NOTES.read_text(encoding="utf-8").split("## 4. GameType tag", 1)[1]
    rows: dict[int, str] = {}
    for number, name, full in re.findall(
        r"^\|\s*\**(\d+)\**\s*\|([^|]*)\|\s*`([^`]+)`", section, re.MULTILINE
    ):
        if int(number) == 23 and "also default" not in name:
            continue  # the other rule sets of type 23
        if int(number) >= 20:
            rows[int(number)] = full
    assert rows == STANDARD


def _docs_rows() -> dict[int, tuple[str, str]]:
    """GameType -> (first mover, section text) as docs/rules.md gives them."""
    found: dict[int, tuple[str, str]] = {}
    table = RULES[RULES.index("## The first six") : RULES.index("## Italian")]
    for name, number, first in re.findall(
        r"^\| ([A-Z][a-z ]+) \| (\d+) \| (Black|White) \|", table, re.MULTILINE
    ):
        found[int(number)] = (first, name)
    for number, body in re.findall(
        r"^## [^\n]* — GameType (\d+)\n(.*?)(?=^## )", RULES, re.M | re.S
    ):
        first = re.search(r"\**(Black|White) moves first", body)
        assert first is not None, number
        found[int(number)] = (first.group(1), body)
    return found


def test_docs_rules_say_what_the_variants_say() -> None:
    rows = _docs_rows()
    assert set(rows) == {v.game_type for v in VARIANTS.values()}
    for number, (first, _) in rows.items():
        variant = variant_for_game_type(number)
        assert variant is not None and variant.first_mover.label == first


@pytest.mark.parametrize("variant", ALL, ids=lambda v: v.name)
def test_one_first_mover_everywhere(variant: Variant) -> None:
    letter, label = variant.first_mover.letter, variant.first_mover.label
    for name in (variant.name, *variant.aliases):
        assert gametype.first_mover(name) == letter
        assert first_mover_colour(name) == label
    number = str(variant.game_type)
    assert gametype.first_mover(None, gametype.parse_game_type(number)) == letter
    assert first_mover_colour(None, number) == label
    # A start colour written in full wins, everywhere.
    other = variant.first_mover.opponent
    written = gametype.full_value(variant).replace(f",{letter},", f",{other.letter},")
    assert gametype.first_mover(variant.name, gametype.parse_game_type(written)) == other.letter
    assert first_mover_colour(variant.name, written) == other.label


def test_unknown_rules_start_with_white_and_nothing_known_is_english() -> None:
    assert gametype.first_mover("portuguese") == gametype.first_mover(None) == "W"
    assert first_mover_colour(None, "28") == first_mover_colour(None, "99") == "White"
    assert first_mover_colour() == first_mover_colour(None, "draughts") == "Black"


def test_draw_rules_cover_exactly_the_variants() -> None:
    assert set(draws._BY_VARIANT) == set(VARIANTS.values())
    unwatched = {v.title.split()[0] for v in VARIANTS.values() if draws.draw_rules(v) is None}
    # docs/rules.md's draw-rule table names the variants whose rules are not watched.
    line = re.search(
        r"^\| ([A-Za-z, ]+) \| not watched \| not watched \| not watched \|$", RULES, re.M
    )
    assert line is not None
    assert unwatched == set(line.group(1).split(", "))
    # A copy of a record (as a worker process gets it) finds the same rules.
    for variant in VARIANTS.values():
        copy = Variant(**{f: getattr(variant, f) for f in variant.__dataclass_fields__})
        assert draws.draw_rules(copy) is draws.draw_rules(variant)


def test_detection_squares_are_the_variants() -> None:
    for name, variant in VARIANTS.items():
        assert detection._squares_of(name) == variant.squares
    assert detection._squares_of("portuguese") == detection._squares_of(None) == 32
    # Each guess from the highest square names a variant whose board has that square.
    for highest in range(1, 73):
        guess = gametype.variant_from_evidence(False, highest)
        assert guess in VARIANTS and get_variant(guess).squares >= highest
    assert gametype.variant_from_evidence(True, 0) in VARIANTS


def test_one_safe_name_function() -> None:
    assert splitting.safe_name is filenames.safe_name
    assert splitting.NAME_BYTES == filenames.NAME_BYTES
    game = pdn.parse_game('[White "-Ån/../CON"][Black ""] 1. 11-15 *')
    (snapshot,), _ = snapshots(validate(game), [1])
    white = filenames.safe_name("-Ån/../CON", 30)
    assert file_stem(snapshot) == f"game0001-{white}-unknown-ply001"
    assert "/" not in white and not white.startswith("-")


# A GameType's written start colour -----------------------------------------------------------


def _replay(tags: str, moves: str) -> tuple[str, list[str], Color | None]:
    report = validate(pdn.parse_game(f"{tags}\n{moves} *"))
    turn = report.start.turn if report.start is not None else None
    return report.status, [p.code for p in report.problems], turn


# International, Black first: 20-25 is a Black man's move from the start (Black on 1-20).
BLACK_FIRST_10X10 = "1. 20-25 31-27"
# Thai: Black's men are on 1-8, White's on 25-32; 5-9 is Black's, 25-21 White's.
BLACK_FIRST_THAI = "1. 5-9 25-21"


@pytest.mark.parametrize(
    ("tags", "moves"),
    [
        ('[GameType "20,B,10,10,N2,0"]', BLACK_FIRST_10X10),
        ('[GameType "31,B,8,8,N2,0"]', BLACK_FIRST_THAI),  # the standard's own Thai row
        ('[GameType "20,b"]', BLACK_FIRST_10X10),  # not well formed, its colour readable
    ],
)
def test_a_written_black_start_is_replayed_with_a_notice(tags: str, moves: str) -> None:
    status, codes, turn = _replay(tags, moves)
    assert (status, codes, turn) == ("ok", ["start-colour"], Color.BLACK)
    message = validate(pdn.parse_game(f"{tags}\n{moves} *")).problems[0].message
    assert "says Black moves first" in message and "with Black to move" in message


@pytest.mark.parametrize(
    ("tags", "moves"),
    [
        ('[GameType "20"]', BLACK_FIRST_10X10),
        ('[GameType "20,W,10,10,N2,0"]', BLACK_FIRST_10X10),
        ('[GameType "31"]', BLACK_FIRST_THAI),
    ],
)
def test_without_a_black_start_the_same_moves_are_out_of_turn(tags: str, moves: str) -> None:
    status, codes, turn = _replay(tags, moves)
    assert (status, codes[:1], turn) == ("illegal", ["wrong-side"], Color.WHITE)


def test_the_variants_own_colour_written_says_nothing() -> None:
    assert _replay('[GameType "21,B,8,8,N1,0"]', "1. 11-15 23-19") == ("ok", [], Color.BLACK)


def test_a_written_white_start_in_english_checkers() -> None:
    # 22-18 is a White man's move from the start: White first, as the GameType writes.
    assert _replay('[GameType "21,W,8,8,N1,0"]', "1. 22-18 11-15") == (
        "ok",
        ["start-colour"],
        Color.WHITE,
    )


def test_a_fens_side_to_move_wins_over_the_gametypes_colour() -> None:
    # The FEN is the position (who is to move now); the GameType says who began the game.
    fen = '[FEN "W:W31-50:B1-20"][SetUp "1"]'
    assert _replay(f'[GameType "20,B,10,10,N2,0"]{fen}', "1. 31-27 20-25") == (
        "ok",
        [],
        Color.WHITE,
    )
    black = '[FEN "B:W31-50:B1-20"][SetUp "1"]'
    assert _replay(f'[GameType "20,W,10,10,N2,0"]{black}', BLACK_FIRST_10X10)[2] == Color.BLACK


@pytest.mark.parametrize(
    ("game_type", "winner_first"),
    [("20,B,10,10,N2,0", True), ("20", False)],
)
def test_a_result_is_read_from_the_side_the_gametype_starts(
    game_type: str, winner_first: bool
) -> None:
    # White to move with no piece has lost: a win of the first mover only where Black began.
    fen = '[FEN "W:W:B1"][SetUp "1"]'
    for result, first_wins in (("2-0", True), ("0-2", False)):
        report = validate(
            pdn.parse_game(f'[GameType "{game_type}"]{fen}[Result "{result}"] {result}')
        )
        impossible = "result-impossible" in [p.code for p in report.problems]
        assert impossible is (first_wins is not winner_first), (game_type, result)


@pytest.mark.parametrize(("game_type", "kept"), [("20,B,10,10,N2,0", True), ("20", False)])
def test_material_first_mover_first_follows_the_gametypes_colour(
    game_type: str, kept: bool
) -> None:
    from click.testing import CliRunner

    from pdn.cli import main

    # Black holds two men, White none: "2:0" (first mover first) is Black's only where Black began.
    text = f'[GameType "{game_type}"][FEN "W:W:B1,2"][SetUp "1"] *\n'
    done = CliRunner().invoke(main, ["select", "--material", "2:0", "-"], input=text)
    assert done.exit_code == (0 if kept else 1), done.output  # 1: nothing kept, as grep
    assert ("[FEN" in done.output) is kept
