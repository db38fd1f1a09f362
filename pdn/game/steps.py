"""A replayed move as the spine carries it: :class:`Step`, and what a replay gives a walk.

The replay (:mod:`pdn.rules.validation`) makes a step for each move or setup it reaches; a visitor
driven with a replay (:meth:`Game.accept(visitor, report) <pdn.game.model.Game.accept>`) receives
each one right after its move (:meth:`~pdn.game.visitor.GameVisitor.visit_step`). They live here,
beside the model, so that the model and the visitor name them without knowing the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pdn.engine import Move, Position, pickle_by_fields

if TYPE_CHECKING:
    from .model import Game, Node

__all__ = ["Replayed", "Step"]


@dataclass(slots=True, init=False)
class Step:
    """One replayed move (or setup command) of some line of play; ``move`` is ``None`` for a
    move that is not legal (``after`` is then the position after carrying it out as written,
    when that can be done: the line goes on from there).

    ``order`` is the node's place in written order, 0 for the first: its index in
    :meth:`Game.walk() <pdn.game.model.Game.walk>`, as a visitor counts moves and setups.  The
    replay's own order differs (it replays the alternatives to a move before the move), and is
    the order of :attr:`Report.steps <pdn.rules.validation.Report.steps>`.

    >>> import pdn
    >>> game = pdn.parse_game("1. 11-15 (9-13 22-18) 23-19 *")
    >>> [(s.node.move, s.order) for s in pdn.validate(game).steps]
    [('9-13', 1), ('22-18', 2), ('11-15', 0), ('23-19', 3)]
    """

    node: Node
    ply: int
    mainline: bool
    before: Position
    move: Move | None
    after: Position | None
    order: int

    # Written out: a replay makes one per ply, and compiled, this __init__ is native where the
    # dataclass's would be interpreted (five times slower).
    def __init__(
        self,
        node: Node,
        ply: int,
        mainline: bool,
        before: Position,
        move: Move | None,
        after: Position | None,
        order: int,
    ) -> None:
        self.node = node
        self.ply = ply
        self.mainline = mainline
        self.before = before
        self.move = move
        self.after = after
        self.order = order


# Compiled, a class with its own __init__ would unpickle by calling it without arguments.
pickle_by_fields(Step)


class Replayed(Protocol):
    """What a walk driven with a replay needs of it (a :class:`~pdn.rules.validation.Report` is
    one):
    its game, and its steps by written order."""

    @property
    def game(self) -> Game:
        """The game replayed."""
        ...

    def written_steps(self) -> list[Step | None]:
        """The steps indexed by their node's place in written order (``None`` for a node not
        reached), as far as the last node reached."""
        ...
