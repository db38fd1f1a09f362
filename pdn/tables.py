"""Tables as the text and Markdown outputs lay them out: columns of one-line cells.

A column is ``(key, header, right_aligned)``; a row maps each key to its cell text. Cells come
from files, so every one is made one line and printable (:func:`one_line`), and Markdown
escapes what could start markup (:func:`markdown_cell`).

>>> print(text_table([("n", "Games", True), ("m", "Move", False)], [{"n": "12", "m": "11-15"}]))
Games  Move
-----  -----
   12  11-15
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .safe_text import printable

__all__ = [
    "Column",
    "markdown_cell",
    "markdown_row",
    "markdown_table",
    "one_line",
    "text_lines",
    "text_table",
]

#: (key, header, right-aligned)
Column = tuple[str, str, bool]


def one_line(text: str) -> str:
    """``text`` on one line, its runs of white space one space, controls shown as escapes (a
    cell from a file must not move the cursor of the terminal showing it)."""
    return printable(" ".join(text.split()))


def text_table(columns: Sequence[Column], rows: Sequence[dict[str, str]]) -> str:
    """The rows under a header and a rule, each column as wide as its widest cell."""
    headers = [header for _, header, _ in columns]
    body = [[one_line(row[key]) for key, _, _ in columns] for row in rows]
    widths = [max(len(cell) for cell in column) for column in zip(headers, *body, strict=True)]
    line = text_lines(columns, widths)
    rule = "  ".join("-" * width for width in widths) + "\n"
    return "".join([line(headers), rule, *(line(cells) for cells in body)])


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


def markdown_cell(text: str) -> str:
    """``text`` as one Markdown table cell: whatever could start markup or close the cell is
    escaped (names come from files)."""
    out = one_line(text)
    for char in "\\`*_[]<>|~&#":
        out = out.replace(char, "\\" + char)
    return out


def markdown_table(columns: Sequence[Column], rows: Sequence[dict[str, str]]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| " + " | ".join(header for _, header, _ in columns) + " |",
        "|" + "|".join("---:" if right else ":---" for _, _, right in columns) + "|",
    ]
    return (
        "\n".join(lines)
        + "\n"
        + "".join(markdown_row([row[key] for key, _, _ in columns]) for row in rows)
    )


def markdown_row(cells: Sequence[str]) -> str:
    """One Markdown table row of these cells."""
    return "| " + " | ".join(markdown_cell(cell) for cell in cells) + " |\n"
