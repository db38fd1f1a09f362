"""Building the model from events: :class:`GameBuilder`, the visitor that makes a :class:`Game`.

The builder holds the policy for the shape of the tree: a variation is an alternative to the
last move of its line; a variation written before any move of its line (``( 9-13 ) 11-15``)
becomes an alternative to the next move written after it, or, when no move follows, a
continuation of its own; comments before the first tag pair stand before the tags, the others
of the tag section before the first move.  After the game it decides the variant (GameType
tag, else the squares the moves and FENs use) and sorts the problems into file order.

>>> import pdn
>>> game = pdn.parse_game("( 9-13 ) 1. 11-15 23-19 *")
>>> [n.move for n in game.root.variations]
['11-15', '9-13']
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from pdn.game.detection import game_evidence
from pdn.game.gametype import detect_variant, game_type_of
from pdn.game.model import Comment, Game, Node
from pdn.game.visitor import GameStart, GameVisitor, Skip
from pdn.text.problems import Problem

from .native import chain_nodes

__all__ = ["GameBuilder"]


class _Line:
    """Where the builder stands in one line of play."""

    __slots__ = ("cur", "last", "orphans", "pending")

    def __init__(self, cur: Node) -> None:
        self.cur = cur  # the node the next move is attached to
        self.last: Node | None = None  # the last node of this line
        self.orphans: list[Node] = []  # alternatives written before any move of the line
        self.pending: list[Comment] = []  # comments for the next move (a model built in code)


@mypyc_attr(allow_interpreted_subclasses=True)
class GameBuilder(GameVisitor[Game]):
    """Builds a :class:`~pdn.game.model.Game` (the default visitor of :func:`pdn.read_games`)."""

    def begin_game(self, start: GameStart) -> None:
        self.game = Game(encoding=start.encoding, line=start.line, index=start.index)
        self.file_evidence = start.file_evidence
        self.in_tags = True
        self.tag_comments: list[Comment] = []  # comments in the tag section, not yet placed
        self.line = _Line(self.game.root)
        self.stack: list[tuple[_Line, Node | None]] = []  # (outer line, holder)
        self.holder: Node | None = None  # collects a variation written before any move
        self.problems: list[Problem] = []
        self.texts: set[str] = set()  # the distinct move texts, for variant detection
        self.fens: list[str] = []

    # Tags -------------------------------------------------------------------------------------

    def visit_tag(self, name: str, value: str) -> None:
        if self.tag_comments:
            # Comments before a tag pair stand before the tags.
            self.game.root.comments_before.extend(self.tag_comments)
            self.tag_comments = []
        self.game.tags._pairs.append((name, value))  # direct: this runs for every tag read

    def end_tags(self) -> Skip | None:
        self.in_tags = False
        if self.tag_comments:
            # After the last tag pair (or with no tag pair at all): before the first move.
            self.game.root.comments_after.extend(self.tag_comments)
            self.tag_comments = []
        return None

    # Movetext ---------------------------------------------------------------------------------

    def visit_comment(self, comment: Comment) -> None:
        if self.in_tags:
            self.tag_comments.append(comment)
            return
        line = self.line
        if line.last is not None:
            line.last.comments_after.append(comment)
        elif not self.stack:
            self.game.root.comments_after.append(comment)
        else:
            line.pending.append(comment)

    def visit_move(
        self,
        move: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        state = self.line
        self.texts.add(move)
        if state.last is not None and not state.orphans and not before and not state.pending:
            # The common case: the next move of a line.
            state.last = state.cur = chain_nodes(state.cur, (move,), (number,), (line,), (column,))
            return
        self._attach(Node(move, None, number, parent=state.cur, line=line, column=column), before)

    def visit_moves(
        self,
        moves: list[str],
        numbers: list[str | None],
        before: Sequence[Comment],
        lines: list[int],
        columns: list[int],
    ) -> None:
        if type(self).visit_move is not GameBuilder.visit_move:
            # A subclass that does something of its own with each move sees each one.
            super().visit_moves(moves, numbers, before, lines, columns)
            return
        self._add_moves(moves, numbers, before, lines, columns)

    def _add_moves(
        self,
        moves: list[str],
        numbers: list[str | None],
        before: Sequence[Comment],
        lines: list[int],
        columns: list[int],
    ) -> None:
        # visit_moves as this class does it, for a subclass that sees moves its own way.
        state = self.line
        if state.last is None or state.orphans or before or state.pending:
            # The first move of a line, or one with comments to take: the general way.
            GameBuilder.visit_move(self, moves[0], numbers[0], before, lines[0], columns[0])
            if len(moves) == 1:
                return
            moves, numbers, lines, columns = moves[1:], numbers[1:], lines[1:], columns[1:]
        self.texts.update(moves)
        state.last = state.cur = chain_nodes(state.cur, moves, numbers, lines, columns)

    def visit_setup(
        self,
        fen: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self.fens.append(fen)
        self._attach(
            Node(None, fen, number, parent=self.line.cur, line=line, column=column), before
        )

    def _attach(self, node: Node, before: Sequence[Comment]) -> None:
        state = self.line
        comments = state.pending + list(before)
        if comments:
            node.comments_before = comments
            state.pending = []
        state.cur.variations.append(node)
        if state.orphans:
            _adopt(state.cur, state.orphans)
            state.orphans = []
        state.cur = state.last = node

    def visit_strength(self, strength: str) -> None:
        last = self.line.last
        if last is not None:
            last.strength = (last.strength or "") + strength

    def visit_nag(self, nag: int) -> None:
        last = self.line.last
        if last is not None:
            last.nags.append(nag)

    def begin_variation(self) -> Skip | None:
        self.stack.append((self.line, self.holder))
        last = self.line.last
        if last is not None and last.parent is not None:
            # Alternatives to `last`: siblings of it under its parent.
            self.line = _Line(last.parent)
            self.holder = None
        else:
            self.holder = Node()
            self.line = _Line(self.holder)
        return None

    def end_variation(self) -> None:
        inner, closing = self.line, self.holder
        self.line, self.holder = self.stack.pop()
        if inner.orphans:
            _adopt(inner.cur, inner.orphans)
        if closing is not None:
            self.line.orphans.extend(closing.variations)
        if inner.pending:
            if inner.last is not None:
                inner.last.comments_after.extend(inner.pending)
            else:
                for comment in inner.pending:
                    self.visit_comment(comment)

    def visit_terminator(self, terminator: str) -> None:
        self.game.terminator = terminator

    def visit_problem(self, problem: Problem) -> None:
        self.problems.append(problem)

    # The end ----------------------------------------------------------------------------------

    def end_game(self) -> None:
        if self.in_tags:
            self.end_tags()
        while self.stack:
            self.end_variation()
        game = self.game
        root = game.root
        line = self.line
        if line.orphans:
            # Variations written before any move of the game, and no move after them: the
            # first becomes the main line, and comments before its first move are the game's
            # comments before the first move (as they read back).
            first = line.orphans[0]
            empty = not line.cur.variations
            if empty and line.cur is root:
                # (A variation written after the result of the game before, most often.)
                self.problems.append(
                    Problem(
                        "lone-variation",
                        "the game's moves are in a variation with no move before or after "
                        "it (written after a result?): read as its main line, written without "
                        "its parentheses",
                        line=first.line,
                        column=first.column,
                        severity="warning",
                    )
                )
            _adopt(line.cur, line.orphans)
            line.orphans = []
            if empty and line.cur is root and first.number is None and first._before:
                root.comments_after.extend(first._before)
                first._before = None
        if line.pending:
            target = line.last.comments_after if line.last is not None else root.comments_after
            target.extend(line.pending)
            line.pending = []
        self._detect()
        self.problems.sort(key=_problem_order)
        game.errors = self.problems

    def _detect(self) -> None:
        game = self.game
        game_type = game_type_of(game.tags.get("GameType"))
        if any(problem.code == "not-pdn" for problem in self.problems):
            # Its GameType still says which rules it is not (0: chess), never English's.
            game.game_type, game.variant, game.variant_source = game_type, None, "default"
            return
        fen = game.tags.get("FEN")
        fens = ([fen] if fen else []) + self.fens
        game.game_type = game_type
        variant, source = detect_variant(game_type, self.texts, fens)
        better = None if self.file_evidence is None else self.file_evidence.decide(variant, source)
        if better is not None:
            game.variant, game.variant_source, game.variant_evidence = better
            return
        game.variant, game.variant_source = variant, source
        game.variant_evidence = game_evidence(variant, source, game.tags.get("GameType"))

    def result(self) -> Game:
        return self.game


def _adopt(parent: Node, nodes: list[Node]) -> None:
    for node in nodes:
        node.parent = parent
    parent.variations.extend(nodes)


def _problem_order(problem: Problem) -> tuple[int, int]:
    return (problem.line or 0, problem.column or 0)
