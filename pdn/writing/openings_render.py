"""What ``pdn openings`` prints: the per-game openings table and the per-ballot statistics, in
text, CSV, JSON and Markdown, through the one :class:`pdn.text.tables.Table`.

The openings and the statistics themselves are :mod:`pdn.rules.openings` (whose names these are
too).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdn.text.json_text import dumps_listing
from pdn.text.tables import Column, Table

if TYPE_CHECKING:
    from pdn.game.model import Game
    from pdn.rules.openings import BallotStats, Opening

__all__ = [
    "FORMATS",
    "OpeningRow",
    "empty_stats_note",
    "opening_row",
    "render_openings",
    "render_openings_chunks",
    "render_stats",
]

#: Output formats of :func:`render_openings` and :func:`render_stats` (``md`` also works).
FORMATS = ("text", "csv", "json", "markdown")


@dataclass(frozen=True, slots=True)
class OpeningRow:
    """One line of the per-game openings table: the game's 1-based index and its opening."""

    index: int
    opening: Opening
    event: str | None = None
    black: str | None = None
    white: str | None = None


def opening_row(game: Game, opening: Opening) -> OpeningRow:
    """A table row for ``game``, with its Event, Black and White tags (``?`` counts as absent)."""

    def tag(name: str) -> str | None:
        value = game.tags.get(name)
        return value if value and value.strip() not in {"?", "-"} else None

    return OpeningRow(game.index, opening, tag("Event"), tag("Black"), tag("White"))


_OPENING_COLUMNS: list[Column] = [
    ("index", "#", True),
    ("event", "Event", False),
    ("black", "Black", False),
    ("white", "White", False),
    ("kind", "Kind", False),
    ("number", "Ballot", True),
    ("moves", "ACF order", False),
    ("name", "Name", False),
    ("status", "Status", False),
    ("transposed", "Transposed", False),
    ("played", "Played", False),
    ("two_move", "Two-move", False),
    ("note", "Note", False),
]
# Shown in text and Markdown only when some row has them; CSV and JSON always keep them so a
# script sees the same columns whatever the file held.
_OPTIONAL = {"event", "black", "white"}

_CSV_OPENING_FIELDS = [
    "index", "event", "black", "white", "kind", "number", "moves", "name", "status",
    "transposed", "played", "two_move", "two_move_name", "two_move_status", "ply", "fen",
    "note",
]  # fmt: skip

_STATS_COLUMNS: list[Column] = [
    ("number", "Ballot", True),
    ("moves", "ACF order", False),
    ("name", "Name", False),
    ("status", "Status", False),
    ("games", "Games", True),
    ("first_wins", "Black wins", True),
    ("second_wins", "White wins", True),
    ("draws", "Draws", True),
    ("both_lose", "Both lose", True),
    ("unknown", "Unknown", True),
    ("score", "Score %", True),
]


def _opening_cells(row: OpeningRow) -> dict[str, str]:
    o = row.opening
    two = o.two_move
    note = o.note
    if o.kind == "eleven-man":
        note = o.label
    elif o.kind == "setup" and note is None:
        note = o.fen
    return {
        "index": str(row.index),
        "event": row.event or "",
        "black": row.black or "",
        "white": row.white or "",
        "kind": o.kind,
        "number": "" if o.number is None else str(o.number),
        "moves": o.moves or "",
        "name": o.name or "",
        "status": o.status or "",
        "transposed": ("yes" if o.transposed else "no") if o.kind == "ballot" else "",
        "played": o.played or "",
        "two_move": "" if two is None else two.moves + (f" ({two.name})" if two.name else ""),
        "note": note or "",
        "two_move_name": "" if two is None or two.name is None else two.name,
        "two_move_status": "" if two is None else two.status,
        "ply": "" if o.ply is None else str(o.ply),
        "fen": o.fen or "",
    }


def _stats_cells(stats: BallotStats) -> dict[str, str]:
    return {
        "number": str(stats.number),
        "moves": stats.moves,
        "name": stats.name or "",
        "status": stats.status,
        "games": str(stats.games),
        "first_wins": str(stats.first_wins),
        "second_wins": str(stats.second_wins),
        "draws": str(stats.draws),
        "both_lose": str(stats.both_lose),
        "unknown": str(stats.unknown),
        "score": "" if stats.score is None else f"{stats.score:.1f}",
    }


def _format(fmt: str) -> str:
    chosen = "markdown" if fmt == "md" else fmt
    if chosen not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return chosen


