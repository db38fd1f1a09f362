"""The opening explorer's counts: per position and per move, six numbers, in memory or on disk.

A count record is the games won, drawn, lost and of unknown result for the side to move, and
their first and last dates as YYYYMMDD (0: none). :class:`CountTable` holds records in flat
arrays, :class:`SpilledCounts` in a temporary SQLite database (upserts add records up), for
:class:`pdn.study.explore.tree.Tree`, which decides when to move the one into the other.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from array import array
from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from typing import Any

__all__ = [
    "DRAW",
    "EMPTY",
    "FIRST",
    "LAST",
    "LOSS",
    "ROW",
    "UNKNOWN",
    "WIN",
    "CountTable",
    "Row",
    "SpillError",
    "SpilledCounts",
    "added",
    "disk_errors",
    "merge_row",
]

#: The columns of a count record.
WIN, DRAW, LOSS, UNKNOWN, FIRST, LAST = range(6)

# A count record is ROW numbers, dates as YYYYMMDD: 32 unsigned bits hold them all.
ROW = 6
_NUMBERS = "I"
assert array(_NUMBERS).itemsize >= 4
EMPTY = (0,) * ROW

Row = tuple[int, ...]


def merge_row(counts: MutableSequence[int], at: int, other: Sequence[int]) -> None:
    """Add the record ``other`` to the record of ``counts`` that starts at ``at``."""
    for column in (WIN, DRAW, LOSS, UNKNOWN):
        counts[at + column] += other[column]
    first = other[FIRST]
    if first and (not counts[at + FIRST] or first < counts[at + FIRST]):
        counts[at + FIRST] = first
    if other[LAST] > counts[at + LAST]:
        counts[at + LAST] = other[LAST]


def added(one: Sequence[int], other: Sequence[int]) -> Row:
    both = list(one)
    merge_row(both, 0, other)
    return tuple(both)


class CountTable:
    """The counts held in memory. A position is a number (its place in ``keys``) and its
    record is ``counts[ROW * number:]``; the moves from it are chained from
    ``first_move`` through ``next_move``, each with the number of the position it leads to
    and its own record. Flat arrays and no object per record: a list per position and per
    move took three times the memory (OCA to depth 30: 130 MB against 45), and the garbage
    collector went through all of them at each full collection. A move is found by walking
    its position's few replies, which costs no more than the tuple a dictionary of moves
    needed as its key."""

    __slots__ = ("_index", "counts", "first_move", "keys", "move_counts", "next_move", "targets")

    def __init__(self, keys: Iterable[int] = ()) -> None:
        self.keys: list[int] = list(keys)
        self._index: dict[int, int] | None = None
        self.counts = array(_NUMBERS, EMPTY * len(self.keys))
        self.first_move = array("i", [-1] * len(self.keys))  # -1: no move from it yet
        self.targets = array(_NUMBERS)
        self.next_move = array("i")
        self.move_counts = array(_NUMBERS)

    def __len__(self) -> int:
        return len(self.keys) + len(self.targets)

    def __getstate__(self) -> tuple[Any, ...]:
        # The index is left out: it is the keys again, and the largest part of the table.
        return (
            self.keys,
            self.counts,
            self.first_move,
            self.targets,
            self.next_move,
            self.move_counts,
        )

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        (
            self.keys,
            self.counts,
            self.first_move,
            self.targets,
            self.next_move,
            self.move_counts,
        ) = state
        self._index = None

    @property
    def index(self) -> dict[int, int]:
        """Each position's number by its key. Made when first asked: a table that came from
        a worker is most often only read through, merged into another, and its index is
        the larger part of it."""
        if self._index is None:
            self._index = {key: n for n, key in enumerate(self.keys)}
        return self._index

    def number(self, key: int) -> int:
        """The number of the position ``key``, given one (with no games) when it has none."""
        index = self.index
        n = index.get(key)
        if n is None:
            n = index[key] = len(self.keys)
            self.keys.append(key)
            self.counts.extend(EMPTY)
            self.first_move.append(-1)
        return n

    def move_number(self, source: int, target: int) -> int:
        """The number of the move between the positions numbered ``source`` and ``target``,
        given one (with no games) when it has none."""
        targets, next_move = self.targets, self.next_move
        m = self.first_move[source]
        while m >= 0 and targets[m] != target:
            m = next_move[m]
        if m < 0:
            m = len(targets)
            targets.append(target)
            next_move.append(self.first_move[source])
            self.first_move[source] = m
            self.move_counts.extend(EMPTY)
        return m

    def add_position(self, key: int, row: Sequence[int]) -> None:
        merge_row(self.counts, ROW * self.number(key), row)

    def add_move(self, source: int, target: int, row: Sequence[int]) -> None:
        m = self.move_number(self.number(source), self.number(target))
        merge_row(self.move_counts, ROW * m, row)

    def position(self, key: int) -> Row | None:
        n = self.index.get(key)
        return None if n is None else tuple(self.counts[ROW * n : ROW * n + ROW])

    def moves_from(self, key: int) -> Iterator[tuple[int, Row]]:
        n = self.index.get(key)
        m = -1 if n is None else self.first_move[n]
        while m >= 0:
            yield self.keys[self.targets[m]], tuple(self.move_counts[ROW * m : ROW * m + ROW])
            m = self.next_move[m]

    def positions(self) -> Iterator[tuple[int, Row]]:
        counts = self.counts
        for n, key in enumerate(self.keys):
            yield key, tuple(counts[ROW * n : ROW * n + ROW])

    def moves(self) -> Iterator[tuple[tuple[int, int], Row]]:
        keys, targets, next_move, counts = self.keys, self.targets, self.next_move, self.move_counts
        for n, key in enumerate(keys):
            m = self.first_move[n]
            while m >= 0:
                yield (key, keys[targets[m]]), tuple(counts[ROW * m : ROW * m + ROW])
                m = next_move[m]


def _blob(key: int) -> bytes:
    return key.to_bytes((key.bit_length() + 7) // 8 or 1, "big")


_UPSERT_COUNTS = """
    win = win + excluded.win, draw = draw + excluded.draw, loss = loss + excluded.loss,
    unknown = unknown + excluded.unknown,
    first = CASE WHEN excluded.first = 0 THEN first WHEN first = 0 THEN excluded.first
                 ELSE min(first, excluded.first) END,
    last = max(last, excluded.last)
