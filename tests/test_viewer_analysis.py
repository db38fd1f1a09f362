"""``pdn view --analyse`` says what the analysis found (issue 33, section 5): at each ply the
value, the best move and the verdict, the ``?``/``??`` in the move list, and the comments
``pdn analyse`` writes; the graph is labelled.

The page's data is checked here in Python; the page's own script is run under node with a
small stand-in for the DOM (``tests/viewer_dom.js``) when node is installed; a real browser
checks the same in ``tests/test_viewer_browser.py``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from test_analysis import BLUNDER_GAME
from viewer_page import move_of, read_page

import pdn
from pdn.study.play.analysis import analyse_game, ply_note, value_text
from pdn.view.viewer import render_html, view_game

HERE = Path(__file__).resolve().parent


def analysed_page() -> str:
    return render_html([view_game(pdn.parse_game(BLUNDER_GAME), "blunder.pdn", analyse=4)])


def test_the_page_data_holds_each_plys_value_best_move_and_verdict() -> None:
    game = pdn.parse_game(BLUNDER_GAME)
    found = analyse_game(game, pdn.validate(game), depth=4)
    (record,) = read_page(analysed_page()).games
    plies = {p[0]: p for p in record["evaluation"]["plies"]}
    assert set(plies) == {ply.ply for ply in found.plies}
    for ply in found.plies:
        best_for_white = ply.before if ply.side == "White" else -ply.before
        assert plies[ply.ply][3:] == [
            f"{ply.number} {ply.played}",
            value_text(ply.white_after),
            ply.best,
            value_text(best_for_white),
            ", ".join(ply.verdicts),
        ]
    # The move list: the verdict's NAG and the comment pdn analyse writes, on the move itself.
    mainline = [move_of(item) for item in record["moves"]]
    blunder = next(p for p in found.plies if "blunder" in p.verdicts)
    assert mainline[blunder.ply - 1]["s"] == "15-18"
    assert mainline[blunder.ply - 1]["an"] == {"m": "??", "c": ply_note(blunder)}
    only = [p for p in found.plies if p.verdicts == ("only move",)]
    assert only and all(mainline[p.ply - 1]["an"]["c"].startswith("only move: ") for p in only)
    quiet = [p for p in found.plies if not p.verdicts]
    assert quiet and all("an" not in mainline[p.ply - 1] for p in quiet)
    # Without --analyse, nothing of the kind.
    plain = view_game(pdn.parse_game(BLUNDER_GAME), "blunder.pdn").record
    assert all("an" not in move_of(item) for item in plain["moves"])


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_page_script_shows_them(tmp_path: Path) -> None:
    page = tmp_path / "analysed.html"
    page.write_text(analysed_page(), encoding="utf-8")
    run = subprocess.run(
        ["node", str(HERE / "viewer_dom.js"), str(page), "0", "3"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    shown = json.loads(run.stdout)
    moves = [(cls.split(), text) for cls, text, _ in shown["moves"]]
    at = next(i for i, (cls, text) in enumerate(moves) if "pdnv-move" in cls and text == "15-18")
    assert moves[at + 1] == (["pdnv-nag", "pdnv-analysis-nag"], "??")
    cls, text = moves[at + 2]
    assert "pdnv-analysis-comment" in cls and text.startswith("blunder: ")
    assert "best: 9-14" in text
    (record,) = read_page(page.read_text(encoding="utf-8")).games
    noted = sum("an" in move_of(item) for item in record["moves"])  # the blunder, only moves
    assert noted == 3 and sum("pdnv-analysis-comment" in cls for cls, _ in moves) == noted
    start, third = shown["plies"]["0"], shown["plies"]["3"]
    assert start["analysis"].startswith("Analysis (depth 4): go to a move")
    assert third["analysis"].startswith("Analysis (depth 4): 2. 15-18??: +")
    assert "for White; best 9-14 " in third["analysis"] and third["analysis"].endswith("blunder")
    assert {"White +4", "0", "Black +4", "start", "ply 6", "??"} <= set(third["labels"])
    assert any(tip.startswith("2. 15-18??: ") for tip in third["tips"])
