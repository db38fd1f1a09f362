"""The one table of pdn's outputs: columns and rows, laid out as text, Markdown, CSV, JSON, HTML.

A column is ``(key, header, right_aligned)``; a row holds one cell per column, in their order.
Cells come from files, so each format passes every cell through its guard, and only this
module does: text and Markdown cells are made one line and printable
(:func:`pdn.text.safe_text.one_line`), Markdown escapes what could start markup
(:func:`markdown_cell`), HTML escapes markup after showing controls, and CSV cells are
defused against formulas (:func:`pdn.text.safe_text.csv_cell`). Headers are ours and go as they are.

``squeeze`` chooses the white space of one-line cells (see :func:`pdn.text.safe_text.one_line`):
the openings and explorer tables squeeze every run to one space, the report keeps a name's
spacing so that two spellings it warns about stay told apart on the page.

>>> table = Table([("n", "Games", True), ("m", "Move", False)], [["12", "11-15"]], squeeze=True)
>>> print(table.text())
Games  Move
-----  -----
   12  11-15
<BLANKLINE>
>>> "".join(Table([("n", "n", True)], [["=1+2"], [3]]).csv_chunks())
"n\\n'=1+2\\n3\\n"
"""

from __future__ import annotations

import csv
import functools
import html
import io
import json
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .safe_text import csv_cell, one_line, printable

__all__ = [
    "Column",
    "Table",
    "csv_chunks",
    "html_text",
    "markdown_cell",
    "markdown_row",
    "markdown_table",
    "text_lines",
    "text_table",
]

#: (key, header, right-aligned)
Column = tuple[str, str, bool]

# Characters that could start markup, an HTML tag or entity, or a new table cell, wherever
# they stand; characters special only at the start of a line cannot occur in a cell's middle.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&#])")

# Rows laid out per piece of a long table's text.
_BLOCK = 1000


def markdown_cell(text: str, *, squeeze: bool = True) -> str:
    """``text`` as one Markdown cell (or line): made one line (``squeeze``: see
    :func:`pdn.text.safe_text.one_line`), then whatever could start markup or close the cell is
    escaped (names come from files).

    >>> markdown_cell("a|b *c*")
    'a\\\\|b \\\\*c\\\\*'
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", one_line(text, squeeze=squeeze))


def html_text(value: object) -> str:
    """``value`` as HTML text: controls shown as escapes (they are not valid HTML text, and a
    page may well be read with ``cat``), then markup escaped, quotes included.

    >>> html_text('<b a="1">\\x1b')
    '&lt;b a=&quot;1&quot;&gt;\\\\x1b'
    """
    return html.escape(printable(str(value)), quote=True)


def text_lines(columns: Sequence[Column], widths: Sequence[int]) -> Callable[[Sequence[str]], str]:
    """A function that lays out one row of one-line cells in columns of these widths (with its
    line end)."""

    def line(cells: Sequence[str]) -> str:
        parts = [
            cell.rjust(width) if right else cell.ljust(width)
            for cell, width, (_, _, right) in zip(cells, widths, columns, strict=True)
        ]
        return "  ".join(parts).rstrip() + "\n"

    return line


def markdown_row(cells: Sequence[str], *, squeeze: bool = True) -> str:
    """One Markdown table row of these cells (with its line end)."""
    return "| " + " | ".join(markdown_cell(cell, squeeze=squeeze) for cell in cells) + " |\n"


def _markdown_head(columns: Sequence[Column]) -> str:
    return (
        "| " + " | ".join(header for _, header, _ in columns) + " |\n"
        "|" + "|".join("---:" if right else ":---" for _, _, right in columns) + "|\n"
    )


def csv_chunks(header: Sequence[str], rows: Iterable[Sequence[object]]) -> Iterator[str]:
    """CSV text (``\\n`` line ends) in pieces of about 64 kB: ``header`` as it is (it is
    ours), then each row with every cell through :func:`pdn.text.safe_text.csv_cell`, written as
    ``rows`` come, so a table of any length is written in constant memory. The one CSV writer
    of the tables.

    >>> "".join(csv_chunks(["name", "score"], [["=cmd()", -1], ["Ann", 2]]))
    "name,score\\n'=cmd(),-1\\nAnn,2\\n"
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([csv_cell(cell) for cell in row])
        if buffer.tell() > 1 << 16:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