"""
_COLUMNS = "win, draw, loss, unknown, first, last"


class SpillError(OSError):
    """A private temporary database failed (that of :class:`SpilledCounts`, or of a report's
    :class:`~pdn.study.tournament.store.EventStore`: a full or unwritable temporary folder): an
    :class:`OSError` naming that folder, with SQLite's reason."""


def _temporary_folder() -> str:
    import tempfile  # (only once a tree spills)

    # Where SQLite puts a temporary database: SQLITE_TMPDIR, TMPDIR, then as Python does.
    return os.environ.get("SQLITE_TMPDIR") or os.environ.get("TMPDIR") or tempfile.gettempdir()


@contextlib.contextmanager
def disk_errors(whose: str = "the explorer's") -> Iterator[None]:
    """SQLite's errors as a :class:`SpillError` (about ``whose`` temporary database): a user
    learns which folder and why, in one line, never a traceback."""
    try:
        yield
    except sqlite3.Error as exc:
        reason = str(exc)
        code = errno.ENOSPC if "full" in reason else errno.EIO
        raise SpillError(
            code,
            f"{whose} temporary database failed ({reason}); set TMPDIR to a folder with room",
            _temporary_folder(),
        ) from None


class SpilledCounts:
    """The counts that no longer fit in memory, in a private temporary SQLite database.
    Every failure of the database is a :class:`SpillError`."""

    def __init__(self) -> None:
        with disk_errors():
            # A tree may change threads (a partition's, handed back by a threaded
            # scheduler); it is never used by two at once.
            self.db = sqlite3.connect("", check_same_thread=False)
            self.db.execute(
                f"CREATE TABLE positions (key BLOB PRIMARY KEY, {_COLUMNS}) WITHOUT ROWID"
            )
            self.db.execute(
                f"CREATE TABLE moves (source BLOB, target BLOB, {_COLUMNS}, "
                "PRIMARY KEY (source, target)) WITHOUT ROWID"
            )

    def add(self, table: CountTable) -> None:
        """Add up the records of ``table`` into the database."""
        db = self.db
        with disk_errors():
            db.executemany(
                f"INSERT INTO positions VALUES (?, ?, ?, ?, ?, ?, ?) "
                f"ON CONFLICT (key) DO UPDATE SET {_UPSERT_COUNTS}",
                ((_blob(key), *counts) for key, counts in table.positions()),
            )
            db.executemany(
                f"INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                f"ON CONFLICT (source, target) DO UPDATE SET {_UPSERT_COUNTS}",
                ((_blob(a), _blob(b), *counts) for (a, b), counts in table.moves()),
            )
            # Committed, so that the pages written need not stay in the cache until the end.
            db.commit()

    def position(self, key: int) -> tuple[int, ...] | None:
        """The record of the position ``key``, or None."""
        with disk_errors():
            row = self.db.execute(
                f"SELECT {_COLUMNS} FROM positions WHERE key = ?", (_blob(key),)
            ).fetchone()
        return None if row is None else tuple(row)

    def moves_from(self, key: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """(the position it leads to, its record) of each move from ``key``."""
        with disk_errors():
            rows = self.db.execute(
                f"SELECT target, {_COLUMNS} FROM moves WHERE source = ?", (_blob(key),)
            )
            for target, *counts in rows:
                yield int.from_bytes(target, "big"), tuple(counts)

    def positions(self) -> Iterator[tuple[int, tuple[int, ...]]]:
        """(key, record) of every position."""
        with disk_errors():
            for key, *counts in self.db.execute(f"SELECT key, {_COLUMNS} FROM positions"):
                yield int.from_bytes(key, "big"), tuple(counts)

    def moves(self) -> Iterator[tuple[tuple[int, int], tuple[int, ...]]]:
        """((source, target), record) of every move."""
        with disk_errors():
            for source, target, *counts in self.db.execute(
                f"SELECT source, target, {_COLUMNS} FROM moves"
            ):
                yield (
                    (int.from_bytes(source, "big"), int.from_bytes(target, "big")),
                    tuple(counts),
                )
