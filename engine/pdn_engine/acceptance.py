"""Which legal move written squares name: the acceptance rule, in one place.

A written move is a sequence of 1-based squares: ``(from, to)`` (short form, which for a capture
may stand for a multi-jump), ``(from, landing, ..., to)`` (full path) or the PDN 3.0 "turning
points" form, which leaves out the landing squares where a flying king goes on straight. The
squares *fit* a move when they start and end where it does and the squares between are some of
its landing squares, in order; failing that, a full path is read leniently: its squares between
may be any squares the piece passes over. The squares *name* a move when every move they fit
leads to one position (a king's circle that can go either way round is still one move).

:func:`engine.diagnose` applies the rule to every legal move and explains what it rejects;
:class:`engine.MoveLookup` asks :func:`plain_match` for the common case and leaves the rest to
``diagnose``. Both go through :func:`fitting` and :func:`one_result`, so they cannot disagree.

>>> from pdn.engine import ENGLISH, Position
>>> pos = Position.from_fen("W:W27:B15,16,23,24", ENGLISH)
>>> found = fitting(ENGLISH, pos.legal_moves(), (27, 11))
>>> [m.notation(full=True) for m in found], one_result(pos, found)
(['27x18x11', '27x20x11'], False)
>>> plain_match(pos, (27, 18, 11), True).captures
(23, 15)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from .board import board_for
from .movegen import Move, rules_for
from .native import new_move
from .position import Position
from .variants import Variant


def _subsequence(needle: Sequence[int], haystack: Sequence[int]) -> bool:
    it = iter(haystack)
    return all(any(x == y for y in it) for x in needle)


def fits(path: Sequence[int], squares: Sequence[int]) -> bool:
    """Whether written ``squares`` fit a move's ``path``: same ends, the squares between some of
    its landing squares in order.

    >>> fits((27, 18, 11), (27, 11)), fits((27, 18, 11), (27, 20, 11))
    (True, False)
    """
    if path[0] != squares[0] or path[-1] != squares[-1]:
        return False
    if len(squares) == 2:
        return True
    return _subsequence(squares[1:-1], path[1:-1])


def _route(variant: Variant, path: Sequence[int], captures: Sequence[int]) -> tuple[int, ...]:
    """Every square the piece passes or lands on after its start, captured squares left out."""
    board = board_for(variant)
    taken = set(captures)
    out: list[int] = []
    for a, b in itertools.pairwise(path):
        out.extend(s for s in board.between(a, b) if s not in taken)
        out.append(b)
    return tuple(out)


def fits_route(variant: Variant, move: Move, squares: Sequence[int]) -> bool:
    """Whether a full path ``squares`` (three squares or more) fits ``move`` read leniently: its
    squares between may be any squares the piece passes over, not only where it lands."""
    if move.path[0] != squares[0] or move.path[-1] != squares[-1] or len(squares) == 2:
        return False
    route = _route(variant, move.path, move.captures)
    return _subsequence(squares[1:-1], route[:-1])


def fitting(
    variant: Variant, moves: Sequence[Move], squares: Sequence[int], *, lenient: bool = True
) -> list[Move]:
    """The ``moves`` that written ``squares`` fit, in order; with none, and ``lenient``, those a
    full path fits read leniently (:func:`fits_route`)."""
    found = [m for m in moves if fits(m.path, squares)]
    if lenient and not found and len(squares) > 2:
        found = [m for m in moves if fits_route(variant, m, squares)]
    return found


def one_result(position: Position, found: Sequence[Move]) -> bool:
    """Whether the moves ``found`` (at least one) all lead to the same position: then the
    written squares name the first of them."""
    if len(found) < 2:
        return True
    first = position.play(found[0]).key()
    return all(position.play(m).key() == first for m in found[1:])


def quick_match(position: Position, a: int, b: int) -> Move | None:
    """The plain legal step from ``a`` to ``b`` (no capture anywhere on the board), found by bit
    tests without generating every move; ``None`` when it is not one (which may still be legal:
    ask the general way)."""
    rules = rules_for(position.variant)
    board = rules.board
    bits = board.bit
    side = int(position.turn)
    own, opp = (position.black, position.white) if side == 0 else (position.white, position.black)
    ab, bb = bits[a], bits[b]
    if not ab & own or bb & (own | opp):
        return None
    kings = position.kings
    pa = board.index[a]
    pb = board.index[b]
    steps = board.step_table[pa]
    king = bool(ab & kings)
    if king:
        if rules.flying:
            found = board.direction(a, b)
            if found is None:
                return None
            occupied = own | opp
            if any(bits[s] & occupied for s in board.between(a, b)):
                return None
        elif pb not in steps:
            return None
    else:
        dirs = rules.man_move_dirs[side]
        # Two forward steps everywhere, plus two sideways ones in Turkish; no generator here,
        # this is the hot path of a replay.
        if pb != steps[dirs[0]] and pb != steps[dirs[1]] and pb not in [steps[d] for d in dirs[2:]]:
            return None
    if rules.has_capture(own, opp, kings, side):
        return None
    if king and position.variant.king_move_limit and position.blocked_king() == a:
        return None  # Frisian: this king has used its three moves; the full check explains it
    return new_move((a, b), (), king, not king and bool(bb & rules.crown[side]))


def plain_match(position: Position, squares: tuple[int, ...], capture_written: bool) -> Move | None:
    """The legal move ``squares`` name when ``diagnose`` would accept it without a remark: it
    fits them as written (not read leniently) and the separator says what it is; else ``None``.

    ``squares`` must be on the board.
    """
    if len(squares) < 2:
        return None
    a, b = squares[0], squares[-1]
    if len(squares) == 2 and not capture_written:
        quick = quick_match(position, a, b)
        if quick is not None:
            return quick
    between = position.legal_moves(between=(a, b))
    found = fitting(position.variant, between, squares, lenient=False)
    if not found or not one_result(position, found):
        return None  # illegal, ambiguous or read leniently: diagnose explains or reads it
    move = found[0]
    if move.is_capture != capture_written:
        return None  # diagnose accepts it with a remark on the separator
    return move


__all__ = ["fits", "fits_route", "fitting", "one_result", "plain_match", "quick_match"]
