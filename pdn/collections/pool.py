"""Whole files, game by game, on one process or several, always in the input's order.

The main process only cuts the input into raw games (cheap, streaming); parsing and the work on
each game happen in the workers, and only small results travel back. At most a few batches per
worker are in flight, so memory stays bounded whatever the size of the input. Workers end when
the process that started them dies, however it dies.

>>> from pathlib import Path
>>> list(map_games(lambda game, name: game.index, [Path("examples/illegal-moves.pdn")]))[:3]
[1, 2, 3]
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import chain, islice
from typing import TYPE_CHECKING, TypeVar

from pdn.game.model import Game
from pdn.reading.cutting import RawGame
from pdn.reading.reader import parse_raw, split_games
from pdn.reading.recording import Recorded, record
from pdn.rules.replays import BLOCK

from .inputs import Input, display_name, is_json, iter_games

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

T = TypeVar("T")

#: Games sent to a worker at a time: large enough to amortise the hand-over.
BATCH_SIZE = BLOCK


def _raw_games(source: Input, encoding: str | None) -> Iterator[RawGame | Game]:
    # PDN is cut here and parsed by the workers; JSON records are read here.
    return iter_games(source) if is_json(source) else split_games(source, encoding=encoding)


def _batches(
    sources: Iterable[Input], encoding: str | None = None
) -> Iterator[tuple[str, list[RawGame | Game]]]:
    """``(file name, up to BATCH_SIZE raw games)``, streaming; a batch never spans two files."""
    for source in sources:
        name = display_name(source)
        batch: list[RawGame | Game] = []
        for raw in _raw_games(source, encoding):
            batch.append(raw)
            if len(batch) >= BATCH_SIZE:
                yield name, batch
                batch = []
        if batch:
            yield name, batch


#: What a game becomes before the work on it: the model, or a game read for its replay alone
#: (:mod:`pdn.reading.recording`); a JSON record is always the model.
G = TypeVar("G", Game, "Game | Recorded")


def _run_batch(
    func: Callable[[G, str], T],
    parse: Callable[[RawGame], G],
    name: str,
    batch: list[RawGame | Game],
) -> list[T]:
    return [func(parse(raw) if isinstance(raw, RawGame) else raw, name) for raw in batch]


def usable_cores() -> int:
    """The processors this process may run on (its affinity mask where the system has one,
    so a container limited to 2 of 64 cores says 2)."""
    with contextlib.suppress(AttributeError, OSError):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


#: Inputs at least this large get one worker per core by default (see :func:`default_jobs`):
#: below it, starting the workers costs about what they would save.
PARALLEL_BYTES = 4 << 20


def default_jobs(sources: Iterable[Input], cores: int | None = None) -> int:
    """The ``jobs`` a command uses when not told: one per usable core when the files add up to
    :data:`PARALLEL_BYTES` or more, else 1 (open files and standard input count as small).

    >>> default_jobs(["examples/illegal-moves.pdn"], cores=8)
    1
    """
    size = 0
    for source in sources:
        if isinstance(source, (str, os.PathLike)) and os.path.isfile(source):
            size += os.path.getsize(source)
    if size < PARALLEL_BYTES:
        return 1
    return usable_cores() if cores is None else cores


def worker_count(jobs: int, batches: int, cores: int | None = None) -> int:
    """How many worker processes to start for ``jobs`` requested and ``batches`` of games:
    never more than the usable cores (more would only compete for them and cost memory), nor
    than the batches (an idle worker is pure cost).

    >>> worker_count(10000, 1, cores=8), worker_count(10000, 50, cores=8), worker_count(3, 50, 8)
    (1, 8, 3)
    """
    return max(1, min(jobs, batches, usable_cores() if cores is None else cores))


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _die_with_parent(parent: int) -> None:
    """Worker initializer: end this worker when the process that started the pool dies, so a
    killed ``pdn`` leaves no orphans computing for nobody."""
    # Forked workers inherit the parent's handlers (pdn.text.atomic's cleanup); theirs are default.
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    watched = os.getppid()  # the pool's parent, or a fork server that dies with it
    armed = False
    if sys.platform.startswith("linux"):
        # The kernel sends the signal when the parent exits, however it exits (even SIGKILL).
        import ctypes  # here: only workers need it, and it costs a small run's start-up

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    # The parent may have died before the death signal was armed: then nobody would send it.
    if not _alive(parent) or os.getppid() != watched:
        os._exit(1)
    if not armed:
        # Portable fallback: an orphan is re-parented, so its parent pid changes.
        threading.Thread(target=_watch_parent, args=(watched,), daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, but is not ours to signal
    return True


def _watch_parent(watched: int, interval: float = 1.0) -> None:
    while os.getppid() == watched:
        time.sleep(interval)
    os._exit(1)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that end when this process dies, however it dies (the
    pool :func:`map_games` runs its batches on)."""
    # Here: the pool's modules (multiprocessing, sockets) cost a small run's start-up, and only
    # a run with jobs > 1 over more than one batch of games starts one.
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        max_workers=workers, initializer=_die_with_parent, initargs=(os.getpid(),)
    )


