"""The variants pydraughts 0.6.7 also implements, cross-checked against it as an oracle.

pydraughts is only an oracle here (no code of it is used by the engine). Three checks per variant:

* perft from the start position equals pydraughts' perft at shallow depths (its own figures at
  deeper depths are written out in the per-variant test files, computed once and marked there);
* random games *played by pydraughts* replay in our engine: every move it plays is legal for us,
  the legal-move sets agree position by position, and both end on the same position;
* random positions (men and kings scattered over the board, either side to move) have the same
  legal moves in both.

Square numbers are converted where the two number a board differently (see ``_ours``/``_theirs``).
Where pydraughts and the federation rules disagree, the engine follows the federation; such a case
is described in ``KNOWN_DIFFERENCES`` (docs/rules.md explains it), and only the pydraughts moves
it describes are left out of the comparison.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from pdn.engine import Color, Piece, Position, Variant, board_for, get_variant, perft

pytestmark = pytest.mark.oracle

draughts = pytest.importorskip("draughts")

#: Our variant name -> pydraughts' name.
ORACLE_NAMES = {"italian": "italian", "turkish": "turkish", "frisian": "frisian"}


def _king_passes_over_a_piece(pos: Position, path: tuple[int, ...], captures: int) -> str | None:
    """pydraughts 0.6.7 lets a Turkish king's *non-capturing* move pass over pieces.

    ``W:We1,Kg1:Bf7,h6,f5,Kc4``: it offers g1-d1 over its own man on e1, and from a8-style edges
    whole columns through men of either side. The federation (and every rule text) lets a king move
    only along empty squares (docs/rules.md, Turkish), so such moves are left out of the comparison;
    everything else pydraughts generates must still agree.
    """
    piece = pos.piece_at(path[0])
    if captures or len(path) != 2 or piece is None or not piece.king:
        return None
    between = board_for(pos.variant).between(path[0], path[1])
    if any(pos.piece_at(s) is not None for s in between):
        return "pydraughts: a Turkish king's quiet move passes over a piece"
    return None


def _float_value_tie(pos: Position, ours: set[tuple[int, ...]], theirs: Any) -> str | None:
    """pydraughts 0.6.7 compares Frisian capture values as float sums taken in jump order.

    It adds 1 per man and 1.501 per king in the order the pieces are jumped, so two captures of
    the same pieces in another order can differ in the last bit (1 + 1.501 + 1.501 + 1 = 5.002,
    1 + 1 + 1.501 + 1.501 = 5.001999...), and only the "larger" survives; the king-capture
    tie-break then sees only what is left. The federation compares values, not orders: when every
    capture on both sides has the same number of pieces and of kings, the position is this case.
    """
    mine = set()
    for move in pos.legal_moves():
        if not move.captures:
            return None
        mine.add(_value(pos, move.captures))
    other = {_value(pos, tuple(_ours(pos.variant, s) for s in m.captures or ())) for m in theirs}
    if len(mine | other) == 1:
        return "pydraughts: float sums in jump order break a tie between equal-value captures"
    if len(mine) == 1 and len(other) == 1:
        # The other documented difference: pydraughts weighs a king 1.501 men, the federation
        # "a little less than two" (docs/rules.md); they part from 3 kings against 5 men on.
        (n1, k1), (n2, k2) = *mine, *other
        federation = (n1 + k1, -k1) > (n2 + k2, -k2)
        theirs_higher = 1000 * (n2 - k2) + 1501 * k2 >= 1000 * (n1 - k1) + 1501 * k1
        if federation and theirs_higher:
            return "pydraughts weighs a king 1.5 men, the federation a little under 2"
    return None


def _value(pos: Position, captures: tuple[int, ...]) -> tuple[int, int]:
    kings = 0
    for square in captures:
        piece = pos.piece_at(square)
        kings += bool(piece and piece.king)
    return len(captures), kings


#: Our variant name -> a test of a whole position (our legal paths, pydraughts' moves) whose
#: comparison is known to fail because of a pydraughts defect: the reason, else ``None``.
POSITION_DIFFERENCES: dict[str, Callable[[Position, set[tuple[int, ...]], Any], str | None]] = {
    "frisian": _float_value_tie,
}


#: Our variant name -> a test of one pydraughts move (position, path in our numbers, number of
#: captures) that is known to be wrong by the federation's rules: the reason, else ``None``.
#: Only those moves are left out; the rest of pydraughts' move list is compared as it is.
KNOWN_DIFFERENCES: dict[str, Callable[[Position, tuple[int, ...], int], str | None]] = {
    "turkish": _king_passes_over_a_piece,
}


def _theirs_board(variant: Variant, pos: Position) -> Any:
    # pydraughts reads Turkish FENs in algebraic squares, the others in its (= our) numbers.
    fen = pos.fen(algebraic=variant.layout == "orthogonal")
    return draughts.Board(variant=ORACLE_NAMES[variant.name], fen=fen)


def _ours(variant: Variant, square: int) -> int:
    """pydraughts' square number as ours.

    It numbers the Turkish board from a1 = 1 upward, row by row (a2 = 9 ... h8 = 64); the engine
    numbers every board from the top-left (a8 = 1) down. Elsewhere the numbers agree.
    """
    if variant.layout != "orthogonal":
        return square
    rank, file = divmod(square - 1, variant.width)
    return (variant.height - 1 - rank) * variant.width + file + 1


def _path(variant: Variant, move: Any) -> tuple[int, ...]:
    return tuple(_ours(variant, s) for s in move.steps_move)


def _their_legal(variant: Variant, pos: Position, board: Any) -> list[Any]:
    """pydraughts' legal moves, less the ones ``KNOWN_DIFFERENCES`` documents as wrong."""
    check = KNOWN_DIFFERENCES.get(variant.name)
    moves = board.legal_moves()
    if check is None:
        return list(moves)
    return [m for m in moves if check(pos, _path(variant, m), len(m.captures or ())) is None]


