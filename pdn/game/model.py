"""The in-memory form of a PDN game: tags, a tree of moves, comments, the terminator.

The model knows nothing of draughts rules: a move is kept exactly as it was written
(``"26x17x10x1"``, ``"1- 6"``, ``"c3:e5"``, ``"- -"``) and it is up to the validator to find out
what it means on a board.

The shape follows python-chess's ``chess.pgn``: a :class:`Game` owns a root :class:`Node`; every
node's ``variations[0]`` is the main continuation and ``variations[1:]`` are alternatives to it.

>>> g = Game()
>>> first = g.root.add_variation("11-15", number="1.")
>>> second = first.add_variation("23-19")
>>> [n.move for n in g.mainline()]
['11-15', '23-19']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, cast

from mypy_extensions import mypyc_attr

from pdn.text.problems import Problem

from .visitor import SKIP, GameStart, GameVisitor

if TYPE_CHECKING:
    from pdn.engine import Position

    from .gametype import GameType
    from .steps import Replayed, Step

T = TypeVar("T")

__all__ = [
    "BEGIN_VARIATION",
    "COMMENT_KINDS",
    "END_VARIATION",
    "MOVE",
    "STANDARD_TAGS",
    "Comment",
    "Game",
    "Node",
    "Tags",
    "line_events",
]

#: How a comment was delimited: ``{...}``, ``;...`` to the end of the line, ``%...`` line.
COMMENT_KINDS = ("brace", "line", "percent")

#: The seven tags of the PDN/PGN "seven tag roster", in their standard order.
STANDARD_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(slots=True)
class Comment:
    """A comment, without its delimiters.

    ``kind`` is ``"brace"`` for ``{...}`` (the text may span lines but never holds ``}``),
    ``"line"`` for a ``;`` comment and ``"percent"`` for a ``%`` escape line (neither holds a
    line break).
    """

    text: str
    kind: str = "brace"


@mypyc_attr(allow_interpreted_subclasses=True)
class Node:
    """One move (or one setup command) in a line of play.

    ``move`` is the move exactly as written; ``setup`` the FEN of a ``/FEN "..."/`` command (then
    ``move`` is ``None``); ``number`` the move number written before it (``"1."``, ``"12..."``,
    ``"1. ..."``), or ``None``.  ``variations[0]`` is the main continuation after this node and
    ``variations[1:]`` are alternatives to ``variations[0]``.

    ``parent``, ``line`` and ``column`` (1-based, absolute in the file, of the move text) are not
    part of equality.  The three annotation lists are created on first use, which keeps reading a
    large archive fast; to the caller they are plain lists.

    Equality and ``repr`` walk the tree iteratively, so games of any length compare without
    hitting Python's recursion limit.
    """

    __slots__ = (
        "_after",
        "_before",
        "_nags",
        "column",
        "line",
        "move",
        "number",
        "parent",
        "setup",
        "strength",
        "variations",
    )

    move: str | None
    setup: str | None
    number: str | None
    strength: str | None
    variations: list[Node]
    parent: Node | None
    line: int | None
    column: int | None
    _nags: list[int] | None
    _before: list[Comment] | None
    _after: list[Comment] | None

    def __init__(
        self,
        move: str | None = None,
        setup: str | None = None,
        number: str | None = None,
        strength: str | None = None,
        nags: Iterable[int] | None = None,
        comments_before: Iterable[Comment] | None = None,
        comments_after: Iterable[Comment] | None = None,
        variations: Iterable[Node] | None = None,
        parent: Node | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.move = move
        self.setup = setup
        self.number = number
        self.strength = strength
        self._nags = list(nags) if nags else None
        self._before = list(comments_before) if comments_before else None
        self._after = list(comments_after) if comments_after else None
        self.variations = list(variations) if variations else []
        self.parent = parent
        self.line = line
        self.column = column

    # The lazily created lists -------------------------------------------------------------

    @property
    def nags(self) -> list[int]:
        """Numeric annotation glyphs (``$n``) in written order."""
        if self._nags is None:
            self._nags = []
        return self._nags

    @nags.setter
    def nags(self, value: list[int]) -> None:
        self._nags = value

    @property
    def comments_before(self) -> list[Comment]:
        """Comments between the previous element and this move (e.g. at a variation's start)."""
        if self._before is None:
            self._before = []
        return self._before

    @comments_before.setter
    def comments_before(self, value: list[Comment]) -> None:
        self._before = value

    @property
    def comments_after(self) -> list[Comment]:
        """Comments after this move (on the root: comments before the first move)."""
        if self._after is None:
            self._after = []
        return self._after

    @comments_after.setter
    def comments_after(self, value: list[Comment]) -> None:
        self._after = value

    # Tree navigation ----------------------------------------------------------------------

    def add_variation(
        self,
        move: str | None = None,
        *,
        setup: str | None = None,
        number: str | None = None,
        strength: str | None = None,
    ) -> Node:
        """Append a child (the main continuation if it is the first) and return it."""
        child = Node(move, setup, number, strength, parent=self)
        self.variations.append(child)
        return child

    def next(self) -> Node | None:
        """The main continuation after this node, or ``None`` at the end of the line."""
        return self.variations[0] if self.variations else None

    def mainline(self) -> Iterator[Node]:
        """The nodes of the main continuation after this one (not including this node)."""
        node = self
        while node.variations:
            node = node.variations[0]
            yield node

    def is_mainline(self) -> bool:
        """Whether this node lies on the game's main line."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def end(self) -> Node:
        """The last node of the main continuation from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def walk(self) -> Iterator[tuple[Node, int]]:
        """Every node below this one in written order, with its depth.

        The depth counts the nodes from this one (its children have depth 1), setup commands
        included; from the root it is the ply along the node's own line when there are no
        setups.  Written order means each alternative comes right after the move it replaces
        (with its whole line), then the main line goes on.
        """
        depth = 0
        saved: list[int] = []
        for event, node in line_events(self):
            if event == MOVE:
                assert node is not None
                depth += 1
                yield node, depth
            elif event == BEGIN_VARIATION:
                # The alternative stands where the move it replaces stands.
                saved.append(depth)
                depth -= 1
            else:
                depth = saved.pop()

    def count(self) -> int:
        """How many moves lie below this node, all lines included (setup commands not counted)."""
        total = 0
        stack = list(self.variations)
        while stack:
            node = stack.pop()
            while True:  # down the node's line, its alternatives left for later
                if node.move is not None:
                    total += 1
                following = node.variations
                if not following:
                    break
                if len(following) > 1:
                    stack.extend(following[1:])
                node = following[0]
        return total

    def position(self, game: Game) -> Position:
        """The position after this node's move (the start position for the root), as
        :func:`pdn.validate` replays ``game``, the game this node belongs to.

        Each call replays the game: to go through every node, use ``pdn.validate(game).walk()``.
        Raises :class:`ValueError` where the replay did not reach the node (after an illegal
        move, or a node of another game), saying why.

        >>> import pdn
        >>> game = pdn.parse_game("1. 11-15 (1. 9-13) 23-19 *")
        >>> game.root.next().next().position(game).fen()[:14]
        'B:W19,21,22,24'
        >>> game.root.variations[1].position(game).fen()[:2]
        'W:'
        """
        from pdn.rules.validation import validate  # the replay builds on the model

        report = validate(game)
        found = report.position_of(self)
        if found is not None:
            return found
        node: Node | None = self
        while node is not None and node is not game.root:
            node = node.parent
        if node is None:
            raise ValueError(f"{self!r} is not a node of game {game.index}")
        why = "; ".join(p.message for p in report.problems if p.severity == "error")
        raise ValueError(
            f"the replay of game {game.index} does not reach {self.move or self.setup!r}"
            + (f": {why}" if why else "")
        )

    # Copying and pickling (iterative, like equality) ------------------------------------------

    def copy(self) -> Node:
        """A deep copy of this node and everything below it (the copy has no parent)."""
        clone = _rebuild(self._flatten())
        return clone

    def __deepcopy__(self, memo: dict[int, object]) -> Node:
        return self.copy()

    def __copy__(self) -> Node:
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[list[tuple[object, ...]]]]:
        # A flat list instead of nested nodes, so that pickling a long game does not recurse.
        return _rebuild, (self._flatten(),)

    def _flatten(self) -> list[tuple[object, ...]]:
        records: list[tuple[object, ...]] = []
        stack: list[tuple[Node, int]] = [(self, -1)]
        while stack:
            node, parent = stack.pop()
            records.append(
                (
                    parent,
                    node.move,
                    node.setup,
                    node.number,
                    node.strength,
                    list(node._nags) if node._nags else None,
                    [Comment(c.text, c.kind) for c in node._before] if node._before else None,
                    [Comment(c.text, c.kind) for c in node._after] if node._after else None,
                    node.line,
                    node.column,
                )
            )
            me = len(records) - 1
            stack.extend((child, me) for child in reversed(node.variations))
        return records

    # Equality and display -----------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            self.move,
            self.setup,
            self.number,
            self.strength,
            self._nags or [],
            self._before or [],
            self._after or [],
            len(self.variations),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Node):
            return NotImplemented
        pairs: list[tuple[Node, Node]] = [(self, other)]
        while pairs:
            a, b = pairs.pop()
            if a is b:
                continue
            if a._key() != b._key():
                return False
            pairs.extend(zip(a.variations, b.variations, strict=True))
        return True

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        what = f"setup={self.setup!r}" if self.move is None and self.setup else repr(self.move)
        extra = f", number={self.number!r}" if self.number else ""
        return f"Node({what}{extra}, variations={len(self.variations)})"


