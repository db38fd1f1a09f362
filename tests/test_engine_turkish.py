"""Turkish draughts (GameType 30): the all-squares board and its orthogonal rules.

Positions are written with algebraic squares (Turkish records are algebraic); each hand-made
position is also checked against pydraughts 0.6.7 when it is installed, except where pydraughts is
known to be wrong (tests/test_engine_oracle.py, docs/rules.md).
"""

from __future__ import annotations

from variant_cases import draughts

from pdn.engine import (
    Color,
    Fault,
    Piece,
    Position,
    board_for,
    diagnose,
    get_variant,
    variant_for_game_type,
)

TURKISH = get_variant("turkish")
BOARD = board_for(TURKISH)


def _name(path: tuple[int, ...], capture: bool) -> str:
    return ("x" if capture else "-").join(BOARD.algebraic(s) for s in path)


def moves(fen: str) -> set[str]:
    return {_name(m.path, m.is_capture) for m in Position.from_fen(fen, TURKISH).legal_moves()}


def check(fen: str, expected: set[str], *, oracle: bool = True) -> None:
    """Our legal moves are ``expected``, and so are pydraughts' when it is installed.

    ``oracle=False`` for the one documented case where pydraughts is wrong: its kings' quiet moves
    pass over pieces (docs/rules.md, Turkish; tests/test_engine_oracle.py).
    """
    assert moves(fen) == expected
    if draughts is not None and oracle:
        board = draughts.Board(variant="turkish", fen=fen)
        theirs = set()
        for m in board.legal_moves():
            # pydraughts numbers a1 = 1 upward; its FEN and ours share the algebraic names.
            path = tuple(_from_theirs(s) for s in m.steps_move)
            theirs.add(_name(path, bool(m.captures)))
        assert theirs == expected


def _from_theirs(square: int) -> int:
    rank, file = divmod(square - 1, 8)
    return (7 - rank) * 8 + file + 1


def squares(*names: str) -> tuple[int, ...]:
    found = [BOARD.square_of(n) for n in names]
    return tuple(s for s in found if s is not None)


# --------------------------------------------------------------------- board and start


def test_registry() -> None:
    assert variant_for_game_type(30) is TURKISH and get_variant("Turkish draughts") is TURKISH
    assert TURKISH.first_mover is Color.WHITE and TURKISH.squares == 64


def test_all_64_squares_numbered_from_the_top_left() -> None:
    # The engine's convention on every board: 1 is the top-left square seen from White (a8),
    # numbers run left to right, row by row; so 57 is a1 and 64 is h1.
    assert BOARD.squares == 64
    assert [BOARD.algebraic(s) for s in (1, 8, 9, 57, 64)] == ["a8", "h8", "a7", "a1", "h1"]
    assert BOARD.square_of("e4") == 37 and BOARD.square_at(4, 4) == 37
    assert BOARD.direction(37, 5) == (0, 4)  # e4 -> e8: up, four squares
    assert BOARD.direction(37, 40) == (2, 3)  # e4 -> h4: right
    assert BOARD.direction(37, 46) is None  # e4 -> f3 is a diagonal: not a line here
    assert BOARD.between(57, 61) == (58, 59, 60)  # a1 .. e1


def test_start_position() -> None:
    start = Position.start(TURKISH)
    assert start.turn is Color.WHITE
    pieces = start.pieces()
    assert {BOARD.algebraic(s) for s, p in pieces.items() if p.color is Color.WHITE} == {
        f"{c}{r}" for c in "abcdefgh" for r in "23"
    }
    assert {BOARD.algebraic(s) for s, p in pieces.items() if p.color is Color.BLACK} == {
        f"{c}{r}" for c in "abcdefgh" for r in "67"
    }
    # Only the front men can move, and only forward: sideways squares are all taken.
    assert moves(start.fen()) == {f"{c}3-{c}4" for c in "abcdefgh"}
    round_trip = Position.from_fen(start.fen(algebraic=True), TURKISH)
    assert round_trip == start


# --------------------------------------------------------------------- moves


def test_men_move_forward_and_sideways_never_backward() -> None:
    check("W:Wd4:Ba8", {"d4-d5", "d4-c4", "d4-e4"})
    check("B:Wa1:Bd5", {"d5-d4", "d5-c5", "d5-e5"})