def _their_moves(variant: Variant, pos: Position, board: Any) -> set[tuple[int, ...]]:
    return {_path(variant, m) for m in _their_legal(variant, pos, board)}


def _our_moves(pos: Position) -> set[tuple[int, ...]]:
    return {m.path for m in pos.legal_moves()}


def _position_known(
    variant: Variant, pos: Position, ours: set[tuple[int, ...]], theirs: Any
) -> bool:
    check = POSITION_DIFFERENCES.get(variant.name)
    return check is not None and check(pos, ours, theirs) is not None


def _their_perft(board: Any, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += _their_perft(board, depth - 1)
        board.pop()
    return total


VARIANTS = [get_variant(name) for name in ORACLE_NAMES]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_perft_from_the_start_equals_pydraughts(variant: Variant) -> None:
    start = Position.start(variant)
    board = draughts.Board(variant=ORACLE_NAMES[variant.name])
    assert Position.from_fen(board.fen, variant) == start
    # pydraughts needs about 30 s for Turkish depth 4 (7538 leaves); the per-variant files
    # carry its deeper figures.
    deepest = 3 if variant.layout == "orthogonal" or variant.width > 8 else 4
    for depth in range(1, deepest + 1):
        assert perft(start, depth) == _their_perft(board, depth), depth


def _sizes(fast: int, slow: int) -> list[Any]:
    # The normal suite keeps this file near 20 s; the slow run looks much further.
    return [pytest.param(fast, id="fast"), pytest.param(slow, id="deep", marks=pytest.mark.slow)]


@pytest.mark.parametrize("games", _sizes(6, 80))
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_games_played_by_pydraughts_replay_move_for_move(variant: Variant, games: int) -> None:
    rng = random.Random(9 + len(variant.name) + games)
    if variant.layout == "orthogonal":
        games = max(1, games // 2)  # pydraughts is slowest on the 64-square board
    plies = 0
    for _ in range(games):
        board = draughts.Board(variant=ORACLE_NAMES[variant.name])
        pos = Position.start(variant)
        for _ in range(200):
            assert Position.from_fen(board.fen, variant).fen() == pos.fen(), pos.fen()
            theirs = _their_moves(variant, pos, board)
            ours_now = _our_moves(pos)
            candidates = _their_legal(variant, pos, board)
            if ours_now != theirs and _position_known(variant, pos, ours_now, candidates):
                # Follow pydraughts only where it plays a move that is legal for us too.
                candidates = [m for m in candidates if _path(variant, m) in ours_now]
            else:
                assert ours_now == theirs, pos.fen()
            if not candidates:
                break
            move = rng.choice(candidates)
            path = _path(variant, move)
            ours = [m for m in pos.legal_moves() if m.path == path]
            assert ours, (pos.fen(), path)
            # Two paths can share their squares and differ in what they take (a king's circle);
            # the captured pieces decide which one pydraughts played.
            taken = {_ours(variant, s) for s in move.captures or ()}
            ours = [m for m in ours if set(m.captures) == taken] or ours
            board.push(move)
            pos = pos.play(ours[0])
            plies += 1
        assert Position.from_fen(board.fen, variant).fen() == pos.fen()
    assert plies > 40 * games


def _random_position(variant: Variant, rng: random.Random) -> Position:
    board = board_for(variant)
    pieces: dict[int, Piece] = {}
    for square in rng.sample(range(1, board.squares + 1), rng.randint(6, 20)):
        color = rng.choice([Color.BLACK, Color.WHITE])
        last_row = board.bottom_row if color is Color.BLACK else board.top_row
        # A man on its crowning row is not a position either engine has to handle.
        pieces[square] = Piece(color, bool(board.bit[square] & last_row) or rng.random() < 0.4)
    return Position.from_pieces(variant, rng.choice([Color.BLACK, Color.WHITE]), pieces)


@pytest.mark.parametrize("count", _sizes(800, 20000))
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_random_positions_agree_with_pydraughts(variant: Variant, count: int) -> None:
    rng = random.Random(2024 + count)
    if variant.layout == "orthogonal":
        count //= 2  # pydraughts is slow on the 64-square board...
    elif variant.width > 8:
        count //= 8  # ... and slower still on Frisian captures in eight directions
    captures = 0
    for _ in range(count):
        pos = _random_position(variant, rng)
        ours = _our_moves(pos)
        board = _theirs_board(variant, pos)
        theirs = _their_moves(variant, pos, board)
        if ours != theirs and _position_known(variant, pos, ours, board.legal_moves()):
            continue
        assert ours == theirs, pos.fen()
        if any(len(path) > 2 for path in ours):
            captures += 1
    assert captures > count // 20  # the capture rules were exercised, not only quiet moves