def render_openings(rows: Iterable[OpeningRow], fmt: str = "text") -> str:
    """The per-game openings table in ``fmt`` (one of :data:`FORMATS`).

    Text is an aligned table; CSV has a header line and always every column; JSON is
    ``{"games": [...]}`` with every field of each :class:`Opening`; Markdown is a pipe table
    with the values escaped. Event and player columns appear in text and Markdown only when
    some row has them.

    >>> from pdn.rules.openings import Opening
    >>> print(render_openings([OpeningRow(1, Opening("short", played="11-15"))]), end="")
    #  Kind   Ballot  ACF order  Name  Status  Transposed  Played  Two-move  Note
    -  -----  ------  ---------  ----  ------  ----------  ------  --------  ----
    1  short                                               11-15
    """
    return "".join(render_openings_chunks(rows, fmt))


def render_openings_chunks(rows: Iterable[OpeningRow], fmt: str = "text") -> Iterator[str]:
    """:func:`render_openings` in pieces. CSV and JSON are written row by row as ``rows``
    come, in constant memory; text and Markdown size their columns from every row, so they
    come once every row is read (the rows wait in a temporary file, not in memory). The format
    is checked at the call."""
    chosen = _format(fmt)
    if chosen == "json":
        games = (
            {
                "index": row.index,
                "event": row.event,
                "black": row.black,
                "white": row.white,
                **row.opening.to_dict(),
            }
            for row in rows
        )
        return itertools.chain(dumps_listing("games", games), ["\n"])
    if chosen == "csv":
        fields = [(key, key, False) for key in _CSV_OPENING_FIELDS]
        return _table(fields, rows).csv_chunks()
    return _table(_OPENING_COLUMNS, rows).chunks(chosen)


def _table(columns: Sequence[Column], rows: Iterable[OpeningRow]) -> Table:
    """The rows' cells in these columns, read as the rows come (a table of any length)."""
    keys = [key for key, _, _ in columns]
    cells = ([cells[key] for key in keys] for cells in map(_opening_cells, rows))
    return Table(columns, cells, squeeze=True, optional=_OPTIONAL)


def empty_stats_note(kinds: Mapping[str, int], variants: Mapping[str, int]) -> str:
    """Why :func:`ballot_stats` gave no row, from the :attr:`Opening.kind` of each game read
    (counted) and the variants of those that are not English (counted).

    >>> empty_stats_note({"not-english": 3}, {"russian": 2, "international": 1})
    'no English game among the 3 read (russian 2, international 1): ballots are English'
    >>> empty_stats_note({"short": 2, "illegal": 1}, {})
    'none of the 3 English games opens with a three-move ballot (short 2, illegal 1)'
    """
    games = sum(kinds.values())
    if not games:
        return "no game was read"
    english = games - kinds.get("not-english", 0)
    if not english:
        others = ", ".join(
            f"{name} {n}" for name, n in sorted(variants.items(), key=lambda kv: -kv[1])
        )
        return f"no English game among the {games} read ({others}): ballots are English"
    found = ", ".join(
        f"{kind} {n}"
        for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1])
        if kind not in ("not-english", "ballot")
    )
    return f"none of the {english} English games opens with a three-move ballot ({found})"


def render_stats(stats: Iterable[BallotStats], fmt: str = "text") -> str:
    """Per-ballot results in ``fmt`` (one of :data:`FORMATS`); JSON is ``{"ballots": [...]}``.

    >>> from pdn.rules.openings import Opening, ballot_stats
    >>> b3 = Opening("ballot", number=3, moves="9-13 21-17 10-14", status="barred")
    >>> print(render_stats(ballot_stats([(b3, "0-1")]), "csv"), end="")
    number,moves,name,status,games,first_wins,second_wins,draws,both_lose,unknown,score
    3,9-13 21-17 10-14,,barred,1,0,1,0,0,0,0.0
    """
    chosen = _format(fmt)
    items = list(stats)
    if chosen == "json":
        return (
            json.dumps({"ballots": [s.to_dict() for s in items]}, indent=2, ensure_ascii=False)
            + "\n"
        )
    keys = [key for key, _, _ in _STATS_COLUMNS]
    cells = [[row[key] for key in keys] for row in map(_stats_cells, items)]
    table = Table(_STATS_COLUMNS, cells, squeeze=True)
    if chosen == "csv":
        return "".join(table.csv_chunks())
    return table.markdown() if chosen == "markdown" else table.text()
