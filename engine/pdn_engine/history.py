"""What the draws by rule look back at: the positions since the last irreversible move.

Only a king's move that takes nothing can be undone; a man's move or a capture cannot, so no
position before it can come back and every count of quiet moves starts again. The search,
``pdn engine --hub``, ``pdn analyse`` and a match keep one :class:`History` each.

>>> from pdn_engine import ENGLISH, Position
>>> start = Position.from_fen("B:WK30:BK3", ENGLISH)
>>> history = History()
>>> history.push(start, start.legal_moves()[0])
>>> history.quiet, history.since == [start]
(1, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .movegen import Move
from .position import Position


@dataclass(slots=True)
class History:
    """The positions since the last irreversible move (``since``, each the one a reversible
    move was played from) and those moves (``moves``), in order."""

    since: list[Position] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)

    @property
    def quiet(self) -> int:
        """The reversible plies in a row: what a quiet-move count counts."""
        return len(self.moves)

    @property
    def first(self) -> Position | None:
        """The position the reversible run starts from, if there is one."""
        return self.since[0] if self.since else None

    def push(self, before: Position, move: Move) -> None:
        """``move`` played from ``before``: kept when it can be undone, else all forgotten."""
        if move.is_reversible:
            self.since.append(before)
            self.moves.append(move)
        else:
            self.since.clear()
            self.moves.clear()

    def after(self, before: Position, move: Move) -> History:
        """This history with ``move`` played from ``before``, as a new one (this one is left
        as it is, so that a search can try each move from the same place)."""
        if move.is_reversible:
            return History([*self.since, before], [*self.moves, move])
        return History()
