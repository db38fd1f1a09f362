"""Reports laid out: text (folded to a width), Markdown, CSV, JSON and HTML, one event at a
time, every table through the one :class:`pdn.text.tables.Table`."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from pdn.text.safe_text import one_line
from pdn.text.tables import Column, Table, html_text, markdown_cell

from .marks import MARKS_CSS, marked_html
from .records import _DASH, BLACK, UNKNOWN, WHITE
from .standings import CROSSTABLE_MAX_PLAYERS, EventReport, OpeningStats, StandingRow, _num
from .tiebreaks import TIEBREAKS, order_text

#: Output formats understood by :func:`render`.
FORMATS: tuple[str, ...] = ("text", "markdown", "csv", "json", "html")

#: Tables :func:`render_csv` can write (one table per CSV document keeps it machine-readable).
CSV_TABLES: tuple[str, ...] = ("standings", "crosstable", "games", "openings")


def _rank_labels(rows: Sequence[StandingRow]) -> list[str]:
    counts = Counter(row.rank for row in rows)
    return [f"{row.rank}=" if counts[row.rank] > 1 else str(row.rank) for row in rows]


def _mover(report: EventReport, which: str) -> str:
    """``"first mover (Black)"``; the colour is left out when an event mixes first movers."""
    if len(report.first_colours) != 1:
        return f"{which} mover"
    colour = report.first_colours[0]
    if which == "second":
        colour = WHITE if colour == BLACK else BLACK
    return f"{which} mover ({colour})"


def _summary(report: EventReport) -> list[tuple[str, str]]:
    win, draw, loss = report.points_scheme
    lines: list[tuple[str, str]] = []
    if report.sites:
        lines.append(("Site" if len(report.sites) == 1 else "Sites", "; ".join(report.sites)))
    if report.dates is not None:
        first, last = report.dates
        lines.append(("Date", first if first == last else f"{first}{_DASH}{last}"))
    scored = len(report.games) - len(report.unscored)
    lines.append(
        ("Games", f"{len(report.games)} (scored {scored}, unplayed/unknown {len(report.unscored)})")
    )
    lines.append(("Points", f"win {_num(win)}, draw {_num(draw)}, loss {_num(loss)}"))
    lines.append(("Ranking", order_text(report.tiebreaks)))
    lines.append(("First mover", ", ".join(report.first_colours) or UNKNOWN))
    return lines


def _table(headers: Sequence[str], right: Sequence[bool], rows: list[list[str]]) -> Table:
    # Every format lays the same tables out; a report keeps the spacing of names (two
    # spellings it tells apart must look apart), so its cells are not squeezed.
    columns: list[Column] = [(h, h, r) for h, r in zip(headers, right, strict=True)]
    return Table(columns, rows)


def _standings_table(report: EventReport) -> Table:
    headers = ["#", "Player", "Games", "W", "D", "L", "Points", "SB"]
    right = [True, False, True, True, True, True, True, True]
    if report.swiss:
        headers += ["Buch", "MBuch"]
        right += [True, True]
    # A tie-break chosen is shown, in a column of its own when the table has none for it.
    extra = [TIEBREAKS[name] for name in report.tiebreaks if TIEBREAKS[name].column not in headers]
    headers += [tb.column for tb in extra]
    right += [True] * len(extra)
    with_unscored = bool(report.unscored)
    if with_unscored:
        headers.append("Unscored")
        right.append(True)
    rows = []
    for label, row in zip(_rank_labels(report.standings), report.standings, strict=True):
        cells = [
            label,
            row.player,
            str(row.games),
            str(row.wins),
            str(row.draws),
            str(row.losses),
            _num(row.points),
            _num(row.sonneborn_berger),
        ]
        if report.swiss:
            cells += [_num(row.buchholz), _num(row.median_buchholz)]
        cells += [_num(getattr(row, tb.field)) for tb in extra]
        if with_unscored:
            cells.append(str(row.unscored))
        rows.append(cells)
    return _table(headers, right, rows)


def _crosstable_table(report: EventReport) -> Table:
    table = report.crosstable
    count = len(table.players)
    headers = ["#", "Player", *(str(n) for n in range(1, count + 1)), "Points"]
    right = [True, False, *([True] * count), True]
    rows = [
        [
            str(i + 1),
            player,
            *(table.cell(i, j) for j in range(count)),
            _num(report.standings[i].points),
        ]
        for i, player in enumerate(table.players)
    ]
    return _table(headers, right, rows)


#: How a player's result in a game is shown in the table of rounds: win, draw, loss, both
#: lost, unscored.
_ROUND_MARKS = {1.0: "+", 0.5: "=", 0.0: "-"}


def _player_rounds_table(report: EventReport) -> Table:
    """Per player, a column per round: ``"3W+"`` is a win with White against player 3 (their
    place in the standings); several games in one round are written side by side."""
    number = {row.player: str(i) for i, row in enumerate(report.standings, start=1)}
    rounds = [rnd.round for rnd in report.rounds]
    headers = ["#", "Player", *(f"R{name}" for name in rounds), "Points"]
    right = [True, False, *([False] * len(rounds)), True]
    rows = []
    for i, (entry, row) in enumerate(zip(report.player_rounds, report.standings, strict=True)):
        cells: dict[str, list[str]] = {name: [] for name in rounds}
        for game in entry.games:
            mark = "*" if game.score is None else _ROUND_MARKS[game.score]
            opponent = number.get(game.opponent, UNKNOWN)
            cells[game.round].append(f"{opponent}{game.colour[0]}{mark}")
        rows.append(
            [str(i + 1), row.player, *(" ".join(cells[name]) for name in rounds), _num(row.points)]
        )
    return _table(headers, right, rows)


def _rounds_table(report: EventReport) -> Table:
    first, second = _mover(report, "first"), _mover(report, "second")
    headers = ["Round", first[0].upper() + first[1:], second[0].upper() + second[1:], "Result"]
    with_openings = any(game.opening for game in report.games)
    if with_openings:
        headers.append("Opening")
    rows = []
    for rnd in report.rounds:
        for game in rnd.games:
            cells = [rnd.round, game.first, game.second, game.result or UNKNOWN]
            if with_openings:
                cells.append(game.opening or "")
            rows.append(cells)
    return _table(headers, [False] * len(headers), rows)


def _colours_table(report: EventReport) -> Table:
    headers = ["Player", f"As {_mover(report, 'first')}", f"As {_mover(report, 'second')}"]
    headers.append("Difference")
    rows = [
        [
            entry.player,
            str(entry.first),
            str(entry.second),
            f"{entry.difference:+d}" if entry.difference else "0",
        ]
        for entry in report.colour_balance
    ]
    return _table(headers, [False, True, True, True], rows)


def _openings_table(report: EventReport) -> Table:
    columns: list[tuple[str, Callable[[OpeningStats], int]]] = [
        ("Games", lambda s: s.games),
        ("1st wins", lambda s: s.first_wins),
        ("Draws", lambda s: s.draws),
        ("2nd wins", lambda s: s.second_wins),
    ]
    # Rare columns appear only when they hold something, to keep the table narrow.
    if any(s.double_losses for s in report.openings):
        columns.append(("Double losses", lambda s: s.double_losses))
    if any(s.unscored for s in report.openings):
        columns.append(("Unscored", lambda s: s.unscored))
    headers = ["Opening", *(name for name, _ in columns)]
    rows = [[s.opening, *(str(get(s)) for _, get in columns)] for s in report.openings]
    return _table(headers, [False, *([True] * len(columns))], rows)


def _crosstable_note(report: EventReport) -> str:
    count = len(report.crosstable.players)
    return (
        f"not shown: {count:,} players are too many for a grid (more than "
        f"{CROSSTABLE_MAX_PLAYERS}); --format csv --table crosstable lists every pair that met"
    )


def _sections(report: EventReport) -> list[tuple[str, Table | str]]:
    """The report's tables in order; a section that is a string is a sentence instead of a
    table (a crosstable too large to show)."""
    crosstable = _crosstable_note(report) if report.crosstable.folded else _crosstable_table(report)
    sections: list[tuple[str, Table | str]] = [
        ("Standings", _standings_table(report)),
        ("Crosstable", crosstable),
    ]
    if report.player_rounds:
        sections.append(("Rounds per player", _player_rounds_table(report)))
    sections += [
        ("Results by round", _rounds_table(report)),
        ("Colour balance", _colours_table(report)),
    ]
    if report.openings:
        sections.append(("Ballots played", _openings_table(report)))
    return sections


def render_text(reports: Iterable[EventReport], width: int | None = None) -> str:
    """Aligned plain-text tables for a terminal, one block per event; tables wider than
    ``width`` characters (when given) are folded (see the crosstable of a large event)."""
    return "".join(_text_chunks(reports, width))


def _text_chunks(reports: Iterable[EventReport], width: int | None) -> Iterator[str]:
    # Blocks three newlines apart, and a last newline when there was any.
    separator = ""
    for report in reports:
        title = one_line(report.event)
        lines = [title, "=" * len(title)]
        label_width = max(len(label) for label, _ in _summary(report))
        lines += [
            f"{label + ':':<{label_width + 1}} {one_line(value)}"
            for label, value in _summary(report)
        ]
        for heading, table in _sections(report):
            lines += ["", heading]
            if isinstance(table, str):
                lines.append(f"  {table}")
            elif heading == "Results by round":
                # The round list reads better as "first - second: result" lines than as a table.
                for rnd in report.rounds:
                    lines.append(f"  Round {one_line(rnd.round)}")
                    for game in rnd.games:
                        opening = f"  [{game.opening}]" if game.opening else ""
                        lines.append(f"    {one_line(game.describe())}{one_line(opening)}")
            else:
                lines += table.text_lines("  ", width)
                if heading == "Rounds per player":
                    lines.append(
                        "  (3W+: against number 3, with White, won; = drawn, - lost, * unscored)"
                    )
        if report.notes:
            lines += ["", "Notes"]
            lines += [f"  - {one_line(note)}" for note in report.notes]
        yield separator + "\n".join(lines)
        separator = "\n\n\n"
    if separator:
        yield "\n"


def _md(text: str) -> str:
    return markdown_cell(text, squeeze=False)


def render_markdown(reports: Iterable[EventReport], warnings: Sequence[str] = ()) -> str:
    """GitHub-flavoured Markdown: a section per event with pipe tables, after a ``Warnings``
    section when there are ``warnings`` (see :func:`render_chunks`).

    Every value from a file is backslash-escaped, so names cannot add markup or break a table.
    """
    return "".join(_markdown_chunks(reports, warnings))


def _first_read(reports: Iterable[EventReport]) -> Iterator[EventReport]:
    """``reports`` with the first one already built: :func:`iter_reports` reads every record
    before it gives one, so what the reading says (the warnings) is known after this."""
    events = iter(reports)
    first = next(events, None)
    return events if first is None else itertools.chain([first], events)


def _markdown_chunks(reports: Iterable[EventReport], warnings: Sequence[str] = ()) -> Iterator[str]:
    reports = _first_read(reports)
    separator = ""  # each event's lines end with an empty one; events join with a newline
    if warnings:
        out = ["## Warnings", ""] + [f"- {_md(warning)}" for warning in warnings] + [""]
        yield "\n".join(out)
        separator = "\n"
    for report in reports:
        out = [f"## {_md(report.event)}", ""]
        out += [f"- **{label}:** {_md(value)}" for label, value in _summary(report)]
        for heading, table in _sections(report):
            out += ["", f"### {heading}", ""]
            if isinstance(table, str):
                out.append(_md(table[0].upper() + table[1:] + "."))
                continue
            out += table.markdown_lines()
        if report.notes:
            out += ["", "### Notes", ""]
            out += [f"- {_md(note)}" for note in report.notes]
        out.append("")
        yield separator + "\n".join(out)
        separator = "\n"


_CSV_HEADERS: dict[str, list[str]] = {
    "standings": [
        "event", "rank", "player", "games", "wins", "draws", "losses", "points",
        "sonneborn_berger", "unscored", "as_first", "as_second", "buchholz", "median_buchholz",
        "truncated_solkoff",
    ],
    "crosstable": ["event", "player", "opponent", "games", "score"],
    "games": [
        "event", "round", "site", "date", "first_colour", "first", "second", "result",
        "first_score", "second_score", "scored", "opening", "index",
    ],
    "openings": [
        "event", "opening", "games", "first_wins", "draws", "second_wins", "double_losses",
        "unscored",
    ],
}  # fmt: skip


def _optional_num(value: float | None) -> str:
    return "" if value is None else _num(value)


def _csv_rows(report: EventReport, table: str) -> list[list[Any]]:
    event = report.event
    if table == "standings":
        balance = {entry.player: entry for entry in report.colour_balance}
        return [
            [
                *(event, r.rank, r.player, r.games, r.wins, r.draws, r.losses),
                *(_num(r.points), _num(r.sonneborn_berger), r.unscored),
                *(balance[r.player].first, balance[r.player].second),
                *(_num(r.buchholz), _num(r.median_buchholz), _num(r.truncated_solkoff)),
                *(() if r.delft is None else (r.delft,)),
            ]
            for r in report.standings
        ]
    if table == "crosstable":
        cross = report.crosstable
        return [
            [event, cross.players[i], cross.players[j], games, _num(score)]
            for (i, j), (score, games) in sorted(cross.pairs.items())
        ]
    if table == "games":
        return [
            [
                *(event, g.round, g.site, g.date, g.first_colour, g.first, g.second, g.result),
                *(_optional_num(g.first_score), _optional_num(g.second_score), int(g.scored)),
                *(g.opening or "", "" if g.index is None else g.index),
            ]
            for rnd in report.rounds
            for g in rnd.games
        ]
    return [
        [
            *(event, s.opening, s.games, s.first_wins, s.draws, s.second_wins),
            *(s.double_losses, s.unscored),
        ]
        for s in report.openings
    ]


def render_csv(reports: Iterable[EventReport], table: str = "standings") -> str:
    """One CSV table for all events, with an ``event`` column first.

    ``table`` is one of :data:`CSV_TABLES`: ``standings`` (with colour balance),
    ``crosstable`` (one row per pair of players that met), ``games`` (by round) or
    ``openings``. Lines end with ``\\n``; numbers are plain decimals. Text cells pass
    through :func:`pdn.text.safe_text.csv_cell`: controls are shown escaped, and a cell that a
    spreadsheet would run as a formula (``=...``, ``+...``, ``-...``, ``@...``) gets a ``'``
    in front; plain numbers such as ``-1`` are left alone.

    >>> render_csv([], "crosstable")
    'event,player,opponent,games,score\\n'
    """
    return "".join(_csv_chunks(reports, table))


def _csv_chunks(reports: Iterable[EventReport], table: str) -> Iterator[str]:
    if table not in _CSV_HEADERS:
        raise ValueError(f"unknown CSV table {table!r}; choose one of {', '.join(CSV_TABLES)}")
    reports = iter(reports)
    first = next(reports, None)
    headers = _CSV_HEADERS[table]
    if table == "standings" and first is not None and "delft" in first.tiebreaks:
        headers = [*headers, "delft"]  # (every event of a report has the same tie-breaks)
    every = () if first is None else itertools.chain((first,), reports)
    rows = (row for report in every for row in _csv_rows(report, table))
    return Table([(key, key, False) for key in headers], rows).csv_chunks()


def render_json(reports: Iterable[EventReport]) -> str:
    """``{"events": [...]}`` with each report's :meth:`EventReport.to_dict`, indented."""
    return "".join(_json_chunks(reports))


