"""Text from game files made safe to show: control characters are displayed, never obeyed.

A tag value can hold anything, including ESC (``\\x1b``), which starts the terminal's escape
sequences (colours, moving the cursor, rewriting the window title, and on some terminals
worse), BEL, backspace and carriage return (which overwrite what was printed before), the C1
controls of Latin-1 (``\\x9b`` is a one-byte ESC ``[``), and the Unicode bidirectional
overrides that make a line read differently from what it holds ("Trojan Source").
Everything pdn prints as text for a person (validate headings and messages, report and
openings tables, CSV) goes through :func:`printable` or :func:`one_line`; JSON keeps values as
they are (the JSON encoder escapes C0 controls itself), and PDN output is never altered.

CSV cells also go through :func:`csv_cell`, against formula injection: a spreadsheet runs a
cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return before one)
as a formula, so a player named ``=HYPERLINK(...)`` could act when the file is opened. A
spreadsheet may also split a line on ``;`` (its list separator in many countries), on tabs or
on commas it was not told are quoted, so such a start after one of them inside a cell is
guarded too: ``Ann;=cmd()`` is written ``Ann;'=cmd()``.

>>> printable("Ann\\x1b[2J\\x07")
'Ann\\\\x1b[2J\\\\x07'
>>> one_line("Kok,\\tK.\\r\\n(NED)\\u202e")
'Kok, K. (NED)\\\\u202e'
"""

from __future__ import annotations

import re

__all__ = [
    "CELL_SPLITS",
    "FORMULA_STARTS",
    "UNSAFE",
    "csp_source",
    "csv_cell",
    "one_line",
    "printable",
]

#: Characters never written raw: C0 controls (tab and newline are handled by the caller's
#: layout), DEL, C1 controls, the line and paragraph separators, and the bidirectional
#: embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

_LAYOUT = "\t\n"
# Whitespace that would break a one-line cell: Python's str.split() splits on all of these.
_BREAKS = re.compile("[\t\n\v\f\r\x1c-\x1f\x85\u2028\u2029]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, layout: bool = False) -> str:
    """``text`` with every :data:`UNSAFE` character written as ``\\xNN`` or ``\\uNNNN``.

    With ``layout``, tabs and newlines are kept (the text is several lines on purpose).

    >>> printable("a\\tb\\x9bc"), printable("a\\tb\\nc", layout=True)
    ('a\\\\x09b\\\\x9bc', 'a\\tb\\nc')
    """
    if text.isprintable():  # the common case; every UNSAFE character is unprintable
        return text
    if layout:
        return UNSAFE.sub(lambda m: m.group() if m.group() in _LAYOUT else _escape(m), text)
    return UNSAFE.sub(_escape, text)


def one_line(text: str, *, squeeze: bool = False) -> str:
    """``text`` for a single line or table cell: runs of whitespace that hold a line break or
    tab become one space (other spacing is kept), then :func:`printable`.

    With ``squeeze``, every run of white space becomes one space and the ends go. The two are
    one guard with two spacings because both are needed: a report keeps a name's own spacing
    (``"Kok,  K."`` and ``"Kok, K."`` are two players, and its notes say they look alike, so
    the page must tell them apart), while the openings and explorer tables, whose cells are
    moves and names laid out for reading, have always squeezed it.

    >>> one_line("Kok,  K. (NED) "), one_line("Kok,  K. (NED) ", squeeze=True)
    ('Kok,  K. (NED) ', 'Kok, K. (NED)')
    """
    if squeeze:
        return printable(" ".join(text.split()))
    if text.isprintable():  # the common case: no line break, tab or control in it
        return text
    if _BREAKS.search(text):
        text = " ".join(text.split())
    return printable(text)


#: What makes a spreadsheet read a cell as a formula (the OWASP "CSV injection" list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# Cells that may start with "+" or "-" and stay as they are: plain numbers (a spreadsheet reads
# them as the same number: points and Sonneborn-Berger can be negative with --points 1,0,-1),
# and a lone "-", PDN's placeholder for an unknown round or date, which computes nothing.
# Results never need this: "0-1", "1/2-1/2", "2-0" start with a digit, "*" is harmless.
_SAFE_SIGNED = re.compile(r"-|[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


#: What a spreadsheet may split a line into cells on, whatever the CSV's own quoting says.
CELL_SPLITS = ";,\t\n"

# A piece of a cell after one of CELL_SPLITS (and spaces) that starts like a formula: group 1
# is the separator and spaces, group 2 the piece up to the next separator.
_SPLIT_FORMULA = re.compile(r"([;,\t\n] *)([=+\-@][^;,\t\n]*)")


def _guard_piece(match: re.Match[str]) -> str:
    piece = match.group(2)
    if _SAFE_SIGNED.fullmatch(piece.rstrip(" ")):
        return match.group()
    return match.group(1) + "'" + piece


def csv_cell(value: object) -> object:
    """A CSV cell: a string is made :func:`printable` (tabs and newlines kept, the CSV writer
    quotes them) and, if it starts with one of :data:`FORMULA_STARTS` without being a plain
    number, prefixed with ``'`` so that spreadsheets show it as text; so is each piece of it
    that starts so after one of :data:`CELL_SPLITS` (a spreadsheet may make it a cell of its
    own). Other values (numbers) are returned as they are.

    >>> [csv_cell(v) for v in ["=1+2", "@SUM(A1)", "-1", "-2+3", "0-1", "-", 7]]
    ["'=1+2", "'@SUM(A1)", '-1', "'-2+3", '0-1', '-', 7]
    >>> [csv_cell(v) for v in ["Ann;=cmd()", "a,\\t@x", "Kok; -1", "1-0, -"]]
    ["Ann;'=cmd()", "a,\\t'@x", 'Kok; -1', '1-0, -']
    """
    if not isinstance(value, str):
        return value
    text = printable(value, layout=True)
    if _SPLIT_FORMULA.search(text):
        text = _SPLIT_FORMULA.sub(_guard_piece, text)
    if text.startswith(FORMULA_STARTS) and not _SAFE_SIGNED.fullmatch(text):
        return "'" + text
    return text


def csp_source(text: str) -> str:
    """The Content-Security-Policy source that allows exactly this inline script or style
    (its SHA-256): a page pdn writes runs and styles nothing else, whatever a file held.

    >>> csp_source("")
    "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
    """
    import base64
    import hashlib

    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"
