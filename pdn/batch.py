"""Whole files, game by game: on one process or several, always in the input's order.

The main process only cuts the input into raw games (cheap, streaming); parsing and the work on
each game happen in the workers, and only small results travel back. At most a few batches per
worker are in flight, so memory stays bounded whatever the size of the input.

>>> from pathlib import Path
>>> verdicts = list(validate_files([Path("examples/illegal-moves.pdn")]))
>>> len(verdicts), verdicts[0].status
(12, 'illegal')
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from itertools import chain, islice
from typing import IO, TypeVar, cast

from .cutting import RawGame
from .detection import source_sentence
from .gametype import first_mover
from .jsonio import SCHEMA, looks_like_json, read_json_games
from .model import Game
from .problems import Problem
from .reader import parse_raw, read_games, split_games
from .replays import BLOCK, replay_of
from .safe_text import printable
from .validation import ERROR_STATUSES, Report

T = TypeVar("T")

#: Games sent to a worker at a time: large enough to amortise the hand-over.
BATCH_SIZE = BLOCK

Input = str | os.PathLike[str] | IO[str] | IO[bytes]


def display_name(source: Input) -> str:
    """How a source is named in messages: its path, or ``-`` for standard input."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    # Standard input calls itself "<stdin>"; users wrote "-".
    return name if isinstance(name, str) and not name.startswith("<") else "-"


#: The file name ending of the files read from a folder (compared ignoring case: old DOS
#: archives write ``GAMES.PDN``).
PDN_SUFFIX = ".pdn"


def input_files(paths: Iterable[str], *, recursive: bool = False) -> list[str]:
    """The inputs named by ``paths``: a file (or ``-``) as given; a folder as its ``*.pdn``
    files in sorted order (with ``recursive``, those of its subfolders too, each folder's
    files sorted by path). Names starting with ``.`` (hidden files, temporary files of a
    writer) are left out, and symbolic links to folders are not followed (no loops).

    Raises :class:`ValueError` for a folder that holds no such file.

    >>> input_files(["examples"])[:2]
    ['examples/german-open-2004.pdn', 'examples/illegal-moves.pdn']
    """
    files: list[str] = []
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            files.append(path)
            continue
        found: list[str] = []
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = [] if not recursive else [d for d in subfolders if d[0] != "."]
            found.extend(
                os.path.join(folder, name)
                for name in names
                if name[0] != "." and name.lower().endswith(PDN_SUFFIX)
            )
        if not found:
            where = " or its subfolders" if recursive else ""
            raise ValueError(f"{path}: no *{PDN_SUFFIX} file in this folder{where}")
        files.extend(sorted(found, key=lambda name: os.path.normpath(name).split(os.sep)))
    return files


#: File name endings of JSON inputs (pdn convert --to json|ndjson writes them).
JSON_SUFFIXES = (".json", ".ndjson", ".jsonl")


