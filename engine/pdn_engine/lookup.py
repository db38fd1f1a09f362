"""The replay's fast path: written squares to the one legal move they name, and the position after.

A replay asks, ply after ply, "which legal move do these squares name, and where does it lead?".
:func:`engine.diagnose` answers that and also explains every move that is not legal; the
:class:`MoveLookup` answers only the common case, a legal move written as the engine would accept
it without a remark, and returns ``None`` for everything else so that the caller asks
``diagnose`` (whose verdict it then uses unchanged). It answers:

* a quiet step written ``a-b`` by bit tests (``has_capture`` is a handful of shifts; no list of
  moves is built for the common quiet position);
* a man's capture written hop by hop (``a x b`` for one jump), where the rules make it the
  only move between its squares (no majority or priority rule, men jump forward only, a man
  on its crowning row is done): each hop, then "nothing more to jump", by bit tests;
* anything else through the legal moves between its two squares, matched by the rule
  ``diagnose`` applies (:func:`.acceptance.plain_match`);
* a position seen before with the same written move (the openings of an archive repeat
  thousands of times) from a bounded table, without generating or playing anything; quiet
  steps skip the table, since checking one costs less than looking it up (measured: 130k
  against 158k plies/s on OCA).

>>> from pdn.engine import ENGLISH, Position
>>> lookup = MoveLookup(ENGLISH)
>>> move, after = lookup.match(Position.start(ENGLISH), (11, 15), False)
>>> move.notation(), after.turn.label
('11-15', 'White')
>>> lookup.match(Position.start(ENGLISH), (11, 18), False) is None  # diagnose says why
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .acceptance import plain_match
from .movegen import Move, Rules, rules_for
from .native import new_move
from .position import Position, next_position
from .variants import Color, Variant

#: A written move as the lookup sees it: its squares and whether a capture sign was written.
Written = tuple[tuple[int, ...], bool]
#: What a match gives: the legal move and the position after it.
Played = tuple[Move, Position]

#: A one-square step in the lookup's table: the bits of its two squares, and the Move it is
#: for a man of Black, of White (``None`` where a man does not step so) and for a king.
_Quiet = tuple[int, int, tuple[Move | None, Move | None, Move]]
#: A man's jump in the lookup's table: the bits of its start, the number and bit of the
#: square it jumps, the bit of its landing square, and (jumped, landing) bits of each jump
#: onward from there.
_Hop = tuple[int, int, int, int, tuple[tuple[int, int], ...]]
#: A table key: the position's bitboards, turn and king-move counts, then the written move.
_Key = tuple[int, int, int, bool, tuple[int, int, int, int], tuple[int, ...], bool]

#: Entries kept per lookup. A position and its written move take a few hundred bytes, so the
#: table stays under ~2 MB; the openings that repeat across an archive come back often enough
#: to stay in it, the unique middle games pass through.
DEFAULT_CAPACITY = 8192


class MoveLookup:
    """Matches written squares to legal moves for one variant, remembering recent answers.

    One per replay run (a file, a worker): the table is bounded (oldest answers leave first),
    and it only ever holds answers ``diagnose`` would give, so sharing it across games changes
    nothing but speed.
    """

    __slots__ = (
        "_crown",
        "_hops",
        "_mask",
        "_older",
        "_quiet",
        "_recent",
        "_rules",
        "capacity",
        "variant",
    )

    def __init__(self, variant: Variant, capacity: int = DEFAULT_CAPACITY) -> None:
        self.variant = variant
        self.capacity = capacity
        # Two generations instead of a true LRU: when the recent table is full it becomes the
        # older one (the previous older one is dropped), and a hit in the older table moves
        # back. Answers in use survive; the cost per ply is one or two dict lookups.
        self._recent: dict[_Key, Played] = {}
        self._older: dict[_Key, Played] = {}
        rules = self._rules = rules_for(variant)
        self._mask = rules.mask
        self._crown = rules.crown
        # Every one-square step per (from, to): the two squares' bits and the Move it is for
        # a man of each side (None where a man may not step so; crowning known from the
        # target) and for a king. Frisian's king-move limit makes a step's legality depend on
        # history: there every quiet move takes the general way.
        self._quiet: dict[tuple[int, ...], _Quiet] = {}
        if not variant.king_move_limit:
            self._quiet = _quiet_steps(rules)
        # A man's jumps per side, where a complete jump sequence is the one legal move between
        # its squares: men jump forward only (so no other sequence of a man ends on the same
        # square), any capture may be chosen, and a jumped piece stays until the move is done.
        self._hops: tuple[dict[tuple[int, ...], _Hop], ...] = ()
        if variant.men_jump_forward_only and not (
            variant.majority_capture
            or variant.capture_priority
            or variant.crown_mid_capture
            or variant.pieces_removed_at_once
            or not variant.men_capture_kings
        ):
            self._hops = tuple(_man_hops(rules, side) for side in (0, 1))

    def match(
        self, position: Position, squares: tuple[int, ...], capture_written: bool
    ) -> Played | None:
        """The one legal move ``squares`` name in ``position`` and the position after it, when
        ``diagnose`` would accept them without a remark; else ``None`` (ask ``diagnose``).

        ``squares`` must be on the board (the caller resolved them against it).
        """
        played = self.play(position, ((squares, capture_written),))
        return played[0] if played else None

    def play(self, position: Position, written: Sequence[Written | None]) -> list[Played]:
        """Play the ``written`` moves in a row from ``position`` while each is one
        :meth:`match` answers: their legal moves and the positions after them, fewer than
        ``written`` when one needs ``diagnose`` (or is ``None``: not for the fast path).

        One loop for a whole line: a replay spends most of its time on quiet steps, checked
        here inline (bit tests and the step tables) rather than one call per ply.

        >>> from pdn.engine import ENGLISH, Position
        >>> lookup = MoveLookup(ENGLISH)
        >>> [move.notation() for move, _ in lookup.play(Position.start(ENGLISH),
        ...     [((11, 15), False), ((23, 19), False), ((15, 19), False)])]
        ['11-15', '23-19']
        """
        played: list[Played] = []
        if position.variant is not self.variant:
            return played
        variant = self.variant
        white_turn = Color.WHITE
        quiet = self._quiet
        hops = self._hops
        has_capture = self._rules.has_capture
        for move in written:
            if move is None:
                break
            squares, capture_written = move
            entry = None if capture_written else quiet.get(squares)
            if entry is not None:
                # A one-square step written a-b, from bitboards and the step tables alone:
                # what diagnose's quick match accepts and Position.play then does.
                ab, bb, steps = entry
                black, white, kings = position.black, position.white, position.kings
                side = 1 if position.turn is white_turn else 0
                own, opp = (white, black) if side else (black, white)
                if ab & own and not bb & (own | opp):
                    king = ab & kings
                    step = steps[2 if king else side]
                    if step is not None and not has_capture(own, opp, kings, side):
                        moved = ab | bb
                        if king:
                            kings ^= moved
                        elif step.crowns:
                            kings |= bb
                        if side:
                            white ^= moved
                        else:
                            black ^= moved
                        position = next_position(
                            variant, side, black, white, kings, position.king_moves
                        )
                        played.append((step, position))
                        continue
            one = self._man_jump(position, squares) if capture_written and hops else None
            if one is None:
                one = self._remembered(position, squares, capture_written)
                if one is None:
                    break
            played.append(one)
            position = one[1]
        return played

    def _remembered(
        self, position: Position, squares: tuple[int, ...], capture_written: bool
    ) -> Played | None:
        # Anything but a quiet step or a man's plain jump: the legal moves between its
        # squares, the answer kept in the bounded table.
        # Plain ints and tuples hash in C; the variant is the lookup's own.
        key = (
            position.black,
            position.white,
            position.kings,
            position.turn is Color.WHITE,
            position.king_moves,
            squares,
            capture_written,
        )
        recent = self._recent
        played = recent.get(key)
        if played is not None:
            return played
        played = self._older.get(key)
        if played is None:
            move = plain_match(position, squares, capture_written)
            if move is None:
                return None
            played = (move, position.play(move))
        if len(recent) >= self.capacity // 2:
            self._older = recent
            recent = self._recent = {}
        recent[key] = played
        return played

    def _man_jump(self, position: Position, squares: tuple[int, ...]) -> Played | None:
        # A man's capture written hop by hop: each hop over an opponent's piece onto an empty
        # square, then none left to make (none from the crowning row: men jump forward only).
        # The generator would give it as the only move between these squares.
        black, white, kings = position.black, position.white, position.kings
        side = 1 if position.turn is Color.WHITE else 0
        own, opp = (white, black) if side else (black, white)
        hops = self._hops[side]
        hop = hops.get(squares[:2])
        if hop is None:
            return None
        start, middle, taken, end, onward = hop
        if not start & own or start & kings or not taken & opp:
            return None
        empty = self._mask & ~(own | opp) | start
        if not end & empty:
            return None
        captured: tuple[int, ...] = (middle,)
        at = squares[1]
        for to in squares[2:]:  # a jump of several hops (one is the common case)
            hop = hops.get((at, to))
            if hop is None:
                return None
            _, middle, middle_bit, end, onward = hop
            if not middle_bit & opp or not end & empty:
                return None
            taken |= middle_bit
            captured += (middle,)
            at = to
        for middle_bit, land_bit in onward:
            if middle_bit & opp and land_bit & empty:
                return None  # stopped short: diagnose says so
        crowns = bool(end & self._crown[side])
        moved = start | end
        kings &= ~taken
        if crowns:
            kings |= end
        if side:
            white ^= moved
            black &= ~taken
        else:
            black ^= moved
            white &= ~taken
        after = next_position(position.variant, side, black, white, kings, position.king_moves)
        return new_move(squares, captured, False, crowns), after


def _quiet_steps(rules: Rules) -> dict[tuple[int, ...], _Quiet]:
    # Every one-square step (from, to) a king can make, with what it is for each piece.
    board = rules.board
    number = board.square_of_index
    steps: dict[tuple[int, ...], _Quiet] = {}
    for a in range(1, board.squares + 1):
        table = board.step_table[board.index[a]]
        for d, q in enumerate(table):
            if q < 0:
                continue
            b = number[q]
            men = tuple(
                Move((a, b), (), False, bool(board.bit[b] & rules.crown[side]))
                if d in rules.man_move_dirs[side]
                else None
                for side in (0, 1)
            )
            steps[a, b] = (board.bit[a], board.bit[b], (men[0], men[1], Move((a, b), (), True)))
    return steps


def _man_hops(rules: Rules, side: int) -> dict[tuple[int, ...], _Hop]:
    # (from, to) of each jump a man of ``side`` can make: the bits of its start, its jumped
    # square (and that square's number) and its landing square, and the jumps onward from it.
    board = rules.board
    number = board.square_of_index
    jumps = rules.man_jumps[side]
    hops: dict[tuple[int, ...], _Hop] = {}
    for a in range(1, board.squares + 1):
        for _, middle, middle_bit, land, land_bit in jumps[board.index[a]]:
            onward = tuple((over, to) for _, _, over, _, to in jumps[land])
            hops[a, number[land]] = (board.bit[a], number[middle], middle_bit, land_bit, onward)
    return hops
