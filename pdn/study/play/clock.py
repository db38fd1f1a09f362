"""Time controls of a match and the clock pdn keeps for each engine, as the Hub protocol
states them (``level [moves=M] time=T [inc=I]``): sudden death (``60``: 60 seconds for the
game), x moves in y (``40/120``: 40 moves in 120 seconds, then 120 more for each 40), and
Fischer increment (``60+1``: one second more before every move, as the Hub adds it).

The clock pdn keeps is the one that counts: an engine's move is timed from ``go`` to its
``done``; an engine whose time is below ``-margin`` (a grace for the pipes, once per game,
not per move) has lost on time, and pdn stops waiting for it at that moment.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = ["Clock", "TimeControl"]

_CONTROL = re.compile(r"(?:(\d+)/)?(\d+(?:\.\d*)?|\.\d+)(?:\+(\d+(?:\.\d*)?|\.\d+))?")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """``seconds`` for the game, or for each ``moves`` moves when ``moves`` is not 0, with
    ``increment`` seconds more before every move."""

    seconds: float
    moves: int = 0
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """A time control as written on the command line (``ValueError`` when it is not one).

        >>> TimeControl.parse("40/120"), TimeControl.parse("60+0.5").tag()
        (TimeControl(seconds=120.0, moves=40, increment=0.0), '60+0.5')
        """
        found = _CONTROL.fullmatch(text.strip())
        if found is None:
            raise ValueError(
                f"{text!r} is not a time control: SECONDS (sudden death), SECONDS+INCREMENT "
                "(Fischer) or MOVES/SECONDS (moves in seconds)"
            )
        moves, seconds, increment = found.groups()
        control = cls(float(seconds), int(moves or 0), float(increment or 0))
        if not math.isfinite(control.seconds) or control.seconds <= 0:
            raise ValueError(f"{text!r}: the time must be more than 0 seconds")
        if moves is not None and control.moves == 0:
            raise ValueError(f"{text!r}: the moves of a period must be 1 or more")
        return control

    def tag(self) -> str:
        """The control as a PGN-style ``TimeControl`` tag writes it (``40/120``, ``60+1``)."""
        text = f"{self.seconds:g}"
        if self.moves:
            text = f"{self.moves}/{text}"
        if self.increment:
            text += f"+{self.increment:g}"
        return text


@dataclass(slots=True)
class Clock:
    """An engine's clock under ``control`` in one game: ``left`` seconds, ``moved`` moves."""

    control: TimeControl
    margin: float = 1.0
    left: float = 0.0
    moved: int = 0

    def __post_init__(self) -> None:
        self.left = self.control.seconds

    def level(self) -> str:
        """The ``level`` arguments telling the engine its clock before its move.

        >>> Clock(TimeControl(120.0, 40)).level()
        'moves=40 time=120.000'
        """
        control = self.control
        parts = []
        if control.moves:
            parts.append(f"moves={control.moves - self.moved % control.moves}")
        parts.append(f"time={max(self.left, 0.0):.3f}")
        if control.increment:
            parts.append(f"inc={control.increment:g}")
        return " ".join(parts)

    def deadline(self) -> float:
        """Seconds the engine may take over its next move before it has lost on time."""
        return max(0.0, self.left + self.control.increment + self.margin)

    def spend(self, seconds: float) -> bool:
        """Count a move that took ``seconds``; ``False`` when the engine has lost on time.

        >>> clock = Clock(TimeControl(10.0, 2), margin=0.5)
        >>> clock.spend(4.0), clock.spend(4.0), clock.left
        (True, True, 12.0)
        >>> clock.spend(12.4), clock.spend(0.2)
        (True, False)
        """
        control = self.control
        self.left += control.increment - seconds
        self.moved += 1
        if self.left < -self.margin:
            return False
        if control.moves and self.moved % control.moves == 0:
            self.left += control.seconds
        return True
