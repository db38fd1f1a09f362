"""Engines that value positions, for ``pdn analyse``: one seam, two kinds of engine.

An :class:`Evaluator` values every legal move of a position for the side playing it, at the
depth asked (or the deepest done in the time given) and at the depth before, so that a
verdict can be checked for holding at two depths (:func:`pdn.study.play.analysis.judge`, the one
function that turns either engine's values into verdicts). :class:`OwnSearch` is pdn's own
search (:mod:`pdn.engine`); :class:`HubEvaluator` any program that speaks the Hub protocol
(Scan 3.x ``scan hub``, ``pdn engine --hub``), driven through :class:`pdn.study.play.hub.HubClient`.

Either way a move's value is the search of the position after it, a ply shallower, negated:
``-search(child, depth - 1)``, with the draws by rule of the game's federation
(:func:`pdn.study.play.hub.search_for`) seen at the move itself the same way (the engine is told the
moves since the last irreversible one, so that its search sees them too). So at a fixed
depth pdn's own search gives the same values directly and through ``pdn engine --hub``.

Values are in hundredths of a man for the side that plays the move; a forced win in ``n``
plies is ``1_000_000 - n`` (a Hub score of ``100 - n/100`` men), a loss the opposite.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from pdn.engine import Found, History, Move, Position, Prober, Search, Variant, minimax

from .hub import HubClient, HubError, parse_hub_move, search_for

__all__ = [
    "TIMEOUT",
    "Evaluator",
    "HubEvaluator",
    "OwnSearch",
    "Place",
    "Valued",
    "end_of",
]

#: A won position's value (less the plies to the win), as :mod:`pdn.engine`'s search gives it.
WIN = 1_000_000
#: Seconds an outside engine may take to answer one search (beyond ``--movetime``) before it
#: is taken to hang.
TIMEOUT = 60.0

T = TypeVar("T")


def end_of(value: int) -> int | None:
    """Plies to a forced end for a value (positive: a win), or ``None``.

    >>> end_of(999_993), end_of(-999_996), end_of(120)
    (7, -4, None)
    """
    return Found(value, None, (), 0, 0, 0.0).win_in


@dataclass(slots=True)
class Valued:
    """A legal move valued: ``value`` at ``depth`` plies from the position before it,
    ``previous`` at the depth before (``None`` when no earlier depth was done), and the line
    the engine expects (the move first)."""

    move: Move
    value: int
    line: tuple[Move, ...]
    previous: int | None = None
    depth: int = 0


@dataclass(slots=True)
class Place:
    """A position as its game reached it, with its :class:`~pdn.engine.History` (the positions
    since the last irreversible move and the moves from them): what the draws by rule look at."""

    position: Position
    history: History = field(default_factory=History)


class Evaluator(Protocol):
    """What ``pdn analyse`` needs of an engine."""

    def describe(self) -> str:
        """The engine and its settings in a few words (``""`` for pdn's own search)."""
        ...

    def settings(self) -> dict[str, str]:
        """The engine's name and settings, as JSON records them."""
        ...

    def begin(self, variant: Variant) -> None:
        """A new game under ``variant``'s rules."""
        ...

    def value_moves(
        self, place: Place, moves: Sequence[Move], depth: int | None, movetime: float | None
    ) -> list[Valued]:
        """Every move of ``moves`` (the legal ones of ``place``) valued at ``depth``, or at the
        deepest depth done within ``movetime`` seconds a move."""
        ...


def _farther(value: int) -> int:
    """A value seen from the child, a ply further from its end (if it is one)."""
    if end_of(value) is not None:
        return value + (-1 if value > 0 else 1)
    return value


def _kept(value: int, previous: int | None) -> int | None:
    """The value at the depth before, as the verdicts compare it: a forced end found is
    proven (every line to it was searched to its end), so it stands for the depth before
    too, however it was found."""
    return value if end_of(value) is not None else previous


def _drawn(rules: Search, place: Place, move: Move) -> bool:
    """Whether ``move`` draws by rule at once: a repetition, or the quiet-move count run
    out (a search does not look at its root's draws: they are the parent's to see)."""
    if not move.is_reversible:
        return False
    child = place.position.play(move)
    keys = {p.key() for p in place.history.since}
    if rules.repetition and child.kings and child.key() in keys:
        return True
    return bool(rules.quiet_plies) and place.history.quiet + 1 >= rules.quiet_plies


# ----------------------------------------------------------------------------- pdn's own


class _OutOfTime(Exception):
    """A deeper iteration did not finish within the time given."""


@dataclass(slots=True)
class OwnSearch:
    """pdn's own search (one kept across a game, so that its table serves the next ply):
    exact at a fixed depth (:func:`pdn.engine.minimax`'s values), and wherever ``prober``
    (the endgame tables, :func:`pdn.study.play.endgame.prober`) holds a position, the tables'."""

    search: Search = field(default_factory=Search)
    prober: Prober | None = None

    def describe(self) -> str:
        """Nothing: the Annotator tag says ``pdn analyse`` already."""
        return ""

    def settings(self) -> dict[str, str]:
        """pdn's search has no settings but the level."""
        return {"name": "pdn"}

    def begin(self, variant: Variant) -> None:
        """A fresh search with the federation's draw rules, and the tables if any."""
        self.search = search_for(variant)
        self.search.prober = self.prober

    def value_moves(
        self, place: Place, moves: Sequence[Move], depth: int | None, movetime: float | None
    ) -> list[Valued]:
        """Every move at ``depth`` and ``depth - 1``; with ``movetime``, level by level until
        the time is out, each level's values kept with the level's before it."""
        if depth is not None:
            return [self._child(place, m, depth, 0.0) for m in moves]
        assert movetime is not None
        deadline = time.monotonic() + movetime
        done: list[Valued] = []
        for level in range(1, 65):
            try:
                found = [self._child(place, m, level, deadline) for m in moves]
            except _OutOfTime:
                break
            if done and time.monotonic() >= deadline:
                break  # a search may have stopped short of the depth: not this level's values
            for new, old in zip(found, done, strict=False):
                new.previous = old.value
            done = found
        return done

    def _child(self, place: Place, move: Move, depth: int, deadline: float) -> Valued:
        search = self.search
        if _drawn(search, place, move):
            return Valued(move, 0, (move,), None if depth == 1 else 0, depth)
        child = place.position.play(move)
        history = place.history.after(place.position, move)
        if search.prober is not None and search.prober(child) is not None:
            # The tables hold the child: one ply from it is exact, at any depth.
            found = search.run(child, depth=1, history=history.since, quiet=history.quiet)
            value = _farther(-found.value)
            return Valued(move, value, (move, *found.line), value, depth)

        def quiescent() -> int:
            return _farther(
                -minimax(
                    child,
                    0,
                    repetition=search.repetition,
                    quiet_plies=search.quiet_plies,
                    history=history.since,
                    quiet=history.quiet,
                    weights=search.weights,
                )
            )

        if depth <= 1:
            return Valued(move, quiescent(), (move,), None, depth)
        left = None
        if deadline:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _OutOfTime
        levels: list[Found] = []
        found = search.run(
            child,
            depth=depth - 1,
            movetime=left,
            history=history.since,
            quiet=history.quiet,
            info=levels.append,
        )
        value = _farther(-found.value)
        if depth == 2:
            previous = quiescent()
        elif len(levels) >= depth - 1:
            previous = _farther(-levels[depth - 3].value)
        else:  # the end was within reach earlier: deeper iterations give the same value
            previous = value
        return Valued(move, value, (move, *found.line), _kept(value, previous), depth)


# ----------------------------------------------------------------------------- outside engines


def _clean(text: str) -> str:
    """A name or setting from an engine, safe in a tag and a comment (no braces, quotes,
    commas nor control characters), at most 80 characters."""
    return re.sub(r"[^\w .+()=/:-]", "", text)[:80].strip()


@dataclass(slots=True)
class HubEvaluator:
    """An outside engine speaking the Hub protocol: ``command`` its program and arguments.
    A context manager (the program runs inside it). Each search must be answered within
    ``timeout`` seconds (plus the move time); an engine that does not is ended, and the
    :class:`~pdn.study.play.hub.HubError` raised says so, as it says an engine that stops, sends an
    ``error``, a score or a move it cannot read, or an illegal move."""

    command: Sequence[str]
    timeout: float = TIMEOUT
    client: HubClient | None = None
    rules: Search = field(default_factory=Search)
    _hung: bool = False

    def __enter__(self) -> HubEvaluator:
        client = HubClient(list(self.command))
        self.client = client  # before it starts: one that hangs at once is ended too
        try:
            self._watched(client.__enter__, 0.0)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.__exit__(*exc)
            self.client = None

    def _running(self) -> HubClient:
        if self.client is None:
            raise HubError("the engine is not running")
        return self.client

    def _watched(self, call: Callable[[], T], movetime: float) -> T:
        """``call()``, the engine ended if it takes more than the timeout."""
        limit = self.timeout + movetime
        timer = threading.Timer(limit, self._hang)
        timer.daemon = True
        self._hung = False
        timer.start()
        try:
            return call()
        except HubError:
            if self._hung:
                raise HubError(
                    f"the engine {self._name()!r} did not answer within {limit:g} s "
                    "(--timeout); it was stopped"
                ) from None
            raise
        finally:
            timer.cancel()

    def _hang(self) -> None:
        self._hung = True
        if self.client is not None:
            self.client.kill()

    def _name(self) -> str:
        name = self.client.name if self.client is not None else ""
        return _clean(name) or " ".join(self.command)

    def describe(self) -> str:
        """The engine's name and version, and its settings (``Scan 3.1 (variant=normal)``)."""
        client = self._running()
        params = " ".join(f"{_clean(k)}={_clean(v)}" for k, v in sorted(client.params.items()))
        name = _clean(client.name) or "an engine"
        return f"{name} ({params})" if params else name

    def settings(self) -> dict[str, str]:
        """The engine's ``id`` name and its ``param`` values, as it said them."""
        client = self._running()
        return {"name": client.name, **client.params}

    def begin(self, variant: Variant) -> None:
        """Ask for ``variant``'s rules, and a new game; the draws by rule as pdn knows them."""
        client = self._running()
        client.set_variant(variant)
        client.new_game()
        self.rules = search_for(variant)

    def value_moves(
        self, place: Place, moves: Sequence[Move], depth: int | None, movetime: float | None
    ) -> list[Valued]:
        """Every move valued by the engine's search of the position after it, at
        ``depth - 1`` (so at least 2) or for ``movetime`` seconds."""
        if depth is not None and depth < 2:
            raise ValueError("an outside engine needs a depth of 2 or more")
        return [self._child(place, m, depth, movetime) for m in moves]

    def _child(self, place: Place, move: Move, depth: int | None, movetime: float | None) -> Valued:
        if _drawn(self.rules, place, move):
            return Valued(move, 0, (move,), 0, depth or 1)
        child = place.position.play(move)
        if not child.legal_moves():
            return Valued(move, WIN - 1, (move,), WIN - 1, depth or 1)
        client = self._running()
        start = place.history.first or place.position
        trail = [*place.history.moves, move]
        reply, infos = self._watched(
            lambda: client.think(
                start, trail, depth=None if depth is None else depth - 1, movetime=movetime
            ),
            movetime or 0.0,
        )
        try:
            parse_hub_move(reply, child)
        except HubError:
            raise HubError(
                f"the engine {self._name()!r} answered {reply!r}, not a legal move in {child.fen()}"
            ) from None
        scored = [_scored(info, self._name()) for info in infos if "score" in info]
        if not scored:
            raise HubError(f"the engine {self._name()!r} sent no score (no info line)")
        reached, score, pv = scored[-1]
        earlier = [s for d, s, _ in scored if d == reached - 1]
        value = _farther(-score)
        previous = _farther(-earlier[-1]) if earlier else None
        return Valued(move, value, (move, *_line(child, pv)), _kept(value, previous), reached + 1)


def _scored(info: dict[str, str], name: str) -> tuple[int, int, str]:
    """An ``info`` line's depth, score (as a value) and line (``HubError`` if unreadable)."""
    try:
        depth = int(info.get("depth", "0"))
        men = float(info["score"])
    except ValueError:
        raise HubError(f"the engine {name!r} sent an unreadable info line: {info}") from None
    if not math.isfinite(men) or abs(men) > 100 or depth < 0:
        raise HubError(f"the engine {name!r} sent an unreadable info line: {info}")
    if abs(men) >= 99:  # a win in n plies is 100 - n/100 men
        plies = round((100 - abs(men)) * 100)
        return depth, (WIN - plies) * (1 if men > 0 else -1), info.get("pv", "")
    return depth, round(men * 100), info.get("pv", "")


def _line(position: Position, pv: str) -> tuple[Move, ...]:
    """The moves of an engine's line, as far as they are legal."""
    line: list[Move] = []
    for text in pv.split():
        try:
            move = parse_hub_move(text, position)
        except HubError:
            break
        line.append(move)
        position = position.play(move)
    return tuple(line)