def _json_chunks(reports: Iterable[EventReport]) -> Iterator[str]:
    from pdn.text.json_text import dumps_listing

    return dumps_listing("events", (report.to_dict() for report in reports))


_CSS = (
    """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f2f2f2; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.self { background: #ddd; text-align: center; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dt { font-weight: bold; } dd { margin: 0; } .notes li, .warnings li { color: #8a4b00; }
""".strip()
    + "\n"
    + MARKS_CSS
)


#: The title of an HTML report unless one is given.
HTML_TITLE = "Tournament report"


def render_html(
    reports: Iterable[EventReport], title: str = HTML_TITLE, warnings: Sequence[str] = ()
) -> str:
    """One self-contained HTML page (inline CSS, no scripts, nothing fetched), with the
    ``warnings`` (see :func:`render_chunks`) at the top when there are any.

    Every value taken from a file is passed through :func:`html.escape`.
    """
    return "".join(_html_chunks(reports, title, warnings))


def _html_chunks(
    reports: Iterable[EventReport], title: str, warnings: Sequence[str] = ()
) -> Iterator[str]:
    reports = _first_read(reports)
    head = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        # Belt and braces: even if something slipped through, the page may load nothing.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">",
        f"<title>{html_text(title)}</title>",
        f"<style>\n{_CSS}\n</style>",
        "</head>",
        "<body>",
        f"<h1>{html_text(title)}</h1>",
    ]
    if warnings:
        head += ['<section class="warnings">', "<h2>Warnings</h2>", "<ul>"]
        head += [f"<li>{html_text(warning)}</li>" for warning in warnings]
        head += ["</ul>", "</section>"]
    yield "\n".join(head)
    for report in reports:
        # Values from the files go through marked_html: look-alike names must look apart.
        out = ["", "<section>", f"<h2>{marked_html(report.event)}</h2>", "<dl>"]
        out += [
            f"<dt>{html_text(label)}</dt><dd>{marked_html(value)}</dd>"
            for label, value in _summary(report)
        ]
        out.append("</dl>")
        for heading, table in _sections(report):
            out.append(f"<h3>{html_text(heading)}</h3>")
            if isinstance(table, str):
                out.append(f"<p>{html_text(table[0].upper() + table[1:])}.</p>")
            else:
                # Crosstable data columns start after "#" and "Player": column j is player j - 2.
                diagonal = 2 if heading == "Crosstable" else None
                out += table.html_lines(diagonal=diagonal, cell_html=marked_html)
        if report.notes:
            out += ["<h3>Notes</h3>", '<ul class="notes">']
            out += [f"<li>{marked_html(note)}</li>" for note in report.notes]
            out.append("</ul>")
        out.append("</section>")
        yield "\n".join(out)
    yield "\n</body>\n</html>\n"


