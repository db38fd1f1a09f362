"""A game-playing search on the engine's own rules: iterative-deepening alpha-beta.

Values are from the side to move's view, in hundredths of a man (a man is worth 100); a won
position is worth :data:`WIN` less the plies to the win, so that a quicker win is preferred.
The search is negamax with alpha-beta, a transposition table, move ordering (the table's
move, killer moves, the history heuristic) and a quiescence search: at the horizon a position
in which the side to move must capture is searched on until no capture is pending, which
draughts' compulsory captures make exact and finite (every capture takes a piece), for at most
:data:`QUIESCENCE_PLIES` plies past the horizon.

It is exact at a fixed depth: with the same depth, no limit of time or nodes, and the same
draw rules, :meth:`Search.run` returns the value :func:`minimax` computes, with the table on
or off, and a best move that is one of minimax's best. Two things make that hold. A table
entry's value is used only for the same remaining depth (a deeper entry would give a deeper
answer). And values are stored and used only at positions whose value cannot depend on the
way there: those without kings (every move from them is irreversible) and those just reached
by an irreversible move, where no earlier position can come back and no count of quiet moves
runs. Elsewhere the table still gives its move first.

Endgame tables are given by the caller too (``prober``, :class:`Prober`: for instance
:meth:`.endgame.EndgameTables.probe`): a position a table holds takes the table's exact
value (a win or a loss in so many plies, or a draw) instead of being searched, wherever the
search meets it, the root's moves included; at a fixed depth the search then differs from
:func:`minimax` exactly where the tables see further. Without a prober nothing changes.

Draws by rule are given by the caller (the rules of each federation are known to ``pdn``,
not to the engine): ``repetition`` scores a position met again since the last irreversible
move (a man move or a capture) as a draw, and ``quiet_plies`` scores as a draw the position
after that many plies in a row of king moves without capture.

>>> from pdn_engine import ENGLISH, Position
>>> found = Search().run(Position.from_fen("W:W27:B23,15", ENGLISH), depth=3)
>>> found.best.notation(), found.win_in  # the double jump wins at once
('27x11', 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from .board import board_for
from .movegen import Move
from .position import Position
from .variants import Color, Variant

if TYPE_CHECKING:
    from .endgame import Probe

__all__ = [
    "CHECK_EVERY",
    "MAX_DEPTH",
    "QUIESCENCE_PLIES",
    "WIN",
    "Found",
    "Prober",
    "Search",
    "Weights",
    "evaluate",
    "minimax",
    "search",
    "weights_for",
]

#: The value of a won position (less the plies to the win); no evaluation comes near it.
WIN = 1_000_000
#: Values beyond this are wins or losses in so many plies.
_WON = WIN - 10_000
_INFINITY = WIN + 1
#: The deepest iteration :meth:`Search.run` makes.
MAX_DEPTH = 64
#: The limits (nodes, time, a stop asked for) are looked at once every so many nodes.
CHECK_EVERY = 1024
#: How many plies past the horizon captures are searched on: a position still with a capture
#: pending there is evaluated as it stands. Without a bound, kings exchanging down a board full
#: of flying kings made a chain of ~40 plies whose every branch was searched (40 kings on
#: 10x10: no depth 1 in minutes); with 12, 3,162 nodes.
QUIESCENCE_PLIES = 12


# ----------------------------------------------------------------------------- evaluation


@dataclass(frozen=True, slots=True)
class Weights:
    """The terms of the evaluation, in hundredths of a man. Simple on purpose, and meant to
    be tuned from games later.

    * ``king``: a king (a man is 100). Worth about three men where kings fly, about one and a
      half where they step.
    * ``advance``: per row a man has moved up from its own back row (the tempo count).
    * ``back_rank``: per man still on its own back row, which keeps the other side from
      crowning there.
    * ``centre``: per piece on the central squares.
    * ``runaway``: per man one row from crowning with an empty square to crown on.
    """

    king: int
    advance: int = 3
    back_rank: int = 6
    centre: int = 4
    runaway: int = 40


def weights_for(variant: Variant) -> Weights:
    """The evaluation's weights for a variant: kings are worth more where they fly.

    >>> from pdn_engine import ENGLISH, INTERNATIONAL
    >>> weights_for(ENGLISH).king, weights_for(INTERNATIONAL).king
    (150, 300)
    """
    return Weights(king=300 if variant.flying_kings else 150)


@dataclass(frozen=True, slots=True)
class _Tables:
    # Indexed by a square's bit length (its bit index + 1): the positional score of a man of
    # each colour there, of a king there, and the squares a man one row from crowning could
    # crown on (0 elsewhere).
    man: tuple[tuple[int, ...], tuple[int, ...]]
    king: tuple[int, ...]
    crown_steps: tuple[tuple[int, ...], tuple[int, ...]]


_TABLES: dict[tuple[str, Weights], _Tables] = {}


def _tables(variant: Variant, weights: Weights) -> _Tables:
    found = _TABLES.get((variant.name, weights))
    if found is not None:
        return found
    board = board_for(variant)
    size = board.mask.bit_length() + 1
    man = [[0] * size, [0] * size]
    king = [0] * size
    crown = [[0] * size, [0] * size]
    height, width = board.height, board.width
    rows: dict[int, int] = {}
    for square in range(1, board.squares + 1):
        rows[square] = board.coordinates(square)[1]
    for square in range(1, board.squares + 1):
        column, row = board.coordinates(square)
        at = board.bit[square].bit_length()
        central = 2 <= column < width - 2 and 2 <= row < height - 2
        centre = weights.centre if central else 0
        king[at] = weights.king + centre
        # Black starts on the top rows (row 0 is its back row) and moves down; White the other
        # way (Position.start lays the men out by rows).
        for colour, advanced in ((Color.BLACK, row), (Color.WHITE, height - 1 - row)):
            score = weights.advance * advanced + centre
            if advanced == 0:
                score += weights.back_rank
            man[colour][at] = 100 + score
            if advanced == height - 2:
                ahead = row + 1 if colour is Color.BLACK else row - 1
                targets = 0
                for other in range(1, board.squares + 1):
                    other_column, other_row = board.coordinates(other)
                    if other_row == ahead and abs(other_column - column) <= 1:
                        targets |= board.bit[other]
                crown[colour][at] = targets
    found = _Tables(
        (tuple(man[0]), tuple(man[1])),
        tuple(king),
        (tuple(crown[0]), tuple(crown[1])),
    )
    _TABLES[(variant.name, weights)] = found
    return found


def _side_score(
    men: int, kings: int, empty: int, colour: int, tables: _Tables, runaway: int
) -> int:
    score = 0
    man, crown = tables.man[colour], tables.crown_steps[colour]
    while men:
        low = men & -men
        at = low.bit_length()
        score += man[at]
        if crown[at] & empty:
            score += runaway
        men ^= low
    king = tables.king
    while kings:
        low = kings & -kings
        score += king[low.bit_length()]
        kings ^= low
    return score


def evaluate(position: Position, weights: Weights | None = None) -> int:
    """The static value of ``position`` for the side to move: material, advancement, back
    rank, centre and runaway men (:class:`Weights`), the other side's taken from its own.

    >>> from pdn_engine import ENGLISH, Position
    >>> evaluate(Position.start(ENGLISH))
    0
    >>> evaluate(Position.from_fen("B:W21-32:B1-11", ENGLISH)) < -90  # a man down
    True
    """
    variant = position.variant
    rules = weights or weights_for(variant)
    tables = _tables(variant, rules)
    kings = position.kings
    empty = board_for(variant).mask & ~(position.black | position.white)
    black = _side_score(
        position.black & ~kings, position.black & kings, empty, 0, tables, rules.runaway
    )
    white = _side_score(
        position.white & ~kings, position.white & kings, empty, 1, tables, rules.runaway
    )
    return black - white if position.turn is Color.BLACK else white - black


# ----------------------------------------------------------------------------- the reference


def minimax(
    position: Position,
    depth: int,
    *,
    repetition: bool = True,
    quiet_plies: int = 0,
    history: Iterable[Position] = (),
    quiet: int = 0,
    weights: Weights | None = None,
) -> int:
    """The value of ``position`` searched ``depth`` plies by plain minimax (negamax form), with
    the same horizon, quiescence and draws by rule as :class:`Search`: what the search must
    equal at a fixed depth. ``history`` holds the positions since the last irreversible move
    before ``position`` and ``quiet`` the king moves without capture in a row that led to it.
    Exponential: for tests and small depths.

    >>> from pdn_engine import ENGLISH, Position
    >>> minimax(Position.from_fen("W:W27:B23,15", ENGLISH), 3)
    999999
    """
    rules = weights or weights_for(position.variant)
    path = [p.key() for p in history]

    def value(node: Position, left: int, ply: int, quiet_run: int) -> int:
        if ply and node.kings and repetition and node.key() in path:
            return 0
        if ply and quiet_plies and quiet_run >= quiet_plies:
            return 0
        moves = node.legal_moves(merge_duplicates=True)
        if not moves:
            return -(WIN - ply)
        if left <= 0 and (not moves[0].is_capture or left <= -QUIESCENCE_PLIES):
            return evaluate(node, rules)
        best = -_INFINITY
        path.append(node.key())
        for move in moves:
            child = node.play(move)
            reversible = move.is_reversible
            saved = path[:] if not reversible else None
            if not reversible:
                path.clear()
            found = -value(child, left - 1, ply + 1, quiet_run + 1 if reversible else 0)
            if saved is not None:
                path[:] = saved
            best = max(best, found)
        path.pop()
        return best

    return value(position, depth, 0, quiet)


# ----------------------------------------------------------------------------- the search


class Prober(Protocol):
    """What the search asks of endgame tables: the value of a position from the side to
    move's view (:class:`~.endgame.Probe`), or ``None`` when no table holds it."""

    def __call__(self, position: Position, /) -> Probe | None: ...


