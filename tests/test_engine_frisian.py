"""Frisian draughts (GameType 40): captures along rows and columns, the value rule, king first.

Each hand-made position is also checked against pydraughts 0.6.7 when it is installed (its two
documented defects, float sums and the 1.5 weighting, do not arise in these positions).
docs/rules.md gives the rules, the reading of the value rule and the sources.
"""

from __future__ import annotations

import pytest
from variant_cases import draughts

from pdn.engine import (
    INTERNATIONAL,
    Color,
    Fault,
    Move,
    Piece,
    Position,
    board_for,
    diagnose,
    get_variant,
    perft,
    variant_for_game_type,
)

FRISIAN = get_variant("frisian")


def check(fen: str, expected: set[str]) -> None:
    """Our legal moves (full paths) are ``expected``, and so are pydraughts'."""
    pos = Position.from_fen(fen, FRISIAN)
    assert {m.notation(full=True) for m in pos.legal_moves()} == expected
    if draughts is not None:
        board = draughts.Board(variant="frisian", fen=fen)
        sep = {True: "x", False: "-"}
        theirs = {sep[bool(m.captures)].join(map(str, m.steps_move)) for m in board.legal_moves()}
        assert theirs == expected


def test_registry_board_and_start() -> None:
    assert variant_for_game_type(40) is FRISIAN and get_variant("fries dammen") is FRISIAN
    assert FRISIAN.first_mover is Color.WHITE
    assert board_for(FRISIAN) is board_for(INTERNATIONAL)
    start = Position.start(FRISIAN)
    assert start.fen() == Position.start(INTERNATIONAL).fen()
    assert len(start.legal_moves()) == 9


def test_men_capture_along_columns_and_rows() -> None:
    # d4 (32) over d6 (22) to d8 (12): a column, two rows up; over f4 (33) to h4 (34): a row.
    check("W:W32:B22", {"32x12"})
    check("W:W32:B33", {"32x34"})
    # ... and backward too, like every man's capture here.
    check("W:W22:B32", {"22x42"})


def test_kings_capture_at_a_distance_on_lines_but_move_on_diagonals() -> None:
    check("W:WK46:B26", {"46x16", "46x6"})  # up the a file over a5
    check("W:WK46:B5", {f"46-{s}" for s in (41, 37, 32, 28, 23, 19, 14, 10)})


def test_value_two_men_beat_one_king() -> None:
    # d4 takes d6 and f8 (two men, 32x12x14) rather than the king on f4 (32x34).
    check("W:W32:B22,13,K33", {"32x12x14"})


def test_value_one_king_beats_one_man() -> None:
    check("W:W32:B22,K33", {"32x34"})


@pytest.mark.parametrize(
    ("kings_a", "men_a", "kings_b", "men_b", "winner"),
    [
        (1, 0, 0, 2, "b"),  # a king is worth less than two men...
        (1, 0, 0, 1, "a"),  # ... and more than one
        (2, 0, 0, 3, "a"),  # 2 kings: more than 3 men (2n - 1) ...
        (2, 0, 0, 4, "b"),  # ... less than 4 (2n)
        (3, 0, 0, 5, "a"),  # 3 kings beat 5 men (pydraughts' 1.5 weighting says otherwise)
        (1, 1, 0, 3, "b"),
        (1, 2, 2, 0, "a"),
        (1, 1, 1, 1, "both"),
    ],
)
def test_value_rule_weighs_a_king_just_under_two_men(
    kings_a: int, men_a: int, kings_b: int, men_b: int, winner: str
) -> None:
    # Straight on the generator's filter, with made-up captures: only the pieces taken matter.
    from pdn_engine.movegen import rules_for

    rules = rules_for(FRISIAN)
    board = board_for(FRISIAN)
    kings = 0
    squares_a = [board.index[s] for s in range(1, kings_a + men_a + 1)]
    squares_b = [board.index[s] for s in range(11, 11 + kings_b + men_b)]
    for p in squares_a[:kings_a] + squares_b[:kings_b]:
        kings |= 1 << p
    a = (board.index[46], (board.index[41],), tuple(squares_a), False)
    b = (board.index[47], (board.index[42],), tuple(squares_b), False)
    left = rules.prioritise([a, b], kings)
    expected = {"a": [a], "b": [b], "both": [a, b]}[winner]
    assert left == expected


