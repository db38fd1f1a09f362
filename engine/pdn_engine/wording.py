"""The English of a diagnosis: squares and moves written the variant's way, lists of moves, and
the sentence for each rule a relaxed move breaks (:mod:`.faults`).

>>> from pdn.engine import ENGLISH, Move
>>> listing(ENGLISH, [Move((27, 18, 11), (23, 15)), Move((27, 20, 11), (24, 16)), Move((9, 14))])
'27x18x11, 27x20x11, 9-14'
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import board_for, square_name
from .faults import (
    AFTER_CROWN,
    BACKWARD,
    INCOMPLETE,
    KING_FAR,
    KING_LIMIT,
    MAJORITY,
    MAN_TAKES_KING,
    MISSED,
    PRIORITY,
    STOP_BEHIND,
    Attempt,
    Fault,
    capture_features,
    continuations,
    priority_broken,
)
from .movegen import Move, move_text
from .position import Piece, Position
from .variants import Variant


def written(variant: Variant, squares: Sequence[int], capture: bool) -> str:
    """Written squares joined by the variant's capture separator, or ``-``."""
    sep = variant.capture_separator if capture else "-"
    return sep.join(square_name(s, variant) for s in squares)


def _result_key(move: Move) -> tuple[int, int, frozenset[int]]:
    return (move.path[0], move.path[-1], frozenset(move.captures))


def unique(moves: Sequence[Move]) -> list[Move]:
    """One move per resulting position, in the given order."""
    seen: set[tuple[int, int, frozenset[int]]] = set()
    out = []
    for m in moves:
        key = _result_key(m)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def listing(variant: Variant, moves: Sequence[Move], limit: int = 8) -> str:
    """Moves in short form, full path only where the short form would be ambiguous.

    Long lists are cut after ``limit`` moves ("..., and 6 more"); the caller has them all.
    """
    distinct = unique(moves)
    ends: dict[tuple[int, int], int] = {}
    for m in distinct:
        ends[m.path[0], m.path[-1]] = ends.get((m.path[0], m.path[-1]), 0) + 1
    texts = [move_text(m, variant, full=ends[m.path[0], m.path[-1]] > 1) for m in distinct]
    if len(texts) > limit:
        return ", ".join(texts[:limit]) + f", and {len(texts) - limit} more"
    return ", ".join(texts)


def full_listing(variant: Variant, moves: Sequence[Move], limit: int = 3) -> str:
    """Moves by their full paths, one per resulting position, cut after ``limit``."""
    texts = [move_text(m, variant, full=True) for m in unique(moves)]
    if len(texts) > limit:
        return ", ".join(texts[:limit]) + f", and {len(texts) - limit} more"
    return ", ".join(texts)


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an s unless it is one: ``plural(2, "king")`` is '2 kings'."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def jump_word(variant: Variant) -> str:
    """What the variant's players call taking: "jump" in checkers, "capture" in draughts."""
    return "capture" if variant.flying_kings else "jump"


def remark(variant: Variant, text: str, move: Move, capture_written: bool) -> str:
    """What a legal ``move`` written as ``text`` gets said of it: nothing, or that its separator
    says the other thing (a capture written with ``-``, a quiet move with ``x``)."""
    if capture_written and not move.is_capture:
        return (
            f"{text} is written as a capture but takes nothing; read as {move_text(move, variant)}"
        )
    if not capture_written and move.is_capture:
        return (
            f"{text} is a capture written without a capture sign; "
            f"read as {move_text(move, variant)}"
        )
    return ""


