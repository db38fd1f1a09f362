"""The record of one game's replay: :class:`Report`, its problems and steps, and its status.

:func:`pdn.rules.validation.validate` makes one (through :func:`pdn.rules.replayer.replay`, under
each set of
rules it tries); every command that looks at a game's moves reads it.

>>> import pdn
>>> report = pdn.validate(pdn.parse_game("1. 11-15 23-19 2. 15-11 *"))
>>> report.status, len(report.steps), report.final.fen()[:2]
('illegal', 3, 'W:')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from pdn.engine import Color, Move, Position, Variant
from pdn.game.model import Game, Node
from pdn.game.steps import Step
from pdn.text.problems import Problem

Status = Literal["ok", "illegal", "illegal-variation", "syntax-error", "unchecked"]
#: The statuses of a game with an error (a syntax error or an illegal move).
ERROR_STATUSES: frozenset[Status] = frozenset({"illegal", "illegal-variation", "syntax-error"})


@dataclass(slots=True)
class Report:
    """What replaying one game found: its problems, each replayed step, the final position.

    ``final`` is the last position the mainline reached (before the move that stopped it, if
    one did; ``complete`` is then False). A step whose ``move`` is None was not legal.

    ``steps`` are in the order of the replay; :meth:`walk` gives every node of the game in
    written order with its step, :meth:`step_of` and :meth:`position_of` those of one node,
    and ``game.accept(visitor, report)`` a visitor each step after its move.
    """

    game: Game
    variant: Variant | None
    problems: list[Problem] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    start: Position | None = None
    final: Position | None = None
    complete: bool = True
    #: Where the rules came from: "option" (the caller's), "gametype", "file", "squares",
    #: "fen", "default", "replay", "replay-file" or "replay-common"
    #: (see :func:`pdn.game.detection.source_sentence`) ...
    rules_source: str = "default"
    #: ... and the evidence, as a sentence (``'GameType "25"'``).
    rules_evidence: str = ""

    @property
    def status(self) -> Status:
        """``syntax-error`` when the text has errors; ``illegal`` when the main line has an
        illegal move, ``illegal-variation`` when only side lines have; ``unchecked`` when the
        variant's rules are not implemented; else ``ok`` (warnings and notices allowed)."""
        if any(p.severity == "error" for p in self.game.errors):
            return "syntax-error"
        errors = [p for p in self.problems if p.severity == "error"]
        if any(not p.variation for p in errors):
            return "illegal"
        if errors:
            return "illegal-variation"
        if self.variant is None:
            return "unchecked"
        return "ok"

    @property
    def variant_name(self) -> str | None:
        """The name of the rules the game was replayed under, the one answer every command
        gives for its variant (:attr:`pdn.game.model.Game.variant` is the reader's guess, before
        the replay); for rules pdn lacks, the variant the game names, if any."""
        return self.variant.name if self.variant is not None else self.game.variant

    @property
    def winner(self) -> Color | None:
        """The side the game's result names the winner, read under the rules of the replay
        (the first number of a result is the first mover's: Black in English checkers, White
        in International draughts); ``None`` for a draw, an unknown result, or when no rules
        replayed the game. Compare it with ``None``: ``Color.BLACK`` is 0, so it is falsy.

        >>> import pdn
        >>> pdn.validate(pdn.parse_game("1. 11-15 23-19 1-0")).winner.label
        'Black'
        >>> pdn.validate(pdn.parse_game('[GameType "20"] 1. 32-28 19-23 2-0')).winner.label
        'White'
        """
        from pdn.game.gametype import first_colour
        from pdn.text.results import Outcome, parse_result

        outcome = parse_result(self.game.result)
        if self.variant is None or outcome not in (Outcome.FIRST_WINS, Outcome.SECOND_WINS):
            return None
        first = first_colour(self.variant, self.game.game_type)
        return first if outcome is Outcome.FIRST_WINS else first.opponent

    @property
    def all_problems(self) -> list[Problem]:
        """The reader's problems followed by the replay's, each group in file order."""
        return [*self.game.errors, *self.problems]

    def mainline_steps(self) -> Iterator[Step]:
        """The steps of the mainline, in order."""
        return (step for step in self.steps if step.mainline)

    def mainline_moves(self) -> list[Move]:
        """The engine's moves of the mainline as replayed, up to the first illegal one (setup
        commands left out).

        >>> import pdn
        >>> report = pdn.validate(pdn.parse_game("1. 11-15 23-19 2. 15-24 24-20 *"))
        >>> [move.path for move in report.mainline_moves()]
        [(11, 15), (23, 19)]
        """
        moves: list[Move] = []
        for step in self.mainline_steps():
            if step.node.setup is not None:
                continue
            if step.move is None:
                break
            moves.append(step.move)
        return moves

    def walk(self) -> Iterator[tuple[Node, Step | None]]:
        """Every node of the game in written order (as :meth:`Game.walk()
        <pdn.game.model.Game.walk>`), with its step, or ``None`` where the replay did not reach it
        (after an illegal move or a bad setup, or with rules not implemented).  One pass over
        the game and its steps, however many nodes: the way to go through a whole game.

        >>> import pdn
        >>> report = pdn.validate(pdn.parse_game("1. 11-15 (9-13 22-18) 23-19 2. 15-24 24-20 *"))
        >>> [(node.move, step and step.ply) for node, step in report.walk()]
        [('11-15', 1), ('9-13', 1), ('22-18', 2), ('23-19', 2), ('15-24', 3), ('24-20', None)]
        """
        written = self.written_steps()
        reached = len(written)
        for order, (node, _) in enumerate(self.game.walk()):
            step = written[order] if order < reached else None
            if step is not None and step.node is not node:
                raise ValueError("the game has changed since it was validated")
            yield node, step

    def step_of(self, node: Node) -> Step | None:
        """The step of ``node``, or ``None`` where the replay did not reach it.  Each call goes
        through the steps: to look at every node, use :meth:`walk` (or a visitor driven with
        the report, :meth:`Game.accept(visitor, report) <pdn.game.model.Game.accept>`).

        >>> import pdn
        >>> game = pdn.parse_game("1. 11-15 23-19 2. 15-24 24-20 *")
        >>> report = pdn.validate(game)
        >>> second, third, fourth = list(game.mainline())[1:]
        >>> report.step_of(second).after.fen()[:2], report.step_of(third).move
        ('B:', None)
        >>> report.step_of(fourth) is None
        True
        """
        return next((step for step in self.steps if step.node is node), None)

    def position_of(self, node: Node) -> Position | None:
        """The position after ``node`` as replayed (the start position for the game's root),
        or ``None`` where the replay did not reach it or could not carry the move out.

        >>> import pdn
        >>> game = pdn.parse_game("1. 11-15 23-19 *")
        >>> report = pdn.validate(game)
        >>> report.position_of(game.root.next()).fen()[:2]
        'W:'
        """
        if node is self.game.root:
            return self.start
        step = self.step_of(node)
        return step.after if step is not None else None

    def written_steps(self) -> list[Step | None]:
        """The steps indexed by their node's place in written order (``None`` for a node not
        reached), as far as the last node reached."""
        steps = self.steps
        written: list[Step | None] = [None] * (max((s.order for s in steps), default=-1) + 1)
        for step in steps:
            written[step.order] = step
        return written

    def __repr__(self) -> str:
        # One line: the fields hold every position of the game (kilobytes for one game).
        rules = self.variant.name if self.variant is not None else None
        plies = sum(1 for _ in self.mainline_steps())
        return (
            f"Report(status={self.status!r}, variant={rules!r}, game={self.game.index}, "
            f"line={self.game.line}, plies={plies}, problems={len(self.all_problems)})"
        )

    def _repr_html_(self) -> str:
        """The verdict and a table of the problems, in Jupyter
        (:func:`pdn.view.viewer.report_html`)."""
        from pdn.view.viewer import report_html

        return report_html(self)
