"""The library's shortcuts: a move played from its text, a node's position, who won.

Issue 33 (section 5): ``Position.play("11-15")`` raised ``AttributeError``, a node of a game read
with ``pdn.read_games`` had no way to its position, and the README's library example printed
``White - Black 1-0`` for a game Black won under English conventions.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import pdn
from pdn.engine import ENGLISH, RUSSIAN, IllegalMoveError, Position

ROOT = Path(__file__).resolve().parents[1]


def test_play_takes_a_moves_text() -> None:
    start = Position.start(ENGLISH)
    by_text = start.play("11-15").play("23-19")
    first = next(m for m in start.legal_moves() if m.notation() == "11-15")
    after_first = start.play(first)
    second = next(m for m in after_first.legal_moves() if m.notation() == "23-19")
    assert by_text == after_first.play(second)


def test_play_reads_captures_and_board_names() -> None:
    pos = Position.from_fen("W:W27:B15,16,23,24", ENGLISH)
    assert pos.play("27x18x11").pieces() == pos.play("27 : 18 : 11").pieces()
    assert sorted(pos.play("27x18x11").pieces()) == [11, 16, 24]
    assert Position.start(RUSSIAN).play("c3-d4").piece_at(18) is not None


@pytest.mark.parametrize(
    ("fen", "text", "said"),
    [
        (None, "15-19", "there is no piece on 15"),
        (None, "11-14", "11-14"),
        (None, "99-3", "squares 1-32"),
        ("W:W27:B15,16,23,24", "27x11", "ambiguous"),
    ],
)
def test_an_illegal_text_names_the_legal_moves(fen: str | None, text: str, said: str) -> None:
    pos = Position.start(ENGLISH) if fen is None else Position.from_fen(fen, ENGLISH)
    with pytest.raises(IllegalMoveError) as caught:
        pos.play(text)
    message = str(caught.value)
    assert said in message
    legal = ", ".join(m.notation(full=True) for m in pos.legal_moves(merge_duplicates=True))
    assert message.endswith(f"legal moves: {legal}")
    assert caught.value.position is pos
    assert isinstance(caught.value, ValueError)


def test_a_nodes_position_is_the_replays() -> None:
    game = pdn.parse_game("1. 11-15 (1. 9-13 22-18) 23-19 2. 8-11 *")
    report = pdn.validate(game)
    for node, step in report.walk():
        assert step is not None and node.position(game) == step.after
    assert game.root.position(game) == Position.start(ENGLISH)


def test_a_node_the_replay_does_not_reach_says_why() -> None:
    game = pdn.parse_game("1. 11-15 23-19 2. 15-24 24-20 *")
    third, fourth = list(game.mainline())[2:]
    with pytest.raises(ValueError, match="does not reach '15-24': 15-24 is not possible"):
        third.position(game)
    with pytest.raises(ValueError, match="does not reach"):
        fourth.position(game)
    other = pdn.parse_game("1. 11-15 *")
    with pytest.raises(ValueError, match="is not a node of game"):
        other.root.next().position(game)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "winner"),
    [
        ("1. 11-15 23-19 1-0", "Black"),  # English: the first number is Black's
        ("1. 11-15 23-19 0-1", "White"),
        ('[GameType "20"] 1. 32-28 19-23 2-0', "White"),  # International: White's
        ('[GameType "20"] 1. 32-28 19-23 0-2', "Black"),
        ("1. 11-15 23-19 1/2-1/2", None),
        ("1. 11-15 23-19 *", None),
    ],
)
def test_the_winner_is_read_under_the_replays_rules(text: str, winner: str | None) -> None:
    won = pdn.validate(pdn.parse_game(text)).winner
    assert (won.label if won is not None else None) == winner


def test_the_readme_library_example_says_who_won() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## The library", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    run = subprocess.run(
        [sys.executable, "-c", block], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    printed = [line for line in run.stdout.splitlines() if " - " in line]
    games = list(pdn.read_games(ROOT / "examples/german-open-2004.pdn"))
    assert len(printed) == len(games)
    for line, game in zip(printed, games, strict=True):
        black, white = game.tags["Black"], game.tags["White"]
        result = game.tags["Result"]
        said = line.removeprefix(f"{black} - {white} ")
        expected = {"1-0": "Black", "0-1": "White"}.get(result, "no winner")
        assert said == expected, line
    assert re.search(r"^B:W19,21,22,24\S* B:W19,21,22,24", run.stdout, re.MULTILINE)