def _rebuild(records: list[tuple[object, ...]]) -> Node:
    """The inverse of ``Node._flatten``: records in pre-order, each with its parent's index."""
    nodes: list[Node] = []
    for record in records:
        parent_index, move, setup, number, strength, nags, before, after, line, column = record
        node = Node(
            cast("str | None", move),
            cast("str | None", setup),
            cast("str | None", number),
            cast("str | None", strength),
            cast("list[int] | None", nags),
            cast("list[Comment] | None", before),
            cast("list[Comment] | None", after),
            None,
            None,
            cast("int | None", line),
            cast("int | None", column),
        )
        index = cast(int, parent_index)
        if index >= 0:
            parent = nodes[index]
            node.parent = parent
            parent.variations.append(node)
        nodes.append(node)
    return nodes[0]


@mypyc_attr(allow_interpreted_subclasses=True)
class Tags:
    """Tag pairs in written order; unknown names and duplicates are kept.

    ``tags["Event"]`` is the first value of that name (``KeyError`` if absent);
    ``tags[name] = value`` replaces the first value or appends the pair; :meth:`add` always
    appends.  Iteration yields ``(name, value)`` pairs.

    >>> t = Tags([("Event", "Open"), ("Event", "again")])
    >>> t["Event"], len(t), t.get_all("Event")
    ('Open', 2, ['Open', 'again'])
    """

    __slots__ = ("_pairs",)

    def __init__(self, pairs: Iterable[tuple[str, str]] = ()) -> None:
        self._pairs: list[tuple[str, str]] = list(pairs)

    def __getitem__(self, name: str) -> str:
        for key, value in self._pairs:
            if key == name:
                return value
        raise KeyError(name)

    def get(self, name: str, default: str | None = None) -> str | None:
        """The first value of ``name``, or ``default``."""
        for key, value in self._pairs:
            if key == name:
                return value
        return default

    def get_all(self, name: str) -> list[str]:
        """Every value of ``name`` in written order."""
        return [value for key, value in self._pairs if key == name]

    def __setitem__(self, name: str, value: str) -> None:
        for i, (key, _) in enumerate(self._pairs):
            if key == name:
                self._pairs[i] = (name, value)
                return
        self._pairs.append((name, value))

    def __delitem__(self, name: str) -> None:
        before = len(self._pairs)
        self._pairs = [pair for pair in self._pairs if pair[0] != name]
        if len(self._pairs) == before:
            raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return any(key == name for key, _ in self._pairs)

    def add(self, name: str, value: str) -> None:
        """Append a pair, even if the name is already present."""
        self._pairs.append((name, value))

    def items(self) -> list[tuple[str, str]]:
        """A copy of the ``(name, value)`` pairs in order."""
        return list(self._pairs)

    def names(self) -> list[str]:
        """The tag names in order (duplicates included)."""
        return [key for key, _ in self._pairs]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(list(self._pairs))

    def __len__(self) -> int:
        return len(self._pairs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Tags):
            return self._pairs == other._pairs
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Tags({self._pairs!r})"


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(slots=True)
class Game:
    """One game: tags, the tree of moves and the terminator, plus what the reader learnt.

    ``terminator`` is the result token written at the end of the movetext (``"1-0"``, ``"*"``...)
    or ``None``; the ``Result`` tag is kept apart in :attr:`tags`.  ``root.comments_before`` holds
    comments written before or among the tags, ``root.comments_after`` those between the tags and
    the first move.

    Equality compares tags, tree and terminator only: never source positions, encoding, variant
    detection or errors, so "read, write, read" can be checked with ``==``.
    """

    tags: Tags = field(default_factory=Tags)
    root: Node = field(default_factory=Node)
    terminator: str | None = None
    #: The reader's guess of the rules (the GameType's, else from the squares and the file),
    #: before any replay: the rules a game is replayed under, which every command reports,
    #: are :attr:`pdn.rules.validation.Report.variant_name` (a failing guess is retried).
    variant: str | None = field(default=None, compare=False)
    variant_source: str = field(default="default", compare=False)
    #: Why the game is taken for its variant, as reports say it (``'GameType "25"'``...).
    variant_evidence: str = field(default="", compare=False)
    game_type: GameType | None = field(default=None, compare=False)
    encoding: str = field(default="utf-8", compare=False)
    line: int = field(default=1, compare=False)
    index: int = field(default=1, compare=False)
    errors: list[Problem] = field(default_factory=list, compare=False)

    @property
    def result(self) -> str | None:
        """The ``Result`` tag, or the terminator when there is no such tag."""
        value = self.tags.get("Result")
        return value if value is not None else self.terminator

    @property
    def fen(self) -> str | None:
        """The ``FEN`` tag (the start position), or ``None``."""
        return self.tags.get("FEN")

    def mainline(self) -> Iterator[Node]:
        """The nodes of the main line, first move first."""
        return self.root.mainline()

    def mainline_moves(self) -> list[str]:
        """The written moves of the main line (setup commands left out)."""
        return [node.move for node in self.root.mainline() if node.move is not None]

    def walk(self) -> Iterator[tuple[Node, int]]:
        """Every node of the game with its depth (see :meth:`Node.walk`)."""
        return self.root.walk()

    def count_moves(self) -> int:
        """How many moves the game holds, variations included (setup commands not counted)."""
        return self.root.count()

    def accept(self, visitor: GameVisitor[T], report: Replayed | None = None) -> T:
        """Replay the game through ``visitor`` in written order (see :mod:`pdn.game.visitor`) and
        return its result; the reader's problems on :attr:`errors` are replayed too.

        A :class:`~pdn.reading.builder.GameBuilder` given these events builds an equal game, and the
        PDN writer writes exactly what it would write for a text with the same events.

        With ``report``, the game's validation report (:func:`pdn.validate`), each move or
        setup the replay reached is followed by :meth:`~pdn.game.visitor.GameVisitor.visit_step`
        with its :class:`~pdn.game.steps.Step`:

        >>> import pdn
        >>> class Fens(GameVisitor[list[str]]):
        ...     def begin_game(self, start: GameStart) -> None:
        ...         self.fens: list[str] = []
        ...     def visit_step(self, step) -> None:
        ...         self.fens.append(step.after.fen())
        ...     def result(self) -> list[str]:
        ...         return self.fens
        >>> game = pdn.parse_game('[FEN "W:W18:B14"] 1. 18x9 *')
        >>> game.accept(Fens(), pdn.validate(game))
        ['B:W9:B']
        """
        steps: list[Step | None] | None = None
        if report is not None:
            if report.game is not self:
                raise ValueError("the report is of another game")
            steps = report.written_steps()
        return self.accept_around(visitor, lambda: _visit_line(self.root, visitor, steps))

    def accept_around(self, visitor: GameVisitor[T], moves: Callable[[], None]) -> T:
        """:meth:`accept` with the events of the moves given by ``moves`` (called where they
        stand, after the comments before the first move) instead of those of the tree: for
        a game whose moves are kept elsewhere (:meth:`pdn.reading.recording.Recorded.accept`)."""
        visitor.begin_game(GameStart(self.line, 1, self.index, self.encoding))
        root = self.root
        for comment in root.comments_before:
            visitor.visit_comment(comment)
        for name, value in self.tags:
            visitor.visit_tag(name, value)
        if visitor.end_tags() is not SKIP:
            for comment in root.comments_after:
                visitor.visit_comment(comment)
            moves()
            if self.terminator is not None:
                visitor.visit_terminator(self.terminator)
        for problem in self.errors:
            visitor.visit_problem(problem)
        visitor.end_game()
        return visitor.result()

    def __str__(self) -> str:
        from pdn.writing.writer import write_game

        return write_game(self)

    def _repr_html_(self) -> str:
        """The game viewer, inline in Jupyter (:func:`pdn.view.viewer.game_html`)."""
        from pdn.view.viewer import game_html

        return game_html(self)


