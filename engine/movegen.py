"""Legal move generation on padded bitboards, the :class:`Move` record and :func:`perft`.

Everything below :class:`Move` works on integers: a side's pieces are a bitboard (see
:mod:`engine.board` for the layout), the side to move is ``0`` (Black, moving towards the high
square numbers) or ``1`` (White). One :class:`Rules` object per variant holds the precomputed
tables; the generator reads the variant's flags, so all variants share one code path except the
perft leaf counter, which has a shortcut for quiet positions.

Rules that are easy to get subtly wrong, and how they are handled here:

* A capturing piece leaves its square at once (a king may pass over it or end on it, as in a
  king's circular capture), but the pieces it jumps stay on the board until the move is complete:
  they cannot be jumped twice and they block a flying king's path.
* A flying king must, after each capture, land on a square from which it can go on capturing if
  there is one; among such squares it may choose. When it goes on in the same direction, every
  empty square before the next piece is such a square, and each gives its own path (same result):
  that is the convention of the published "duplicates counted" perft figures (Russian depth 10:
  22,450,647; counting the straight run once gives 22,450,628). ``every_stop=False`` generates the
  straight run once, from the square just behind the captured piece (the square PDN writes), which
  gives the same set of resulting positions faster; merged perft uses it.
* Majority capture keeps only the sequences that take the most pieces (kings count as one).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .board import Board, board_for
from .variants import Variant

if TYPE_CHECKING:
    from .position import Position

#: A capture as the generator sees it: start index, landing indices, captured indices, crowned.
RawCapture = tuple[int, tuple[int, ...], tuple[int, ...], bool]
#: What a move does to a position: (own pieces xor, captured bits, kings xor).
Delta = tuple[int, int, int]
#: Per padded index: (direction, jumped index, jumped bit, landing index, landing bit).
#: The rest of a capture from some square on: (landing indices, captured indices).
Tail = tuple[tuple[int, ...], tuple[int, ...]]
JumpTable = tuple[tuple[tuple[int, int, int, int, int], ...], ...]


@dataclass(frozen=True, slots=True)
class Move:
    """A move: the squares the moving piece stands on, first to last, and what it captures.

    ``path`` and ``captures`` use 1-based square numbers; ``captures`` is in jump order. Two moves
    are equal when their paths and captures are; ``king`` (the mover was a king) and ``crowns``
    (a man becomes a king) are informative only.

    >>> m = Move((9, 18, 27), (14, 23))
    >>> m.notation(), m.notation(full=True), m.notation(sep=":")
    ('9x27', '9x18x27', '9:27')
    """

    path: tuple[int, ...]
    captures: tuple[int, ...] = ()
    king: bool = field(default=False, compare=False)
    crowns: bool = field(default=False, compare=False)

    @property
    def start(self) -> int:
        """The square the piece starts on."""
        return self.path[0]

    @property
    def end(self) -> int:
        """The square the piece ends on."""
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        """True when the move takes at least one piece."""
        return bool(self.captures)

    @property
    def is_man_move(self) -> bool:
        """True when a man (not a king) moved; with :attr:`is_capture`, what draw counts need."""
        return not self.king

    def notation(self, full: bool = False, sep: str | None = None) -> str:
        """Numeric notation: ``"11-15"``, ``"9x27"`` or, with ``full``, ``"9x18x27"``.

        ``sep`` replaces the capture separator (``":"`` for Russian); quiet moves always use
        ``-``. Algebraic names are a matter for the notation layer (see ``Board.algebraic``).
        """
        if not self.captures:
            return f"{self.path[0]}-{self.path[-1]}"
        joiner = "x" if sep is None else sep
        squares = self.path if full else (self.path[0], self.path[-1])
        return joiner.join(str(s) for s in squares)

    def __str__(self) -> str:
        return self.notation()


def _shift(x: int, offset: int) -> int:
    return x << offset if offset > 0 else x >> -offset


class Rules:
    """Precomputed tables and the move generator for one variant. Use :func:`rules_for`."""

    def __init__(self, variant: Variant) -> None:
        board = board_for(variant)
        self.variant = variant
        self.board: Board = board
        self.mask = board.mask
        self.offsets = board.offsets
        n = board.n
        self.n = n
        self.flying = variant.flying_kings
        self.majority = variant.majority_capture
        self.crown_mid = variant.crown_mid_capture
        #: Crowning row per side: Black (0) crowns on the bottom row, White (1) on the top row.
        self.crown = (board.bottom_row, board.top_row)
        #: Directions a man moves (forward) and captures in, per side.
        self.man_move_dirs = ((2, 3), (0, 1))
        all_dirs = (0, 1, 2, 3)
        self.man_capture_dirs = (
            (all_dirs, all_dirs) if variant.men_capture_backward else self.man_move_dirs
        )
        size = len(board.step_table)
        bits = [1 << p for p in range(size)]
        self.bits = tuple(bits)

        def jump_table(dirs: tuple[int, ...]) -> JumpTable:
            table: list[tuple[tuple[int, int, int, int, int], ...]] = []
            for p in range(size):
                entries = []
                for d in dirs:
                    mid = board.step_table[p][d]
                    if mid < 0:
                        continue
                    land = board.step_table[mid][d]
                    if land < 0:
                        continue
                    entries.append((d, mid, bits[mid], land, bits[land]))
                table.append(tuple(entries))
            return tuple(table)

        self.man_jumps = (
            jump_table(self.man_capture_dirs[0]),
            jump_table(self.man_capture_dirs[1]),
        )
        self.king_jumps = jump_table(all_dirs)
        self.rays = board.ray_table
        self.index_of_bit = {1 << p: p for p in range(size)}

    # ----------------------------------------------------------------------------- detection

    def has_capture(self, own: int, opp: int, kings: int, side: int) -> bool:
        """Whether the side owning ``own`` has any capture (bitboards only, no generation)."""
        empty = self.mask & ~(own | opp)
        men = own & ~kings
        king = own & kings
        short = men if not king or self.flying else own
        offsets = self.offsets
        dirs = self.man_capture_dirs[side]
        for d in dirs:
            off = offsets[d]
            if _shift(_shift(short, off) & opp, off) & empty:
                return True
        if king:
            if not self.flying:
                for d in (0, 1, 2, 3):
                    if d in dirs:
                        continue
                    off = offsets[d]
                    if _shift(_shift(king, off) & opp, off) & empty:
                        return True
            else:
                for off in offsets:
                    reach = king
                    front = king
                    while front:
                        front = _shift(front, off) & empty
                        reach |= front
                    if _shift(_shift(reach, off) & opp, off) & empty:
                        return True
        return False

    # ----------------------------------------------------------------------------- captures

    def captures(
        self, own: int, opp: int, kings: int, side: int, every_stop: bool = True
    ) -> list[RawCapture]:
        """Every legal capture sequence (one per path); empty when there is none.

        With ``every_stop=False`` a flying king that goes on straight after a capture is generated
        once instead of once per square it could stop on (see the module docstring).
        """
        mask = self.mask
        occupied = own | opp
        crown = self.crown[side]
        crown_mid = self.crown_mid
        flying = self.flying
        bits = self.bits
        rays = self.rays
        king_jumps = self.king_jumps
        man_jumps = self.man_jumps[side]
        out: list[RawCapture] = []
        empty = 0

        def king_walk(p: int, cap: int, in_dir: int, straight: bool) -> list[Tail]:
            # Continuations of a flying king standing on p; [] when it cannot capture from p.
            results: list[Tail] = []
            back = 3 - in_dir
            ray_p = rays[p]
            for d in (0, 1, 2, 3):
                if d == back or (d == in_dir and not straight):
                    continue
                ray = ray_p[d]
                length = len(ray)
                k = 0
                while k < length and bits[ray[k]] & empty:
                    k += 1
                if k >= length:
                    continue
                x = ray[k]
                xb = bits[x]
                if not xb & opp or xb & cap:
                    continue
                k += 1
                first = k
                cont: list[Tail] = []
                term: list[Tail] = []
                newcap = cap | xb
                while k < length and bits[ray[k]] & empty:
                    q = ray[k]
                    sub = king_walk(q, newcap, d, every_stop or k == first)
                    if sub:
                        for lands, caps in sub:
                            cont.append(((q, *lands), (x, *caps)))
                    elif not cont:
                        term.append(((q,), (x,)))
                    k += 1
                results.extend(cont if cont else term)
            return results

        def short_walk(
            p: int,
            cap: int,
            path: tuple[int, ...],
            caps: tuple[int, ...],
            table: JumpTable,
            start: int,
        ) -> None:
            # Men (and short-range kings when table is king_jumps): one square over, one beyond.
            extended = False
            for d, mid, midb, land, landb in table[p]:
                if midb & opp and not midb & cap and landb & empty:
                    extended = True
                    if table is not king_jumps and landb & crown and crown_mid:
                        # Russian: crowned on the spot, goes on capturing as a flying king.
                        sub = king_walk(land, cap | midb, d, True)
                        if sub:
                            for tail, more in sub:
                                out.append((start, (*path, land, *tail), (*caps, mid, *more), True))
                        else:
                            out.append((start, (*path, land), (*caps, mid), True))
                    else:
                        short_walk(land, cap | midb, (*path, land), (*caps, mid), table, start)
            if not extended and caps:
                crowned = table is not king_jumps and bool(bits[p] & crown)
                out.append((start, path, caps, crowned))

        own_kings = own & kings
        men = own & ~kings
        offsets = self.offsets
        # Only pieces that can make a first jump start a search.
        jumpers = 0
        free = mask & ~occupied
        for d in self.man_capture_dirs[side]:
            off = offsets[d]
            # men with an opponent next to them and an empty square beyond
            jumpers |= _shift(_shift(free, -off) & opp, -off) & men
        if own_kings and not flying:
            for off in offsets:
                jumpers |= _shift(_shift(free, -off) & opp, -off) & own_kings
        elif own_kings:
            jumpers |= own_kings
        while jumpers:
            b = jumpers & -jumpers
            jumpers ^= b
            p = self.index_of_bit[b]
            empty = (mask & ~occupied) | b
            if b & kings:
                if flying:
                    for lands, caps in king_walk(p, 0, -1, True):
                        out.append((p, lands, caps, False))
                else:
                    short_walk(p, 0, (), (), king_jumps, p)
            else:
                short_walk(p, 0, (), (), man_jumps, p)
        if self.majority and out:
            most = max(len(c[2]) for c in out)
            out = [c for c in out if len(c[2]) == most]
        return out

    # ----------------------------------------------------------------------------- quiet moves

    def quiet(self, own: int, opp: int, kings: int, side: int) -> list[tuple[int, int]]:
        """Every non-capturing move as ``(from index, to index)``."""
        empty = self.mask & ~(own | opp)
        offsets = self.offsets
        index = self.index_of_bit
        out: list[tuple[int, int]] = []
        men = own & ~kings
        king = own & kings
        for d in self.man_move_dirs[side]:
            off = offsets[d]
            targets = _shift(men, off) & empty
            while targets:
                b = targets & -targets
                targets ^= b
                out.append((index[_shift(b, -off)], index[b]))
        if king:
            if self.flying:
                bits = self.bits
                rays = self.rays
                k = king
                while k:
                    b = k & -k
                    k ^= b
                    p = index[b]
                    for ray in rays[p]:
                        for q in ray:
                            if not bits[q] & empty:
                                break
                            out.append((p, q))
            else:
                for off in offsets:
                    targets = _shift(king, off) & empty
                    while targets:
                        b = targets & -targets
                        targets ^= b
                        out.append((index[_shift(b, -off)], index[b]))
        return out

    def count_quiet(self, own: int, opp: int, kings: int, side: int) -> int:
        """How many non-capturing moves there are, by whole-board shifts."""
        empty = self.mask & ~(own | opp)
        offsets = self.offsets
        men = own & ~kings
        total = 0
        for d in self.man_move_dirs[side]:
            total += (_shift(men, offsets[d]) & empty).bit_count()
        king = own & kings
        if king:
            if self.flying:
                for off in offsets:
                    front = king
                    while front:
                        front = _shift(front, off) & empty
                        total += front.bit_count()
            else:
                for off in offsets:
                    total += (_shift(king, off) & empty).bit_count()
        return total

    # ----------------------------------------------------------------------------- deltas

    def deltas(
        self, own: int, opp: int, kings: int, side: int, every_stop: bool = True
    ) -> list[Delta]:
        """Every legal move as ``(own xor, captured bits, kings xor)``, one per path."""
        bits = self.bits
        if self.has_capture(own, opp, kings, side):
            result: list[Delta] = []
            for start, lands, caps, crowned in self.captures(own, opp, kings, side, every_stop):
                sb = bits[start]
                eb = bits[lands[-1]]
                ox = sb ^ eb
                cm = 0
                for c in caps:
                    cm |= bits[c]
                if sb & kings:
                    kx = ox
                elif crowned:
                    kx = eb
                else:
                    kx = 0
                result.append((ox, cm, kx))
            return result
        crown = self.crown[side]
        out: list[Delta] = []
        for frm, to in self.quiet(own, opp, kings, side):
            fb = bits[frm]
            tb = bits[to]
            ox = fb | tb
            if fb & kings:
                out.append((ox, 0, ox))
            elif tb & crown:
                out.append((ox, 0, tb))
            else:
                out.append((ox, 0, 0))
        return out


@functools.cache
def rules_for(variant: Variant) -> Rules:
    """The shared :class:`Rules` (tables + generator) of a variant."""
    return Rules(variant)


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
    count: Callable[[Rules, int, int, int, int, int], int] = (
        _perft_merged if merge_duplicates else _perft_counted
    )
    return count(rules, own, opp, position.kings, side, depth)