def map_games(
    func: Callable[[Game, str], T],
    sources: Iterable[Input],
    *,
    jobs: int = 1,
    encoding: str | None = None,
) -> Iterator[T]:
    """``func(game, file_name)`` for every game of every source, in input order (PDN bytes
    read in ``encoding`` when given, else in the one detected).

    With ``jobs > 1`` the games are parsed and processed by worker processes, at most
    ``jobs``, and no more than :func:`worker_count` allows (one per usable core, one per
    batch of :data:`BATCH_SIZE` games: a small input runs on this process whatever ``jobs``
    says). ``func`` must then be picklable (a module-level function, or a
    ``functools.partial`` of one). Workers end when this process dies.
    """
    return _map(func, parse_raw, sources, jobs, encoding)


def map_recorded(
    func: Callable[[Game | Recorded, str], T],
    sources: Iterable[Input],
    *,
    jobs: int = 1,
    encoding: str | None = None,
    first_steps: int = 0,
    whole: bool = False,
) -> Iterator[T]:
    """:func:`map_games` for work that only replays the games: each PDN game is read for its
    replay alone (:func:`pdn.reading.recording.record`: no tree for one line of plain moves, steps
    for its first ``first_steps`` plies, everything read kept when ``whole``), a JSON record
    is the model."""
    parse = partial(record, first_steps=first_steps, whole=whole)
    return _map(func, parse, sources, jobs, encoding)


def _map(
    func: Callable[[G, str], T],
    parse: Callable[[RawGame], G],
    sources: Iterable[Input],
    jobs: int,
    encoding: str | None,
) -> Iterator[T]:
    if jobs <= 1:
        for source in sources:
            name = display_name(source)
            for raw in _raw_games(source, encoding):
                yield func(parse(raw) if isinstance(raw, RawGame) else raw, name)
        return
    batches = _batches(sources, encoding)
    # Look ahead just far enough to know how many workers the input can keep busy.
    ahead = list(islice(batches, min(jobs, usable_cores())))
    workers = worker_count(jobs, len(ahead))
    if workers == 1:
        for name, batch in chain(ahead, batches):
            yield from _run_batch(func, parse, name, batch)
        return
    from concurrent.futures.process import BrokenProcessPool

    try:
        with process_pool(workers) as pool:
            pending: deque[Future[list[T]]] = deque()
            limit = workers * 3
            for name, batch in chain(ahead, batches):
                pending.append(pool.submit(_run_batch, func, parse, name, batch))
                while len(pending) >= limit:
                    yield from pending.popleft().result()
            while pending:
                yield from pending.popleft().result()
    except BrokenProcessPool as exc:
        raise WorkerDiedError(
            "a worker process died (killed by the system, out of memory?); "
            "run again with fewer --jobs, or -j 1"
        ) from exc


class WorkerDiedError(RuntimeError):
    """A worker process of :func:`map_games` died without a word (the out-of-memory killer,
    ``kill -9``): its games have no result, so the run cannot go on."""
