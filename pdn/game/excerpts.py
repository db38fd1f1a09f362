"""Parts of games: a game cut after N plies, and each variation as a game of its own.

:func:`truncate` keeps the first ``plies`` plies of every line (a variation that starts at ply
``k`` keeps its first ``plies - k + 1`` moves); the result is kept as it was, Result tag and
terminator alike: it is the game's result, and a ``*`` terminator would disagree with the tag.

:func:`split_variations` gives the game's mainline, then one game per variation in written
order (those inside variations too): the moves that lead to it, then its own line, its
sub-variations left to their own games. Every game keeps the tags, with a ``Variation`` tag
saying where the line comes from, and ``*`` as its Result tag and terminator: the line was
not played to an end.

Both give new games and leave ``game`` unchanged; comments, NAGs and move numbers stay with
their moves. A cut game keeps every problem the reader found; each game of
:func:`split_variations` keeps those found in the text of its own moves (where the reader kept
that text: after a move, or the ``(`` opening its line) and those of the game as a whole
(before the first move, or about the record: no terminator, too long, no PDN), so ``n``
variations with a problem each cost ``n`` problems, not ``n`` squared.

>>> import pdn
>>> game = pdn.parse_game('[Result "1-0"]\\n1. 11-15 (1. 9-13 22-18) 23-19 2. 8-11 1-0')
>>> print(pdn.write_game(truncate(game, 2)), end="")
[Result "1-0"]
<BLANKLINE>
1. 11-15 (1. 9-13 22-18) 23-19 1-0
>>> [g.mainline_moves() for g in split_variations(game)]
[['11-15', '23-19', '8-11'], ['9-13', '22-18']]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pdn.text.problems import NO_GAME_CODES, Problem

from .model import BEGIN_VARIATION, MOVE, Game, Node, Tags, line_events

__all__ = ["VARIATION_TAG", "split_variations", "truncate"]

#: The tag :func:`split_variations` adds to say where a line comes from.
VARIATION_TAG = "Variation"


def _copy_node(node: Node, parent: Node | None) -> Node:
    """``node`` alone: its move and annotations, without what follows it."""
    return Node(
        node.move,
        node.setup,
        node.number,
        node.strength,
        nags=node._nags,
        comments_before=node._before,
        comments_after=node._after,
        parent=parent,
        line=node.line,
        column=node.column,
    )


def _like(
    game: Game, tags: Tags, root: Node, terminator: str | None, errors: list[Problem]
) -> Game:
    """A game with what the reader learnt about ``game`` (rules, place, ``errors``)."""
    return Game(
        tags=tags,
        root=root,
        terminator=terminator,
        variant=game.variant,
        variant_source=game.variant_source,
        variant_evidence=game.variant_evidence,
        game_type=game.game_type,
        encoding=game.encoding,
        line=game.line,
        index=game.index,
        errors=errors,
    )


def truncate(game: Game, plies: int) -> Game:
    """A copy of ``game`` with every line cut after ply ``plies`` (setup commands are not
    plies); a game no longer than that is copied whole."""
    if plies < 0:
        raise ValueError(f"plies must be 0 or more, not {plies}")
    root = _copy_node(game.root, None)
    stack = [(game.root, root, 0)]
    while stack:  # iterative: lines of any length, variations of any depth
        old, new, ply = stack.pop()
        for child in old.variations:
            depth = ply + (child.move is not None)
            if depth > plies:
                continue
            copied = _copy_node(child, new)
            new.variations.append(copied)
            stack.append((child, copied, depth))
    return _like(game, Tags(game.tags.items()), root, game.terminator, list(game.errors))


def _origin(game: Game, where: list[str], source: str | None) -> str:
    head = [source] if source else []
    return ", ".join([*head, f"game {game.index}", *where])


def split_variations(game: Game, source: str | None = None) -> Iterator[Game]:
    """The mainline of ``game`` without variations, then each variation as a game (see the
    module docstring); ``source`` (a file name) goes into the ``Variation`` tag."""
    problems = _Problems(game)
    yield _line_game(game, _mainline_path(game.root), None, problems)
    for alternative, mark in _alternatives(game):
        path = _path_to(alternative)
        tags = Tags(game.tags.items())
        if "Result" in tags:
            tags["Result"] = "*"
        tags[VARIATION_TAG] = _origin(game, mark, source)
        yield _line_game(game, path, tags, problems)


#: Problems about the record as a whole, wherever the reader found them: every part has them.
_WHOLE_GAME_CODES = NO_GAME_CODES | {
    "missing-terminator",
    "game-too-long",
    "empty-game",
    "tags-only",
    "lone-variation",
}


class _Problems:
    """The reader's problems of a game, each tied to the move whose text holds it: the move
    before it in the file, or for an unclosed ``(`` the move after it (the first of the line
    it opens; a problem after a variation's ``)`` goes with that variation's last move: the
    tree keeps no place for the ``)``). A problem before the first move, of the record as a
    whole, or of a game whose moves have no place in a file (built in code) is tied to none:
    every part carries it."""

    __slots__ = ("at", "errors", "everywhere")

    def __init__(self, game: Game) -> None:
        self.errors = game.errors
        self.at: dict[int, list[int]] = {}  # id(node) -> indices into errors
        self.everywhere = list(range(len(self.errors)))
        placed = [i for i, p in enumerate(self.errors) if _placed(p)]
        if not placed:
            return
        nodes = [node for event, node in line_events(game.root) if event == MOVE and node]
        places = [(node.line or 0, node.column or 0) for node in nodes]
        if any(node.line is None for node in nodes) or places != sorted(places):
            return
        placed.sort(key=lambda i: _place(self.errors[i]))
        tied: set[int] = set()
        after = 0  # the nodes at or before the problem's place
        for i in placed:
            place = _place(self.errors[i])
            while after < len(nodes) and places[after] <= place:
                after += 1
            opens = self.errors[i].code == "unclosed-variation" and after < len(nodes)
            node = nodes[after] if opens else nodes[after - 1] if after else None
            if node is not None:
                self.at.setdefault(id(node), []).append(i)
                tied.add(i)
        self.everywhere = [i for i in range(len(self.errors)) if i not in tied]

    def on(self, path: list[Node]) -> list[Problem]:
        """The problems of a part whose moves are ``path``, in the game's order."""
        if not self.at:
            return [self.errors[i] for i in self.everywhere]
        found = list(self.everywhere)
        for node in path:
            found.extend(self.at.get(id(node), ()))
        found.sort()
        return [self.errors[i] for i in found]