@dataclass(frozen=True, slots=True)
class Table:
    """Columns and rows of cells, in every format pdn writes tables in.

    ``rows`` may be any iterable for :meth:`csv_chunks` and
    :meth:`chunks` (read once, as they come); the other layouts read a sequence. The columns
    whose key is in ``optional`` are shown in text and Markdown only when some row has
    something in them (CSV and JSON always keep every column, so that a script sees the same
    columns whatever the file held). Cells are strings, but CSV and JSON keep other values
    (numbers) as they are.
    """

    columns: Sequence[Column]
    rows: Iterable[Sequence[object]]
    squeeze: bool = False
    optional: Collection[str] = frozenset()

    def _cells(self) -> list[list[str]]:
        squeeze = self.squeeze
        return [[one_line(str(cell), squeeze=squeeze) for cell in row] for row in self.rows]

    def text_lines(self, indent: str = "", width: int | None = None) -> list[str]:
        """The table aligned, as lines without their ends, each column as wide as its widest
        cell, every line after ``indent``.

        With ``width``, a table wider than that is folded: its columns after the first two
        (``#`` and the player of a report) are cut into parts that fit, each part shown under
        those two again, and cells of the second column too long even for that are shortened
        with ``~``.
        """
        headers = [header for _, header, _ in self.columns]
        right = [is_right for _, _, is_right in self.columns]
        rows = self._cells()
        widths = [len(h) for h in headers]
        for row in rows:
            widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]

        def total(columns: Sequence[int]) -> int:
            return len(indent) + sum(widths[c] for c in columns) + 2 * (len(columns) - 1)

        parts = [list(range(len(headers)))]
        if width is not None and total(parts[0]) > width and len(headers) > 3:
            fixed = [0, 1]
            room = width - total(fixed) - 2
            widest = max(widths[2:])
            if room < widest:  # even one more column does not fit: shorten the names
                widths[1] = max(4, widths[1] - (widest - room))
                rows = [[*row[:1], _shorten(row[1], widths[1]), *row[2:]] for row in rows]
                headers = [*headers[:1], _shorten(headers[1], widths[1]), *headers[2:]]
            parts = []
            current: list[int] = []
            for column in range(2, len(headers)):
                if current and total([*fixed, *current, column]) > width:
                    parts.append([*fixed, *current])
                    current = []
                current.append(column)
            parts.append([*fixed, *current])

        def line(cells: Sequence[str], columns: Sequence[int]) -> str:
            padded = (
                cells[c].rjust(widths[c]) if right[c] else cells[c].ljust(widths[c])
                for c in columns
            )
            return (indent + "  ".join(padded)).rstrip()

        out: list[str] = []
        for number, columns in enumerate(parts):
            if number:
                out.append("")
            out += [line(headers, columns), line(["-" * w for w in widths], columns)]
            out += [line(row, columns) for row in rows]
        return out

    def text(self, width: int | None = None) -> str:
        """:meth:`text_lines` as one text, each line with its end."""
        return "".join(line + "\n" for line in self.text_lines(width=width))

    def markdown_lines(self) -> list[str]:
        """The table as Markdown lines (a pipe table), without their ends, every cell escaped
        (:func:`markdown_cell`)."""
        squeeze = self.squeeze
        out = _markdown_head(self.columns).split("\n")[:2]
        out += [markdown_row([str(c) for c in row], squeeze=squeeze)[:-1] for row in self.rows]
        return out

    def markdown(self) -> str:
        """:meth:`markdown_lines` as one text, each line with its end."""
        return "".join(line + "\n" for line in self.markdown_lines())

    def html_lines(
        self, diagonal: int | None = None, cell_html: Callable[[str], str] = html_text
    ) -> list[str]:
        """The table as HTML lines; right-aligned cells are ``class="num"``. With
        ``diagonal``, the cell of row i in column i + ``diagonal`` is ``class="self"`` (a
        crosstable's player against themself). ``cell_html`` writes a cell's text as HTML (it
        must escape it)."""
        right = [is_right for _, _, is_right in self.columns]
        out = [
            "<table>",
            "<thead><tr>"
            + "".join(f"<th>{html_text(h)}</th>" for _, h, _ in self.columns)
            + "</tr></thead>",
        ]
        out.append("<tbody>")
        for i, row in enumerate(self.rows):
            cells = []
            for j, (cell, is_right) in enumerate(zip(row, right, strict=True)):
                on_diagonal = diagonal is not None and j - diagonal == i
                css = "self" if on_diagonal else "num" if is_right else ""
                attr = f' class="{css}"' if css else ""
                cells.append(f"<td{attr}>{cell_html(str(cell))}</td>")
            out.append("<tr>" + "".join(cells) + "</tr>")
        out += ["</tbody>", "</table>"]
        return out

    def csv_chunks(self) -> Iterator[str]:
        """The table as CSV (:func:`csv_chunks`): the keys of the columns, then the rows as
        they come."""
        return csv_chunks([key for key, _, _ in self.columns], self.rows)

    def chunks(self, fmt: str) -> Iterator[str]:
        """The table as ``"text"``, ``"markdown"`` or ``"csv"`` in pieces, for tables of any
        length. Text and Markdown size and choose their columns from every row, and the rows
        of an archive do not fit in memory: a first pass writes each row's cells to a
        temporary file (one JSON line) while it takes the widths, the second reads them back
        and lays them out. The table is the same as one laid out in memory, cell for cell.
        """
        if fmt == "csv":
            return self.csv_chunks()
        if fmt not in ("text", "markdown"):
            raise ValueError(f"no table format {fmt!r}")
        return self._spooled(fmt == "text")

    def _spooled(self, text: bool) -> Iterator[str]:
        columns = list(self.columns)
        squeeze = self.squeeze
        optional = [at for at, (key, _, _) in enumerate(columns) if key in self.optional]
        widths = [len(header) for _, header, _ in columns]
        present: set[int] = set()
        import tempfile  # only long tables need it: the other commands start without it

        with tempfile.TemporaryFile("w+", encoding="ascii", newline="\n") as spool:
            for row in self.rows:
                present.update(at for at in optional if row[at])
                if text:
                    values = [one_line(str(cell), squeeze=squeeze) for cell in row]
                    widths = [max(w, len(v)) for w, v in zip(widths, values, strict=True)]
                else:
                    values = [str(cell) for cell in row]
                spool.write(json.dumps(values) + "\n")  # ASCII: any text (surrogates too)
            spool.seek(0)
            chosen = [at for at in range(len(columns)) if at not in optional or at in present]
            shown = [columns[at] for at in chosen]
            lay: Callable[[Sequence[str]], str]
            if text:
                lay = text_lines(shown, [widths[at] for at in chosen])
                yield lay([header for _, header, _ in shown])
                yield "  ".join("-" * widths[at] for at in chosen) + "\n"
            else:
                lay = functools.partial(markdown_row, squeeze=squeeze)
                yield _markdown_head(shown)
            block: list[str] = []
            for line in spool:
                values = json.loads(line)
                block.append(lay([values[at] for at in chosen]))
                if len(block) >= _BLOCK:
                    yield "".join(block)
                    block = []
            if block:
                yield "".join(block)


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "~"


def text_table(columns: Sequence[Column], rows: Sequence[dict[str, str]]) -> str:
    """The rows (each a mapping of the columns' keys to cells) under a header and a rule,
    white space squeezed: :meth:`Table.text`."""
    keys = [key for key, _, _ in columns]
    return Table(columns, [[row[key] for key in keys] for row in rows], squeeze=True).text()


def markdown_table(columns: Sequence[Column], rows: Sequence[dict[str, str]]) -> str:
    """The rows (each a mapping of the columns' keys to cells) as a Markdown table, white
    space squeezed: :meth:`Table.markdown`."""
    keys = [key for key, _, _ in columns]
    return Table(columns, [[row[key] for key in keys] for row in rows], squeeze=True).markdown()