#: Events of :func:`line_events`.
MOVE, BEGIN_VARIATION, END_VARIATION = 0, 1, 2


def line_events(parent: Node) -> Iterator[tuple[int, Node | None]]:
    """The moves below ``parent`` in written order, as ``(event, node)`` pairs.

    ``(MOVE, node)`` for each node; alternatives to a node follow it, each wrapped in
    ``(BEGIN_VARIATION, None)`` ... ``(END_VARIATION, None)``.  Iterative, so a line of any length
    and variations of any depth are walked without recursion.
    """
    # Stack entries: (kind, node, alternatives); kind 0 = resume a line, 1 = open, 2 = close.
    stack: list[tuple[int, Node | None, list[Node]]] = []
    node: Node | None = parent.variations[0] if parent.variations else None
    alternatives: list[Node] = parent.variations[1:]
    while True:
        if node is not None:
            yield MOVE, node
            following = node.variations[0] if node.variations else None
            following_alternatives = node.variations[1:]
            if not alternatives:
                node, alternatives = following, following_alternatives
                continue
            stack.append((0, following, following_alternatives))
            for alternative in reversed(alternatives):
                stack.append((2, None, []))
                stack.append((1, alternative, []))
            node = None
        if not stack:
            return
        kind, node, alternatives = stack.pop()
        if kind == 1:
            yield BEGIN_VARIATION, None
        elif kind == 2:
            yield END_VARIATION, None