def _placed(problem: Problem) -> bool:
    return problem.line is not None and problem.code not in _WHOLE_GAME_CODES


def _place(problem: Problem) -> tuple[int, int]:
    return (problem.line or 0, problem.column or 0)


@dataclass(slots=True)
class _Open:
    """A line open in the walk of :func:`_alternatives`."""

    where: list[str]  # how it is reached
    ply: int  # the plies up to its last move, with it
    before: int = 0  # ... and without it
    count: int = 0  # the alternatives to that move opened so far


def _alternatives(game: Game) -> Iterator[tuple[Node, list[str]]]:
    """Every alternative of ``game`` in written order, with the words saying how it is reached
    (the ply it replaces, which alternative of several, through which lines)."""
    lines = [_Open([], 0)]
    opening = False  # the next move is the first of an alternative
    for event, node in line_events(game.root):
        if event == MOVE:
            assert node is not None
            line = lines[-1]
            line.before, line.count = line.ply, 0
            line.ply += node.move is not None
            if opening:
                opening = False
                outer = lines[-2]
                several = node.parent is not None and len(node.parent.variations) > 2
                said = f"ply {line.ply}" + (f" (alternative {outer.count})" if several else "")
                line.where = [*outer.where, ("from " if not outer.where else "then ") + said]
                yield node, line.where
        elif event == BEGIN_VARIATION:
            outer = lines[-1]
            outer.count += 1
            lines.append(_Open(outer.where, outer.before))
            opening = True
        else:
            lines.pop()


def _mainline_path(root: Node) -> list[Node]:
    return list(root.mainline())


def _path_to(alternative: Node) -> list[Node]:
    """The nodes from the first move to ``alternative``, then its own line."""
    back: list[Node] = []
    node: Node | None = alternative.parent
    while node is not None and node.parent is not None:
        back.append(node)
        node = node.parent
    return [*reversed(back), alternative, *alternative.mainline()]


def _line_game(game: Game, path: list[Node], tags: Tags | None, problems: _Problems) -> Game:
    root = _copy_node(game.root, None)
    tip = root
    for node in path:
        copied = _copy_node(node, tip)
        tip.variations.append(copied)
        tip = copied
    errors = problems.on(path)
    if tags is None:
        return _like(game, Tags(game.tags.items()), root, game.terminator, errors)
    return _like(game, tags, root, "*", errors)
