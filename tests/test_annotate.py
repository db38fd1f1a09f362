"""Annotation: tags added only when absent, comments appended, nothing already there changed."""

from __future__ import annotations

import pdn
from pdn.writing.annotate import AnnotateOptions, annotate


def test_tags_for_a_finished_game() -> None:
    # White's last man is taken: Black has no opponent left to move.
    game = pdn.parse_game('[Event "e"]\n[FEN "B:W18:B14"]\n1. 14x23 1-0')
    annotate(game)
    assert game.tags["PlyCount"] == "1"
    assert game.tags["FinalFEN"] == "W:W:B23"
    assert game.tags["Termination"] == "White has no pieces left"
    assert "Opening" not in game.tags  # a setup is not a ballot
    assert game.tags.names()[:2] == ["Event", "FEN"]


def test_existing_tags_are_kept() -> None:
    game = pdn.parse_game('[PlyCount "99"]\n1. 11-15 23-19 *')
    annotate(game)
    assert game.tags.get_all("PlyCount") == ["99"]


def test_no_final_fen_when_nothing_was_played() -> None:
    game = pdn.parse_game('[Event "e"]\n*')
    annotate(game)
    assert "FinalFEN" not in game.tags
    assert game.tags["PlyCount"] == "0"


def test_forced_and_problem_comments() -> None:
    game = pdn.parse_game("1. 11-15 22-18 2. 15x22 25x18 3. 12-16 18-11 *")
    annotate(game, options=AnnotateOptions(forced=True, problems=True))
    nodes = list(game.mainline())
    assert [c.text for c in nodes[2].comments_after] == ["forced jump (15x22)"]
    assert [c.text for c in nodes[3].comments_after] == []  # 25x18 or 26x17: a choice
    (comment,) = nodes[5].comments_after
    assert comment.text.startswith("illegal (illegal-move): 18-11 is not possible")
    assert comment.text.endswith("legal: 18-14 18-15 21-17 23-19 24-19 24-20 26-22 29-25 30-25")
    # What was written is unchanged.
    assert [n.move for n in nodes] == ["11-15", "22-18", "15x22", "25x18", "12-16", "18-11"]


def test_fen_comments_read_back_as_comments() -> None:
    game = pdn.parse_game("1. 11-15 {mine} 23-19 *")
    annotate(game, options=AnnotateOptions(fen=True))
    again = pdn.parse_game(pdn.write_game(game))
    first = next(again.mainline())
    assert first.comments_after[0].text == "mine"
    assert first.comments_after[1].text.startswith("[%fen W:")