def _visit_line(
    parent: Node, visitor: GameVisitor[Any], steps: list[Step | None] | None = None
) -> None:
    """The events of the moves below ``parent``; ``steps``, indexed by written order, are the
    replay's (a report's :meth:`~pdn.rules.validation.Report.written_steps`), given with them.

    Without steps, a visitor that has its own :meth:`~pdn.game.visitor.GameVisitor.visit_moves`
    (the PDN writer) is given the moves in a row in one call (:func:`_visit_gathered`)."""
    if steps is None and type(visitor).visit_moves is not GameVisitor.visit_moves:
        _visit_gathered(parent, visitor)
        return
    skipping = 0  # depth inside a variation the visitor skips
    order = -1  # the written-order place of the node visited last
    for event, node in line_events(parent):
        if event == MOVE:
            order += 1
            if skipping:
                continue
            assert node is not None
            before = node._before or ()
            if node.move is None:
                visitor.visit_setup(node.setup or "", node.number, before, node.line, node.column)
            else:
                visitor.visit_move(node.move, node.number, before, node.line, node.column)
            if steps is not None and order < len(steps):
                step = steps[order]
                if step is not None:
                    if step.node is not node:
                        raise ValueError("the game has changed since it was validated")
                    visitor.visit_step(step)
            _visit_annotations(node, visitor)
        elif event == BEGIN_VARIATION:
            if skipping or visitor.begin_variation() is SKIP:
                skipping += 1
        elif skipping:
            skipping -= 1
        else:
            visitor.end_variation()


