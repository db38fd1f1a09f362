"""``pdn report --tiebreaks delft``: Delft scoring (4-0 a win, 2-2 a draw, 3-1 a draw with
three pieces or more ahead in the final position, a king counting two), the final position of
each drawn game replayed, and every 3-1 and every draw scored 2-2 for want of a final position
said in the report (issue 33, section 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn.cli import main
from pdn.study.tournament import build_reports, parse_tiebreaks, record_from_tags
from pdn.study.tournament.delft import delft_note, delft_scores


def _game(round_: str, white: str, black: str, result: str, fen: str, moves: str) -> str:
    return (
        f'[Event "Delft"]\n[Round "{round_}"]\n[White "{white}"]\n[Black "{black}"]\n'
        f'[Result "{result}"]\n[GameType "20"]\n[FEN "{fen}"]\n\n{moves} {result}\n\n'
    )


#: International draughts (White moves first), each game from a position set up by its FEN.
EVENT = "".join(
    [
        # White 5 men to Black's 2 after the moves: 3 ahead, a victory on points for Ann.
        _game("1", "Ann", "Bo", "1-1", "W:W40,45,46,47,48:B1,2", "1. 40-34 1-6"),
        # Two men each: level, 2-2.
        _game("1", "Cy", "Di", "1-1", "W:W45,46:B3,4", "1. 45-40 3-8"),
        # Di (White) a king and two men, 4, to Ann's one man: the king counts two, 3-1 for Di.
        _game("2", "Di", "Ann", "1-1", "B:WK46,45,48:B3", "1. ... 3-8 2. 45-40 8-12"),
        # 40-50 is no move: no final position, a plain draw.
        _game("2", "Bo", "Cy", "1-1", "W:W45,46:B3,4", "1. 45-40 3-9 2. 40-50"),
        _game("3", "Ann", "Cy", "2-0", "W:W45,46:B3,4", "1. 45-40 3-9"),
    ]
)


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "delft.pdn"
    path.write_text(EVENT, encoding="utf-8")
    return path


def _run(*args: str) -> str:
    done = CliRunner().invoke(main, ["report", *args], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    return done.output


@pytest.mark.parametrize("fast", [False, True])
def test_delft_points_from_the_final_positions(event: Path, fast: bool) -> None:
    extra = ["--no-openings"] if fast else []  # draws are replayed all the same
    data = json.loads(_run(str(event), "--tiebreaks", "delft,sb", "--format", "json", *extra))
    (report,) = data["events"]
    # Ann: 3 (on points against Bo) + 1 (Di on points) + 4 (a win) = 8; Di: 2 + 3; Cy: 2 + 2
    # (the plain draw) + 0; Bo: 1 + 2.
    assert {row["player"]: row["delft"] for row in report["standings"]} == {
        "Ann": 8,
        "Di": 5,
        "Cy": 4,
        "Bo": 3,
    }
    # Di, Cy and Bo are equal on points (2): Delft points order them.
    assert [row["player"] for row in report["standings"]] == ["Ann", "Di", "Cy", "Bo"]
    games = {(g["first"], g["second"]): g for r in report["rounds"] for g in r["games"]}
    assert games["Ann", "Bo"]["material"] == [5, 2]
    assert games["Di", "Ann"]["material"] == [4, 1]
    assert games["Cy", "Di"]["material"] == [2, 2]
    assert games["Bo", "Cy"]["material"] is None
    assert "illegal move at ply 3, 40-50" in games["Bo", "Cy"]["material_unknown"]
    assert "material" not in games["Ann", "Cy"]  # a win needs no final position


def test_the_report_says_each_3_1_and_each_plain_draw_and_why(event: Path) -> None:
    text = _run(str(event), "--tiebreaks", "delft")
    assert "Ranking:     points, Delft points, name" in text
    notes = text.split("Notes\n", 1)[1]
    assert "3-1 a draw with 3 pieces or more ahead in the final position" in notes
    assert (
        "round 1: Ann \u2013 Bo: 1-1 scored 3-1 under Delft scoring, a victory on points: in "
        "the final position Ann has 5 to Bo's 2"
    ) in notes
    assert "round 2: Di \u2013 Ann: 1-1 scored 3-1" in notes and "Di has 4 to Ann's 1" in notes
    assert (
        "round 2: Bo \u2013 Cy: 1-1 scored 2-2 under Delft scoring, as a plain draw: its final "
        "position is not known: its main line has an illegal move at ply 3, 40-50 (not-diagonal)"
    ) in notes
    assert "Cy \u2013 Di: 1-1 scored" not in notes  # level: a draw, nothing to say
    standings = text.split("Standings\n", 1)[1].split("\n\n", 1)[0]
    assert standings.splitlines()[0].split()[-1] == "Delft"
    csv = _run(str(event), "--tiebreaks", "delft", "--format", "csv").splitlines()
    assert csv[0].endswith(",delft") and csv[1].startswith("Delft,1,Ann,") and csv[1][-2:] == ",8"


def test_without_delft_nothing_changes(event: Path) -> None:
    text = _run(str(event))
    assert "Delft" not in text.replace("Delft\n=====", "")
    data = json.loads(_run(str(event), "--format", "json"))
    assert "delft" not in data["events"][0]["standings"][0]
    assert all("material" not in g for r in data["events"][0]["rounds"] for g in r["games"])


@pytest.mark.parametrize(
    ("game_type", "moves", "why"),
    [
        ("99", "1. 11-15", "pdn has no rules to replay it under"),
        ("21", "1. 11-15 {never closed", "its moves could not be read whole (unclosed-comment"),
        ("21", "", "it holds no moves"),
    ],
)
def test_a_draw_without_a_final_position_is_a_plain_draw_said(
    tmp_path: Path, game_type: str, moves: str, why: str
) -> None:
    path = tmp_path / "x.pdn"
    path.write_text(
        f'[Event "E"]\n[White "A"]\n[Black "B"]\n[Result "1/2-1/2"]\n[GameType "{game_type}"]\n'
        f"\n{moves} 1/2-1/2\n",
        encoding="utf-8",
    )
    notes = _run(str(path), "--tiebreaks", "delft").split("Notes\n", 1)[1]
    assert "scored 2-2 under Delft scoring, as a plain draw: its final position is not" in notes
    assert why in notes


def test_the_margin_and_the_scores() -> None:
    draw = record_from_tags({"Black": "A", "White": "B", "Result": "1/2-1/2"})
    assert delft_scores(draw, 8, 5) == (3, 1)
    assert delft_scores(draw, 7, 5) == (2, 2)
    assert delft_scores(draw, 2, 5) == (1, 3)
    win = record_from_tags({"Black": "A", "White": "B", "Result": "1-0"})
    assert delft_scores(win) == (4, 0) and delft_note(win) is None
    assert delft_scores(record_from_tags({"Black": "A", "White": "B", "Result": "0-0"})) == (0, 0)
    assert delft_scores(record_from_tags({"Black": "A", "White": "B", "Result": "*"})) is None
    # A record made from tags alone: its moves were never replayed, and the report says so.
    note = delft_note(draw)
    assert note is not None and note.endswith("not known: its moves were not replayed")
    (built,) = build_reports([draw], tiebreaks=parse_tiebreaks("delft"))
    assert [row.delft for row in built.standings] == [2, 2]
    assert any(n.endswith("its moves were not replayed") for n in built.notes)


def test_help_names_delft_and_its_rule() -> None:
    shown = CliRunner().invoke(main, ["report", "--help"]).output
    assert "delft (Delft scoring" in shown and "3-1 a draw with 3 or more pieces" in shown
