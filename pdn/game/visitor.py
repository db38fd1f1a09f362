"""The events of a game, in written order: one protocol for reading, building and writing.

Everything that walks a game is a :class:`GameVisitor`.  The reader drives one while it parses
(:func:`pdn.read_games` drives a :class:`~pdn.reading.builder.GameBuilder`, which builds the model);
:meth:`pdn.game.model.Game.accept` replays a model through the same events; the PDN writer, the JSON
export and :class:`HeadersOnly` are visitors too.  So a text can be written without building a
model, and a model is written exactly as a text with the same events would be.

The events of one game::

    begin_game(start)
      visit_comment(c)* visit_tag(name, value)* ...      the tag section, comments among it
    end_tags()                                           -> SKIP: the movetext is not read
      visit_comment(c)                                   before the first move of the game
      visit_move(text, number, before, line, column)     or visit_setup(fen, ...)
                                                         (visit_moves: several in a row)
        visit_step(step)?                                its replay, with a report
        visit_strength(s)? visit_nag(n)* visit_comment(c)*   on that move
        begin_variation() ... end_variation()            an alternative to that move
      ...
      visit_terminator(t)?
      visit_problem(p)*                                  whenever the reader finds one
    end_game()

Comments have exactly the places the model has (:class:`~pdn.game.model.Node`): before
``end_tags()`` a comment stands before or among the tag pairs (``root.comments_before``); after
it, a comment belongs to the last move of the current line (``comments_after``), or, before the
first move of the game, to the game (``root.comments_after``).  Comments written between a move
number and its move, or at the start of a variation, travel with the move as ``before``.

Driven with a validation report, ``game.accept(visitor, report)``
(:meth:`pdn.game.model.Game.accept`), a visitor also receives each move's or setup's
:class:`~pdn.game.steps.Step` (the positions before and after it, the engine's move) right
after the move, as python-chess's ``visit_move(board, move)`` gives the board; a node the
replay did not reach (after an illegal move) has none.  The reader's events never carry steps.

A visitor that returns :data:`SKIP` from :meth:`~GameVisitor.begin_variation` receives nothing
until the matching :meth:`~GameVisitor.end_variation` (which it does not receive either).

A :class:`GameFilter` stands between a walk and another visitor: it passes every event on, and
a filter overrides only the events it changes (:class:`pdn.writing.stripping.Stripper`,
:class:`pdn.writing.annotate.Annotator`).

>>> import pdn
>>> class Moves(GameVisitor[list[str]]):
...     def begin_game(self, start: GameStart) -> None:
...         self.moves: list[str] = []
...     def visit_move(self, move, number, before, line, column) -> None:
...         self.moves.append(move)
...     def begin_variation(self) -> Skip:
...         return SKIP
...     def result(self) -> list[str]:
...         return self.moves
>>> pdn.parse_game("1. 11-15 (9-13) 23-19 *").accept(Moves())
['11-15', '23-19']
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

if TYPE_CHECKING:
    from pdn.text.problems import Problem

    from .detection import FileEvidence
    from .model import Comment, Tags
    from .steps import Step

__all__ = ["SKIP", "GameFilter", "GameStart", "GameVisitor", "HeadersOnly", "Skip"]

T = TypeVar("T")


class Skip(enum.Enum):
    """What a visitor returns to skip the rest of a part of the game."""

    SKIP = "skip"


#: Return this from :meth:`GameVisitor.end_tags` or :meth:`GameVisitor.begin_variation`.
SKIP = Skip.SKIP


@dataclass(frozen=True, slots=True)
class GameStart:
    """Where a game comes from: its first character's line and column (1-based), its place
    in the source and the encoding it was read with."""

    line: int = 1
    column: int = 1
    index: int = 1
    encoding: str = "utf-8"
    #: What the other games of the file agree on, when the reader scanned it first
    #: (:mod:`pdn.game.detection`); ``None`` for a stream read once.
    file_evidence: FileEvidence | None = None


class GameVisitor(Generic[T]):
    """Base class for everything that walks a game; override the events you need.

    Every event does nothing by default; :meth:`result` is what the walk returns
    (:meth:`pdn.game.model.Game.accept`, :meth:`pdn.reading.cutting.RawGame.accept`).
    """

    #: False for a visitor whose :meth:`end_tags` always skips the movetext: the reader then
    #: does not even parse it.
    reads_movetext: ClassVar[bool] = True

    def begin_game(self, start: GameStart) -> None:
        """A new game starts."""

    def visit_tag(self, name: str, value: str) -> None:
        """A tag pair, in written order (duplicates and unknown names included)."""

    def end_tags(self) -> Skip | None:
        """The tag section is over; return :data:`SKIP` to skip the movetext."""
        return None

    def visit_comment(self, comment: Comment) -> None:
        """A comment, placed as the module documentation says."""

    def visit_move(
        self,
        move: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        """A move exactly as written, with the move number written before it (or ``None``),
        the comments between that number (or a variation's start) and the move, and the
        1-based position of the move text in the file (``None`` for a model built in code)."""

    def visit_moves(
        self,
        moves: list[str],
        numbers: list[str | None],
        before: Sequence[Comment],
        lines: list[int],
        columns: list[int],
    ) -> None:
        """Moves in a row, with nothing between them but their move numbers: the same events
        as :meth:`visit_move` for each in turn (``before`` goes with the first).  The reader
        gives most moves of an archive this way, and so does a model's walk without a report
        to a visitor that has its own (:meth:`pdn.game.model.Game.accept`), so that a visitor that
        makes something of every move (:class:`~pdn.reading.builder.GameBuilder`, the PDN writer)
        can
        do it in one loop; the default calls :meth:`visit_move`."""
        visit = self.visit_move
        for move, number, line, column in zip(moves, numbers, lines, columns, strict=True):
            visit(move, number, before, line, column)
            before = ()

    def visit_setup(
        self,
        fen: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        """A ``/FEN "..."/`` setup command in the movetext; it stands where a move would."""

    def visit_step(self, step: Step) -> None:
        """The replay of the move or setup visited last, when a validation report drives the
        walk (see the module documentation)."""

    def visit_strength(self, strength: str) -> None:
        """A move strength mark (``!``, ``?!``, ``(?)``...) of the last move."""

    def visit_nag(self, nag: int) -> None:
        """A numeric annotation glyph (``$n``) of the last move."""

    def begin_variation(self) -> Skip | None:
        """An alternative to the last move opens; return :data:`SKIP` to skip it."""
        return None

    def end_variation(self) -> None:
        """The alternative closes."""

    def visit_terminator(self, terminator: str) -> None:
        """The result written at the end of the movetext (``1-0``, ``*``...)."""

    def visit_problem(self, problem: Problem) -> None:
        """Something the reader found wrong (never raised: reading goes on)."""

    def end_game(self) -> None:
        """The game is over."""

    def result(self) -> T:
        """What the walk gives; a visitor that gives something overrides this."""
        raise NotImplementedError(f"{type(self).__name__} gives no result")


class GameFilter(GameVisitor[T]):
    """A visitor that passes every event on to ``inner`` and gives its result: the base of the
    filters, which override only the events they change.

    :meth:`~GameVisitor.visit_moves` is not passed on whole: it arrives as one
    :meth:`~GameVisitor.visit_move` per move, so that a filter of single moves sees them all.

    >>> import pdn
    >>> class Shout(GameFilter[str]):
    ...     def visit_tag(self, name: str, value: str) -> None:
    ...         self.inner.visit_tag(name, value.upper())
    >>> game = pdn.parse_game('[Event "club"]\\n1. 11-15 *')
    >>> print(game.accept(Shout(pdn.PdnWriter())), end="")
    [Event "CLUB"]
    <BLANKLINE>
    1. 11-15 *
    """

    def __init__(self, inner: GameVisitor[T]) -> None:
        self.inner = inner

    def begin_game(self, start: GameStart) -> None:
        self.inner.begin_game(start)

    def visit_tag(self, name: str, value: str) -> None:
        self.inner.visit_tag(name, value)

    def end_tags(self) -> Skip | None:
        return self.inner.end_tags()

    def visit_comment(self, comment: Comment) -> None:
        self.inner.visit_comment(comment)

    def visit_move(
        self,
        move: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self.inner.visit_move(move, number, before, line, column)

    def visit_setup(
        self,
        fen: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self.inner.visit_setup(fen, number, before, line, column)

    def visit_step(self, step: Step) -> None:
        self.inner.visit_step(step)

    def visit_strength(self, strength: str) -> None:
        self.inner.visit_strength(strength)

    def visit_nag(self, nag: int) -> None:
        self.inner.visit_nag(nag)

    def begin_variation(self) -> Skip | None:
        return self.inner.begin_variation()

    def end_variation(self) -> None:
        self.inner.end_variation()

    def visit_terminator(self, terminator: str) -> None:
        self.inner.visit_terminator(terminator)

    def visit_problem(self, problem: Problem) -> None:
        self.inner.visit_problem(problem)

    def end_game(self) -> None:
        self.inner.end_game()

    def result(self) -> T:
        return self.inner.result()


class HeadersOnly(GameVisitor["Tags"]):
    """The tag pairs of a game, without reading its movetext (the reader does not parse it).

    >>> import io, pdn
    >>> text = '[Event "A"]\\n1. 11-15 *\\n[Event "B"]\\n1. 9-13 *\\n'
    >>> [tags["Event"] for tags in pdn.read_headers(io.StringIO(text))]
    ['A', 'B']
    """

    reads_movetext = False

    def begin_game(self, start: GameStart) -> None:
        from .model import Tags

        self.tags = Tags()

    def visit_tag(self, name: str, value: str) -> None:
        self.tags.add(name, value)

    def end_tags(self) -> Skip:
        return SKIP

    def result(self) -> Tags:
        return self.tags
