"""Legal move generation on padded bitboards and the :class:`Move` record.

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
* Majority capture keeps only the sequences that take the most pieces (kings count as one); the
  variant's ``capture_priority`` rules then choose among those, in order (Italian: with a king
  rather than a man, the most kings, a king met earliest; Czech: with a king).
* Where pieces are removed as they are jumped (``pieces_removed_at_once``: Turkish, Thai), a
  captured square is free at once for the rest of the move; a piece still cannot be taken twice,
  since it is gone, and a king still may not turn back along the line it came (the 180-degree
  rule, which the generator applies everywhere: elsewhere the jumped piece blocks that way).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from .board import LEFT, RIGHT, Board, board_for, square_name
from .pickling import pickle_by_fields
from .variants import Variant

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
    def is_reversible(self) -> bool:
        """True for a king's move that takes nothing: the one kind of move a position can come
        back from (see :class:`~pdn_engine.history.History`)."""
        return self.king and not self.captures

    @property
    def is_man_move(self) -> bool:
        """True when a man (not a king) moved; with :attr:`is_capture`, what draw counts need."""
        return not self.king

    def notation(self, full: bool = False, sep: str | None = None) -> str:
        """Numeric notation: ``"11-15"``, ``"9x27"`` or, with ``full``, ``"9x18x27"``;
        :func:`move_text` without a variant (``sep``: its ``separator``)."""
        return move_text(self, full=full, separator=sep)

    def __str__(self) -> str:
        return self.notation()


pickle_by_fields(Move)

#: The capture separators a move may be written with; ``-`` always marks a plain move.
CAPTURE_SEPARATORS = ("x", ":")


def move_text(
    move: Move,
    variant: Variant | None = None,
    *,
    full: bool = False,
    algebraic: bool | None = None,
    separator: str | None = None,
) -> str:
    """A move in PDN 3.0 form: ``11-15``, ``9x27`` or, with ``full``, the whole path ``9x18x27``.

    The one writer of a move's text. The squares are named as ``variant`` writes them
    (:func:`~pdn_engine.board.square_name`; numbers without a variant, or with ``algebraic``
    false); a capture is joined by ``separator``, else by the variant's (``:`` for Russian),
    else ``x``.

    >>> from pdn.engine import RUSSIAN
    >>> move_text(Move((22, 15, 6), (18, 10)), RUSSIAN, full=True)
    'c3:e5:c7'
    >>> move_text(Move((22, 15, 6), (18, 10)), RUSSIAN, algebraic=False, separator="x")
    '22x6'
    """
    if not move.captures:
        sep = "-"
    elif separator is not None:
        if separator not in CAPTURE_SEPARATORS:
            raise ValueError(
                f"capture separator {separator!r}: expected one of {CAPTURE_SEPARATORS}"
            )
        sep = separator
    else:
        sep = "x" if variant is None else variant.capture_separator
    path = move.path
    squares = path if (full and move.captures) else (path[0], path[-1])
    if variant is None:
        return sep.join([str(square) for square in squares])
    return sep.join([square_name(square, variant, algebraic=algebraic) for square in squares])


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
        self.priority = variant.capture_priority
        self.removal = variant.pieces_removed_at_once
        self.stop_behind = variant.king_stops_behind
        self.reverse = variant.king_may_reverse
        #: Crowning row per side: Black (0) crowns on the bottom row, White (1) on the top row.
        self.crown = (board.bottom_row, board.top_row)
        #: Directions a man moves (forward, and sideways in Turkish) and captures in, per side.
        sideways = (LEFT, RIGHT) if variant.men_move_sideways else ()
        black_dirs = tuple(sorted((*board.forward[0], *sideways)))
        white_dirs = tuple(sorted((*board.forward[1], *sideways)))
        self.man_move_dirs: tuple[tuple[int, ...], tuple[int, ...]] = (black_dirs, white_dirs)
        all_dirs = (0, 1, 2, 3)
        size = len(board.step_table)
        self.lines = variant.line_captures
        #: Capture directions and their opposites: the four diagonals, plus in Frisian the four
        #: lines of the dark squares (4 up, 5 left, 6 right, 7 down; see Board.line_ray_table).
        self.capture_dirs: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7) if self.lines else all_dirs
        self.opposite = (3, 2, 1, 0, 7, 6, 5, 4)
        # Indexed by the incoming direction, -1 (the start) last so that backs[-1] works.
        no_reverse = (*self.opposite, -1)
        self.walk_rules = (
            self.removal,
            self.stop_behind,
            self.capture_dirs,
            (-1,) * 9 if self.reverse else no_reverse,
            -1 if self.lines else 0,
            not variant.men_capture_kings,
            bool(self.priority),
        )
        #: Quiet king moves stay on the diagonals; captures use every capture direction.
        self.diagonal_rays = board.ray_table
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = (
            tuple(board.ray_table[p] + board.line_ray_table[p] for p in range(size))
            if self.lines
            else board.ray_table
        )
        self.man_capture_dirs = (
            (self.capture_dirs, self.capture_dirs)
            if variant.men_capture_backward
            else self.man_move_dirs
        )
        #: The shift of each diagonal a man captures along, per side (Frisian's row and column
        #: captures have none: its has_capture generates instead).
        self.man_capture_offsets = tuple(
            tuple(board.offsets[d] for d in dirs if d < len(board.offsets))
            for dirs in self.man_capture_dirs
        )
        #: The shifts of the diagonals a short king captures along beyond its side's men's.
        self.king_back_offsets = tuple(
            tuple(board.offsets[d] for d in all_dirs if d not in dirs and d < len(board.offsets))
            for dirs in self.man_capture_dirs
        )
        bits = [1 << p for p in range(size)]
        self.bits = tuple(bits)

        def jump_table(dirs: tuple[int, ...]) -> JumpTable:
            table: list[tuple[tuple[int, int, int, int, int], ...]] = []
            for p in range(size):
                entries = []
                rays_p = self.rays[p]
                for d in dirs:
                    ray = rays_p[d] if rays_p else ()
                    if len(ray) < 2:
                        continue
                    mid, land = ray[0], ray[1]
                    entries.append((d, mid, bits[mid], land, bits[land]))
                table.append(tuple(entries))
            return tuple(table)

        self.man_jumps = (
            jump_table(self.man_capture_dirs[0]),
            jump_table(self.man_capture_dirs[1]),
        )
        self.king_jumps = jump_table(all_dirs)
        #: Directions whose shift test finds the men that can start a capture (none in Frisian,
        #: where every piece is tried).
        self.first_jump_dirs = ((), ()) if self.lines else self.man_capture_dirs
        #: Whether the side owning ``own`` has any capture: ``has_capture(own, opp, kings,
        #: side)``. Chosen once per variant, so the plain shift test of the first six variants
        #: pays nothing for the others' rules.
        self.has_capture: Callable[[int, int, int, int], bool] = self._has_capture_shifts
        if not variant.men_capture_kings:
            self.has_capture = self._has_capture_men_spare_kings
        if self.lines:
            self.has_capture = self._has_capture_by_generation
        self.index_of_bit = {1 << p: p for p in range(size)}

    # ----------------------------------------------------------------------------- detection

    def _has_capture_shifts(self, own: int, opp: int, kings: int, side: int) -> bool:
        # Bitboards only, no generation: every piece one shift over a victim onto an empty square.
        empty = self.mask & ~(own | opp)
        king = own & kings
        # A short king captures like a man in the men's directions: tested with them.
        short = own & ~kings if king and self.flying else own
        # The shifts written out (no _shift calls): a replay asks this once per quiet ply.
        for off in self.man_capture_offsets[side]:
            if off > 0:
                if ((short << off) & opp) << off & empty:
                    return True
            elif ((short >> -off) & opp) >> -off & empty:
                return True
        if not king:
            return False
        if self.flying:
            return self._king_has_capture(king, opp, empty, self.man_capture_dirs[side])
        for off in self.king_back_offsets[side]:
            if off > 0:
                if ((king << off) & opp) << off & empty:
                    return True
            elif ((king >> -off) & opp) >> -off & empty:
                return True
        return False

    def _has_capture_men_spare_kings(self, own: int, opp: int, kings: int, side: int) -> bool:
        # Italian: men test against the opponent's men only, kings against everything.
        empty = self.mask & ~(own | opp)
        men = own & ~kings
        king = own & kings
        offsets = self.offsets
        victims = opp & ~kings
        for d in self.man_capture_dirs[side]:
            off = offsets[d]
            if _shift(_shift(men, off) & victims, off) & empty:
                return True
        return bool(king) and self._king_has_capture(king, opp, empty, ())

    def _has_capture_by_generation(self, own: int, opp: int, kings: int, side: int) -> bool:
        # Row and column captures do not shift cleanly (a row's last square is next to the next
        # row's first), so Frisian asks the generator itself.
        return bool(self.captures(own, opp, kings, side, False))

    def _king_has_capture(self, king: int, opp: int, empty: int, done: tuple[int, ...]) -> bool:
        # Kings' captures; ``done``: directions already tested together with the men.
        offsets = self.offsets
        if king:
            if not self.flying:
                for d in (0, 1, 2, 3):
                    if d in done:
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
        # The issue-9 rules in one load (this runs at most perft nodes); backs[d]: the direction
        # a king may not take after coming in along d (-1: none).
        removal, stop_behind, capture_dirs, backs, every_piece, spare_kings, priority = (
            self.walk_rules
        )
        men_opp = opp & ~kings if spare_kings else opp
        out: list[RawCapture] = []
        empty = 0
        victims = opp  # what short_walk may jump: set per starting piece below

        def king_walk(
            p: int,
            cap: int,
            in_dir: int,
            straight: bool,
            # The variant's rules as defaults: fast locals, not closure cells, on every call.
            removal: bool = removal,
            stop_behind: bool = stop_behind,
            capture_dirs: tuple[int, ...] = capture_dirs,
            backs: tuple[int, ...] = backs,
        ) -> list[Tail]:
            # Continuations of a flying king standing on p; [] when it cannot capture from p.
            results: list[Tail] = []
            back = backs[in_dir]
            ray_p = rays[p]
            # Jumped pieces block the king's way, unless they leave the board as they are jumped.
            free = empty | cap if removal else empty
            for d in capture_dirs:
                if d == back or (d == in_dir and not straight):
                    continue
                ray = ray_p[d]
                length = len(ray)
                k = 0
                while k < length and bits[ray[k]] & free:
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
                # Thai kings land only on the square just behind the piece.
                end = first + 1 if stop_behind and first < length else length
                while k < end and bits[ray[k]] & free:
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
                if midb & victims and not midb & cap and landb & empty:
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
        # Frisian: every piece (see has_capture on rows and columns); otherwise by shifts.
        jumpers = own & every_piece
        free = mask & ~occupied
        for d in self.first_jump_dirs[side]:
            off = offsets[d]
            # men with an opponent next to them and an empty square beyond
            jumpers |= _shift(_shift(free, -off) & men_opp, -off) & men
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
                    victims = opp
                    short_walk(p, 0, (), (), king_jumps, p)
            else:
                victims = men_opp  # (Italian men spare kings; elsewhere this is opp)
                short_walk(p, 0, (), (), man_jumps, p)
        if self.majority and out:
            most = max(len(c[2]) for c in out)
            out = [c for c in out if len(c[2]) == most]
        if priority and len(out) > 1:
            out = self.prioritise(out, kings)
        return out

    def prioritise(self, out: list[RawCapture], kings: int) -> list[RawCapture]:
        """The captures the variant's ``capture_priority`` rules leave, applied in order."""
        bits = self.bits
        for rule in self.priority:
            if len(out) < 2:
                break
            if rule == "king":
                by_king = [c for c in out if bits[c[0]] & kings]
                if by_king:
                    out = by_king
            elif rule == "most-kings":
                counts = [sum(1 for x in c[2] if bits[x] & kings) for c in out]
                most = max(counts)
                out = [c for c, n in zip(out, counts, strict=True) if n == most]
            elif rule == "value":
                # Frisian: a king is worth a little less than two men, so compare men + 2 * kings
                # and, when that is equal, prefer the capture with fewer kings (n kings are worth
                # more than 2n - 1 men and less than 2n).
                values = []
                for c in out:
                    taken_kings = sum(1 for x in c[2] if bits[x] & kings)
                    values.append((len(c[2]) + taken_kings, -taken_kings))
                top = max(values)
                out = [c for c, v in zip(out, values, strict=True) if v == top]
            elif rule == "earliest-king":
                # Where in jump order the first king is taken; only the first king counts (the
                # federation's text says no more, see docs/rules.md), later ones leave a choice.
                firsts = [
                    next((i for i, x in enumerate(c[2]) if bits[x] & kings), len(c[2])) for c in out
                ]
                soonest = min(firsts)
                out = [c for c, i in zip(out, firsts, strict=True) if i == soonest]
            else:
                raise ValueError(f"unknown capture priority rule {rule!r}")
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
                rays = self.diagonal_rays
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
