"""The draw rules of each federation, watched along a line of play.

A draw rule never makes a move illegal: it says that from some ply on the game was a draw
(FMJD, Russian: the game *is* drawn) or could have been claimed as one (WCDF, Czech: a player
*may claim*). Each is reported once per line as a notice naming the rule and the ply.

* English (WCDF 2008, which the ACF follows): a claim at the third occurrence of a position,
  or after 40 moves each with no man moved and nothing captured.
* International (FMJD): drawn at the third occurrence of a position; after 25 moves each with
  only kings moved and nothing captured; after 16 moves each in an ending of three pieces, one
  at least a king, against a lone king (a capture within it leaves the 16 moves running);
  after 5 moves each in an ending of two kings, a king and a man, or a king, against a lone
  king.
* Russian (FShR): drawn at the third occurrence; after 15 moves each with no man moved and
  nothing captured while both sides have kings (a side without kings can only move men, so
  the count needs no test of it); after 15 moves each of three kings or more against a lone
  king; after 30 moves each (4 or 5 pieces on the board) or 60 (6 or 7) in which both sides
  have kings and the balance of forces does not change (no capture, no crowning).
* Czech (the FMJD's brief Czech rules): a claim at the third occurrence, or after 15 moves
  with no man moved and nothing captured.
* Frisian: drawn when the side with two kings against a lone king has made 7 moves.
* American pool (APCA): drawn when the side with three kings against a lone king has made 13
  moves.

Sources are in ``docs/rules.md``. The other variants' draw rules are not watched (no text of
their federations' rules could be confirmed): :func:`draw_rules` gives ``None``, and a replay
says so with a ``draws-unwatched`` notice at the first king move (:func:`unwatched_sentence`).

>>> from pdn.engine import INTERNATIONAL
>>> draw_rules(INTERNATIONAL).name
'FMJD'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pdn.engine import (
    BRAZILIAN,
    CANADIAN,
    CZECH,
    ENGLISH,
    FRISIAN,
    INTERNATIONAL,
    ITALIAN,
    POOL,
    RUSSIAN,
    SPANISH,
    THAI,
    TURKISH,
    Color,
    Move,
    Position,
    Variant,
    pickle_by_fields,
)

__all__ = ["DrawRules", "DrawWatch", "Ending", "draw_rules", "unwatched_sentence"]

#: (men, kings) of one side.
Material = tuple[int, int]
#: Plies of a line held as played (move, position after it), and the range of them,
#: ``[first, last)``, whose positions a run of the draw watch set aside.
_Stretch = tuple[Sequence[tuple[Move | None, Position]], int, int]


@dataclass(frozen=True, slots=True)
class Ending:
    """An ending that is drawn after so many moves each: ``applies(strong, weak)`` on the
    (men, kings) of the two sides, either way round.

    ``stronger_only``: the moves counted are the stronger side's (``strong``'s), as in "must
    win within 13 moves". ``fresh_on_change``: the count starts again at every capture or
    crowning, even when the ending stays (Russian: "the balance of forces has not changed").
    ``goes_on``: when a capture leads from this ending into another of the rules, this
    ending's count goes on there (FMJD: "when during these 16 moves a piece is taken, the
    maximum of 16 moves remains valid"), beside the new ending's own count.
    """

    label: str
    moves: int
    applies: Callable[[Material, Material], bool]
    stronger_only: bool = False
    fresh_on_change: bool = False
    goes_on: bool = False


pickle_by_fields(Ending)


@dataclass(frozen=True, slots=True)
class DrawRules:
    """One federation's draw rules (see the module's table)."""

    name: str
    claim: bool  # True: a player may claim the draw; False: the game is drawn
    repetition: int  # the occurrence of a position that draws (0: no such rule)
    quiet_moves: int  # moves each with no man moved and nothing captured (0: no such rule)
    endings: tuple[Ending, ...] = ()


pickle_by_fields(DrawRules)


def _lone_king(side: Material) -> bool:
    return side == (0, 1)


def _three_with_a_king(side: Material) -> bool:
    men, kings = side
    return men + kings == 3 and kings >= 1


def _two_or_fewer_with_a_king(side: Material) -> bool:
    men, kings = side
    return kings >= 1 and men + kings <= 2


def _three_kings_or_more(side: Material) -> bool:
    return side[0] == 0 and side[1] >= 3


def _both_kings_and_pieces(low: int, high: int) -> Callable[[Material, Material], bool]:
    """Both sides have kings, and ``low`` to ``high`` pieces are on the board."""

    def applies(strong: Material, weak: Material) -> bool:
        return strong[1] >= 1 and weak[1] >= 1 and low <= sum(strong) + sum(weak) <= high

    return applies


_RUSSIAN_FOUR_FIVE = _both_kings_and_pieces(4, 5)
_RUSSIAN_SIX_SEVEN = _both_kings_and_pieces(6, 7)


_ENGLISH = DrawRules("WCDF", claim=True, repetition=3, quiet_moves=40)
_FMJD = DrawRules(
    "FMJD",
    claim=False,
    repetition=3,
    quiet_moves=25,
    endings=(
        Ending(
            "16-move rule (three pieces, one a king, against a lone king)",
            16,
            lambda strong, weak: _lone_king(weak) and _three_with_a_king(strong),
            goes_on=True,
        ),
        Ending(
            "5-move rule (two kings, a king and a man, or a king against a lone king)",
            5,
            lambda strong, weak: _lone_king(weak) and _two_or_fewer_with_a_king(strong),
        ),
    ),
)
_RUSSIAN = DrawRules(
    "FShR",
    claim=False,
    repetition=3,
    quiet_moves=15,
    endings=(
        Ending(
            "15-move rule (three kings or more against a lone king)",
            15,
            lambda strong, weak: _lone_king(weak) and _three_kings_or_more(strong),
        ),
        # (After the 15-move ending, which also has both sides with kings and 4 pieces or
        # more: the first ending that applies is the one counted.)
        Ending(
            "30-move rule (4 or 5 pieces, both sides with kings, the balance unchanged)",
            30,
            _RUSSIAN_FOUR_FIVE,
            fresh_on_change=True,
        ),
        Ending(
            "60-move rule (6 or 7 pieces, both sides with kings, the balance unchanged)",
            60,
            _RUSSIAN_SIX_SEVEN,
            fresh_on_change=True,
        ),
    ),
)
_CZECH = DrawRules("Czech rules", claim=True, repetition=3, quiet_moves=15)
_FRISIAN = DrawRules(
    "Frisian",
    claim=False,
    repetition=0,
    quiet_moves=0,
    endings=(
        Ending(
            "7-move rule (two kings against a lone king: the two kings' side has 7 moves)",
            7,
            lambda strong, weak: _lone_king(weak) and strong == (0, 2),
            stronger_only=True,
        ),
    ),
)
_POOL = DrawRules(
    "APCA",
    claim=False,
    repetition=0,
    quiet_moves=0,
    endings=(
        Ending(
            "13-move rule (three kings against a lone king: the three kings' side has 13 moves)",
            13,
            lambda strong, weak: _lone_king(weak) and strong == (0, 3),
            stronger_only=True,
        ),
    ),
)

#: The draw rules of every variant the engine has, by its record; ``None`` where none are
#: watched (docs/rules.md, "Draw rules").
_BY_VARIANT: dict[Variant, DrawRules | None] = {
    ENGLISH: _ENGLISH,
    INTERNATIONAL: _FMJD,
    RUSSIAN: _RUSSIAN,
    CZECH: _CZECH,
    FRISIAN: _FRISIAN,
    POOL: _POOL,
    ITALIAN: None,
    SPANISH: None,
    BRAZILIAN: None,
    TURKISH: None,
    THAI: None,
    CANADIAN: None,
}


def draw_rules(variant: Variant) -> DrawRules | None:
    """The draw rules watched for a variant, or ``None`` where none are (see
    :func:`unwatched_sentence`)."""
    return _BY_VARIANT.get(variant)


def unwatched_sentence(variant: Variant) -> str:
    """What a report says of a variant whose draw rules are not watched.

    >>> from pdn.engine import ITALIAN
    >>> unwatched_sentence(ITALIAN)[:43]
    'draw rules not watched for Italian draughts'
    """
    return (
        f"draw rules not watched for {variant.title}: pdn has no confirmed text of its "
        "federation's draw rules, so repetitions and move counts are not checked"
    )


def _material(position: Position, color: Color) -> Material:
    pieces = position.black if color is Color.BLACK else position.white
    kings = (pieces & position.kings).bit_count()
    return pieces.bit_count() - kings, kings


@dataclass(slots=True)
class DrawWatch:
    """Follows one line of play for the draws of ``rules``; :meth:`update` after each ply.

    It runs on every ply of every main line, so it does only what a ply can change. A legal man
    move or capture can never be undone (men only go forward, pieces only leave the board), so
    no position before it can occur again: positions are hashed only within the current run of
    king moves, and the far more common irreversible plies hash nothing. The material, and so
    the ending, changes only with a capture or a crowning. After an illegal move (``None``: the
    replay went on past it as written), every position counts, as nothing is then sure.
    """

    rules: DrawRules
    start: Position
    quiet: int = 0  # plies since the last capture or man move (while the rule counts)
    #: Occurrences of the positions of the current run of reversible plies (with its first).
    seen: dict[Position, int] = field(default_factory=dict)
    #: The first position of the current run, not yet counted while the run has no other.
    run_start: Position | None = None
    #: The counts of the runs before (kept unhashed, for an illegal move to come).
    earlier: list[dict[Position, int] | Position | _Stretch] = field(default_factory=list)
    exact: bool = False  # True after an illegal move: every position since the start counts
    said: set[str] = field(default_factory=set)
    ending: Ending | None = None
    ending_plies: int = 0
    #: The side whose moves the ending counts, for an ending that counts only the stronger's.
    strong: Color | None = None
    #: An ending whose count goes on after a capture led out of it, and that count.
    carried: Ending | None = None
    carried_plies: int = 0

    def __post_init__(self) -> None:
        self.run_start = self.start
        self._enter(self._ending_of(self.start), self.start)

    def update(self, move: Move | None, after: Position, ply: int) -> tuple[str, ...]:
        """The messages for the draws this ply brings (each said once per line); ``move`` is
        ``None`` for an illegal one."""
        return tuple(message for _, message in self.follow(((move, after),), ply))

    def follow(
        self, played: Sequence[tuple[Move | None, Position]], ply: int
    ) -> list[tuple[int, str]]:
        """:meth:`update` for plies in a row, the first of them ``ply``: each message with
        the index in ``played`` of the ply that brought it."""
        said: list[tuple[int, str]] = []
        endings = self.rules.endings
        index, count = 0, len(played)
        while index < count:
            # Most plies: man moves and captures that leave the ending as it was. Each starts
            # a new run, and nothing else can change: a stretch of them is taken at once, its
            # positions kept as the stretch (for an illegal move to come), not one by one.
            end = index
            if not self.exact:
                while end < count:
                    move = played[end][0]
                    if (
                        move is None
                        or move.is_reversible
                        or (endings and (self.ending or move.captures or move.crowns))
                    ):
                        break
                    end += 1
            if end > index:
                self.quiet = 0
                self._new_run(played[index][1])
                if end - index > 1:
                    self.earlier.append((played, index, end - 1))
                    self.run_start = played[end - 1][1]
                index = end
                continue
            move, after = played[index]
            for message in self._update(move, after, ply + index):
                said.append((index, message))
            index += 1
        return said

    def _update(self, move: Move | None, after: Position, ply: int) -> list[str]:
        # A ply that may change a count: a king move, an illegal move, a capture or crowning
        # in a variant that counts endings, anything after an illegal move.
        rules = self.rules
        messages: list[str] = []
        irreversible = move is None or not move.is_reversible
        if irreversible:
            self.quiet = 0
        else:
            self.quiet += 1
            if rules.quiet_moves and self.quiet >= 2 * rules.quiet_moves:
                messages += self._once(
                    "quiet",
                    f"{rules.name} {rules.quiet_moves}-move rule: no man has moved and nothing "
                    f"has been captured for {rules.quiet_moves} moves each; the game "
                    f"{self._verb()} from ply {ply}",
                )
        if move is None and not self.exact:
            self._count_everything()
        if irreversible and not self.exact:
            self._new_run(after)
        else:
            seen = self.seen
            if self.run_start is not None:
                seen[self.run_start] = seen.get(self.run_start, 0) + 1
                self.run_start = None
            count = seen[after] = seen.get(after, 0) + 1
            if rules.repetition and count >= rules.repetition:
                messages += self._once(
                    "repetition",
                    f"{rules.name} repetition rule: the position after ply {ply} (same side to "
                    f"move) has occurred {count} times; the game {self._verb()}",
                )
        if not rules.endings:
            return messages
        changed = move is None or bool(move.captures) or move.crowns
        ending = self._ending_of(after) if changed else self.ending
        carried = self.carried
        if carried is not None:
            if ending is None:
                self.carried = None
            else:
                self.carried_plies += 1
                messages += self._ending_done(carried, self.carried_plies, ply, carried=True)
        if ending is not self.ending or (changed and ending is not None and ending.fresh_on_change):
            old = self.ending
            captured = move is None or bool(move.captures)
            if (
                old is not None
                and old.goes_on
                and ending is not None
                and carried is None
                and captured
            ):
                # Out of an ending whose count goes on: this ply is one of its moves.
                self.carried, self.carried_plies = old, self.ending_plies + 1
                messages += self._ending_done(old, self.carried_plies, ply, carried=True)
            self._enter(ending, after)
        elif ending is not None:
            if not ending.stronger_only or after.turn is not self.strong:
                self.ending_plies += 1
            messages += self._ending_done(ending, self.ending_plies, ply)
        return messages

    def _limit(self, ending: Ending) -> int:
        """The plies of an ending's count that draw: its moves each, or the stronger side's."""
        return ending.moves if ending.stronger_only else 2 * ending.moves

    def _enter(self, ending: Ending | None, position: Position) -> None:
        """Start the count of ``ending`` (or of none), which arises at ``position``."""
        self.ending, self.ending_plies, self.strong = ending, 0, None
        if ending is not None and ending.stronger_only:
            black = _material(position, Color.BLACK)
            white = _material(position, Color.WHITE)
            self.strong = Color.BLACK if ending.applies(black, white) else Color.WHITE

    def _ending_done(
        self, ending: Ending, plies: int, ply: int, *, carried: bool = False
    ) -> list[str]:
        """The message of an ending whose count has reached its limit (once), else none."""
        if plies < self._limit(ending):
            return []
        each = "by the stronger side" if ending.stronger_only else "each"
        where = (
            "since this ending arose (counted on after a capture)"
            if carried
            else ("in this ending")
        )
        return self._once(
            ending.label,
            f"{self.rules.name} {ending.label}: {ending.moves} moves {each} played {where}; "
            f"the game {self._verb()} from ply {ply}",
        )

    def _new_run(self, after: Position) -> None:
        # A run of reversible plies starts at ``after``; nothing before it can come back, so
        # the run that ends is set aside unhashed (only an illegal move would need it).
        if self.seen:
            self.earlier.append(self.seen)
            self.seen = {}
        elif self.run_start is not None:
            self.earlier.append(self.run_start)
        self.run_start = after

    def _verb(self) -> str:
        return "can be claimed" if self.rules.claim else "is drawn"

    def _count_everything(self) -> None:
        # Fold the earlier runs into the counts: from now on nothing is ever forgotten.
        seen = self.seen
        if self.run_start is not None:
            seen[self.run_start] = seen.get(self.run_start, 0) + 1
            self.run_start = None
        for run in self.earlier:
            if isinstance(run, dict):
                for position, count in run.items():
                    seen[position] = seen.get(position, 0) + count
            elif isinstance(run, tuple):
                played, first, last = run
                for index in range(first, last):
                    after = played[index][1]
                    seen[after] = seen.get(after, 0) + 1
            else:
                seen[run] = seen.get(run, 0) + 1
        self.earlier = []
        self.exact = True

    def _once(self, key: str, message: str) -> list[str]:
        if key in self.said:
            return []
        self.said.add(key)
        return [message]

    def _ending_of(self, position: Position) -> Ending | None:
        black, white = _material(position, Color.BLACK), _material(position, Color.WHITE)
        for ending in self.rules.endings:
            if ending.applies(black, white) or ending.applies(white, black):
                return ending
        return None