def render(
    reports: Iterable[EventReport],
    fmt: str = "text",
    *,
    table: str = "standings",
    width: int | None = None,
    warnings: Sequence[str] = (),
) -> str:
    """Render in one of :data:`FORMATS` (``md`` is accepted for ``markdown``).

    ``table`` only matters for ``csv`` (see :func:`render_csv`); the other formats hold all
    the tables. ``warnings``: see :func:`render_chunks`.

    >>> render([], "json")
    '{\\n  "events": []\\n}'
    """
    return "".join(render_chunks(reports, fmt, table=table, width=width, warnings=warnings))


def render_chunks(
    reports: Iterable[EventReport],
    fmt: str = "text",
    *,
    table: str = "standings",
    width: int | None = None,
    warnings: Sequence[str] = (),
) -> Iterator[str]:
    """:func:`render` as pieces of text, one event at a time (with :func:`iter_reports`, a
    report of any size is written in constant memory). The format and table are checked at
    the call.

    ``warnings`` are sentences that HTML and Markdown pages state at their top (a published
    page must say what a terminal said on standard error: repeated games counted, inputs
    that are not PDN). They are read once the first event is built, that is once every
    record is read, so a list that the reading of the records fills is complete by then.
    Text, CSV and JSON leave them to the caller (the CLI says them on standard error).

    >>> "".join(render_chunks([], "csv", table="crosstable"))
    'event,player,opponent,games,score\\n'
    """
    name = {"md": "markdown", "txt": "text", "htm": "html"}.get(fmt.lower(), fmt.lower())
    if name == "csv":
        return _csv_chunks(reports, table)
    if name == "text":
        return _text_chunks(reports, width)
    if name == "markdown":
        return _markdown_chunks(reports, warnings)
    if name == "json":
        return _json_chunks(reports)
    if name == "html":
        return _html_chunks(reports, HTML_TITLE, warnings)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
