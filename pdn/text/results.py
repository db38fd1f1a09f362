"""Game results as PDN writes them, read from the first mover's side.

PDN has two result families, ``1-0 0-1 1/2-1/2`` and ``2-0 0-2 1-1``, plus ``0-0`` (both lost)
and ``*`` (unknown). In both, the first number is the score of the side that moves first: Black
in English checkers, White in International and Russian draughts.

>>> parse_result("1/2-1/2")
Outcome.DRAW
>>> parse_result(" 2-0 ")
Outcome.FIRST_WINS
"""

from __future__ import annotations

import enum


class Outcome(enum.Enum):
    """What a result says, independent of its family."""

    FIRST_WINS = "first-wins"
    SECOND_WINS = "second-wins"
    DRAW = "draw"
    BOTH_LOSE = "both-lose"
    UNKNOWN = "unknown"

    def __repr__(self) -> str:
        return f"Outcome.{self.name}"


#: The canonical result text of each outcome, per family.
CANONICAL: dict[str, dict[Outcome, str]] = {
    "default": {
        Outcome.FIRST_WINS: "1-0",
        Outcome.SECOND_WINS: "0-1",
        Outcome.DRAW: "1/2-1/2",
        Outcome.BOTH_LOSE: "0-0",
        Outcome.UNKNOWN: "*",
    },
    "international": {
        Outcome.FIRST_WINS: "2-0",
        Outcome.SECOND_WINS: "0-2",
        Outcome.DRAW: "1-1",
        Outcome.BOTH_LOSE: "0-0",
        Outcome.UNKNOWN: "*",
    },
}

#: Every result string PDN writes at the end of a game, longest first (so that an alternation
#: built from it matches ``1/2-1/2`` before ``1-1``...).  The grammar's RESULT terminal, the
#: reader's cutting into games and the writer all use this one list.
TERMINATORS: tuple[str, ...] = tuple(
    sorted(
        {text for family in CANONICAL.values() for text in family.values()},
        key=lambda text: (-len(text), text),
    )
)

_OUTCOMES: dict[str, Outcome] = {
    text: outcome
    for family in CANONICAL.values()
    for outcome, text in family.items()
    if outcome is not Outcome.UNKNOWN
}
_OUTCOMES["0.5-0.5"] = Outcome.DRAW


def parse_result(text: str | None) -> Outcome:
    """Read a result string liberally (either family, spaces, ``½``, an en dash); anything
    else, ``*`` and ``?`` included, is UNKNOWN."""
    if text is None:
        return Outcome.UNKNOWN
    key = "".join(text.split()).replace("½", "1/2").replace("\u2013", "-")
    return _OUTCOMES.get(key, Outcome.UNKNOWN)


def scores(outcome: Outcome) -> tuple[float, float] | None:
    """Game points (first mover, second mover) on the 1 / ½ / 0 scale; None when unknown."""
    return {
        Outcome.FIRST_WINS: (1.0, 0.0),
        Outcome.SECOND_WINS: (0.0, 1.0),
        Outcome.DRAW: (0.5, 0.5),
        Outcome.BOTH_LOSE: (0.0, 0.0),
    }.get(outcome)