def test_men_capture_forward_and_sideways_never_backward() -> None:
    # d3 behind the man (with d2 empty) cannot be taken.
    check("W:Wd4:Bd5,c4,e4,d3", {"d4xd6", "d4xb4", "d4xf4"})


def test_kings_fly_along_rows_and_columns() -> None:
    pos = Position.from_fen("W:WKd4:Ba8", TURKISH)
    assert len(pos.legal_moves()) == 14  # 7 squares on the column, 7 on the row
    check(
        "W:WKd4,d6:Ba8",
        {f"d4-{s}" for s in ("d5", "d3", "d2", "d1")}
        | {f"d4-{c}4" for c in "abcefgh"}
        | {"d6-d7", "d6-c6", "d6-e6"},
        oracle=False,  # pydraughts also offers d4-d7 and d4-d8, over the man on d6
    )


def test_king_captures_at_a_distance_and_lands_anywhere_behind() -> None:
    check("W:WKd1:Bd5", {"d1xd6", "d1xd7", "d1xd8"})


def test_majority_capture_counts_kings_and_men_alike() -> None:
    # The man takes two (d5, d7); the king could take one man (a3) or a king... the most wins.
    check(
        "W:Wd4,Ka1:Bd5,d7,a3",
        {
            "a1xa5xe5",
            "a1xa5xf5",
            "a1xa5xg5",
            "a1xa5xh5",
            "a1xa7xe7",
            "a1xa7xf7",
            "a1xa7xg7",
            "a1xa7xh7",
            "d4xd6xd8",
        },
    )
    check("W:Wd4,Ka1:Bd5,d7,Ka3", {"d4xd6xd8", *(f"a1xa{r}x{c}{r}" for r in "57" for c in "efgh")})
    # Three beats two: the man's capture is the only one once a third piece stands in its way.
    check("W:Wd4,Ka1:Bd5,d7,a3,e8", {"d4xd6xd8xf8"})


def test_captured_pieces_leave_the_board_at_once() -> None:
    # The king goes a1 over a3, d5's row, down the d file, back along the 2nd row to a2 and up
    # the a file again *through a3*, free since that man was taken, to take a6 as well.
    check("W:WKa1:Ba3,c5,d3,b2,a6", {"a1xa5xd5xd2xa2xa7", "a1xa5xd5xd2xa2xa8"})


def test_no_180_degree_turn_between_captures() -> None:
    # After d2 the king on d1 may not turn back up the d file to take d6 (nor after d6 come back
    # down for d2), although with d2 gone the file would be open: one piece each way.
    check("W:WKd4:Bd6,d2", {"d4xd1", "d4xd7", "d4xd8"})


def test_a_man_reaching_the_last_row_goes_on_as_a_man() -> None:
    # a6 takes a7 and lands on a8; it may still take b8 sideways (as a man), and is crowned when
    # the move ends there. It does not capture at a distance (c8 alone: the move ends on a8).
    check("W:Wa6:Ba7,b8", {"a6xa8xc8"})
    check("W:Wa6:Ba7,c8", {"a6xa8"})
    pos = Position.from_fen("W:Wa6:Ba7,b8", TURKISH)
    [move] = pos.legal_moves()
    assert move.crowns
    assert pos.play(move).piece_at(squares("c8")[0]) == Piece(Color.WHITE, king=True)


# --------------------------------------------------------------------- diagnosis


def test_diagnose_turkish_faults() -> None:
    pos = Position.from_fen("W:Wd4:Bd5,c4,e4,d3", TURKISH)
    back = diagnose(pos, squares("d4", "d2"), True)
    assert back.fault is Fault.BACKWARD_MAN
    side = diagnose(Position.from_fen("W:Wd4:Ba8", TURKISH), squares("d4", "c4"), False)
    assert side.ok
    diagonal = diagnose(Position.from_fen("W:Wd4:Ba8", TURKISH), squares("d4", "e5"), False)
    assert diagonal.fault is Fault.NOT_DIAGONAL and "one row or column" in diagonal.message
    short = diagnose(
        Position.from_fen("W:Wd4,Ka1:Bd5,d7,a3,e8", TURKISH), squares("a1", "a4"), True
    )
    assert short.fault is Fault.ILLEGAL_MOVE and "the most pieces" in short.message


# --------------------------------------------------------------------- perft
