"""pdn.text.safe_text and its use: control characters from files are shown, never obeyed."""

from __future__ import annotations

import sys

import pytest

import pdn
from pdn.collections.batch import verdict_of, verdict_text
from pdn.rules.openings import classify
from pdn.study.tournament import build_reports, record_from_tags, render
from pdn.text.safe_text import _BREAKS, UNSAFE, csv_cell, one_line, printable
from pdn.writing.openings_render import OpeningRow, opening_row, render_openings

RAW = ["\x1b", "\x07", "\x08", "\r", "\x7f", "\x9b", "\u202e", "\u2066", "\u2028", "\x00"]


@pytest.mark.parametrize("char", RAW)
def test_printable_escapes_every_unsafe_character(char: str) -> None:
    shown = printable(f"a{char}b")
    assert char not in shown
    assert shown.startswith("a\\") and shown.endswith("b")


def test_printable_leaves_ordinary_text_alone() -> None:
    text = "Kok, K. — Иванов, Ж. «Œuvre» 中国 ½-½ עברית"
    assert printable(text) == text == one_line(text)


def test_no_printable_character_is_unsafe_or_a_break() -> None:
    # printable() and one_line() return a printable text unchanged without their regexes:
    # right only while no character Python calls printable is one they rewrite. Checked over
    # every code point, so that widening UNSAFE or _BREAKS cannot break the shortcut silently.
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if char.isprintable():
            assert UNSAFE.match(char) is None and _BREAKS.match(char) is None, hex(code)


def test_layout_keeps_tab_and_newline_only() -> None:
    assert printable("a\tb\nc\rd", layout=True) == "a\tb\nc\\x0dd"
    assert printable("a\tb\nc") == "a\\x09b\\x0ac"


def test_one_line_collapses_breaks_then_escapes() -> None:
    assert one_line("Ann\n  Bo\x1b") == "Ann Bo\\x1b"
    assert one_line("two  spaces") == "two  spaces"


def test_unsafe_covers_c0_del_c1_and_bidi_controls() -> None:
    for code in [*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]:
        assert UNSAFE.fullmatch(chr(code)), hex(code)


EVIL_EVENT = "Open\x1b]0;owned\x07\u202e"
EVIL_TEXT = (
    f'[Event "{EVIL_EVENT}"]\n[Round "1\x9b2J"]\n[Black "Ann\x1b[2J"]\n[White "Bo\r"]\n'
    '[Result "1-0"]\n\n1. 11-15 23-19 2. 15-11 *\n'
)


def _assert_clean(text: str) -> None:
    assert not UNSAFE.search(text.replace("\n", "").replace("\t", "")), repr(text)


def test_validate_heading_shows_controls() -> None:
    game = pdn.parse_game(EVIL_TEXT)
    text = verdict_text(verdict_of(game, "evil\x1b.pdn"))
    _assert_clean(text)
    assert "Ann\\x1b[2J vs Bo" in text and "evil\\x1b.pdn" in text
    assert "round 1\\x9b2J" in text


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "html"])
def test_report_shows_controls(fmt: str) -> None:
    game = pdn.parse_game(EVIL_TEXT)
    reports = build_reports([record_from_tags(game.tags)])
    for table in ("standings", "games") if fmt == "csv" else ("standings",):
        _assert_clean(render(reports, fmt, table=table))


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv"])
def test_openings_show_controls(fmt: str) -> None:
    game = pdn.parse_game(EVIL_TEXT)
    rows: list[OpeningRow] = [opening_row(game, classify(game))]
    text = render_openings(rows, fmt)
    _assert_clean(text)
    assert ("Ann\\\\x1b\\[2J" if fmt == "markdown" else "Ann\\x1b[2J") in text


# ------------------------------------------------------------------- CSV formula injection


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t'=1"),  # a spreadsheet splitting on the tab sees "=1" alone
        ("-1", "-1"),
        ("-0.5", "-0.5"),
        ("+3", "+3"),
        ("-", "-"),
        ("0-1", "0-1"),
        ("1/2-1/2", "1/2-1/2"),
        ("Ann = Bo", "Ann = Bo"),
        ("\r=1", "\\x0d=1"),  # a shown CR no longer starts the cell
    ],
)
def test_csv_cell_defuses_formulas_but_keeps_numbers(cell: str, written: str) -> None:
    assert csv_cell(cell) == written


def test_csv_cell_leaves_numbers_alone() -> None:
    assert csv_cell(-1) == -1 and csv_cell(2.5) == 2.5


FORMULA_TAGS = {"Event": "=1+1", "Round": "-", "Black": "@SUM(A1)", "White": "-2+3"}


def test_report_csv_defuses_formulas_and_keeps_negative_points() -> None:
    import csv
    import io

    records = [record_from_tags({**FORMULA_TAGS, "Result": "0-1"})]
    reports = build_reports(records, (1.0, 0.0, -1.0))
    standings = list(csv.DictReader(io.StringIO(render(reports, "csv"))))
    assert {row["player"] for row in standings} == {"'@SUM(A1)", "'-2+3"}
    assert {row["event"] for row in standings} == {"'=1+1"}
    assert sorted(row["points"] for row in standings) == ["-1", "1"]
    (game,) = csv.DictReader(io.StringIO(render(reports, "csv", table="games")))
    assert (game["round"], game["result"], game["first"]) == ("-", "0-1", "'@SUM(A1)")


def test_openings_csv_defuses_formulas() -> None:
    import csv
    import io

    tags = "".join(f'[{name} "{value}"]\n' for name, value in FORMULA_TAGS.items())
    game = pdn.parse_game(tags + "\n1. 11-15 23-19 8-11 *\n")
    (row,) = csv.DictReader(
        io.StringIO(render_openings([opening_row(game, classify(game))], "csv"))
    )
    assert (row["event"], row["black"], row["white"]) == ("'=1+1", "'@SUM(A1)", "'-2+3")
    assert row["moves"] == "11-15 23-19 8-11"
