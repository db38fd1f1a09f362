"""Thai draughts (mak-hot, GameType 31): hand-made positions and an independent reference.

pydraughts has no Thai rules, and dctl's published Thai perft starts from 12 men each, not from
Thai's 8 (tests/test_rules_audit.py checks the engine against it from that position), so besides
one hand-made position per rule this file carries a small *independent* move generator (plain
coordinates and a dictionary, written from the rules in docs/rules.md, sharing nothing with the
engine but the square numbering) and checks the engine against it: legal moves on random
positions and perft from the start.
"""

from __future__ import annotations

import itertools
import random

import pytest
from variant_cases import START_PERFT

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

THAI = get_variant("thai")
BOARD = board_for(THAI)

# Perft from the start (checked in tests/test_engine_perft.py), for the reference generator.
THAI_PERFT = {depth: merged for depth, (_, merged) in START_PERFT["thai"].items()}


def moves(fen: str) -> set[str]:
    out = set()
    for m in Position.from_fen(fen, THAI).legal_moves():
        out.add(("x" if m.captures else "-").join(BOARD.algebraic(s) for s in m.path))
    return out


def squares(*names: str) -> tuple[int, ...]:
    return tuple(s for s in (BOARD.square_of(n) for n in names) if s is not None)


# --------------------------------------------------------------------- the reference generator

Cell = tuple[int, int]  # (column, row), row 0 at the top as seen from White
Board = dict[Cell, tuple[Color, bool]]
DIAGONALS = ((-1, -1), (1, -1), (-1, 1), (1, 1))


def _cells(pos: Position) -> Board:
    return {BOARD.coordinates(s): (p.color, p.king) for s, p in pos.pieces().items()}


def _on_board(cell: Cell) -> bool:
    return 0 <= cell[0] < 8 and 0 <= cell[1] < 8


def _reference_moves(board: Board, side: Color) -> list[tuple[Cell, ...]]:
    """Every legal move as the cells the piece stands on: Thai rules, nothing precomputed."""
    forward = -1 if side is Color.WHITE else 1
    captures: list[tuple[Cell, ...]] = []

    def jumps(cell: Cell, king: bool, taken: Board) -> list[tuple[Cell, Cell]]:
        # (captured cell, landing cell) pairs from ``cell``; captured pieces are gone already.
        found = []
        for dc, dr in DIAGONALS:
            if not king and dr != forward:
                continue
            c, r = cell[0] + dc, cell[1] + dr
            if king:
                while _on_board((c, r)) and (c, r) not in taken:
                    c, r = c + dc, r + dr
            victim, landing = (c, r), (c + dc, r + dr)
            if not _on_board(victim) or victim not in taken or taken[victim][0] is side:
                continue
            if _on_board(landing) and landing not in taken:
                found.append((victim, landing))
        return found

    def walk(path: tuple[Cell, ...], king: bool, taken: Board) -> None:
        more = jumps(path[-1], king, taken)
        if not more and len(path) > 1:
            captures.append(path)
        for victim, landing in more:
            rest = {k: v for k, v in taken.items() if k != victim}  # removed at once
            walk((*path, landing), king, rest)

    for cell, (color, king) in board.items():
        if color is side:
            walk((cell,), king, {k: v for k, v in board.items() if k != cell})
    if captures:
        return captures  # compulsory, no majority rule
    quiet = []
    for cell, (color, king) in board.items():
        if color is not side:
            continue
        for dc, dr in DIAGONALS:
            if not king and dr != forward:
                continue
            c, r = cell[0] + dc, cell[1] + dr
            while _on_board((c, r)) and (c, r) not in board:
                quiet.append((cell, (c, r)))
                if not king:
                    break
                c, r = c + dc, r + dr
    return quiet


def _reference_play(board: Board, side: Color, path: tuple[Cell, ...]) -> Board:
    color, king = board[path[0]]
    after = {k: v for k, v in board.items() if k != path[0]}
    for a, b in itertools.pairwise(path):
        dc = (b[0] > a[0]) - (b[0] < a[0])
        dr = (b[1] > a[1]) - (b[1] < a[1])
        c, r = a[0] + dc, a[1] + dr
        while (c, r) != b:
            after.pop((c, r), None)
            c, r = c + dc, r + dr
    last_row = 0 if side is Color.WHITE else 7
    after[path[-1]] = (color, king or path[-1][1] == last_row)
    return after


