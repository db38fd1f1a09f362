"""Match a written move to a legal move, or say in words why it is not legal.

Written squares name a legal move by the rule of :mod:`.acceptance`. When they name none, the
piece's moves with the rules relaxed (:mod:`.faults`) say which rule the move breaks, and
:mod:`.wording` says it in a sentence.

>>> from pdn.engine import ENGLISH, Position
>>> pos = Position.from_fen("B:W22,23:B11,10", ENGLISH)
>>> diagnose(pos, (11, 15), False).move
Move(path=(11, 15), captures=(), king=False, crowns=False)
>>> d = diagnose(Position.from_fen("B:W19:B15,18", ENGLISH), (18, 22), False)
>>> d.fault, d.message
(<Fault.MISSED_CAPTURE: 'missed-capture'>, '18-22 is not legal: Black must jump; the jump is 15x24')

A relaxed move that fits the written squares can be carried out on the board, so the position
after it is returned as :attr:`Diagnosis.applied` and a replay can go on and report every fault
of a record. Moves that cannot be carried out (empty start, occupied target, not along a
diagonal, nothing to jump) give ``applied=None``.

A move of the side *not* to move (``wrong-side``) is checked as that side's move; if it can be
carried out, ``applied`` is the position after it with the side that should have moved still to
move, as if one player had simply moved out of turn (``Position.apply_unchecked`` does the same).
The majority rule has no code of its own: taking fewer pieces than the most possible is an
``illegal-move`` whose message says so, and it is applied like a missed capture. So are the other
capture rules of issue 9, each named in the message: a man jumping a king where men may not
(Italian), and a capture that the variant's priority rules put behind another (capturing with a
man when a king can capture, taking fewer kings, meeting the first king later).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from .acceptance import fits, fits_route, fitting, one_result, quick_match
from .board import board_for, square_name
from .faults import OTHER, RANK, Fault, classify, relaxed
from .movegen import Move, move_text
from .pickling import pickle_by_fields
from .position import Piece, Position
from .wording import describe, remark, unique, written


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """The outcome of :func:`diagnose`.

    * A legal match: ``move`` is set, ``fault`` is ``None``, ``candidates`` holds every legal path
      the written squares fit (two for a king's circle that can go either way), ``message`` is
      empty or a remark (a capture written with ``-`` or a quiet move written with ``x``), and
      ``applied`` is ``None`` (use ``position.play(move)``).
    * No match: ``move`` is ``None``, ``fault`` says why, ``message`` explains it in a sentence,
      ``candidates`` are the moves that were legal there (for ``ambiguous-move``: the moves the
      written squares fit), and ``applied`` is the position after carrying the move out as
      written when that is physically possible, else ``None``.
    """

    move: Move | None
    fault: Fault | None
    message: str
    candidates: tuple[Move, ...]
    applied: Position | None = None

    @property
    def ok(self) -> bool:
        """True when the written move is one legal move."""
        return self.fault is None and self.move is not None


pickle_by_fields(Diagnosis)


def diagnose(
    position: Position, squares: Sequence[int], capture_written: bool = False
) -> Diagnosis:
    """Match written ``squares`` to exactly one legal move of ``position``, or explain why not.

    ``capture_written`` says whether the text used a capture separator (``x``/``:``); it only
    affects the wording and which reading is preferred when a written move could be either a
    quiet move or a capture. See the module docstring and :class:`Diagnosis`.

    >>> from pdn.engine import ENGLISH, Position
    >>> pos = Position.from_fen("W:W27:B15,16,23,24", ENGLISH)
    >>> d = diagnose(pos, (27, 11), True)
    >>> d.fault.value, [m.notation(full=True) for m in d.candidates]
    ('ambiguous-move', ['27x18x11', '27x20x11'])
    >>> diagnose(pos, (27, 18, 11), True).move.captures
    (23, 15)
    """
    squares = tuple(squares)
    variant = position.variant
    board = board_for(variant)
    if len(squares) < 2:
        return Diagnosis(
            None, Fault.ILLEGAL_MOVE, "a move needs a start and an end square", (), None
        )
    for s in squares:
        if not 1 <= s <= board.squares:
            return Diagnosis(
                None,
                Fault.BAD_SQUARE,
                f"square {s} is not on the {variant.width}x{variant.height} board "
                f"(squares 1-{board.squares})",
                (),
                None,
            )
    if len(squares) == 2 and not capture_written:
        quick = quick_match(position, squares[0], squares[1])
        if quick is not None:
            return Diagnosis(quick, None, "", (quick,), None)

    legal = position.legal_moves()
    side = position.turn
    text = written(variant, squares, capture_written)
    if not legal:
        return Diagnosis(
            None,
            Fault.MOVE_AFTER_GAME_END,
            f"{side.label} has no legal move here, so the game is over ({side.label} lost); "
            f"{text} cannot be played",
            (),
            None,
        )

    found = fitting(variant, legal, squares)
    if found:
        if one_result(position, found):
            move = found[0]
            return Diagnosis(move, None, remark(variant, text, move, capture_written), tuple(found))
        options = " and ".join(move_text(m, variant, full=True) for m in unique(found))
        return Diagnosis(
            None,
            Fault.AMBIGUOUS_MOVE,
            f"{text} is ambiguous: it fits {options}, which take different pieces; "
            "the full path must be written",
            tuple(found),
            None,
        )
    return _explain(position, squares, capture_written, legal, text)


def _explain(
    position: Position,
    squares: tuple[int, ...],
    capture_written: bool,
    legal: list[Move],
    text: str,
) -> Diagnosis:
    variant = position.variant
    side = position.turn
    a, b = squares[0], squares[-1]
    name = square_name(a, variant)
    # One move per result is what a person wants listed as "the legal moves here".
    everything = tuple(position.legal_moves(merge_duplicates=True))
    piece = position.piece_at(a)
    if piece is None:
        return Diagnosis(
            None,
            Fault.EMPTY_SQUARE,
            f"{text} is not possible: there is no piece on {name}",
            everything,
            None,
        )
    if piece.color is not side:
        return _wrong_side(position, squares, capture_written, piece, everything, text)
    for s in squares[1:]:
        if s == a:
            continue
        other = position.piece_at(s)
        if other is not None:
            where = "ends on" if s == b else "passes through"
            return Diagnosis(
                None,
                Fault.OCCUPIED_SQUARE,
                f"{text} is not possible: it {where} {square_name(s, variant)}, "
                f"which holds a {other.name}",
                everything,
                None,
            )

    attempts = relaxed(position, a, piece)
    fit = [t for t in attempts if fits(t.path, squares)]
    if not fit and len(squares) > 2:
        fit = [t for t in attempts if fits_route(variant, t.move(), squares)]
    if fit:
        # Prefer the reading the separator suggests, then the most specific explanation.
        preferred = [t for t in fit if bool(t.captures) == capture_written]
        pool = preferred or fit
        graded = sorted(
            ((RANK[classify(t, legal, position)], len(t.flags), i, t) for i, t in enumerate(pool)),
            key=lambda g: g[:3],
        )
        best_rank, best_flags = graded[0][0], graded[0][1]
        best = [g[3] for g in graded if g[0] == best_rank and g[1] == best_flags]
        chosen = best[0]
        kind = classify(chosen, legal, position)
        outcomes = {position.apply_unchecked(t.path, t.captures).key() for t in best}
        applied = (
            position.apply_unchecked(chosen.path, chosen.captures)
            if len(outcomes) == 1 and kind != OTHER
            else None
        )
        fault, message = describe(position, chosen, kind, legal, everything, piece, text)
        return Diagnosis(None, fault, message, everything, applied)
    return _geometry(position, squares, piece, everything, text)


def _wrong_side(
    position: Position,
    squares: tuple[int, ...],
    capture_written: bool,
    piece: Piece,
    everything: tuple[Move, ...],
    text: str,
) -> Diagnosis:
    variant = position.variant
    side = position.turn
    other = position.with_turn(piece.color)
    inner = diagnose(other, squares, capture_written)
    lead = (
        f"it is {side.label}'s turn, but {square_name(squares[0], variant)} holds a {piece.name}: "
        f"{text} is a move out of turn"
    )
    if inner.move is not None and inner.fault is None:
        # The out-of-turn move is played by its owner; the side that should have moved is
        # still to move afterwards.
        return Diagnosis(None, Fault.WRONG_SIDE, lead, everything, other.play(inner.move))
    return Diagnosis(
        None,
        Fault.WRONG_SIDE,
        f"{lead} (and it would not be legal for {piece.color.label} either: {inner.message})",
        everything,
        inner.applied,
    )


def _geometry(
    position: Position,
    squares: tuple[int, ...],
    piece: Piece,
    everything: tuple[Move, ...],
    text: str,
) -> Diagnosis:
    """Explain a move that no piece could physically make."""
    variant = position.variant
    board = board_for(variant)
    a = squares[0]
    if len(squares) == 2 and squares[0] == squares[1]:
        return Diagnosis(
            None, Fault.ILLEGAL_MOVE, f"{text} starts and ends on the same square", everything
        )
    for x, y in itertools.pairwise(squares):
        if board.direction(x, y) is None:
            return Diagnosis(
                None,
                Fault.NOT_DIAGONAL,
                f"{text} is not possible: {square_name(x, variant)} and "
                f"{square_name(y, variant)} are not on "
                + ("one row or column" if variant.layout == "orthogonal" else "one diagonal"),
                everything,
            )
    own = piece.color
    taken: set[int] = set()
    # Where jumped pieces leave the board at once (Turkish, Thai), a square emptied earlier in
    # the move is free, and turning back along the line just come is the rule's to forbid.
    removed = variant.pieces_removed_at_once
    came: tuple[int, int] | None = None
    for x, y in itertools.pairwise(squares):
        between = board.between(x, y)
        pieces = [(s, position.piece_at(s)) for s in between]
        occupied = [
            (s, p) for s, p in pieces if p is not None and s != a and not (removed and s in taken)
        ]
        hop = f"{square_name(x, variant)} to {square_name(y, variant)}"
        found = board.direction(x, y)
        unit = board.deltas[found[0]] if found is not None else None
        turned = came is not None and unit == (-came[0], -came[1])
        came = unit
        if turned and removed and piece.king and not variant.king_may_reverse:
            return Diagnosis(
                None,
                Fault.ILLEGAL_MOVE,
                f"{text} is not possible: within a capture a king may not turn back along the "
                f"line it came (a 180-degree turn, from {hop}) in {variant.title}",
                everything,
            )
        friends = [s for s, p in occupied if p.color is own]
        enemies = [s for s, p in occupied if p.color is not own]
        if friends:
            reason = f"its own piece on {square_name(friends[0], variant)} is in the way from {hop}"
        elif len(enemies) > 1:
            reason = f"there are {len(enemies)} pieces in the way from {hop}"
        elif enemies and enemies[0] in taken:
            reason = f"the piece on {square_name(enemies[0], variant)} would be jumped twice"
        elif enemies:
            if not (piece.king and variant.flying_kings) and len(between) > 1:
                what = "king" if piece.king else "man"
                reason = f"a {what} can only jump a piece next to it and land just behind it"
            else:
                taken.add(enemies[0])
                continue
        elif not piece.king and len(between) >= 1:
            reason = f"a man moves one square at a time, and there is nothing to jump from {hop}"
        elif len(squares) > 2:
            reason = f"there is nothing to jump from {hop}"
        else:
            continue
        return Diagnosis(None, Fault.ILLEGAL_MOVE, f"{text} is not possible: {reason}", everything)
    return Diagnosis(
        None,
        Fault.ILLEGAL_MOVE,
        f"{text} is not possible for the {piece.name} on {square_name(a, variant)}",
        everything,
    )


__all__ = ["Diagnosis", "Fault", "diagnose", "move_text"]
