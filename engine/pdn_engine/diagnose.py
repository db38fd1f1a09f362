"""Match a written move to a legal move, or say in words why it is not legal.

A written move is a sequence of 1-based squares: ``(from, to)`` (short form, which for a capture
may stand for a multi-jump), ``(from, landing, ..., to)`` (full path) or the PDN 3.0 "turning
points" form, which leaves out the landing squares where a flying king goes on straight.

>>> from pdn.engine import ENGLISH, Position
>>> pos = Position.from_fen("B:W22,23:B11,10", ENGLISH)
>>> diagnose(pos, (11, 15), False).move
Move(path=(11, 15), captures=(), king=False, crowns=False)
>>> d = diagnose(Position.from_fen("B:W19:B15,18", ENGLISH), (18, 22), False)
>>> d.fault, d.message
(<Fault.MISSED_CAPTURE: 'missed-capture'>, '18-22 is not legal: Black must jump; the jump is 15x24')

How a non-matching move is explained: from its start square the piece's *physically possible*
moves are generated with the rules relaxed (men may step or jump backward, a crowned man may go
on jumping, a capture may stop anywhere, a flying king may land anywhere behind a piece), each
remembering which rule it breaks. The written squares are matched against those; the broken rule
of the match is the fault, and since such a move can be carried out on the board, the position
after it is returned as :attr:`Diagnosis.applied` so that a replay can go on and report every
fault of a record. Moves that cannot be carried out (empty start, occupied target, not along a
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

import enum
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from .board import board_for
from .movegen import Move, rules_for
from .native import new_move
from .pickling import pickle_by_fields
from .position import Piece, Position
from .variants import Variant


class Fault(str, enum.Enum):
    """Why a written move is not legal. The values are the ``pdn.problems`` codes."""

    MISSED_CAPTURE = "missed-capture"
    BACKWARD_MAN = "backward-man"
    INCOMPLETE_CAPTURE = "incomplete-capture"
    CAPTURE_AFTER_CROWNING = "capture-after-crowning"
    WRONG_SIDE = "wrong-side"
    EMPTY_SQUARE = "empty-square"
    OCCUPIED_SQUARE = "occupied-square"
    NOT_DIAGONAL = "not-diagonal"
    KING_TOO_FAR = "king-too-far"
    AMBIGUOUS_MOVE = "ambiguous-move"
    MOVE_AFTER_GAME_END = "move-after-game-end"
    BAD_SQUARE = "bad-square"
    ILLEGAL_MOVE = "illegal-move"


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


# ----------------------------------------------------------------------------- text helpers


def _sq(variant: Variant, square: int) -> str:
    if variant.notation == "algebraic":
        return board_for(variant).algebraic(square)
    return str(square)


def _written(variant: Variant, squares: Sequence[int], capture: bool) -> str:
    sep = variant.capture_separator if capture else "-"
    return sep.join(_sq(variant, s) for s in squares)


def _move_text(variant: Variant, move: Move, full: bool = False) -> str:
    squares = move.path if full else (move.path[0], move.path[-1])
    return _written(variant, squares, move.is_capture)


def _result_key(move: Move) -> tuple[int, int, frozenset[int]]:
    return (move.path[0], move.path[-1], frozenset(move.captures))


def _unique(moves: Sequence[Move]) -> list[Move]:
    """One move per resulting position, in the given order."""
    seen: set[tuple[int, int, frozenset[int]]] = set()
    out = []
    for m in moves:
        key = _result_key(m)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def _listing(variant: Variant, moves: Sequence[Move], limit: int = 8) -> str:
    """Moves in short form, full path only where the short form would be ambiguous.

    Long lists are cut after ``limit`` moves ("..., and 6 more"); the caller has them all.
    """
    unique = _unique(moves)
    ends: dict[tuple[int, int], int] = {}
    for m in unique:
        ends[m.path[0], m.path[-1]] = ends.get((m.path[0], m.path[-1]), 0) + 1
    texts = [_move_text(variant, m, full=ends[m.path[0], m.path[-1]] > 1) for m in unique]
    if len(texts) > limit:
        return ", ".join(texts[:limit]) + f", and {len(texts) - limit} more"
    return ", ".join(texts)


def _full_listing(variant: Variant, moves: Sequence[Move], limit: int = 3) -> str:
    texts = [_move_text(variant, m, full=True) for m in _unique(moves)]
    if len(texts) > limit:
        return ", ".join(texts[:limit]) + f", and {len(texts) - limit} more"
    return ", ".join(texts)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _jump_word(variant: Variant) -> str:
    return "capture" if variant.flying_kings else "jump"


# ----------------------------------------------------------------------------- matching


def _subsequence(needle: Sequence[int], haystack: Sequence[int]) -> bool:
    it = iter(haystack)
    return all(any(x == y for y in it) for x in needle)


def _fits(path: Sequence[int], squares: Sequence[int]) -> bool:
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


def _fits_route(variant: Variant, move: Move, squares: Sequence[int]) -> bool:
    # Lenient reading of full paths: an intermediate square may be any square passed over.
    if move.path[0] != squares[0] or move.path[-1] != squares[-1] or len(squares) == 2:
        return False
    route = _route(variant, move.path, move.captures)
    return _subsequence(squares[1:-1], route[:-1])


def _matches(variant: Variant, moves: Sequence[Move], squares: Sequence[int]) -> list[Move]:
    found = [m for m in moves if _fits(m.path, squares)]
    if not found and len(squares) > 2:
        found = [m for m in moves if _fits_route(variant, m, squares)]
    return found


# ----------------------------------------------------------------------------- relaxed moves

_BACKWARD = "backward"
_AFTER_CROWN = "after-crown"
_KING_FAR = "king-far"
_MISSED = "missed"
_INCOMPLETE = "incomplete"
_MAJORITY = "majority"
_PRIORITY = "priority"
_MAN_TAKES_KING = "man-takes-king"
_STOP_BEHIND = "stop-behind"
_KING_LIMIT = "king-limit"
_OTHER = "other"

# Lower rank = the more specific explanation when several relaxed moves fit the written squares.
_RANK = {
    _INCOMPLETE: 0,
    _MAJORITY: 1,
    _PRIORITY: 2,
    _MAN_TAKES_KING: 3,
    _MISSED: 4,
    _AFTER_CROWN: 5,
    _BACKWARD: 6,
    _KING_FAR: 7,
    _STOP_BEHIND: 8,
    _KING_LIMIT: 8,
    _OTHER: 9,
}


@dataclass(slots=True)
class _Try:
    path: tuple[int, ...]
    captures: tuple[int, ...]
    flags: tuple[str, ...]
    crowned_at: int | None = None

    def move(self) -> Move:
        return Move(self.path, self.captures)


_BUDGET = 20000  # relaxed search nodes; only pathological flying-king positions get near it


def _relaxed(position: Position, start: int, piece: Piece) -> list[_Try]:
    """Physically possible moves of the piece on ``start``, each with the rules it breaks."""
    variant = position.variant
    rules = rules_for(variant)
    board = rules.board
    bits = rules.bits
    number = board.square_of_index
    side = int(piece.color)
    own, opp = (position.black, position.white) if side == 0 else (position.white, position.black)
    p0 = board.index[start]
    empty = (rules.mask & ~(own | opp)) | bits[p0]
    crown = rules.crown[side]
    forward = rules.man_move_dirs[side]
    man_capture = rules.man_capture_dirs[side]
    out: list[_Try] = []

    # Quiet moves: a man one square in any direction, a king any distance along an empty line.
    for d in range(4):
        for dist, q in enumerate(rules.rays[p0][d], start=1):
            if not bits[q] & empty:
                break
            flags: list[str] = []
            if piece.king:
                if dist > 1 and not variant.flying_kings:
                    flags.append(_KING_FAR)
            else:
                if dist > 1:
                    break
                if d not in forward:
                    flags.append(_BACKWARD)
            out.append(_Try((start, number[q]), (), tuple(flags)))

    budget = [_BUDGET]

    def walk(
        p: int,
        king: bool,
        flying: bool,
        cap: int,
        path: tuple[int, ...],
        caps: tuple[int, ...],
        flags: tuple[str, ...],
        crowned_at: int | None,
    ) -> None:
        if caps:
            out.append(_Try(path, caps, flags, crowned_at))
        budget[0] -= 1
        if budget[0] < 0:
            return
        for d in rules.capture_dirs:
            ray = rules.rays[p][d]
            k = 0
            if flying:
                while k < len(ray) and bits[ray[k]] & empty:
                    k += 1
            if k >= len(ray) - 1:
                continue
            x = ray[k]
            if not bits[x] & opp or bits[x] & cap:
                continue
            landings = []
            for q in ray[k + 1 :]:
                if not bits[q] & empty:
                    break
                landings.append(q)
                if not flying:
                    break
            for n_landing, q in enumerate(landings):
                new_flags = list(flags)
                if n_landing and variant.king_stops_behind:
                    new_flags.append(_STOP_BEHIND)
                new_king, new_flying, new_crowned = king, flying, crowned_at
                if crowned_at is not None and variant.crowning_ends_move:
                    new_flags.append(_AFTER_CROWN)
                if not king and not variant.men_capture_kings and bits[x] & position.kings:
                    new_flags.append(_MAN_TAKES_KING)
                if not king and d not in man_capture:
                    new_flags.append(_BACKWARD)
                if not king and bits[q] & crown:
                    if variant.crown_mid_capture:
                        new_king, new_flying = True, variant.flying_kings
                        new_crowned = number[q]
                    elif variant.crowning_ends_move:
                        # Crowned, and any further jump is the fault; it would jump as a king.
                        new_king, new_flying = True, False
                        new_crowned = number[q]
                walk(
                    q,
                    new_king,
                    new_flying,
                    cap | bits[x],
                    (*path, number[q]),
                    (*caps, number[x]),
                    tuple(dict.fromkeys(new_flags)),
                    new_crowned,
                )

    walk(p0, piece.king, piece.king and variant.flying_kings, 0, (start,), (), (), None)
    return out


def _classify(attempt: _Try, legal: Sequence[Move], position: Position) -> str:
    """The rule a relaxed move breaks (its worst flag), judged against the legal moves."""
    variant = position.variant
    if attempt.flags:
        return min(attempt.flags, key=_RANK.__getitem__)
    legal_captures = [m for m in legal if m.is_capture]
    if not attempt.captures:
        if legal_captures:
            return _MISSED
        return _KING_LIMIT if position.blocked_king() == attempt.path[0] else _OTHER
    if _continuations(attempt, legal_captures):
        return _INCOMPLETE
    n = len(attempt.captures)
    if variant.majority_capture and n < max(len(m.captures) for m in legal_captures):
        return _MAJORITY
    if _priority_broken(position, attempt, legal_captures) is not None:
        return _PRIORITY
    return _OTHER


def _capture_features(
    position: Position, path: Sequence[int], captures: Sequence[int]
) -> tuple[bool, int, int]:
    """What the priority rules look at: by a king?, kings taken, where the first king is taken."""
    start = position.piece_at(path[0])
    kings = [bool((p := position.piece_at(c)) and p.king) for c in captures]
    first = kings.index(True) if True in kings else len(kings)
    return bool(start and start.king), sum(kings), first


def _priority_broken(position: Position, attempt: _Try, legal: Sequence[Move]) -> str | None:
    """The first ``capture_priority`` rule that puts ``attempt`` behind the legal captures."""
    variant = position.variant
    if not variant.capture_priority or not legal or not attempt.captures:
        return None
    by_king, kings, first = _capture_features(position, attempt.path, attempt.captures)
    # Every legal capture survived the same rules, so one of them speaks for all.
    best_king, best_kings, best_first = _capture_features(
        position, legal[0].path, legal[0].captures
    )
    for rule in variant.capture_priority:
        if rule == "value":
            mine = (len(attempt.captures) + kings, -kings)
            best = (len(legal[0].captures) + best_kings, -best_kings)
            if mine < best:
                return rule
            continue
        if rule == "king" and best_king and not by_king:
            return rule
        if rule == "most-kings" and kings < best_kings:
            return rule
        if rule == "earliest-king" and first > best_first:
            return rule
    return None


# ----------------------------------------------------------------------------- the API


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
        quick = _quick_match(position, squares[0], squares[1])
        if quick is not None:
            return Diagnosis(quick, None, "", (quick,), None)

    legal = position.legal_moves()
    side = position.turn
    text = _written(variant, squares, capture_written)
    if not legal:
        return Diagnosis(
            None,
            Fault.MOVE_AFTER_GAME_END,
            f"{side.label} has no legal move here, so the game is over ({side.label} lost); "
            f"{text} cannot be played",
            (),
            None,
        )

    found = _matches(variant, legal, squares)
    if found:
        results = {position.play(m).key() for m in found} if len(found) > 1 else {0}
        if len(results) == 1:
            move = found[0]
            remark = ""
            if capture_written and not move.is_capture:
                remark = (
                    f"{text} is written as a capture but takes nothing; "
                    f"read as {move_text(variant, move)}"
                )
            elif not capture_written and move.is_capture:
                remark = (
                    f"{text} is a capture written without a capture sign; "
                    f"read as {move_text(variant, move)}"
                )
            return Diagnosis(move, None, remark, tuple(found), None)
        options = " and ".join(_move_text(variant, m, full=True) for m in _unique(found))
        return Diagnosis(
            None,
            Fault.AMBIGUOUS_MOVE,
            f"{text} is ambiguous: it fits {options}, which take different pieces; "
            "the full path must be written",
            tuple(found),
            None,
        )
    return _explain(position, squares, capture_written, legal, text)


def move_text(variant: Variant, move: Move, full: bool = False) -> str:
    """A move written the variant's way (numeric or algebraic, its capture separator).

    >>> from pdn.engine import RUSSIAN
    >>> move_text(RUSSIAN, Move((22, 15, 6), (18, 10)), full=True)
    'c3:e5:c7'
    """
    return _move_text(variant, move, full)


def _quick_match(position: Position, a: int, b: int) -> Move | None:
    # The common case of a replay: a plain legal step, recognised without generating every move.
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
    name = _sq(variant, a)
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
                f"{text} is not possible: it {where} {_sq(variant, s)}, which holds a {other.name}",
                everything,
                None,
            )

    attempts = _relaxed(position, a, piece)
    fitting = [t for t in attempts if _fits(t.path, squares)]
    if not fitting and len(squares) > 2:
        fitting = [t for t in attempts if _fits_route(variant, t.move(), squares)]
    if fitting:
        # Prefer the reading the separator suggests, then the most specific explanation.
        preferred = [t for t in fitting if bool(t.captures) == capture_written]
        pool = preferred or fitting
        graded = sorted(
            (
                (_RANK[_classify(t, legal, position)], len(t.flags), i, t)
                for i, t in enumerate(pool)
            ),
            key=lambda g: g[:3],
        )
        best_rank, best_flags = graded[0][0], graded[0][1]
        best = [g[3] for g in graded if g[0] == best_rank and g[1] == best_flags]
        chosen = best[0]
        kind = _classify(chosen, legal, position)
        outcomes = {position.apply_unchecked(t.path, t.captures).key() for t in best}
        applied = (
            position.apply_unchecked(chosen.path, chosen.captures)
            if len(outcomes) == 1 and kind != _OTHER
            else None
        )
        fault, message = _describe(position, chosen, kind, legal, everything, piece, text)
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
        f"it is {side.label}'s turn, but {_sq(variant, squares[0])} holds a {piece.name}: "
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


def _continuations(attempt: _Try, legal: Sequence[Move]) -> list[Move]:
    """Legal moves that take the same pieces in the same order as ``attempt``, and more."""
    n = len(attempt.captures)
    start = attempt.path[0]
    return [
        m
        for m in legal
        if m.path[0] == start and len(m.captures) > n and m.captures[:n] == attempt.captures
    ]


def _describe(
    position: Position,
    attempt: _Try,
    kind: str,
    legal: list[Move],
    merged: Sequence[Move],
    piece: Piece,
    text: str,
) -> tuple[Fault, str]:
    variant = position.variant
    side = position.turn
    start, end = attempt.path[0], attempt.path[-1]
    a, b = _sq(variant, start), _sq(variant, end)
    captures = [m for m in legal if m.is_capture]
    jump = _jump_word(variant)
    must = ""
    if captures:
        what = "jump is" if len(_unique(captures)) == 1 else "jumps are"
        if variant.flying_kings:
            what = "capture is" if len(_unique(captures)) == 1 else "captures are"
        must = f"{side.label} must {jump}; the {what} {_listing(variant, captures)}"

    if kind == _MISSED:
        return Fault.MISSED_CAPTURE, f"{text} is not legal: {must}"
    if kind == _BACKWARD:
        if attempt.captures:
            message = (
                f"{text} is not legal: the man on {a} cannot {jump} backward "
                f"(men {jump} forward only in {variant.title})"
            )
        else:
            message = f"man on {a} cannot move backward to {b}"
        if captures:
            message += f"; besides, {must}"
        return Fault.BACKWARD_MAN, message
    if kind == _KING_FAR:
        found = board_for(variant).direction(start, end)
        distance = found[1] if found else 0
        message = (
            f"the king on {a} moves only one square at a time in {variant.title}; "
            f"{text} is {_plural(distance, 'square')}"
        )
        if captures:
            message += f"; besides, {must}"
        return Fault.KING_TOO_FAR, message
    if kind == _AFTER_CROWN:
        crowned = attempt.crowned_at if attempt.crowned_at is not None else end
        return (
            Fault.CAPTURE_AFTER_CROWNING,
            f"{text} is not legal: the man on {a} is crowned on {_sq(variant, crowned)} and its "
            f"move ends there; it cannot go on jumping",
        )
    if kind == _INCOMPLETE:
        # Named from the merged list: one path per result, so no duplicate stop squares.
        more = _continuations(attempt, merged) or _continuations(attempt, legal)
        extending = [m for m in more if m.path[: len(attempt.path)] == attempt.path]
        full = _full_listing(variant, more)
        word = "move" if len(_unique(more)) == 1 else "moves"
        mover = "king" if piece.king or attempt.crowned_at is not None else "man"
        if extending:
            nexts = sorted({m.path[len(attempt.path)] for m in extending})
            targets = " or ".join(_sq(variant, s) for s in nexts)
            going = "jumping" if not variant.flying_kings else "capturing"
            return (
                Fault.INCOMPLETE_CAPTURE,
                f"the {jump} {text} stops early: the {mover} on {b} can go on {going} to "
                f"{targets} (full {word} {full})",
            )
        last = _sq(variant, attempt.captures[-1])
        return (
            Fault.INCOMPLETE_CAPTURE,
            f"the capture {text} stops early: after taking {last} the {mover} must stop on a "
            f"square from which it can go on capturing (full {word} {full})",
        )
    if kind == _KING_LIMIT:
        limit = variant.king_move_limit
        return (
            Fault.ILLEGAL_MOVE,
            f"{text} is not legal: the king on {a} has made {limit} non-capturing moves in a "
            f"row; in {variant.title} another piece must move now (the legal moves are "
            f"{_listing(variant, merged)})",
        )
    if kind == _STOP_BEHIND:
        message = (
            f"{text} is not legal: a king in {variant.title} must land on the square just "
            "behind the piece it captures"
        )
        if captures:
            message += f"; {must}"
        return Fault.ILLEGAL_MOVE, message
    if kind == _MAN_TAKES_KING:
        kings = [c for c in attempt.captures if (p := position.piece_at(c)) and p.king]
        where = ", ".join(_sq(variant, c) for c in kings)
        message = (
            f"{text} is not legal: a man cannot capture a king in {variant.title} "
            f"(the piece on {where} is a king)"
        )
        if captures:
            message += f"; {must}"
        return Fault.ILLEGAL_MOVE, message
    if kind == _PRIORITY:
        rule = _priority_broken(position, attempt, captures)
        listing = _listing(variant, captures)
        if rule == "value":
            reason = (
                "requires the capture of the highest value (a king counts a little less than "
                "two men)"
            )
        elif rule == "king":
            reason = "requires capturing with a king when a king can capture"
        elif rule == "most-kings":
            taken = _capture_features(position, attempt.path, attempt.captures)[1]
            most = _capture_features(position, captures[0].path, captures[0].captures)[1]
            reason = (
                f"requires taking the most kings; {text} takes {_plural(taken, 'king')}, "
                f"{most} can be taken"
            )
        else:
            reason = "requires, among equal captures, the one that takes a king first"
        return Fault.ILLEGAL_MOVE, f"{text} is not legal: {variant.title} {reason} ({listing})"
    if kind == _MAJORITY:
        most = max(len(m.captures) for m in captures)
        best = [m for m in captures if len(m.captures) == most]
        return (
            Fault.ILLEGAL_MOVE,
            f"{text} takes {_plural(len(attempt.captures), 'piece')}, but {variant.title} "
            f"requires taking the most pieces: {most} here ({_listing(variant, best)})",
        )
    return Fault.ILLEGAL_MOVE, f"{text} is not legal here"


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
                f"{text} is not possible: {_sq(variant, x)} and {_sq(variant, y)} are not on "
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
        hop = f"{_sq(variant, x)} to {_sq(variant, y)}"
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
            reason = f"its own piece on {_sq(variant, friends[0])} is in the way from {hop}"
        elif len(enemies) > 1:
            reason = f"there are {len(enemies)} pieces in the way from {hop}"
        elif enemies and enemies[0] in taken:
            reason = f"the piece on {_sq(variant, enemies[0])} would be jumped twice"
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
        f"{text} is not possible for the {piece.name} on {_sq(variant, a)}",
        everything,
    )


__all__ = ["Diagnosis", "Fault", "diagnose", "move_text"]