def _reference_perft(board: Board, side: Color, depth: int) -> int:
    found = _reference_moves(board, side)
    if depth == 1:
        return len(found)
    return sum(
        _reference_perft(_reference_play(board, side, p), side.opponent, depth - 1) for p in found
    )


def _as_squares(path: tuple[Cell, ...]) -> tuple[int, ...]:
    out = []
    for cell in path:
        square = BOARD.square_at(*cell)
        assert square is not None
        out.append(square)
    return tuple(out)


# --------------------------------------------------------------------- rules


def test_registry_board_and_start() -> None:
    assert variant_for_game_type(31) is THAI and get_variant("mak-hot") is THAI
    start = Position.start(THAI)
    assert start.turn is Color.WHITE
    assert start.fen() == "W:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8"  # two rows each
    assert {BOARD.algebraic(s) for s in (25, 29, 1, 5)} == {"b2", "a1", "b8", "a7"}
    assert len(start.legal_moves()) == 7


def test_king_lands_just_behind_the_piece() -> None:
    assert moves("W:WKa1:Bd4") == {"a1xe5"}


def test_king_flies_on_quiet_moves() -> None:
    assert moves("W:WKa1:Bh8") == {"a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7"}


def test_pieces_leave_at_once_so_a_king_may_turn_back() -> None:
    # After taking e5 (landing f6) the king goes back down the same diagonal, over the square
    # e5 freed and its own start, to take c3; or the other way round.
    assert moves("W:WKd4:Be5,c3") == {"d4xf6xb2", "d4xb2xf6"}


def test_two_pieces_in_a_row_block_a_king() -> None:
    assert moves("W:WKa1:Bc3,d4") == {"a1-b2"}


def test_men_move_and_capture_forward_only() -> None:
    assert moves("W:Wd4:Bc3") == {"d4-c5", "d4-e5"}


def test_no_majority_rule() -> None:
    assert moves("W:Wc3:Bb4,d4,f6") == {"c3xa5", "c3xe5xg7"}
    assert moves("W:WKd4:Be5,c3,b6") == {"d4xa7", "d4xb2xf6", "d4xf6xb2"}


def test_a_man_crowned_by_a_capture_stops() -> None:
    pos = Position.from_fen("W:Wd6:Be7,g7", THAI)
    [move] = pos.legal_moves()
    assert BOARD.algebraic(move.end) == "f8" and move.crowns
    assert pos.play(move).piece_at(move.end) == Piece(Color.WHITE, king=True)


def test_diagnose_king_landing_too_far() -> None:
    pos = Position.from_fen("W:WKa1:Bd4", THAI)
    d = diagnose(pos, squares("a1", "f6"), True)
    assert d.fault is Fault.ILLEGAL_MOVE
    assert "just behind the piece it captures" in d.message and "29x15" in d.message
    assert d.applied is not None


# --------------------------------------------------------------------- against the reference


def test_random_positions_agree_with_the_reference() -> None:
    rng = random.Random(31)
    captures = 0
    for _ in range(1500):
        pieces: dict[int, Piece] = {}
        for square in rng.sample(range(1, 33), rng.randint(4, 14)):
            color = rng.choice([Color.BLACK, Color.WHITE])
            last = BOARD.bottom_row if color is Color.BLACK else BOARD.top_row
            pieces[square] = Piece(color, bool(BOARD.bit[square] & last) or rng.random() < 0.4)
        pos = Position.from_pieces(THAI, rng.choice([Color.BLACK, Color.WHITE]), pieces)
        ours = sorted(m.path for m in pos.legal_moves())
        theirs = sorted(_as_squares(p) for p in _reference_moves(_cells(pos), pos.turn))
        assert ours == theirs, pos.fen()
        captures += bool(ours) and len(ours[0]) > 2
    assert captures > 150


def test_perft_agrees_with_the_reference() -> None:
    start = Position.start(THAI)
    cells = _cells(start)
    for depth in range(1, 5):
        assert (
            perft(start, depth) == _reference_perft(cells, Color.WHITE, depth) == THAI_PERFT[depth]
        )


@pytest.mark.slow
def test_perft_agrees_with_the_reference_deep() -> None:
    cells = _cells(Position.start(THAI))
    for depth in (5, 6):
        assert _reference_perft(cells, Color.WHITE, depth) == THAI_PERFT[depth]
