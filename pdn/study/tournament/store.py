"""Reports of collections of any size: the records wait on disk by event (:class:`EventStore`)
and each event is built in turn (:func:`iter_reports`)."""

from __future__ import annotations

import contextlib
import pickle
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import fields, replace

from pdn.text.names import Aliases

from .records import DEFAULT_POINTS, UNKNOWN, GameRecord, _aligned, _points_scheme
from .standings import EventReport, _build_event, points_of_results
from .tiebreaks import DEFAULT_TIEBREAKS, TIEBREAKS


def build_reports(
    records: Iterable[GameRecord],
    points: Sequence[float] | None = DEFAULT_POINTS,
    *,
    openings: Sequence[str | None] | None = None,
    aliases: Aliases | None = None,
    event: str | None = None,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> list[EventReport]:
    """One :class:`EventReport` per Event, in the order events are first seen.

    ``points`` is (win, draw, loss), e.g. ``(2, 1, 0)``; ``None`` takes it from how each
    event's results are written (:func:`points_of_results`: 2-1-0 for ``2-0``/``1-1``).
    ``openings``, if given, holds one label (or ``None``) per record; a label replaces the
    record's own ``opening``. ``aliases`` renames players and events first (so that two
    spellings count as one); ``event`` is a regular expression: only the events whose name it
    matches (anywhere, ``re.search``) are reported (``ValueError`` if it is not one);
    ``tiebreaks`` orders players equal on points (:mod:`pdn.study.tournament.tiebreaks`).
    :func:`iter_reports` gives the same reports one at a time, in constant memory.

    >>> from pdn.study.tournament.records import record_from_tags
    >>> recs = [record_from_tags({"Event": "E", "Black": "A", "White": "B", "Result": "1-0"})]
    >>> build_reports(recs, (2, 1, 0))[0].standing("A").points
    2.0
    """
    return list(
        iter_reports(
            records, points, openings=openings, aliases=aliases, event=event, tiebreaks=tiebreaks
        )
    )


def iter_reports(
    records: Iterable[GameRecord],
    points: Sequence[float] | None = DEFAULT_POINTS,
    *,
    openings: Sequence[str | None] | None = None,
    aliases: Aliases | None = None,
    event: str | None = None,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> Iterator[EventReport]:
    """:func:`build_reports` one event at a time, for collections of any size.

    The records are read to the end first (an event's games may be anywhere in the input),
    kept on disk rather than in memory (:class:`EventStore`); then each event is built, handed
    over and dropped. Arguments are checked at the call, before any record is read.
    """
    scheme = None if points is None else _points_scheme(points)
    unknown = [name for name in tiebreaks if name not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r}: choose among {', '.join(TIEBREAKS)}")
    try:
        wanted = None if event is None else re.compile(event)
    except re.error as exc:
        raise ValueError(f"not a regular expression: {event!r}: {exc}") from None
    labelled: Iterable[tuple[GameRecord, str | None]]
    if openings is None:
        labelled = ((game, None) for game in records)
    else:
        if not isinstance(records, Sequence):
            records = list(records)
        labelled = zip(records, _aligned(openings, len(records)), strict=True)

    def reports() -> Iterator[EventReport]:
        with EventStore() as store:
            for game, label in labelled:
                if label is not None:
                    game = replace(game, opening=label)
                if aliases is not None:
                    game = _renamed(game, aliases)
                name = game.event.strip() or UNKNOWN
                if wanted is None or wanted.search(name):
                    store.add(name, game)
            for name, group in store.events():
                chosen = points_of_results(group) if scheme is None else scheme
                yield _build_event(name, group, chosen, tiebreaks)

    return reports()


class EventStore:
    """Game records grouped by event without holding them in memory.

    They go into a private temporary SQLite database (``sqlite3.connect("")``: a bounded
    page cache, spilled to a file that SQLite removes when it is closed), so that a report
    over an archive of a million games holds one event at a time. Each record's fields are kept
    pickled, so it comes back exactly as it went in (a lone surrogate in a name, which SQLite's
    UTF-8 text refuses, included). Every failure of the database (a full temporary folder) is
    a :class:`~pdn.study.counts.SpillError`. A context manager.

    >>> from pdn.study.tournament.records import record_from_tags
    >>> with EventStore() as store:
    ...     store.add("B", record_from_tags({"Black": "x", "White": "y"}))
    ...     store.add("A", record_from_tags({"Black": "y", "White": "x"}))
    ...     store.add("B", record_from_tags({"Black": "z", "White": "x"}))
    ...     [(name, [r.first for r in group]) for name, group in store.events()]
    [('B', ['x', 'z']), ('A', ['y'])]
    """

    _FIELDS = tuple(f.name for f in fields(GameRecord))
    #: Records sent to the database at once: one statement per batch, not per game.
    _BATCH = 512

    def __init__(self) -> None:
        import sqlite3

        with _disk_errors():
            self._db = sqlite3.connect("")
            self._db.execute("CREATE TABLE games (event_id INTEGER, record BLOB)")
        self._ids: dict[str, int] = {}  # event name -> id, in the order first seen
        self._pending: list[tuple[int, bytes]] = []

    def add(self, event: str, record: GameRecord) -> None:
        """Keep ``record`` under ``event`` (its games stay in the order they were added)."""
        number = self._ids.setdefault(event, len(self._ids))
        values = tuple(getattr(record, name) for name in self._FIELDS)
        self._pending.append((number, pickle.dumps(values, pickle.HIGHEST_PROTOCOL)))
        if len(self._pending) >= self._BATCH:
            self._flush()

    def events(self) -> Iterator[tuple[str, list[GameRecord]]]:
        """Each event, in the order first seen, with its records."""
        self._flush()
        select = "SELECT record FROM games WHERE event_id = ? ORDER BY rowid"
        with _disk_errors():
            self._db.execute("CREATE INDEX IF NOT EXISTS by_event ON games (event_id)")
        for name, number in self._ids.items():
            with _disk_errors():
                rows = [
                    GameRecord(*pickle.loads(data))
                    for (data,) in self._db.execute(select, (number,))
                ]
            yield name, rows

    def close(self) -> None:
        """Drop the database (and its file)."""
        self._db.close()

    def _flush(self) -> None:
        if self._pending:
            with _disk_errors():
                self._db.executemany("INSERT INTO games VALUES (?, ?)", self._pending)
            self._pending.clear()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _disk_errors() -> contextlib.AbstractContextManager[None]:
    """The database's errors as one :class:`~pdn.study.counts.SpillError` (a full
    temporary folder is one line naming it, never a traceback)."""
    from ..counts import disk_errors

    return disk_errors("the report's")


def _renamed(game: GameRecord, aliases: Aliases) -> GameRecord:
    first = aliases.lookup(game.first_colour, game.first)
    second = aliases.lookup(game.second_colour, game.second)
    event = aliases.lookup("Event", game.event)
    if first is None and second is None and event is None:
        return game
    return replace(
        game, first=first or game.first, second=second or game.second, event=event or game.event
    )
