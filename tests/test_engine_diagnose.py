"""diagnose(): matching written moves, and one hand-made position per Fault code."""

from __future__ import annotations

import pytest

from pdn.engine import (
    ENGLISH,
    INTERNATIONAL,
    RUSSIAN,
    Color,
    Diagnosis,
    Fault,
    Piece,
    Position,
    Variant,
    diagnose,
)
from pdn_engine import move_text

CIRCLE = "W:WK2,17,19,21,24,25,26,27,29,30,31,32:B1,4,5,6,7,8,10,12,14,15"


def diag(
    fen: str, squares: tuple[int, ...], capture: bool = False, variant: Variant = ENGLISH
) -> Diagnosis:
    pos = Position.start(variant) if fen == "start" else Position.from_fen(fen, variant)
    return diagnose(pos, squares, capture)


def test_fault_values_are_the_problem_codes() -> None:
    problems = pytest.importorskip("pdn.text.problems")
    for fault in Fault:
        assert fault.value in problems.CODES
        assert fault == fault.value  # a str Enum: compares equal to its code


# --------------------------------------------------------------------- legal matches


def test_plain_move_matches_quickly_and_cleanly() -> None:
    d = diag("start", (11, 15))
    assert d.ok and d.fault is None and d.message == "" and d.applied is None
    assert d.move is not None and d.move.path == (11, 15) and d.candidates == (d.move,)


def test_quick_path_agrees_with_full_generation() -> None:
    pos = Position.from_fen("W:WK14,22,30:B1,5", ENGLISH)
    for move in pos.legal_moves():
        found = diagnose(pos, (move.start, move.end), False).move
        assert found == move and found.king == move.king


def test_short_and_full_capture_forms_match() -> None:
    for squares in [(9, 27), (9, 18, 27)]:
        d = diag("B:W14,23:B9", squares, True)
        assert d.ok and d.move is not None and d.move.path == (9, 18, 27)
        assert d.move.captures == (14, 23)


def test_capture_written_with_hyphen_is_read_with_a_remark() -> None:
    d = diag("B:W14,23:B9", (9, 27), False)
    assert d.ok and d.move is not None and d.move.is_capture
    assert "without a capture sign" in d.message


def test_quiet_move_written_as_capture_is_read_with_a_remark() -> None:
    d = diag("start", (9, 13), True)
    assert d.ok and "takes nothing" in d.message


def test_king_circle_in_short_form_is_one_move() -> None:
    d = diag(CIRCLE, (2, 2), True)
    assert d.ok and d.fault is None
    assert len(d.candidates) == 2  # both directions round, same result


def test_full_path_picks_one_of_two_captures() -> None:
    d = diag("W:W27:B15,16,23,24", (27, 18, 11), True)
    assert d.ok and d.move is not None and d.move.captures == (23, 15)


def test_turning_point_form_for_a_flying_king() -> None:
    # a1 takes c3 and e5 in one line: written short, in full, and with its stop square.
    for squares in [(29, 11), (29, 18, 11)]:
        d = diag("W:WK29:B22,15", squares, True, RUSSIAN)
        assert d.ok and d.move is not None and set(d.move.captures) == {22, 15}


def test_lenient_full_path_through_a_square_passed_over() -> None:
    # The generated path is a1-f6-d8 (29, 11, 2); a writer who also lists d4 (18), a square the
    # king passes over, is still understood.
    pos = Position.from_fen("W:WK29:B22,7", RUSSIAN)
    assert [m.path for m in pos.legal_moves()] == [(29, 11, 2)]
    d = diagnose(pos, (29, 18, 11, 2), True)
    assert d.ok and d.move is not None and d.move.path == (29, 11, 2)


# --------------------------------------------------------------------- faults, one by one


def test_missed_capture_lists_the_jumps_and_applies_the_move() -> None:
    d = diag("B:W18:B9,14,15", (9, 13))
    assert d.fault is Fault.MISSED_CAPTURE
    assert d.message == "9-13 is not legal: Black must jump; the jumps are 14x23, 15x22"
    assert {m.notation() for m in d.candidates} == {"14x23", "15x22"}
    assert d.applied is not None
    assert d.applied.piece_at(13) == Piece(Color.BLACK) and d.applied.turn is Color.WHITE


def test_backward_man_step() -> None:
    d = diag("B:W30:B15", (15, 11))
    assert d.fault is Fault.BACKWARD_MAN
    assert d.message == "man on 15 cannot move backward to 11"
    assert d.applied is not None and d.applied.piece_at(11) == Piece(Color.BLACK)


def test_backward_man_jump_in_english() -> None:
    d = diag("W:W18:B22", (18, 25), True)
    assert d.fault is Fault.BACKWARD_MAN
    assert "cannot jump backward" in d.message
    assert d.applied is not None and d.applied.piece_at(22) is None
    # Legal in Russian, where men capture backward.
    assert diag("W:W18:B22", (18, 25), True, RUSSIAN).ok


def test_incomplete_capture() -> None:
    d = diag("B:W14,23:B9", (9, 18), True)
    assert d.fault is Fault.INCOMPLETE_CAPTURE
    assert d.message == (
        "the jump 9x18 stops early: the man on 18 can go on jumping to 27 (full move 9x18x27)"
    )
    assert d.applied is not None
    assert d.applied.piece_at(18) == Piece(Color.BLACK)
    assert d.applied.piece_at(14) is None and d.applied.piece_at(23) == Piece(Color.WHITE)


