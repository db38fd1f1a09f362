"""Perft: the number of move paths of a given length from a position (the engine's check).

The counts of :func:`perft` are those published for each variant (``tests/test_engine_perft.py``
and the variant tests hold them). Where a king-move limit cannot bite it counts on bitboards,
through :class:`~.movegen.Rules`; otherwise through :class:`~.position.Position`, which carries
the king-move counts.
"""

from __future__ import annotations

from collections.abc import Callable

from .movegen import Rules, rules_for
from .position import Position

__all__ = ["perft"]


def _perft_counted(rules: Rules, own: int, opp: int, kings: int, side: int, depth: int) -> int:
    if depth == 1:
        if rules.has_capture(own, opp, kings, side):
            return len(rules.captures(own, opp, kings, side))
        return rules.count_quiet(own, opp, kings, side)
    total = 0
    other = 1 - side
    for ox, cm, kx in rules.deltas(own, opp, kings, side):
        total += _perft_counted(rules, opp ^ cm, own ^ ox, (kings & ~cm) ^ kx, other, depth - 1)
    return total


def _perft_merged(rules: Rules, own: int, opp: int, kings: int, side: int, depth: int) -> int:
    moves = set(rules.deltas(own, opp, kings, side, False))
    if depth == 1:
        return len(moves)
    total = 0
    other = 1 - side
    for ox, cm, kx in moves:
        total += _perft_merged(rules, opp ^ cm, own ^ ox, (kings & ~cm) ^ kx, other, depth - 1)
    return total


def _limit_out_of_reach(position: Position, depth: int, limit: int) -> bool:
    """Whether a king-move limit cannot bite within ``depth`` plies (so bitboards suffice).

    A side makes at most ``ceil(depth / 2)`` moves. To be refused one, a king must already have
    made ``limit`` quiet moves in a row; a side without a king needs one more move to crown one.
    """
    moves = (depth + 1) // 2
    counts = position.king_moves[1], position.king_moves[3]
    needed = limit - max(counts) + 1 if position.kings else limit + 2
    return moves < needed


def _perft_positions(position: Position, depth: int, merge: bool) -> int:
    # The slow path, through Position objects, which carry the king-move counts.
    moves = position.legal_moves(merge_duplicates=merge)
    if depth == 1:
        return len(moves)
    return sum(_perft_positions(position.play(m), depth - 1, merge) for m in moves)


def perft(position: Position, depth: int, *, merge_duplicates: bool = False) -> int:
    """The number of move paths of length ``depth`` from ``position`` (leaf count).

    Moves are counted as generated, one per path: a king's circular capture that can go round
    either way is two moves, and so is a flying king's capture that may stop on either of two
    squares before going on straight. With ``merge_duplicates`` moves leading to the same position
    are counted once. ``perft(pos, 1) == len(pos.legal_moves())`` always holds.

    >>> from pdn.engine import ENGLISH, Position
    >>> perft(Position.start(ENGLISH), 3)
    302
    """
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    rules = rules_for(position.variant)
    side = int(position.turn)
    own, opp = (position.black, position.white) if side == 0 else (position.white, position.black)
    limit = position.variant.king_move_limit
    if limit and not _limit_out_of_reach(position, depth, limit):
        return _perft_positions(position, depth, merge_duplicates)
    count: Callable[[Rules, int, int, int, int, int], int] = (
        _perft_merged if merge_duplicates else _perft_counted
    )
    return count(rules, own, opp, position.kings, side, depth)
