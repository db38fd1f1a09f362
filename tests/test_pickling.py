"""What a worker process sends back (``--jobs``, ``pdn.dask``) or a user pickles comes back
equal: positions, moves, verdicts, reports. It must hold in the accelerated build too, where a
frozen record cannot unpickle by setting its attributes (``pdn.engine.pickling``)."""

from __future__ import annotations

import pickle

import pytest

import pdn
from pdn.engine import ENGLISH, FRISIAN, VARIANTS, Position, board_for, diagnose
from pdn.rules.draws import draw_rules
from pdn.rules.validation import validate
from pdn.study import tournament as reports
from pdn.text.notation import parse_move
from pdn.writing.annotate import AnnotateOptions

GAME = """[Event "E"]
[Black "Ann"]
[White "Bo"]
[Result "1-0"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17x10 (3... 4-8) 4. 6x22 25x18 5. 12-16 1-0
"""


def back(value: object) -> object:
    return pickle.loads(pickle.dumps(value))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variants_positions_and_moves_come_back_equal(name: str) -> None:
    variant = VARIANTS[name]
    assert back(variant) == variant
    start = Position.start(variant)
    assert back(start) == start and hash(back(start)) == hash(start)
    for move in start.legal_moves():
        assert back(move) == move
    # The board comes back as the one shared board of its size, not a copy.
    assert back(board_for(variant)) is board_for(variant)


def test_pieces_king_move_counts_and_diagnoses() -> None:
    position = Position.from_fen("W:WK10,K20,30:BK5", FRISIAN).play(
        Position.from_fen("W:WK10,K20,30:BK5", FRISIAN).legal_moves()[0]
    )
    assert back(position) == position and back(position).king_moves == position.king_moves
    piece = position.piece_at(5)
    assert piece is not None and back(piece) == piece
    wrong = diagnose(Position.start(ENGLISH), (11, 18), False)
    assert back(wrong) == wrong and back(wrong).fault is wrong.fault


def test_reports_steps_and_records() -> None:
    game = pdn.parse_game(GAME)
    report = validate(game)
    again = back(report)
    assert isinstance(again, type(report))
    assert again.status == report.status and again.final == report.final
    assert [(s.ply, s.move, s.after) for s in again.steps] == [
        (s.ply, s.move, s.after) for s in report.steps
    ]
    assert again.problems == report.problems
    illegal = validate(pdn.parse_game("1. 11-15 22-18 2. 15-19 *"))
    assert back(illegal).problems == illegal.problems and illegal.problems
    records = reports.games_to_records([game])
    assert back(records) == records
    built = reports.build_reports(records)
    assert back(built) == built


def test_option_and_notation_records() -> None:
    for value in (
        AnnotateOptions(fen=True, forced=True),
        parse_move("32x23x14"),
        draw_rules(ENGLISH),
    ):
        assert back(value) == value