def _probed(probe: Probe, ply: int) -> int:
    """A table's value as the search counts it at ``ply`` from its root."""
    if probe.distance is None:
        return 0
    won = WIN - ply - probe.distance
    return won if probe.result == "win" else -won


class _Stop(Exception):
    """The search ran out of time or nodes."""


_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Found:
    """What a search found: the value of the position for the side to move, the best move and
    the line it expects (``best`` is ``None`` when no move is legal), the depth of the last
    iteration completed, the nodes visited and the seconds taken."""

    value: int
    best: Move | None
    line: tuple[Move, ...]
    depth: int
    nodes: int
    seconds: float

    @property
    def men(self) -> float:
        """The value in men (``1.0`` is one man), or ``±inf`` for a win or a loss found."""
        if abs(self.value) > _WON:
            return float("inf") if self.value > 0 else float("-inf")
        return self.value / 100

    @property
    def win_in(self) -> int | None:
        """Plies to the end when the search found a forced win (positive) or loss (negative)."""
        if abs(self.value) <= _WON:
            return None
        plies = WIN - abs(self.value)
        return plies if self.value > 0 else -plies


@dataclass(slots=True)
class _Entry:
    depth: int
    value: int
    flag: int
    move: Move | None


@dataclass(slots=True)
class Search:
    """An alpha-beta searcher, keeping its transposition table and move-ordering statistics
    between calls to :meth:`run` (clear them with :meth:`clear`).

    ``table`` turns the transposition table off (for tests); ``repetition`` and
    ``quiet_plies`` are the draws by rule (see the module); ``weights`` the evaluation's.
    ``table_size`` bounds the table's entries (it is emptied when full). ``prober`` gives
    the endgame tables' values (see the module; ``None``: no tables).
    """

    table: bool = True
    repetition: bool = True
    quiet_plies: int = 0
    weights: Weights | None = None
    table_size: int = 1_000_000
    prober: Prober | None = None
    nodes: int = 0
    _table: dict[tuple[int, int, int, int], _Entry] = field(default_factory=dict)
    _killers: dict[int, list[Move]] = field(default_factory=dict)
    _history: dict[tuple[int, int], int] = field(default_factory=dict)
    _path: list[tuple[int, int, int, int]] = field(default_factory=list)
    _deadline: float = 0.0
    _node_limit: int = 0
    _rules: Weights | None = None
    _stop: Callable[[], bool] | None = None

    def clear(self) -> None:
        """Forget the table and the move-ordering statistics."""
        self._table.clear()
        self._killers.clear()
        self._history.clear()

    def run(
        self,
        position: Position,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: float | None = None,
        history: Iterable[Position] = (),
        quiet: int = 0,
        info: Callable[[Found], object] | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Found:
        """Search ``position`` deeper and deeper, up to ``depth`` plies (default: until a
        limit stops it, at most 64), ``nodes`` nodes or ``movetime`` seconds; the answer of
        the last iteration completed (of the first, however long it takes, when a limit
        comes sooner). ``history`` and ``quiet`` as :func:`minimax` takes them; ``info`` is
        called after each iteration. ``stop`` is asked every :data:`CHECK_EVERY` nodes (from
        another thread, say, one reading a GUI's ``stop``): when it says true, the search
        ends as a limit ends it, with the last iteration's answer.
        """
        if depth is None and nodes is None and movetime is None and stop is None:
            raise ValueError("give a depth, a number of nodes, a time or a way to stop")
        if depth is not None and not 1 <= depth <= MAX_DEPTH:
            raise ValueError(f"depth {depth} is not from 1 to {MAX_DEPTH}")
        if nodes is not None and nodes < 1:
            raise ValueError(f"nodes {nodes} is not 1 or more")
        if movetime is not None and not 0 < movetime < float("inf"):
            raise ValueError(f"move time {movetime} is not a number of seconds above 0")
        started = time.monotonic()
        self.nodes = 0
        self._rules = self.weights or weights_for(position.variant)
        self._deadline = started + movetime if movetime is not None else 0.0
        self._node_limit = nodes or 0
        self._stop = stop
        self._path = [p.key() for p in history]
        self._killers.clear()
        moves = position.legal_moves(merge_duplicates=True)
        if not moves:
            return Found(-WIN, None, (), 0, 1, time.monotonic() - started)
        last = depth if depth is not None else MAX_DEPTH
        if self.prober is not None and self.prober(position) is not None:
            last = 1  # every move leads to a position the tables hold: one ply is exact
        found: Found | None = None
        for iteration in range(1, last + 1):
            try:
                value, line = self._root(position, moves, iteration, quiet)
            except _Stop:
                break
            found = Found(
                value, line[0], tuple(line), iteration, self.nodes, time.monotonic() - started
            )
            if info is not None:
                info(found)
            if abs(value) > _WON and WIN - abs(value) <= iteration:
                break  # the end is within reach: deeper finds nothing new
        if found is None:
            # Stopped inside the first iteration: the best guess is the first move in order.
            move = self._ordered(moves, None, 0)[0]
            found = Found(0, move, (move,), 0, self.nodes, time.monotonic() - started)
        return found

    def _root(
        self, position: Position, moves: list[Move], depth: int, quiet: int
    ) -> tuple[int, list[Move]]:
        entry = self._table.get(position.key()) if self.table else None
        ordered = self._ordered(moves, entry.move if entry else None, 0)
        best, line = -_INFINITY, [ordered[0]]
        alpha = -_INFINITY
        history_before = bool(self._path)
        self._path.append(position.key())
        try:
            for move in ordered:
                child = position.play(move)
                value, below = self._child(child, move, depth, 1, -_INFINITY, -alpha, quiet)
                value = -value
                if value > best:
                    best, line = value, [move, *below]
                    alpha = max(alpha, value)
        finally:
            self._path.pop()
        if self.table and (not position.kings or (not history_before and not quiet)):
            self._store(position.key(), depth, best, _EXACT, line[0])
        return best, line

    def _child(
        self,
        child: Position,
        move: Move,
        depth: int,
        ply: int,
        alpha: int,
        beta: int,
        quiet: int,
    ) -> tuple[int, list[Move]]:
        reversible = move.is_reversible
        if reversible:
            return self._negamax(child, depth - 1, alpha, beta, ply, quiet + 1)
        saved = self._path
        self._path = []  # nothing before an irreversible move can come back
        try:
            return self._negamax(child, depth - 1, alpha, beta, ply, 0)
        finally:
            self._path = saved

    def _negamax(
        self, position: Position, depth: int, alpha: int, beta: int, ply: int, quiet: int
    ) -> tuple[int, list[Move]]:
        self.nodes += 1
        if not self.nodes % CHECK_EVERY:
            self._check_limits()
        key = position.key()
        if position.kings and self.repetition and key in self._path:
            return 0, []
        if self.quiet_plies and quiet >= self.quiet_plies:
            return 0, []
        if self.prober is not None:
            probe = self.prober(position)
            if probe is not None:
                return _probed(probe, ply), []
        moves = position.legal_moves(merge_duplicates=True)
        if not moves:
            return -(WIN - ply), []
        capture = moves[0].is_capture
        if depth <= 0 and (not capture or depth <= -QUIESCENCE_PLIES):
            assert self._rules is not None
            return evaluate(position, self._rules), []
        entry = self._table.get(key) if self.table else None
        # Its value the same whatever the way here (see the module).
        fresh = not position.kings or (not self._path and not quiet)
        if entry is not None and fresh and entry.depth == depth:
            value = _from_table(entry.value, ply)
            if entry.flag == _EXACT:
                return value, [entry.move] if entry.move else []
            if entry.flag == _LOWER and value >= beta:
                return value, [entry.move] if entry.move else []
            if entry.flag == _UPPER and value <= alpha:
                return value, []
        start_alpha = alpha
        best, line = -_INFINITY, []
        best_move: Move | None = None
        self._path.append(key)
        try:
            for move in self._ordered(moves, entry.move if entry else None, ply):
                child = position.play(move)
                value, below = self._child(child, move, depth, ply + 1, -beta, -alpha, quiet)
                value = -value
                if value > best:
                    best, best_move = value, move
                    line = [move, *below]
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            if not capture:
                                self._remember_cut(move, ply, depth)
                            break
        finally:
            self._path.pop()
        if self.table and fresh:
            flag = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
            self._store(key, depth, best, flag, best_move, ply)
        return best, line

    def _store(
        self,
        key: tuple[int, int, int, int],
        depth: int,
        value: int,
        flag: int,
        move: Move | None,
        ply: int = 0,
    ) -> None:
        table = self._table
        if len(table) >= self.table_size:
            table.clear()
        table[key] = _Entry(depth, _to_table(value, ply), flag, move)

    def _remember_cut(self, move: Move, ply: int, depth: int) -> None:
        killers = self._killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        step = (move.start, move.end)
        self._history[step] = self._history.get(step, 0) + depth * depth

    def _ordered(self, moves: list[Move], first: Move | None, ply: int) -> list[Move]:
        if len(moves) == 1:
            return moves
        killers = self._killers.get(ply, ())
        history = self._history

        def rank(move: Move) -> tuple[int, int, int]:
            return (
                0 if move == first else 1,
                0 if move in killers else 1,
                -(len(move.captures) * 1000 + history.get((move.start, move.end), 0)),
            )

        return sorted(moves, key=rank)

    def _check_limits(self) -> None:
        if self._node_limit and self.nodes >= self._node_limit:
            raise _Stop
        if self._deadline and time.monotonic() >= self._deadline:
            raise _Stop
        if self._stop is not None and self._stop():
            raise _Stop


def _to_table(value: int, ply: int) -> int:
    # A win in n plies from the root is a win in n - ply plies from the node: stored so, it
    # holds wherever the node is met again.
    if value > _WON:
        return value + ply
    if value < -_WON:
        return value - ply
    return value


def _from_table(value: int, ply: int) -> int:
    if value > _WON:
        return value - ply
    if value < -_WON:
        return value + ply
    return value


def search(
    position: Position,
    *,
    depth: int | None = None,
    nodes: int | None = None,
    movetime: float | None = None,
    history: Iterable[Position] = (),
    quiet: int = 0,
    repetition: bool = True,
    quiet_plies: int = 0,
) -> Found:
    """Search ``position`` once with a new :class:`Search` (its arguments as
    :meth:`Search.run` and the class take them).

    >>> from pdn_engine import INTERNATIONAL, Position
    >>> found = search(Position.start(INTERNATIONAL), depth=2)
    >>> found.depth, found.best in Position.start(INTERNATIONAL).legal_moves()
    (2, True)
    """
    searcher = Search(repetition=repetition, quiet_plies=quiet_plies)
    return searcher.run(
        position, depth=depth, nodes=nodes, movetime=movetime, history=history, quiet=quiet
    )
