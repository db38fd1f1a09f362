"""A game read for its replay alone: :class:`GameRecorder` keeps the reader's events, not a tree.

A command that only looks at a game's replay (``validate``, and the others that do not write the
game back) needs its tags, the reader's problems, the rules the reader guessed and the moves,
not the model: most archive games are one line of plain moves, which the reader hands over as
lists (:meth:`~pdn.visitor.GameVisitor.visit_moves`). The recorder keeps those lists as they
are (:class:`Recorded`, ``runs``), and :func:`pdn.replayer.replay` plays them straight from
there, with no :class:`~pdn.model.Node` made. Anything else (a variation, a setup command)
makes the game the model after all: the recorder is a :class:`~pdn.builder.GameBuilder`, so
the tags, problems and rules come from the one builder, and so does the tree when one is
made. Comments, NAGs and move strengths are left out: no replay reads them.

>>> import io, pdn
>>> [raw] = pdn.split_games(io.StringIO('[Event "A"] 1. 11-15 23-19 2. 8-11 *'))
>>> recorded = record(raw)
>>> recorded.runs, recorded.game.root.variations
([(['11-15', '23-19', '8-11'], ['1.', None, '2.'], [1, 1, 1], [16, 22, 31])], [])
>>> recorded.model().mainline_moves()
['11-15', '23-19', '8-11']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pdn.builder import GameBuilder
from pdn.cutting import RawGame
from pdn.model import Comment, Game, Node
from pdn.native import chain_nodes
from pdn.parsing import accept_raw
from pdn.visitor import GameStart, Skip

__all__ = ["GameRecorder", "Recorded", "Run", "record"]

#: A run of moves as the reader gives them: texts, move numbers, lines and columns.
Run = tuple[list[str], list["str | None"], list[int], list[int]]


@dataclass(slots=True)
class Recorded:
    """A game as :class:`GameRecorder` kept it: ``game`` holds its tags, problems and rules;
    its moves are ``runs`` (the main line, in order) when it is one line of plain moves, and
    then ``game.root`` has no move until :meth:`model` makes the nodes. ``runs`` is ``None``
    when the game had to be the model: then ``game`` is whole (and its replay has every
    step)."""

    game: Game
    runs: list[Run] | None
    #: The plies of the main line that get steps when it is replayed from ``runs`` (each with
    #: a node made for it alone): a caller that reads the opening asks for a few.
    first_steps: int = 0

    def mainline_moves(self) -> list[str]:
        """The written moves of the main line (setup commands left out), as
        :meth:`pdn.model.Game.mainline_moves` gives them, without making the model."""
        if self.runs is None:
            return self.game.mainline_moves()
        return [move for moves, _, _, _ in self.runs for move in moves]

    def model(self) -> Game:
        """The game with its moves as nodes: the :class:`~pdn.model.Game` the reader's
        :class:`~pdn.builder.GameBuilder` would make, without comments, NAGs and strengths."""
        if self.runs is not None:
            _chain_runs(self.game.root, self.runs)
            self.runs = None
        return self.game


def record(raw: RawGame, first_steps: int = 0) -> Recorded:
    """Read one game cut by :func:`pdn.split_games` for its replay (see the module
    documentation), with steps for the first ``first_steps`` plies of its main line;
    :meth:`Recorded.model` gives its model when one is needed."""
    recorder = GameRecorder()
    game = accept_raw(raw, recorder)
    return Recorded(game, recorder.runs, first_steps)


def _chain_runs(parent: Node, runs: list[Run]) -> Node:
    """The nodes of ``runs``, one line from ``parent`` on; the last."""
    for moves, numbers, lines, columns in runs:
        parent = chain_nodes(parent, moves, numbers, lines, columns)
    return parent


class GameRecorder(GameBuilder):
    """Reads a game for its replay: :class:`Recorded` (see the module documentation)."""

    def begin_game(self, start: GameStart) -> None:
        super().begin_game(start)
        self.runs: list[Run] | None = []

    def _as_model(self) -> None:
        # Something only the tree says: the moves so far become its nodes, and from here on
        # the builder builds.
        if self.runs is not None:
            state = self.line
            last = _chain_runs(state.cur, self.runs)
            if last is not state.cur:
                state.cur = state.last = last
            self.runs = None

    def visit_comment(self, comment: Comment) -> None:
        pass  # no replay reads comments

    def visit_nag(self, nag: int) -> None:
        pass

    def visit_strength(self, strength: str) -> None:
        pass

    def visit_move(
        self,
        move: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        runs = self.runs
        if runs is None or line is None or column is None:
            self._as_model()
            GameBuilder.visit_move(self, move, number, (), line, column)
            return
        self.texts.add(move)
        runs.append(([move], [number], [line], [column]))

    def visit_moves(
        self,
        moves: list[str],
        numbers: list[str | None],
        before: Sequence[Comment],
        lines: list[int],
        columns: list[int],
    ) -> None:
        runs = self.runs
        if runs is None:
            self._add_moves(moves, numbers, (), lines, columns)
            return
        self.texts.update(moves)
        runs.append((moves, numbers, lines, columns))

    def visit_setup(
        self,
        fen: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self._as_model()
        GameBuilder.visit_setup(self, fen, number, (), line, column)

    def begin_variation(self) -> Skip | None:
        self._as_model()
        return super().begin_variation()