def _visit_annotations(node: Node, visitor: GameVisitor[Any]) -> None:
    """What follows a move or setup: its strength, NAGs and comments."""
    if node.strength is not None:
        visitor.visit_strength(node.strength)
    if node._nags:
        for nag in node._nags:
            visitor.visit_nag(nag)
    if node._after:
        for comment in node._after:
            visitor.visit_comment(comment)


class _Run:
    """Moves in a row gathered for one :meth:`~pdn.game.visitor.GameVisitor.visit_moves`."""

    __slots__ = ("before", "columns", "lines", "moves", "numbers")

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.numbers: list[str | None] = []
        self.lines: list[int] = []
        self.columns: list[int] = []
        self.before: Sequence[Comment] = ()  # those of the first move

    def send(self, visitor: GameVisitor[Any]) -> None:
        """Give the moves gathered to ``visitor``, and start afresh (with lists of their own:
        a visitor may keep those it is given)."""
        visitor.visit_moves(self.moves, self.numbers, self.before, self.lines, self.columns)
        self.moves, self.numbers, self.lines, self.columns = [], [], [], []
        self.before = ()


_NO_NODES: list[Node] = []  # (never changed)


def _visit_gathered(parent: Node, visitor: GameVisitor[Any]) -> None:
    """The events of the moves below ``parent`` without steps, as :func:`line_events` orders
    them, the moves in a row with nothing between them but their numbers gathered for one
    :meth:`~pdn.game.visitor.GameVisitor.visit_moves` (a node made in code without a place in a
    file, or a setup, goes alone). The walk is :func:`line_events`' own, inline: it runs on
    every move written, and a variation skipped is not walked at all."""
    # Entries to go back to: (0, node, its alternatives) to go on with a line, (1, node, _)
    # to open a variation at node, (2, None, _) to close one.
    stack: list[tuple[int, Node | None, list[Node]]] = []
    variations = parent.variations
    node: Node | None = variations[0] if variations else None
    alternatives = variations[1:] if len(variations) > 1 else _NO_NODES
    run = _Run()
    while True:
        while node is not None:
            move, line, column = node.move, node.line, node.column
            if move is not None and line is not None and column is not None:
                if node._before:
                    if run.moves:
                        run.send(visitor)
                    run.before = node._before
                run.moves.append(move)
                run.numbers.append(node.number)
                run.lines.append(line)
                run.columns.append(column)
                if node.strength is not None or node._nags or node._after:
                    run.send(visitor)
                    _visit_annotations(node, visitor)
            else:
                if run.moves:
                    run.send(visitor)
                before = node._before or ()
                if move is None:
                    visitor.visit_setup(node.setup or "", node.number, before, line, column)
                else:
                    visitor.visit_move(move, node.number, before, line, column)
                _visit_annotations(node, visitor)
            variations = node.variations
            following = variations[0] if variations else None
            following_alternatives = variations[1:] if len(variations) > 1 else _NO_NODES
            if alternatives:
                # Each alternative to this node, with its whole line, then the main line.
                stack.append((0, following, following_alternatives))
                for alternative in reversed(alternatives):
                    stack.append((2, None, _NO_NODES))
                    stack.append((1, alternative, _NO_NODES))
                break
            node, alternatives = following, following_alternatives
        if run.moves:
            run.send(visitor)
        if not stack:
            return
        kind, node, alternatives = stack.pop()
        if kind == 1:
            if visitor.begin_variation() is SKIP:
                stack.pop()  # its closing: the visitor receives nothing of it
                node = None
        elif kind == 2:
            visitor.end_variation()
