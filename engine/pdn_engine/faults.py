"""The rules a written move breaks: the fault codes, and the piece's moves with the rules relaxed.

From its start square a piece's *physically possible* moves are generated with the rules relaxed
(men may step or jump backward, a crowned man may go on jumping, a capture may stop anywhere, a
flying king may land anywhere behind a piece), each remembering which rule it breaks (its
flags). :func:`classify` names the one rule a relaxed move breaks, judged against the legal
moves; :func:`engine.diagnose` matches the written squares against these moves and words the
fault (:mod:`.wording`).

>>> from pdn.engine import ENGLISH, Position
>>> pos = Position.from_fen("B:W19:B15,18", ENGLISH)
>>> step = next(t for t in relaxed(pos, 18, pos.piece_at(18)) if t.path == (18, 22))
>>> step.flags, classify(step, pos.legal_moves(), pos)
((), 'missed')
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from .movegen import Move, rules_for
from .position import Piece, Position


class Fault(str, enum.Enum):
    """Why a written move is not legal. The values are the ``pdn.text.problems`` codes."""

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


# What a relaxed move breaks (its flags, or what classify names), most specific first by RANK.
BACKWARD = "backward"
AFTER_CROWN = "after-crown"
KING_FAR = "king-far"
MISSED = "missed"
INCOMPLETE = "incomplete"
MAJORITY = "majority"
PRIORITY = "priority"
MAN_TAKES_KING = "man-takes-king"
STOP_BEHIND = "stop-behind"
KING_LIMIT = "king-limit"
OTHER = "other"

#: Lower rank = the more specific explanation when several relaxed moves fit the written squares.
RANK = {
    INCOMPLETE: 0,
    MAJORITY: 1,
    PRIORITY: 2,
    MAN_TAKES_KING: 3,
    MISSED: 4,
    AFTER_CROWN: 5,
    BACKWARD: 6,
    KING_FAR: 7,
    STOP_BEHIND: 8,
    KING_LIMIT: 8,
    OTHER: 9,
}


@dataclass(slots=True)
class Attempt:
    """A relaxed move: its path, the pieces it takes, the rules it breaks on the way, and where
    a man was crowned during it (if it was)."""

    path: tuple[int, ...]
    captures: tuple[int, ...]
    flags: tuple[str, ...]
    crowned_at: int | None = None

    def move(self) -> Move:
        """The attempt as a :class:`Move` (path and captures)."""
        return Move(self.path, self.captures)


#: Relaxed search nodes; only pathological flying-king positions get near it.
_BUDGET = 20000


def relaxed(position: Position, start: int, piece: Piece) -> list[Attempt]:
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
    out: list[Attempt] = []

    # Quiet moves: a man one square in any direction, a king any distance along an empty line.
    for d in range(4):
        for dist, q in enumerate(rules.rays[p0][d], start=1):
            if not bits[q] & empty:
                break
            flags: list[str] = []
            if piece.king:
                if dist > 1 and not variant.flying_kings:
                    flags.append(KING_FAR)
            else:
                if dist > 1:
                    break
                if d not in forward:
                    flags.append(BACKWARD)
            out.append(Attempt((start, number[q]), (), tuple(flags)))

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
            out.append(Attempt(path, caps, flags, crowned_at))
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
                    new_flags.append(STOP_BEHIND)
                new_king, new_flying, new_crowned = king, flying, crowned_at
                if crowned_at is not None and variant.crowning_ends_move:
                    new_flags.append(AFTER_CROWN)
                if not king and not variant.men_capture_kings and bits[x] & position.kings:
                    new_flags.append(MAN_TAKES_KING)
                if not king and d not in man_capture:
                    new_flags.append(BACKWARD)
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


def classify(attempt: Attempt, legal: Sequence[Move], position: Position) -> str:
    """The rule a relaxed move breaks (its worst flag), judged against the legal moves."""
    variant = position.variant
    if attempt.flags:
        return min(attempt.flags, key=RANK.__getitem__)
    legal_captures = [m for m in legal if m.is_capture]
    if not attempt.captures:
        if legal_captures:
            return MISSED
        return KING_LIMIT if position.blocked_king() == attempt.path[0] else OTHER
    if continuations(attempt, legal_captures):
        return INCOMPLETE
    n = len(attempt.captures)
    if variant.majority_capture and n < max(len(m.captures) for m in legal_captures):
        return MAJORITY
    if priority_broken(position, attempt, legal_captures) is not None:
        return PRIORITY
    return OTHER


def capture_features(
    position: Position, path: Sequence[int], captures: Sequence[int]
) -> tuple[bool, int, int]:
    """What the priority rules look at: by a king?, kings taken, where the first king is taken."""
    start = position.piece_at(path[0])
    kings = [bool((p := position.piece_at(c)) and p.king) for c in captures]
    first = kings.index(True) if True in kings else len(kings)
    return bool(start and start.king), sum(kings), first


def priority_broken(position: Position, attempt: Attempt, legal: Sequence[Move]) -> str | None:
    """The first ``capture_priority`` rule that puts ``attempt`` behind the legal captures."""
    variant = position.variant
    if not variant.capture_priority or not legal or not attempt.captures:
        return None
    by_king, kings, first = capture_features(position, attempt.path, attempt.captures)
    # Every legal capture survived the same rules, so one of them speaks for all.
    best_king, best_kings, best_first = capture_features(position, legal[0].path, legal[0].captures)
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


def continuations(attempt: Attempt, legal: Sequence[Move]) -> list[Move]:
    """Legal moves that take the same pieces in the same order as ``attempt``, and more."""
    n = len(attempt.captures)
    start = attempt.path[0]
    return [
        m
        for m in legal
        if m.path[0] == start and len(m.captures) > n and m.captures[:n] == attempt.captures
    ]


__all__ = [
    "RANK",
    "Attempt",
    "Fault",
    "capture_features",
    "classify",
    "continuations",
    "priority_broken",
    "relaxed",
]