def is_json(source: Input) -> bool:
    """Whether a source holds JSON game records: by its name, else by its first bytes (a
    file, or a stream that can be peeked at such as standard input)."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path.lower().endswith(JSON_SUFFIXES):
            return True
        if not os.path.isfile(path):
            return False  # a FIFO or a device: peeking would eat what it gives
        try:
            with open(path, "rb") as handle:
                return looks_like_json(handle.read(64))
        except OSError:
            return False  # the reader reports it
    peek = getattr(source, "peek", None)
    if callable(peek):
        return looks_like_json(peek(64)[:64])
    if getattr(source, "seekable", lambda: False)():
        at = source.tell()
        head = source.read(64)
        source.seek(at)
        return looks_like_json(head)
    return False


def iter_games(source: Input, *, encoding: str | None = None) -> Iterator[Game]:
    """The games of one source (a path as ``str`` or ``PathLike``, or an open file): PDN, or
    the JSON records of :mod:`pdn.jsonio`. ``encoding`` forces the codec of PDN bytes (see
    :func:`pdn.reader.read_games`); JSON is always UTF-8."""
    if not is_json(source):
        return read_games(source, encoding=encoding)
    if isinstance(source, (str, os.PathLike)):
        return _json_file(os.fspath(source))
    if isinstance(source, io.TextIOBase):
        return read_json_games(source)
    return read_json_games(io.TextIOWrapper(cast(IO[bytes], source), encoding="utf-8"))


def _json_file(path: str) -> Iterator[Game]:
    with open(path, encoding="utf-8", errors="replace") as handle:
        yield from read_json_games(handle)


def named_games(
    sources: Iterable[Input], *, encoding: str | None = None
) -> Iterator[tuple[str, Game]]:
    """``(file name, game)`` for every game of every source, streaming, on this process
    (``encoding``: as :func:`iter_games` takes it)."""
    for source in sources:
        name = display_name(source)
        for game in iter_games(source, encoding=encoding):
            yield name, game


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


def _run_batch(func: Callable[[Game, str], T], name: str, batch: list[RawGame | Game]) -> list[T]:
    return [func(parse_raw(raw) if isinstance(raw, RawGame) else raw, name) for raw in batch]


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
    # Forked workers inherit the parent's handlers (pdn.atomic's cleanup); theirs are default.
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
    if jobs <= 1:
        for name, game in named_games(sources, encoding=encoding):
            yield func(game, name)
        return
    batches = _batches(sources, encoding)
    # Look ahead just far enough to know how many workers the input can keep busy.
    ahead = list(islice(batches, min(jobs, usable_cores())))
    workers = worker_count(jobs, len(ahead))
    if workers == 1:
        for name, batch in chain(ahead, batches):
            yield from _run_batch(func, name, batch)
        return
    try:
        with process_pool(workers) as pool:
            pending: deque[Future[list[T]]] = deque()
            limit = workers * 3
            for name, batch in chain(ahead, batches):
                pending.append(pool.submit(_run_batch, func, name, batch))
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


# ---------------------------------------------------------------------------------- validation


@dataclass(slots=True)
class Verdict:
    """What validation says of one game, small enough to send between processes."""

    file: str
    index: int
    line: int
    tags: list[tuple[str, str]]
    status: str
    problems: list[Problem]
    first_mover: str = "B"  # "B" or "W": whose name the heading shows first
    variant: str | None = None  # the rules the game was replayed under (None: not replayed)
    rules_title: str = ""  # "Russian draughts", or what the GameType was when unchecked
    rules_source: str = "default"  # see pdn.detection.source_sentence
    rules_evidence: str = ""

    def rules_text(self) -> str:
        """The rules and where they came from, in one line: ``Czech draughts (GameType '29')``."""
        why = self.rules_evidence or source_sentence(self.rules_source)
        return f"{self.rules_title or 'no rules'} ({why})"

    @property
    def has_errors(self) -> bool:
        """Whether the game has an error (syntax or an illegal move)."""
        return self.status in ERROR_STATUSES

    def tag(self, name: str) -> str | None:
        """The first value of a tag, or None."""
        return next((value for key, value in self.tags if key == name), None)

    def to_dict(self) -> dict[str, object]:
        """The JSON record (``docs/json.md``): file, index, line, tags, status and problems."""
        return {
            "schema": SCHEMA,
            "type": "verdict",
            "file": self.file,
            "index": self.index,
            "line": self.line,
            "tags": [list(pair) for pair in self.tags],
            "status": self.status,
            "rules": {
                "variant": self.variant,
                "title": self.rules_title,
                "source": self.rules_source,
                "evidence": self.rules_evidence,
            },
            "problems": [p.to_dict() for p in self.problems],
        }


def verdict_of(game: Game, file: str, variant: str | None = None) -> Verdict:
    """Validate one game, the next of ``file``, and keep what a report needs (the earlier
    games of its file, in this process, break a tie between rules that all replay it: see
    :class:`Replays`)."""
    return verdict_of_report(replay_of(game, file, variant), file)


def verdict_of_report(report: Report, file: str) -> Verdict:
    """The :class:`Verdict` of a game's report (:func:`pdn.replays.replay_of` gives the report)."""
    game = report.game
    rules = report.variant
    return Verdict(
        file=file,
        index=game.index,
        line=game.line,
        tags=game.tags.items(),
        status=report.status,
        problems=report.all_problems,
        first_mover=first_mover(rules.name if rules else game.variant, game.game_type),
        variant=rules.name if rules else None,
        rules_title=rules.title if rules else _unchecked_title(game),
        rules_source=report.rules_source,
        rules_evidence=report.rules_evidence,
    )


def _unchecked_title(game: Game) -> str:
    if game.game_type is not None and game.variant is None:
        return f"GameType {game.game_type.number} (no draughts rules for it)"
    return f"{game.variant or 'unknown'} (rules not implemented)"


def validate_files(
    sources: Iterable[Input],
    *,
    variant: str | None = None,
    jobs: int = 1,
    encoding: str | None = None,
) -> Iterator[Verdict]:
    """Validate every game of every source, in order (see :func:`map_games` for ``jobs`` and
    ``encoding``)."""
    return map_games(partial(verdict_of, variant=variant), sources, jobs=jobs, encoding=encoding)