def test_equal_value_a_king_must_capture() -> None:
    # The man on 32 and the king on 49 can each take one man: the king must.
    check("W:W32,K49:B33,44", {"49x35", "49x40"})


def test_a_man_passing_the_last_row_goes_on_as_a_man() -> None:
    pos = Position.from_fen("W:W12:B8,9", FRISIAN)
    [move] = pos.legal_moves()
    assert move.notation(full=True) == "12x3x14" and not move.crowns
    assert pos.play(move).piece_at(14) == Piece(Color.WHITE)
    [ends] = Position.from_fen("W:W12:B8,4", FRISIAN).legal_moves()
    assert ends.notation(full=True) == "12x3x5" and ends.crowns


def test_diagnose_value_and_king_rules() -> None:
    d = diagnose(Position.from_fen("W:W32:B22,13,K33", FRISIAN), (32, 34), True)
    assert d.fault is Fault.ILLEGAL_MOVE and "highest value" in d.message and "32x14" in d.message
    d = diagnose(Position.from_fen("W:W32,K49:B33,44", FRISIAN), (32, 34), True)
    assert d.fault is Fault.ILLEGAL_MOVE and "capturing with a king" in d.message


def _shuffle(fen: str, moves: list[tuple[int, int]]) -> Position:
    pos = Position.from_fen(fen, FRISIAN)
    for a, b in moves:
        move = Move((a, b))
        assert move in pos.legal_moves(), (a, b)
        pos = pos.play(move)
    return pos


SHUFFLE = [(46, 41), (1, 6), (41, 46), (6, 1), (46, 41), (1, 6)]


def test_three_king_moves_in_a_row_then_another_piece() -> None:
    # White's king has moved three times without capturing and White still has a man: the king
    # may not move again; the man must. Black, with kings only, has no such limit.
    pos = _shuffle("W:WK46,45:BK1", SHUFFLE)
    assert pos.king_moves == (6, 3, 41, 3) and pos.blocked_king() == 41
    assert [m.notation() for m in pos.legal_moves()] == ["45-40"]
    after = pos.play(Move((45, 40)))
    assert after.king_moves == (6, 3, 0, 0)  # a man's move frees the king
    assert after.with_turn(Color.WHITE).blocked_king() is None
    # Black (kings only) may go on shuffling.
    assert Move((6, 1)) in after.legal_moves()


def test_the_limit_is_per_king_and_lapses_without_men() -> None:
    # Another king's move starts a new count.
    pos = _shuffle("W:WK46,K50,45:BK1", [(46, 41), (1, 6), (41, 46), (6, 1), (50, 44), (1, 6)])
    assert pos.king_moves[2:] == (44, 1) and pos.blocked_king() is None
    # With kings only, no limit at all.
    only_kings = _shuffle("W:WK46:BK1", SHUFFLE)
    assert only_kings.blocked_king() is None and Move((41, 46)) in only_kings.legal_moves()


def test_diagnose_a_fourth_king_move() -> None:
    pos = _shuffle("W:WK46,45:BK1", SHUFFLE)
    d = diagnose(pos, (41, 46), False)
    assert d.fault is Fault.ILLEGAL_MOVE
    assert "3 non-capturing moves in a row" in d.message and "45-40" in d.message
    assert d.applied is not None


# The king-move limit in perft: pydraughts 0.6.7 (which applies it too) counts the same.
LIMIT_FEN = "W:WK46,45:BK1"
LIMIT_PERFT = [10, 68, 598, 4643, 39635]


def test_perft_with_the_king_move_limit() -> None:
    pos = Position.from_fen(LIMIT_FEN, FRISIAN)
    assert [perft(pos, d) for d in range(1, 6)] == LIMIT_PERFT
    # Past depth 6 the limit can bite, and perft goes through positions that carry the counts
    # (ours alone: pydraughts needs about ten minutes for it).
    assert perft(pos, 7) == 642762