def test_incomplete_capture_flying_king_landing_rule() -> None:
    # Taking d4, the king must land on f6 to go on over e7; stopping on e5 is incomplete.
    d = diag("W:WK29:B18,7", (29, 15), True, RUSSIAN)
    assert d.fault is Fault.INCOMPLETE_CAPTURE
    assert "must stop on a square from which it can go on" in d.message
    assert "a1:f6:d8" in d.message
    stopped = diag("W:WK29:B18,7", (29, 11), True, RUSSIAN)
    assert stopped.fault is Fault.INCOMPLETE_CAPTURE
    assert "the king on f6 can go on capturing to d8" in stopped.message


def test_capture_after_crowning() -> None:
    d = diag("W:W11:B6,7", (11, 2, 9), True)
    assert d.fault is Fault.CAPTURE_AFTER_CROWNING
    assert "crowned on 2" in d.message
    assert d.applied is not None and d.applied.piece_at(9) == Piece(Color.WHITE, king=True)
    # The same squares are the legal move in Russian.
    assert diag("W:W11:B6,7", (11, 2, 9), True, RUSSIAN).ok


def test_wrong_side_legal_for_the_other_side_is_applied_out_of_turn() -> None:
    d = diag("start", (22, 18))
    assert d.fault is Fault.WRONG_SIDE
    assert "Black's turn" in d.message and "out of turn" in d.message
    assert d.applied is not None
    assert d.applied.piece_at(18) == Piece(Color.WHITE)
    assert d.applied.turn is Color.BLACK  # Black, who should have moved, is still to move


def test_wrong_side_impossible_for_the_other_side_too() -> None:
    d = diag("start", (24, 28))
    assert d.fault is Fault.WRONG_SIDE and d.applied is None
    assert "would not be legal for White either" in d.message


def test_empty_square() -> None:
    d = diag("start", (13, 17))
    assert d.fault is Fault.EMPTY_SQUARE and d.applied is None
    assert d.message == "13-17 is not possible: there is no piece on 13"
    assert len(d.candidates) == 7


def test_occupied_square() -> None:
    d = diag("B:W13:B9", (9, 13))
    assert d.fault is Fault.OCCUPIED_SQUARE and d.applied is None
    assert "13, which holds a White man" in d.message


def test_not_diagonal() -> None:
    d = diag("start", (11, 14))
    assert d.fault is Fault.NOT_DIAGONAL and d.applied is None
    assert "not on one diagonal" in d.message


def test_king_too_far_in_english_but_not_in_russian() -> None:
    d = diag("W:WK29:B4", (29, 22))
    assert d.fault is Fault.KING_TOO_FAR
    assert "one square at a time" in d.message and "2 squares" in d.message
    assert d.applied is not None and d.applied.piece_at(22) == Piece(Color.WHITE, king=True)
    assert diag("W:WK29:B4", (29, 22), False, RUSSIAN).ok


def test_ambiguous_move() -> None:
    d = diag("W:W27:B15,16,23,24", (27, 11), True)
    assert d.fault is Fault.AMBIGUOUS_MOVE and d.move is None and d.applied is None
    assert {m.notation(full=True) for m in d.candidates} == {"27x18x11", "27x20x11"}
    assert "27x18x11 and 27x20x11" in d.message


def test_move_after_game_end() -> None:
    d = diag("B:W9,14:B5", (5, 9))
    assert d.fault is Fault.MOVE_AFTER_GAME_END and d.applied is None
    assert "Black has no legal move" in d.message


@pytest.mark.parametrize("square", [0, 33, 99])
def test_bad_square(square: int) -> None:
    d = diag("start", (9, square))
    assert d.fault is Fault.BAD_SQUARE and d.applied is None
    assert f"square {square} is not on the 8x8 board" in d.message


def test_illegal_move_man_two_squares() -> None:
    d = diag("B:W30:B9", (9, 18))
    assert d.fault is Fault.ILLEGAL_MOVE and d.applied is None
    assert "one square at a time" in d.message


def test_illegal_move_jumping_own_piece() -> None:
    d = diag("B:W30:B9,14", (9, 18), True)
    assert d.fault is Fault.ILLEGAL_MOVE
    assert "own piece on 14" in d.message


def test_illegal_move_too_short_written_move() -> None:
    assert diag("start", (9,)).fault is Fault.ILLEGAL_MOVE


def test_majority_rule_violation_is_an_illegal_move_that_can_be_applied() -> None:
    d = diag("W:W32:BK28,27,17", (32, 23), True, INTERNATIONAL)
    assert d.fault is Fault.ILLEGAL_MOVE
    assert "requires taking the most pieces: 2 here" in d.message
    assert d.applied is not None and d.applied.piece_at(28) is None


def test_russian_messages_use_algebraic_squares() -> None:
    d = diag("W:W22:B18,10,17", (22, 18), False, RUSSIAN)
    assert d.fault is Fault.OCCUPIED_SQUARE
    assert "d4" in d.message
    pos = Position.from_fen("W:W22,21:B18", RUSSIAN)
    missed = diagnose(pos, (21, 17), False)
    assert missed.fault is Fault.MISSED_CAPTURE
    assert missed.message == "a3-b4 is not legal: White must capture; the capture is c3:e5"


def test_move_text_for_both_notations() -> None:
    pos = Position.from_fen("W:W22:B18", RUSSIAN)
    [move] = pos.legal_moves()
    assert move_text(move, RUSSIAN) == "c3:e5"
    assert move_text(move, ENGLISH) == "22x15"