@dataclass(slots=True)
class Summary:
    """Counts over a run of verdicts."""

    games: int = 0
    clean: int = 0
    with_errors: int = 0
    unchecked: int = 0
    #: Problems per (code, severity): a code's severity can differ from problem to problem.
    by_code_severity: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: Games per (rules title, source): what the run was checked under.
    by_rules: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, verdict: Verdict) -> None:
        """Count one more game."""
        self.games += 1
        if verdict.has_errors:
            self.with_errors += 1
        elif verdict.status == "unchecked":
            self.unchecked += 1
        else:
            self.clean += 1
        self.by_code_severity.update((p.code, p.severity) for p in verdict.problems)
        self.by_rules[(verdict.rules_title, verdict.rules_source)] += 1

    @property
    def by_code(self) -> Counter[str]:
        """Problems per code, whatever their severity."""
        return self._counted(lambda code, severity: code)

    @property
    def by_severity(self) -> Counter[str]:
        """Problems per severity."""
        return self._counted(lambda code, severity: severity)

    def _counted(self, key: Callable[[str, str], str]) -> Counter[str]:
        counts: Counter[str] = Counter()
        for (code, severity), n in self.by_code_severity.items():
            counts[key(code, severity)] += n
        return counts

    def to_dict(self) -> dict[str, object]:
        """The JSON record of the counts."""
        return {
            "schema": SCHEMA,
            "type": "summary",
            "games": self.games,
            "clean": self.clean,
            "with_errors": self.with_errors,
            "unchecked": self.unchecked,
            "by_code": dict(sorted(self.by_code.items())),
            "by_severity": dict(sorted(self.by_severity.items())),
            "rules": [
                {"title": title, "source": source, "games": games}
                for (title, source), games in sorted(self.by_rules.items())
            ],
        }

    def text(self, *, least: str = "notice") -> str:
        """A short human summary. The counts by code are of the problems at least as serious
        as ``least`` (what the report showed); a line says how many others were hidden."""
        parts = [f"{self.games} games: {self.clean} clean, {self.with_errors} with errors"]
        if self.unchecked:
            parts.append(f"{self.unchecked} not checked (no rules for their variant)")
        lines = [", ".join(parts)]
        rules = ", ".join(
            f"{title} {games} ({source_sentence(source)})"
            for (title, source), games in sorted(self.by_rules.items(), key=lambda kv: -kv[1])
        )
        if rules:
            lines.append(f"rules: {rules}")
        limit = _SEVERITY_RANK[least]
        shown: Counter[str] = Counter()
        for (code, severity), n in self.by_code_severity.items():
            if _SEVERITY_RANK[severity] <= limit:
                shown[code] += n
        if shown:
            codes = ", ".join(f"{code} {n}" for code, n in sorted(shown.items()))
            lines.append(f"by code: {codes}")
        hidden = [
            f"{n} {severity}{'s' if n > 1 else ''}"
            for severity, n in sorted(
                self.by_severity.items(), key=lambda kv: _SEVERITY_RANK[kv[0]]
            )
            if _SEVERITY_RANK[severity] > limit
        ]
        if hidden:
            lines.append(f"not shown: {', '.join(hidden)} (--notices shows them)")
        return "\n".join(lines)


_SEVERITY_RANK = {"error": 0, "warning": 1, "notice": 2}


def verdict_text(verdict: Verdict, *, least: str = "warning") -> str:
    """The text report of one game: a heading with its players and event, the rules it was
    replayed under and where they came from, then one ``file:line:col: code: message`` line
    per problem at least as serious as ``least``. Empty when there is nothing to show."""
    shown = [p for p in verdict.problems if _SEVERITY_RANK[p.severity] <= _SEVERITY_RANK[least]]
    if not shown:
        return ""
    # The first mover first, as the result is read (Black in English, White in Russian...).
    sides = ("Black", "White") if verdict.first_mover == "B" else ("White", "Black")
    first, second = (verdict.tag(side) or "?" for side in sides)
    event = verdict.tag("Event")
    heading = f"{verdict.file}: game {verdict.index} (line {verdict.line}): {first} vs {second}"
    if event:
        heading += f", {event}"
        if verdict.tag("Round") not in (None, "", "?", "-"):
            heading += f", round {verdict.tag('Round')}"
    lines = [heading, f"  rules: {verdict.rules_text()}"]
    for p in shown:
        where = f"{verdict.file}:{p.line or verdict.line}:{p.column or 1}"
        detail = f" [{p.where}]" if p.ply is not None else ""
        lines.append(f"  {where}: {p.code}: {p.message}{detail}")
        if p.legal and p.code not in ("missed-capture",):
            lines.append(f"      legal here: {' '.join(p.legal)}")
    # Tag values, file names and quoted text reach a terminal: their controls are shown.
    return "\n".join(printable(line) for line in lines)