def describe(
    position: Position,
    attempt: Attempt,
    kind: str,
    legal: list[Move],
    merged: Sequence[Move],
    piece: Piece,
    text: str,
) -> tuple[Fault, str]:
    """The fault of ``attempt``, which breaks the rule ``kind`` (:func:`.faults.classify`), and
    the sentence explaining it: ``text`` is the move as written, ``legal`` the legal moves,
    ``merged`` one per resulting position."""
    variant = position.variant
    side = position.turn
    start, end = attempt.path[0], attempt.path[-1]
    a, b = square_name(start, variant), square_name(end, variant)
    captures = [m for m in legal if m.is_capture]
    jump = jump_word(variant)
    must = ""
    if captures:
        what = "jump is" if len(unique(captures)) == 1 else "jumps are"
        if variant.flying_kings:
            what = "capture is" if len(unique(captures)) == 1 else "captures are"
        must = f"{side.label} must {jump}; the {what} {listing(variant, captures)}"

    if kind == MISSED:
        return Fault.MISSED_CAPTURE, f"{text} is not legal: {must}"
    if kind == BACKWARD:
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
    if kind == KING_FAR:
        found = board_for(variant).direction(start, end)
        distance = found[1] if found else 0
        message = (
            f"the king on {a} moves only one square at a time in {variant.title}; "
            f"{text} is {plural(distance, 'square')}"
        )
        if captures:
            message += f"; besides, {must}"
        return Fault.KING_TOO_FAR, message
    if kind == AFTER_CROWN:
        crowned = attempt.crowned_at if attempt.crowned_at is not None else end
        return (
            Fault.CAPTURE_AFTER_CROWNING,
            f"{text} is not legal: the man on {a} is crowned on "
            f"{square_name(crowned, variant)} and its move ends there; it cannot go on jumping",
        )
    if kind == INCOMPLETE:
        # Named from the merged list: one path per result, so no duplicate stop squares.
        more = continuations(attempt, merged) or continuations(attempt, legal)
        extending = [m for m in more if m.path[: len(attempt.path)] == attempt.path]
        full = full_listing(variant, more)
        word = "move" if len(unique(more)) == 1 else "moves"
        mover = "king" if piece.king or attempt.crowned_at is not None else "man"
        if extending:
            nexts = sorted({m.path[len(attempt.path)] for m in extending})
            targets = " or ".join(square_name(s, variant) for s in nexts)
            going = "jumping" if not variant.flying_kings else "capturing"
            return (
                Fault.INCOMPLETE_CAPTURE,
                f"the {jump} {text} stops early: the {mover} on {b} can go on {going} to "
                f"{targets} (full {word} {full})",
            )
        last = square_name(attempt.captures[-1], variant)
        return (
            Fault.INCOMPLETE_CAPTURE,
            f"the capture {text} stops early: after taking {last} the {mover} must stop on a "
            f"square from which it can go on capturing (full {word} {full})",
        )
    if kind == KING_LIMIT:
        limit = variant.king_move_limit
        return (
            Fault.ILLEGAL_MOVE,
            f"{text} is not legal: the king on {a} has made {limit} non-capturing moves in a "
            f"row; in {variant.title} another piece must move now (the legal moves are "
            f"{listing(variant, merged)})",
        )
    if kind == STOP_BEHIND:
        message = (
            f"{text} is not legal: a king in {variant.title} must land on the square just "
            "behind the piece it captures"
        )
        if captures:
            message += f"; {must}"
        return Fault.ILLEGAL_MOVE, message
    if kind == MAN_TAKES_KING:
        kings = [c for c in attempt.captures if (p := position.piece_at(c)) and p.king]
        where = ", ".join(square_name(c, variant) for c in kings)
        message = (
            f"{text} is not legal: a man cannot capture a king in {variant.title} "
            f"(the piece on {where} is a king)"
        )
        if captures:
            message += f"; {must}"
        return Fault.ILLEGAL_MOVE, message
    if kind == PRIORITY:
        rule = priority_broken(position, attempt, captures)
        listed = listing(variant, captures)
        if rule == "value":
            reason = (
                "requires the capture of the highest value (a king counts a little less than "
                "two men)"
            )
        elif rule == "king":
            reason = "requires capturing with a king when a king can capture"
        elif rule == "most-kings":
            taken = capture_features(position, attempt.path, attempt.captures)[1]
            most = capture_features(position, captures[0].path, captures[0].captures)[1]
            reason = (
                f"requires taking the most kings; {text} takes {plural(taken, 'king')}, "
                f"{most} can be taken"
            )
        else:
            reason = "requires, among equal captures, the one that takes a king first"
        return Fault.ILLEGAL_MOVE, f"{text} is not legal: {variant.title} {reason} ({listed})"
    if kind == MAJORITY:
        most = max(len(m.captures) for m in captures)
        best = [m for m in captures if len(m.captures) == most]
        return (
            Fault.ILLEGAL_MOVE,
            f"{text} takes {plural(len(attempt.captures), 'piece')}, but {variant.title} "
            f"requires taking the most pieces: {most} here ({listing(variant, best)})",
        )
    return Fault.ILLEGAL_MOVE, f"{text} is not legal here"


__all__ = [
    "describe",
    "full_listing",
    "jump_word",
    "listing",
    "plural",
    "remark",
    "unique",
    "written",
]
