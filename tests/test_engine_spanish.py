"""Spanish draughts (GameType 24): the federation's board and numbering, and its capture rules.

pydraughts has no Spanish rules, so each rule that differs from a neighbour has a hand-made
position (FENs in algebraic squares for readability; numbers are the Spanish ones, 1 = h1).
docs/rules.md gives the rules and their sources.
"""

from __future__ import annotations

from pdn.engine import (
    Color,
    Fault,
    Piece,
    Position,
    board_for,
    diagnose,
    get_variant,
    perft,
    variant_for_game_type,
)

SPANISH = get_variant("spanish")
ITALIAN = get_variant("italian")
BOARD = board_for(SPANISH)


def moves(fen: str) -> set[str]:
    out = set()
    for m in Position.from_fen(fen, SPANISH).legal_moves():
        out.add(("x" if m.captures else "-").join(BOARD.algebraic(s) for s in m.path))
    return out


def squares(*names: str) -> tuple[int, ...]:
    return tuple(s for s in (BOARD.square_of(n) for n in names) if s is not None)


def test_registry() -> None:
    assert variant_for_game_type(24) is SPANISH and get_variant("damas espanolas") is SPANISH
    assert SPANISH.first_mover is Color.WHITE and SPANISH.flying_kings


def test_board_and_numbering_from_whites_side() -> None:
    # The dark corner on each player's right (h1 dark), as in Italian; numbered from White's
    # bottom-right square, right to left, row by row upward: 1 = h1, 4 = b1, 5 = g2, 32 = a8.
    assert [BOARD.algebraic(s) for s in (1, 2, 4, 5, 9, 12, 29, 32)] == [
        "h1",
        "f1",
        "b1",
        "g2",
        "h3",
        "b3",
        "g8",
        "a8",
    ]
    assert BOARD.square_at(7, 7) == 1 and BOARD.square_at(0, 0) == 32
    assert BOARD.square_at(0, 7) is None  # a1 is light
    # The long diagonal h1-a8 is 1, 5, 10, ..., 32.
    assert BOARD.between(1, 32) == (5, 10, 14, 19, 23, 28)
    # Same geometry as the Italian board, numbers turned by 180 degrees.
    italian = board_for(ITALIAN)
    assert all(BOARD.algebraic(s) == italian.algebraic(33 - s) for s in range(1, 33))


def test_start_position_white_on_1_to_12() -> None:
    start = Position.start(SPANISH)
    assert start.turn is Color.WHITE
    assert start.fen() == "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32"
    assert {m.notation() for m in start.legal_moves()} == {
        "9-13",
        "10-13",
        "10-14",
        "11-14",
        "11-15",
        "12-15",
        "12-16",
    }
    assert Position.from_fen(start.fen(), SPANISH) == start
    # White crowns on the top row, which here holds the high numbers 29-32.
    assert [m.crowns for m in Position.from_fen("W:W25:B1", SPANISH).legal_moves()] == [True]


def test_men_move_and_capture_forward_only() -> None:
    assert moves("W:Wd3:Bc2") == {"d3-c4", "d3-e4"}


def test_kings_fly_and_land_anywhere_behind() -> None:
    assert moves("W:WKh1:Bf3") == {"h1xe4", "h1xd5", "h1xc6", "h1xb7", "h1xa8"}
    # ... but must stop where they can go on: only d5 lets it take c4.
    assert moves("W:WKh1:Bf3,c4") == {"h1xd5xb3", "h1xd5xa2"}


def test_rule_1_take_the_most_pieces() -> None:
    assert moves("W:Wb3,h3:Bc4,g4,c6") == {"b3xd5xb7"}


def test_rule_2_then_the_most_kings() -> None:
    assert moves("W:Wb3,h3:Bc4,g4") == {"b3xd5", "h3xf5"}
    assert moves("W:Wb3,h3:BKc4,g4") == {"b3xd5"}


def test_no_priority_for_capturing_with_a_king() -> None:
    # A king's capture and a man's capture of one man each: both legal (Italian and Czech would
    # require the king's) ...
    assert moves("W:WKh1,b3:Bf3,c4") == {"b3xd5", "h1xe4", "h1xd5", "h1xc6", "h1xb7", "h1xa8"}
    # ... and when the man takes a king, the most-kings rule makes the man's capture the one.
    assert moves("W:WKh1,b3:Bf3,Kc4") == {"b3xd5"}


def test_a_man_crowned_by_a_capture_stops() -> None:
    pos = Position.from_fen("W:Wc6:Bd7,f7", SPANISH)
    [move] = pos.legal_moves()
    assert BOARD.algebraic(move.end) == "e8" and move.crowns
    assert pos.play(move).piece_at(move.end) == Piece(Color.WHITE, king=True)


def test_diagnose_names_the_kings_rule() -> None:
    pos = Position.from_fen("W:Wb3,h3:BKc4,g4", SPANISH)
    d = diagnose(pos, squares("h3", "f5"), True)
    assert d.fault is Fault.ILLEGAL_MOVE and "the most kings" in d.message
    assert "12x19" in d.message  # b3xd5 in Spanish numbers
    d = diagnose(Position.from_fen("W:Wb3,h3:Bc4,g4,c6", SPANISH), squares("h3", "f5"), True)
    assert d.fault is Fault.ILLEGAL_MOVE and "the most pieces" in d.message


def test_start_equals_italian_until_kings() -> None:
    assert perft(Position.start(SPANISH), 6) == perft(Position.start(ITALIAN), 6)
