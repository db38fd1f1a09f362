"""The opening explorer: every position a collection reached, with its games, results and replies.

A :class:`Tree` is keyed by position (variant, side to move and board), not by move text, so
that two move orders reaching one position are counted together (a transposition). Each game
is replayed once, as ``pdn validate`` replays it (:mod:`pdn.rules.replays`), and adds its mainline
positions up to ``depth`` plies; a game counts once at each position it reached, however often
it came back there. What the tree holds per position and per move is a handful of counts
(results from the side to move, first and last date), never the games, so it grows with the
number of distinct positions and not with the games; past :data:`SPILL` entries the counts go
to a temporary SQLite database, so that the memory stays flat however large the input.

>>> import pdn
>>> from pdn.study.explore.tree import Tree
>>> tree = Tree()
>>> for text in ("1. 11-15 23-19 2. 8-11 1-0", "1. 11-15 23-19 2. 9-14 0-1", "1. 9-14 1/2-1/2"):
...     tree.add_game(pdn.parse_game(text))
>>> root = tree.node()
>>> root.figures.games, [(r.move, r.figures.games) for r in root.replies]
(3, [('11-15', 2), ('9-14', 1)])
>>> root.replies[0].figures.win, root.replies[0].figures.loss  # Black to move at the start
(1, 1)
"""

from __future__ import annotations

import heapq
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from pdn.engine import VARIANTS, Position, Variant, get_variant
from pdn.game.detection import source_sentence
from pdn.rules.openings import position_name
from pdn.text.notation import move_texts

from ..counts import FIRST, LAST, ROW, CountTable, Row, SpilledCounts, added
from .lines import (
    DEFAULT_DEPTH,
    VARIANT_BITS,
    VARIANT_ORDER,
    Line,
    Reached,
    date_text,
    key_position,
    line_of,
    position_key,
    result_column,
)

if TYPE_CHECKING:
    from pdn.collections.inputs import Input
    from pdn.game.model import Game
    from pdn.rules.validation import Report
    from pdn.text.problems import Problem

__all__ = [
    "DEFAULT_DEPTH",
    "SPILL",
    "Figures",
    "Line",
    "Node",
    "Reached",
    "Reply",
    "Tree",
    "build",
    "key_position",
    "line_of",
    "lines",
    "position_key",
    "positions_asked",
]

#: Positions and moves kept in memory before the counts go to SQLite. A position costs about
#: 150 bytes (its key, its number, its record), a move 32: a million of them half and half
#: take about 90 MB, so that ``pdn explore`` of ten times OCA 2.0's distinct positions peaks
#: under 200 MB (``benchmarks/bench_explore.py``), while OCA 2.0 itself (490,000) never spills.
SPILL = 1_000_000


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Figures:
    """The games through a position (or that played a move there), their results counted for
    the side to move there, and their first and last dates (``None``: no game was dated).

    >>> Figures(win=3, draw=2, loss=1, unknown=4).score
    66.7
    """

    win: int = 0
    draw: int = 0
    loss: int = 0
    unknown: int = 0
    first_date: str | None = None
    last_date: str | None = None

    @property
    def games(self) -> int:
        """How many games."""
        return self.win + self.draw + self.loss + self.unknown

    @property
    def score(self) -> float | None:
        """The side to move's score in percent over the games with a known result, one
        decimal (``None`` when none has one)."""
        known = self.win + self.draw + self.loss
        return round(100 * (self.win + self.draw / 2) / known, 1) if known else None

    def to_dict(self) -> dict[str, Any]:
        """``games``, ``results`` (win, draw, loss, unknown), ``score``, ``first_date`` and
        ``last_date``, as ``pdn explore --format json`` writes them."""
        return {
            "games": self.games,
            "results": {
                "win": self.win,
                "draw": self.draw,
                "loss": self.loss,
                "unknown": self.unknown,
            },
            "score": self.score,
            "first_date": self.first_date,
            "last_date": self.last_date,
        }


def _figures(counts: Sequence[int] | None) -> Figures:
    if counts is None:
        return Figures()
    win, draw, loss, unknown, first, last = counts
    return Figures(win, draw, loss, unknown, date_text(first), date_text(last))


