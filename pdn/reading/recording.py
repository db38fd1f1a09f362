"""A game read for its replay alone: :class:`GameRecorder` keeps the reader's events, not a tree.

A command that only looks at a game's replay (``validate``, and the others that do not write the
game back) needs its tags, the reader's problems, the rules the reader guessed and the moves,
not the model: most archive games are one line of plain moves, which the reader hands over as
lists (:meth:`~pdn.game.visitor.GameVisitor.visit_moves`). The recorder keeps those lists as they
are (:class:`Recorded`, ``runs``), and :func:`pdn.rules.replayer.replay` plays them straight from
there, with no :class:`~pdn.game.model.Node` made. Anything else (a variation, a setup command)
makes the game the model after all: the recorder is a :class:`~pdn.reading.builder.GameBuilder`, so
the tags, problems and rules come from the one builder, and so does the tree when one is
made. Comments, NAGs and move strengths are left out: no replay reads them.

A command that writes the games back as they were read (``convert`` to PDN, ``annotate``) reads
them with ``whole=True``: then nothing is left out, a comment, NAG or strength after the first
move makes the model too, and :meth:`Recorded.accept` gives a visitor every event of the game,
its moves as the reader's runs (:meth:`~pdn.game.visitor.GameVisitor.visit_moves`).

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
from typing import TypeVar

from pdn.game.model import Comment, Game, Node
from pdn.game.visitor import GameStart, GameVisitor, Skip

from .builder import GameBuilder
from .cutting import RawGame
from .native import chain_nodes
from .parsing import accept_raw

__all__ = ["GameRecorder", "Recorded", "Run", "game_of", "record"]

#: A run of moves as the reader gives them: texts, move numbers, lines and columns.
Run = tuple[list[str], list["str | None"], list[int], list[int]]

T = TypeVar("T")


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
    #: Read with nothing left out (``record(raw, whole=True)``): :meth:`accept` can write it.
    whole: bool = False

    def mainline_moves(self) -> list[str]:
        """The written moves of the main line (setup commands left out), as
        :meth:`pdn.game.model.Game.mainline_moves` gives them, without making the model."""
        if self.runs is None:
            return self.game.mainline_moves()
        return [move for moves, _, _, _ in self.runs for move in moves]

    def model(self) -> Game:
        """The game with its moves as nodes: the :class:`~pdn.game.model.Game` the reader's
        :class:`~pdn.reading.builder.GameBuilder` would make, without comments, NAGs and
        strengths."""
        if self.runs is not None:
            _chain_runs(self.game.root, self.runs)
            self.runs = None
        return self.game

    def accept(self, visitor: GameVisitor[T]) -> T:
        """Drive ``visitor`` with the events of the game, as :meth:`pdn.game.model.Game.accept`
        does (without a report), the moves of ``runs`` as the reader gave them; only for a
        game read ``whole`` (otherwise its comments, NAGs and strengths are not there)."""
        if not self.whole:
            raise ValueError("the game was read for its replay alone: it lacks its comments")
        runs = self.runs
        if runs is None:
            return self.game.accept(visitor)
        return self.game.accept_around(visitor, lambda: _send_runs(runs, visitor))


def game_of(read: Game | Recorded) -> Game:
    r"""The :class:`~pdn.game.model.Game` a game read carries its tags, problems and place in: the
    game itself, or a recorded game's (whose main line may still be runs, not nodes).

    >>> import io
    >>> from pdn.reading.reader import split_games
    >>> [raw] = split_games(io.StringIO('[Event "E"]\n1. 11-15 *'))
    >>> game_of(record(raw)).tags["Event"], game_of(game_of(record(raw))).tags["Event"]
    ('E', 'E')
    """
    return read.game if isinstance(read, Recorded) else read


def _send_runs(runs: list[Run], visitor: GameVisitor[T]) -> None:
    for moves, numbers, lines, columns in runs:
        visitor.visit_moves(moves, numbers, (), lines, columns)


def record(raw: RawGame, first_steps: int = 0, *, whole: bool = False) -> Recorded:
    """Read one game cut by :func:`pdn.split_games` for its replay (see the module
    documentation), with steps for the first ``first_steps`` plies of its main line;
    :meth:`Recorded.model` gives its model when one is needed. ``whole`` keeps everything
    read, for :meth:`Recorded.accept`."""
    recorder = GameRecorder(whole)
    game = accept_raw(raw, recorder)
    return Recorded(game, recorder.runs, first_steps, whole)


def _chain_runs(parent: Node, runs: list[Run]) -> Node:
    """The nodes of ``runs``, one line from ``parent`` on; the last."""
    for moves, numbers, lines, columns in runs:
        parent = chain_nodes(parent, moves, numbers, lines, columns)
    return parent


class GameRecorder(GameBuilder):
    """Reads a game for its replay: :class:`Recorded` (see the module documentation);
    ``whole``: with nothing left out."""

    def __init__(self, whole: bool = False) -> None:
        self.whole = whole

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

    # No replay reads comments, NAGs and strengths: they are left out, unless the game is read
    # whole. Then one after a move belongs to its node (before any move, the builder puts a
    # comment on the root, and drops a NAG or strength as it always does).

    def visit_comment(self, comment: Comment) -> None:
        if self.whole:
            if self.runs:
                self._as_model()
            GameBuilder.visit_comment(self, comment)

    def visit_nag(self, nag: int) -> None:
        if self.whole:
            if self.runs:
                self._as_model()
            GameBuilder.visit_nag(self, nag)

    def visit_strength(self, strength: str) -> None:
        if self.whole:
            if self.runs:
                self._as_model()
            GameBuilder.visit_strength(self, strength)

    def visit_move(
        self,
        move: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        runs = self.runs
        if runs is None or line is None or column is None or (before and self.whole):
            self._as_model()
            GameBuilder.visit_move(self, move, number, before if self.whole else (), line, column)
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
        if runs is None or (before and self.whole):
            self._as_model()
            self._add_moves(moves, numbers, before if self.whole else (), lines, columns)
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
        GameBuilder.visit_setup(self, fen, number, before if self.whole else (), line, column)

    def begin_variation(self) -> Skip | None:
        self._as_model()
        return super().begin_variation()
