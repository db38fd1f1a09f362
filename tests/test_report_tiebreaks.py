"""``pdn report --tiebreaks``: each tie-break on a small event computed by hand, the order they
are given in, and the order said in ``--help`` and on the page (issue 33, section 5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn.cli import main
from pdn.study.tournament import (
    DEFAULT_TIEBREAKS,
    EventReport,
    build_reports,
    parse_tiebreaks,
    record_from_tags,
    render_html,
    render_text,
)

#: (round, Black, White, result): English rules, Black moves first, so 1-0 is Black's win.
GAMES = [
    ("1", "A", "B", "1-0"),  # A beats B
    ("1", "C", "D", "1/2-1/2"),
    ("2", "B", "C", "1-0"),  # B beats C
    ("2", "D", "E", "1-0"),  # D beats E
    ("3", "E", "A", "1-0"),  # E beats A
    ("3", "C", "E", "1-0"),  # C beats E
]

# By hand. Points: A 1 (B+, E-), B 1 (A-, C+), C 1.5 (D=, B-, E+), D 1.5 (C=, E+),
# E 1 (D-, A+, C-).
# Sonneborn-Berger: A 1x1(B) = 1; B 1x1.5(C) = 1.5; C 0.5x1.5(D) + 1x1(E) = 1.75;
# D 0.5x1.5(C) + 1x1(E) = 1.75; E 1x1(A) = 1.
# Buchholz, the opponents' points: A B1+E1 = 2; B A1+C1.5 = 2.5; C D1.5+B1+E1 = 3.5;
# D C1.5+E1 = 2.5; E D1.5+A1+C1.5 = 4.
# Median Buchholz (three games or more: less the highest and the lowest): C 1; E 1.5; the
# others as Buchholz. Truncated Solkoff (less the lowest): A 1, B 1.5, C 2.5, D 1.5, E 3.
# Wins: one each.
BY_HAND = {
    "sonneborn_berger": {"A": 1, "B": 1.5, "C": 1.75, "D": 1.75, "E": 1},
    "buchholz": {"A": 2, "B": 2.5, "C": 3.5, "D": 2.5, "E": 4},
    "median_buchholz": {"A": 2, "B": 2.5, "C": 1, "D": 2.5, "E": 1.5},
    "truncated_solkoff": {"A": 1, "B": 1.5, "C": 2.5, "D": 1.5, "E": 3},
    "wins": {"A": 1, "B": 1, "C": 1, "D": 1, "E": 1},
}


def report(tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS) -> EventReport:
    records = [
        record_from_tags({"Event": "Hand", "Round": r, "Black": b, "White": w, "Result": res})
        for r, b, w, res in GAMES
    ]
    (built,) = build_reports(records, tiebreaks=tiebreaks)
    return built


def ranking(built: EventReport) -> list[tuple[int, str]]:
    return [(row.rank, row.player) for row in built.standings]


def test_each_tiebreak_is_the_hand_computed_value() -> None:
    built = report()
    assert {row.player: row.points for row in built.standings} == {
        "A": 1,
        "B": 1,
        "C": 1.5,
        "D": 1.5,
        "E": 1,
    }
    for field, expected in BY_HAND.items():
        assert {row.player: getattr(row, field) for row in built.standings} == expected, field


@pytest.mark.parametrize(
    ("chosen", "expected"),
    [
        # Points, then SB (C = D, B ahead of A = E), then wins (all one): shared ranks.
        ("sb,wins", [(1, "C"), (1, "D"), (3, "B"), (4, "A"), (4, "E")]),
        ("buchholz", [(1, "C"), (2, "D"), (3, "E"), (4, "B"), (5, "A")]),
        ("median-buchholz", [(1, "D"), (2, "C"), (3, "B"), (4, "A"), (5, "E")]),
        ("truncated-solkoff", [(1, "C"), (2, "D"), (3, "E"), (4, "B"), (5, "A")]),
        ("wins", [(1, "C"), (1, "D"), (3, "A"), (3, "B"), (3, "E")]),
        ("wins,median-buchholz", [(1, "D"), (2, "C"), (3, "B"), (4, "A"), (5, "E")]),
    ],
)
def test_the_order_chosen_ranks_the_players(chosen: str, expected: list[tuple[int, str]]) -> None:
    assert ranking(report(parse_tiebreaks(chosen))) == expected


def test_names_and_aliases_and_refusals() -> None:
    assert parse_tiebreaks("Sonneborn-Berger, solkoff, solkoff-cut1, median") == (
        "sb",
        "buchholz",
        "truncated-solkoff",
        "median-buchholz",
    )
    with pytest.raises(ValueError, match="unknown tie-break 'koya'"):
        parse_tiebreaks("sb,koya")
    with pytest.raises(ValueError, match="named twice"):
        parse_tiebreaks("sb,SB")
    assert parse_tiebreaks("Delft") == parse_tiebreaks("volmac") == ("delft",)
    with pytest.raises(ValueError, match="unknown tie-break"):
        report(("nonsense",))


def test_the_page_and_the_text_say_the_order() -> None:
    text = render_text([report(("truncated-solkoff", "sb"))])
    assert "Ranking:     points, truncated Solkoff, Sonneborn-Berger, name" in text
    assert "TSolk" in text.split("Crosstable", 1)[0]  # the chosen tie-break has its column
    page = render_html([report()])
    assert "<dt>Ranking</dt><dd>points, Sonneborn-Berger, wins, name</dd>" in page


def test_cli_tiebreaks_and_help(tmp_path: Path) -> None:
    path = tmp_path / "hand.pdn"
    path.write_text(
        "".join(
            f'[Event "Hand"]\n[Round "{r}"]\n[Black "{b}"]\n[White "{w}"]\n[Result "{res}"]\n'
            f"{res}\n\n"
            for r, b, w, res in GAMES
        ),
        encoding="utf-8",
    )
    runner = CliRunner()
    shown = runner.invoke(main, ["report", "--help"]).output
    assert "--tiebreaks" in shown and "truncated-solkoff" in shown and "Sonneborn-Berger" in shown
    done = runner.invoke(main, ["report", str(path), "--tiebreaks", "median-buchholz"])
    assert done.exit_code == 0, done.output
    standings = done.output.split("Standings\n", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    assert [line.split()[1] for line in standings] == ["D", "C", "B", "A", "E"]
    assert "Ranking:     points, median Buchholz, name" in done.output
    refused = runner.invoke(main, ["report", str(path), "--tiebreaks", "koya"])
    assert refused.exit_code == 2 and "unknown tie-break 'koya'" in refused.output