@dataclass(frozen=True, slots=True)
class Reply:
    """A move played from a position: ``figures`` counts the games that played it there;
    ``reached`` those that reached the position after it, by this move or by another order
    (``transposition`` when some did it by another)."""

    move: str
    position: Position
    figures: Figures
    reached: Figures

    @property
    def transposition(self) -> bool:
        """Whether games also reached the position after this move by another move order."""
        return self.reached.games > self.figures.games

    @property
    def fen(self) -> str:
        """The FEN of the position after the move."""
        return self.position.fen()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (``docs/json.md``)."""
        return {
            "move": self.move,
            **self.figures.to_dict(),
            "fen": self.fen,
            "reached": self.reached.games,
            "transposition": self.transposition,
        }


@dataclass(frozen=True, slots=True)
class Node:
    """A position of the tree: its figures, its replies (most played first), the players met
    most often in its games (when the tree was asked to count them there), and its name."""

    position: Position
    figures: Figures
    replies: tuple[Reply, ...]
    players: tuple[tuple[str, int], ...] | None = None
    name: str | None = None

    @property
    def fen(self) -> str:
        """The FEN of the position."""
        return self.position.fen()

    def to_dict(self) -> dict[str, Any]:
        """What ``pdn explore --format json`` writes for the position (``docs/json.md``)."""
        out: dict[str, Any] = {
            "position": self.fen,
            "variant": self.position.variant.name,
            "side_to_move": self.position.turn.label,
            "name": self.name,
            **self.figures.to_dict(),
        }
        if self.players is not None:
            out["players"] = [{"name": name, "games": n} for name, n in self.players]
        out["replies"] = [reply.to_dict() for reply in self.replies]
        return out


# ----------------------------------------------------------------------------- the tree


@dataclass(slots=True)
class _Summary:
    games: Counter[str] = field(default_factory=Counter)  # per variant
    stopped: Counter[tuple[str, str]] = field(default_factory=Counter)  # (variant, why)
    rules: Counter[tuple[str, str]] = field(default_factory=Counter)  # (variant, source)
    unplayable: int = 0  # games whose start could not be set up


class Tree:
    """The positions of a collection, each with its games' figures and the moves played from
    it. ``depth`` plies from each game's start go in (``0``: whole games). Players are
    counted only at the positions of ``players_at`` (the position asked about), since
    counting names everywhere would hold a table per position. With ``within``, only those
    positions are counted, with the moves played from them and the positions these lead
    to: what a page or a novelty search needs, however large the collection. ``spill`` is
    how many positions and moves stay in memory before the counts move to SQLite.

    Add games with :meth:`add_game` or :meth:`add_report` (or lines from workers with
    :meth:`add_line`), join trees with :meth:`merge`, and ask :meth:`node` of a position.
    """

    def __init__(
        self,
        depth: int = DEFAULT_DEPTH,
        *,
        players_at: Iterable[Position] = (),
        within: Iterable[Position] | None = None,
        spill: int = SPILL,
    ) -> None:
        if depth < 0:
            raise ValueError("depth must be 0 (whole games) or more")
        self.depth = depth
        self.spill = spill
        self._memory = CountTable()
        self._players: dict[int, Counter[str]] = {position_key(p): Counter() for p in players_at}
        self._within = None if within is None else {position_key(p) for p in within}
        self._summary = _Summary()
        self._disk: SpilledCounts | None = None

    # -------------------------------------------------------------------------- building

    def add_game(self, game: Game, variant: str | Variant | None = None) -> None:
        """Replay ``game`` (under ``variant``, else as :func:`pdn.validate` chooses) and add
        it; a game of a file is better added with :meth:`add_report` of its
        :class:`~pdn.rules.replays.Replays` replay, so that ties are settled as validate does."""
        from pdn.rules.validation import validate

        self.add_report(validate(game, variant))

    def add_report(self, report: Report) -> None:
        """Add the game whose replay is ``report``."""
        line = line_of(report, self.depth)
        if line is None:
            self.add_unplayable()
        else:
            self.add_line(line)

    def add_unplayable(self) -> None:
        """Count a game whose start could not be set up (:func:`line_of` gave ``None``)."""
        self._summary.unplayable += 1

    def add_line(self, line: Line) -> None:
        """Add what one game adds (:func:`line_of`)."""
        summary = self._summary
        summary.games[line.variant] += 1
        if line.stopped is not None:
            summary.stopped[(line.variant, line.stopped)] += 1
        summary.rules[(line.variant, line.rules)] += 1
        result, date, keys = line.result, line.date, line.keys
        moves: Iterable[tuple[int, int]] = line.moves
        counted: Iterable[int] = range(len(keys))
        within = self._within
        if within is not None:
            moves = [(a, b) for a, b in moves if keys[a] in within]
            chosen = {i for i, key in enumerate(keys) if key in within}
            chosen.update(b for _, b in moves)
            counted = sorted(chosen)
        # The column of the result for each side to move (a key's turn bit).
        columns = (result_column(result, 0), result_column(result, 1))
        table = self._memory
        index, counts = table.index, table.counts
        numbers: dict[int, int] = {}  # a place in keys -> the position's number
        for i in counted:
            key = keys[i]
            n = index.get(key)
            if n is None:
                n = table.number(key)
                at = ROW * n
                counts[at + FIRST] = counts[at + LAST] = date
            else:
                at = ROW * n
                if date:
                    first = counts[at + FIRST]
                    if not first or date < first:
                        counts[at + FIRST] = date
                    if date > counts[at + LAST]:
                        counts[at + LAST] = date
            counts[at + columns[key >> VARIANT_BITS & 1]] += 1
            numbers[i] = n
            players = self._players.get(key)
            if players is not None:
                players.update(name for name in line.players if name)
        move_counts, targets = table.move_counts, table.targets
        for a, b in moves:
            fresh = len(targets)
            m = table.move_number(numbers[a], numbers[b])
            at = ROW * m
            if m == fresh:
                move_counts[at + FIRST] = move_counts[at + LAST] = date
            elif date:
                first = move_counts[at + FIRST]
                if not first or date < first:
                    move_counts[at + FIRST] = date
                if date > move_counts[at + LAST]:
                    move_counts[at + LAST] = date
            move_counts[at + columns[keys[a] >> VARIANT_BITS & 1]] += 1
        if len(table) > self.spill:
            self._send_to_disk()

    def merge(self, other: Tree) -> None:
        """Add every game of ``other`` (a tree of other games, built as deep)."""
        if other.depth != self.depth:
            raise ValueError(f"trees of depth {self.depth} and {other.depth} do not merge")
        for key, counts in other._all_positions():
            self._memory.add_position(key, counts)
            if len(self._memory) > self.spill:
                self._send_to_disk()
        for (source, target), counts in other._all_moves():
            self._memory.add_move(source, target, counts)
            if len(self._memory) > self.spill:
                self._send_to_disk()
        for key, names in other._players.items():
            self._players.setdefault(key, Counter()).update(names)
        self._summary.games.update(other._summary.games)
        self._summary.stopped.update(other._summary.stopped)
        self._summary.rules.update(other._summary.rules)
        self._summary.unplayable += other._summary.unplayable

    def _send_to_disk(self) -> None:
        if self._disk is None:
            self._disk = SpilledCounts()
        self._disk.add(self._memory)
        self._memory = CountTable()

    def _all_positions(self) -> Iterator[tuple[int, Row]]:
        if self._disk is not None:
            self._send_to_disk()
            yield from self._disk.positions()
        else:
            yield from self._memory.positions()

    def _all_moves(self) -> Iterator[tuple[tuple[int, int], Row]]:
        if self._disk is not None:
            self._send_to_disk()
            yield from self._disk.moves()
        else:
            yield from self._memory.moves()

    def __getstate__(self) -> dict[str, Any]:
        # A spilled tree travels as its counts (a worker's tree, a dask partition's), whole.
        table = self._memory
        if self._disk is not None:
            table = CountTable()
            for key, counts in self._all_positions():
                table.add_position(key, counts)
            for (source, target), counts in self._all_moves():
                table.add_move(source, target, counts)
        return {
            "depth": self.depth,
            "spill": self.spill,
            "table": table,
            "players": self._players,
            "within": self._within,
            "summary": self._summary,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.depth, self.spill = state["depth"], state["spill"]
        self._memory = state["table"]
        self._players, self._summary = state["players"], state["summary"]
        self._within = state["within"]
        self._disk = None

    # -------------------------------------------------------------------------- asking

    def positions(self) -> Iterator[tuple[Position, Figures]]:
        """Every position of the tree with its figures (in no particular order)."""
        for key, counts in self._all_positions():
            yield key_position(key), _figures(counts)

    def moves(self) -> Iterator[tuple[Position, Position, Figures]]:
        """Every move of the tree, as the positions before and after it, with the figures of
        the games that played it (in no particular order)."""
        for (source, target), counts in self._all_moves():
            yield key_position(source), key_position(target), _figures(counts)

    @property
    def games(self) -> int:
        """How many games went in (every variant; the unplayable ones too)."""
        return sum(self._summary.games.values()) + self._summary.unplayable

    def variants(self) -> Counter[str]:
        """Games per variant they were replayed under."""
        return Counter(self._summary.games)

    def stopped(self, variant: str | None = None) -> Counter[str]:
        """Games that stopped before the depth, by why (``illegal``, ``setup``), of one
        variant or all."""
        out: Counter[str] = Counter()
        for (name, why), n in self._summary.stopped.items():
            if variant is None or name == variant:
                out[why] += n
        return out

    def rules(self, variant: str | None = None) -> Counter[str]:
        """Games by where their rules came from (``"gametype"``, ``"squares"``...: the
        replay's ``rules_source``, :func:`pdn.game.detection.source_sentence` says it), of one
        variant or all."""
        out: Counter[str] = Counter()
        for (name, source), n in self._summary.rules.items():
            if variant is None or name == variant:
                out[source] += n
        return out

    @property
    def unplayable(self) -> int:
        """Games whose start could not be set up (a FEN that does not read): not in the tree."""
        return self._summary.unplayable

    def main_variant(self) -> Variant | None:
        """The variant most games were replayed under (the first in name order on a tie)."""
        games = self._summary.games
        if not games:
            return None
        name = min(games, key=lambda n: (-games[n], n))
        return VARIANTS[name]

    def start(self, variant: str | None = None) -> Position | None:
        """The start position of ``variant`` (default :meth:`main_variant`)."""
        rules = self.main_variant() if variant is None else get_variant(variant)
        return None if rules is None else Position.start(rules)

    def figures(self, position: Position) -> Figures:
        """The figures of the games that reached ``position``."""
        return _figures(self._counts(position_key(position)))

    def _counts(self, key: int) -> Row | None:
        counts = self._memory.position(key)
        if self._disk is not None:
            stored = self._disk.position(key)
            if stored is not None and counts is not None:
                return added(stored, counts)
            return stored if counts is None else counts
        return counts

    def _moves_from(self, key: int) -> dict[int, Row]:
        out: dict[int, Row] = {}
        if self._disk is not None:
            out.update(self._disk.moves_from(key))
        for target, counts in self._memory.moves_from(key):
            out[target] = added(out[target], counts) if target in out else counts
        return out

    def replies(self, position: Position) -> tuple[Reply, ...]:
        """The moves played from ``position``, most played first (then in the order the
        moves are generated)."""
        found = self._moves_from(position_key(position))
        if not found:
            return ()
        legal = position.legal_moves()
        texts = move_texts(legal, position.variant)
        order: dict[int, tuple[int, str]] = {}
        for number, (move, text) in enumerate(zip(legal, texts, strict=True)):
            order.setdefault(position_key(position.play(move)), (number, text))
        replies = []
        for target, counts in found.items():
            number, text = order.get(target, (len(order), "?"))
            after = key_position(target)
            replies.append((number, Reply(text, after, _figures(counts), self.figures(after))))
        replies.sort(key=lambda item: (-item[1].figures.games, item[0]))
        return tuple(reply for _, reply in replies)

    def node(self, position: Position | None = None) -> Node:
        """The figures and replies of ``position`` (default: the start of the main
        variant), with the players when they were counted there."""
        if position is None:
            position = self.start()
            if position is None:
                raise ValueError("the tree holds no game")
        players = self._players.get(position_key(position))
        return Node(
            position,
            self.figures(position),
            self.replies(position),
            None if players is None else tuple(players.most_common(5)),
            position_name(position),
        )

    def walk(self, root: Position, *, plies: int, min_games: int = 1) -> Iterator[Node]:
        """Every node reached from ``root`` through replies played in at least
        ``min_games`` games, at most ``plies`` plies below it, each once, the most played
        first (see :meth:`walk_plies`, which also says each one's ply)."""
        for _, node in self.walk_plies(root, plies=plies, min_games=min_games):
            yield node

    def walk_plies(
        self, root: Position, *, plies: int, min_games: int = 1
    ) -> Iterator[tuple[int, Node]]:
        """Every node reached from ``root`` through replies played in at least
        ``min_games`` games, at most ``plies`` plies below it, each once with its ply below
        the root along the way it was found: the most played first (the root, then always
        the position reached by the most games among those found so far; of equal ones the
        nearer, then the one found first), so that a page that holds only the first ``n``
        follows the main lines to their end rather than every side line near the root. A
        node comes after the node it was found from."""
        seen = {position_key(root)}
        found = itertools.count()
        waiting: list[tuple[int, int, int, Position]] = [(0, 0, next(found), root)]
        while waiting:
            _, level, _, position = heapq.heappop(waiting)
            node = self.node(position)
            yield level, node
            if level == plies:
                continue
            for reply in node.replies:
                key = position_key(reply.position)
                if reply.figures.games >= min_games and key not in seen:
                    seen.add(key)
                    entry = (-reply.reached.games, level + 1, next(found), reply.position)
                    heapq.heappush(waiting, entry)

    def summary(self, variant: Variant | None = None) -> str:
        """What went in, for the variant shown: its games, those that stopped before the
        depth (and why), and the games left out (other rules, no start)."""
        variant = variant or self.main_variant()
        name = variant.name if variant else ""
        games = self._summary.games
        count = games[name]
        parts = [f"{count} {name} game{'' if count == 1 else 's'}".replace("  ", " ")]
        deep = f"the first {self.depth} plies" if self.depth else "whole games"
        parts[0] += f", {deep}"
        # Where the rules came from, a guess said as one.
        sources = self.rules(name)
        if sources:
            said = ", ".join(f"{source_sentence(s)} {n}" for s, n in sorted(sources.items()))
            parts.append(f"rules: {said}")
        stopped = self.stopped(name)
        if stopped["illegal"]:
            parts.append(f"{stopped['illegal']} counted up to their last legal ply")
        if stopped["setup"]:
            parts.append(f"{stopped['setup']} up to a setup command")
        others = {n: c for n, c in sorted(games.items()) if n != name}
        if others:
            listed = ", ".join(f"{n} {c}" for n, c in others.items())
            parts.append(f"{sum(others.values())} under other rules not counted here ({listed})")
        if self._summary.unplayable:
            parts.append(f"{self._summary.unplayable} with a start that could not be set up")
        return "; ".join(parts)


#: What a worker sends back per game: its line, its reading errors with its file's name
#: (``None`` and nothing when it read cleanly), and whether it is a game at all (a text that
#: is not PDN, or holds neither tags nor moves, is none: it reached no position).
_Read = tuple["Line | None", "str | None", "tuple[Problem, ...]", bool]

#: Reading problems of a text that is no game.
_NO_GAME = frozenset(("not-pdn", "empty-game"))


def _line_of_game(game: Game, file: str, depth: int, variant: str | None) -> _Read:
    from pdn.rules.replays import beginning_of

    line = line_of(beginning_of(game, file, depth, variant), depth, game)
    a_game = not any(p.code in _NO_GAME for p in game.errors)
    errors = tuple(p for p in game.errors if p.severity == "error")
    return (line, file, errors, a_game) if errors else (line, None, (), a_game)


def lines(
    sources: Iterable[Input],
    depth: int = DEFAULT_DEPTH,
    *,
    variant: str | None = None,
    jobs: int = 1,
    encoding: str | None = None,
    reading_errors: Callable[[str, tuple[Problem, ...]], object] | None = None,
) -> Iterator[Line | None]:
    """What each game of ``sources`` adds to a tree (:func:`line_of`; ``None`` for a game
    whose start could not be set up), each replayed as ``pdn validate`` replays it
    (``variant``: under those rules), ``jobs`` processes at once; a text that is no game
    (not PDN, or neither tags nor moves) adds nothing. ``reading_errors(file, problems)`` is
    called for each game with reading errors (it still counts as far as it was read)."""
    from pdn.collections.pool import map_games

    reads = map_games(
        partial(_line_of_game, depth=depth, variant=variant),
        sources,
        jobs=jobs,
        encoding=encoding,
    )
    for line, file, errors, a_game in reads:
        if errors and reading_errors is not None:
            reading_errors(file or "", errors)
        if a_game:
            yield line


def build(
    sources: Iterable[Input],
    depth: int = DEFAULT_DEPTH,
    *,
    variant: str | None = None,
    players_at: Iterable[Position] = (),
    within: Iterable[Position] | None = None,
    jobs: int = 1,
    encoding: str | None = None,
    spill: int = SPILL,
    tick: Callable[[], object] | None = None,
    reading_errors: Callable[[str, tuple[Problem, ...]], object] | None = None,
) -> Tree:
    """The tree of every game of ``sources`` (paths, binary streams): :func:`lines` added up
    (its arguments as it takes them); ``players_at``, ``within`` and ``spill`` as
    :class:`Tree` takes them, ``tick`` called after each game (a progress bar).

    >>> tree = build(["examples/german-open-2004.pdn"], depth=6)
    >>> tree.node().figures.games == tree.variants()["english"]
    True
    """
    tree = Tree(depth, players_at=players_at, within=within, spill=spill)
    for line in lines(
        sources,
        depth,
        variant=variant,
        jobs=jobs,
        encoding=encoding,
        reading_errors=reading_errors,
    ):
        if line is None:
            tree.add_unplayable()
        else:
            tree.add_line(line)
        if tick is not None:
            tick()
    return tree


# ----------------------------------------------------------------------------- asking by text


def positions_asked(
    moves: str | None = None, fen: str | None = None, variant: str | None = None
) -> dict[str, Position | str]:
    """The position a user asks about, per variant it can be asked under (``variant``: that
    one only): after the line ``moves`` from the start, the position ``fen``, or the start;
    for a variant where that is not a position, why not. Asked before the tree is built, so
    that its players are counted there whichever variant the collection turns out to be.

    >>> asked = positions_asked(moves="11-15 23-19")
    >>> asked["english"].fen()[:2]
    'B:'
    >>> asked["international"].startswith("'11-15 23-19' is not a legal international line")
    True
    """
    from pdn.collections.criteria import parse_line
    from pdn.collections.filtering import line_position
    from pdn.engine import FenError

    line = parse_line(moves) if moves is not None else None
    names = [get_variant(variant).name] if variant is not None else list(VARIANT_ORDER)
    out: dict[str, Position | str] = {}
    for name in names:
        rules = VARIANTS[name]
        start = Position.start(rules)
        if fen is not None:
            try:
                out[name] = Position.from_fen(fen, rules)
            except FenError as exc:
                out[name] = f"{fen!r} is not a {name} position: {exc}"
        elif line is not None:
            after = line_position(start, line)
            out[name] = after if after is not None else _illegal_line(line, start)
        else:
            out[name] = start
    return out


def _illegal_line(line: tuple[str, ...], start: Position) -> str:
    from pdn.rules.validation import validate

    text = " ".join(line)
    game = _line_game(line, start)
    report = validate(game, start.variant)
    errors = [p for p in report.all_problems if p.severity == "error"]
    why = f": {errors[0].message}" if errors else ""
    return f"{text!r} is not a legal {start.variant.name} line from the start{why}"


def _line_game(line: tuple[str, ...], start: Position) -> Game:
    from pdn.reading.reader import parse_game

    return parse_game(f'[FEN "{start.fen()}"]\n{" ".join(line)} *')
