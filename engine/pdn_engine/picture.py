"""Drawing a position: one letter per square, and a self-contained SVG diagram.

The drawing lives in the engine, not in ``pdn``, so that :meth:`Position._repr_svg_` (what
Jupyter shows for a position) works without the engine importing ``pdn``; ``pdn.writing.diagram``
and
``pdn.view.viewer`` build on it.

Every board is drawn from :meth:`Board.coordinates`, so the 8x8, 10x10 and 12x12 boards of dark
squares, the mirrored Italian/Spanish boards and the orthogonal Turkish board all come out right.
Each piece is a ``<g class="piece" data-square="N" data-piece="b">`` (``b``/``w`` men, ``B``/``W``
kings), so that a test can read the board back from the picture.

>>> from pdn.engine import ENGLISH, Position
>>> letters(Position.start(ENGLISH))[:13]
'bbbbbbbbbbbb.'
>>> 'data-square="1" data-piece="b"' in svg_diagram(Position.start(ENGLISH))
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING

from .board import Board, board_for
from .variants import Color

if TYPE_CHECKING:  # position.py imports this module lazily, for _repr_svg_
    from .movegen import Move
    from .position import Position

__all__ = ["changes", "letter_at", "letters", "screen_cell", "svg_diagram"]

LIGHT, DARK = "#f0d9b5", "#b58863"
_ORTHOGONAL = "#dcb77a"  # Turkish boards are one colour: every square is played on
_MOVE = "#f2d649"
_MARK = "#e04b3c"
_ARROW = "#1d5fd0"
_PIECES = {Color.WHITE: ("#fbfbf6", "#333333"), Color.BLACK: ("#2e2e2e", "#000000")}
_KING_RING = {Color.WHITE: "#333333", Color.BLACK: "#e8e8e8"}


def letter_at(position: Position, bit: int) -> str:
    """The letter of what stands on the square of ``bit`` (its ``Board.bit``): ``b``/``w``
    men, ``B``/``W`` kings, ``.`` empty."""
    if bit & position.black:
        letter = "b"
    elif bit & position.white:
        letter = "w"
    else:
        return "."
    return letter.upper() if bit & position.kings else letter


def letters(position: Position) -> str:
    """One character per square, square 1 first: ``b``/``w`` men, ``B``/``W`` kings, ``.``."""
    bits = board_for(position.variant).bit
    return "".join(letter_at(position, bits[square]) for square in range(1, len(bits)))


def changes(before: Position, after: Position) -> list[tuple[int, str]]:
    """``(square, letter after)`` for every square whose content differs, in square order:
    what a move (or a setup) did to the board.

    >>> from pdn.engine import ENGLISH, Position
    >>> start = Position.start(ENGLISH)
    >>> changes(start, start.play(start.legal_moves()[0]))
    [(9, '.'), (13, 'b')]
    """
    board = board_for(after.variant)
    differ = (
        (before.black ^ after.black) | (before.white ^ after.white) | (before.kings ^ after.kings)
    )
    out = []
    while differ:
        low = differ & -differ
        out.append((board.square_of_index[low.bit_length() - 1], letter_at(after, low)))
        differ ^= low
    out.sort()
    return out


def screen_cell(board: Board, square: int, flip: bool = False) -> tuple[int, int]:
    """``(column, row)`` of a square on the screen, row 0 at the top; ``flip`` turns the board
    round (Black at the bottom)."""
    column, row = board.coordinates(square)
    if flip:
        return board.width - 1 - column, board.height - 1 - row
    return column, row


# What XML 1.0 allows in no form, not even as a character reference: a document holding one is
# not well-formed (parsers and cairosvg refuse it).  C0 controls but tab, line feed and carriage
# return, the surrogates (lone ones: a str holds no pairs) and the noncharacters U+FFFE, U+FFFF.
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def xml_text(text: str) -> str:
    """``text`` escaped for XML (content or a quoted attribute), each character XML 1.0 does not
    allow written visibly, as ``\\uNNNN`` (``\\xNN`` for a control), so the SVG stays well-formed.

    >>> xml_text("A<\\uffffB\\x01")
    'A&lt;\\\\uffffB\\\\x01'
    """
    return escape(_NOT_XML.sub(_visible, text))


def svg_diagram(
    position: Position,
    *,
    size: int = 360,
    flip: bool = False,
    numbers: bool = True,
    coordinates: bool = True,
    move: Move | None = None,
    marks: Iterable[int] = (),
    caption: str | None = None,
) -> str:
    """A standalone SVG diagram (no external resources) of ``position``.

    ``size`` is the width of the board in pixels; ``flip`` puts Black at the bottom;
    ``numbers`` writes the square numbers, ``coordinates`` the files and ranks around the board.
    ``move`` (the move that led here) is shown by colouring its first and last squares, an
    arrow along its path and a cross on each captured square; ``marks`` are squares to outline
    in red (an illegal move's squares, say). The side to move is a disc beside the board, on
    that side's edge. ``caption`` is written under the board (escaped).
    """
    board = board_for(position.variant)
    cell = size / board.width
    left = cell * 0.45 if coordinates else 0.0
    right = cell * 0.55  # the side-to-move disc
    bottom = cell * 0.45 if coordinates else 0.0
    below = cell * 0.6 if caption else 0.0
    width = left + size + right
    height = cell * board.height + bottom + below
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="pdn-diagram" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.1f} {height:.1f}" '
        f'font-family="sans-serif">',
        f"<title>{escape(position.fen())}</title>",
    ]
    orthogonal = board.layout == "orthogonal"
    top = board.height * cell
    parts.append(
        f'<rect x="{left:.1f}" y="0" width="{size:.1f}" height="{top:.1f}" '
        f'fill="{_ORTHOGONAL if orthogonal else LIGHT}"/>'
    )
    moved = {move.start, move.end} if move is not None else set()
    centres: dict[int, tuple[float, float]] = {}
    for square in range(1, board.squares + 1):
        column, row = screen_cell(board, square, flip)
        x, y = left + column * cell, row * cell
        centres[square] = (x + cell / 2, y + cell / 2)
        fill = _MOVE if square in moved else (_ORTHOGONAL if orthogonal else DARK)
        edge = ' stroke="#8a6a3a" stroke-width="0.6"' if orthogonal else ""
        parts.append(
            f'<rect class="square" data-square="{square}" x="{x:.1f}" y="{y:.1f}" '
            f'width="{cell:.1f}" height="{cell:.1f}" fill="{fill}"{edge}/>'
        )
        if numbers:
            parts.append(
                f'<text x="{x + cell * 0.06:.1f}" y="{y + cell * 0.24:.1f}" '
                f'font-size="{cell * 0.21:.1f}" fill="#fff8e8" fill-opacity="0.9">{square}</text>'
            )
    for square in marks:
        if 1 <= square <= board.squares:
            cx, cy = centres[square]
            parts.append(
                f'<rect class="mark" x="{cx - cell * 0.47:.1f}" y="{cy - cell * 0.47:.1f}" '
                f'width="{cell * 0.94:.1f}" height="{cell * 0.94:.1f}" fill="none" '
                f'stroke="{_MARK}" stroke-width="{cell * 0.07:.1f}"/>'
            )
    for square, letter in enumerate(letters(position), start=1):
        if letter != ".":
            parts.append(_piece(square, letter, centres[square], cell))
    if move is not None:
        parts.extend(_move_marks(move, centres, cell))
    if coordinates:
        parts.extend(_coordinates(board, flip, left, cell))
    mover_at_bottom = (position.turn is Color.WHITE) != flip
    fill, stroke = _PIECES[position.turn]
    disc_y = top - cell * 0.3 if mover_at_bottom else cell * 0.3
    parts.append(
        f'<circle class="turn" data-turn="{position.turn.letter}" '
        f'cx="{left + size + right / 2:.1f}" cy="{disc_y:.1f}" r="{cell * 0.18:.1f}" '
        f'fill="{fill}" stroke="{stroke}" '
        f'stroke-width="1"><title>{position.turn.label} to move</title></circle>'
    )
    if caption:
        parts.append(
            f'<text class="caption" x="{left + size / 2:.1f}" y="{top + bottom + below * 0.7:.1f}" '
            f'font-size="{cell * 0.3:.1f}" text-anchor="middle" fill="#222">'
            f"{xml_text(caption)}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _piece(square: int, letter: str, centre: tuple[float, float], cell: float) -> str:
    color = Color.WHITE if letter.lower() == "w" else Color.BLACK
    fill, stroke = _PIECES[color]
    cx, cy = centre
    r = cell * 0.38
    shapes = [
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{cell * 0.04:.1f}"/>'
    ]
    if letter.isupper():
        shapes.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.5:.1f}" fill="none" '
            f'stroke="{_KING_RING[color]}" stroke-width="{cell * 0.06:.1f}"/>'
        )
    return (
        f'<g class="piece" data-square="{square}" data-piece="{letter}">' + "".join(shapes) + "</g>"
    )


def _move_marks(move: Move, centres: dict[int, tuple[float, float]], cell: float) -> list[str]:
    out = []
    for square in move.captures:
        cx, cy = centres[square]
        d = cell * 0.22
        out.append(
            f'<path class="captured" data-square="{square}" d="M{cx - d:.1f},{cy - d:.1f} '
            f'L{cx + d:.1f},{cy + d:.1f} M{cx - d:.1f},{cy + d:.1f} L{cx + d:.1f},{cy - d:.1f}" '
            f'stroke="{_MARK}" stroke-width="{cell * 0.08:.1f}" stroke-linecap="round"/>'
        )
    points = [centres[square] for square in move.path]
    out.append(
        '<polyline class="arrow" points="'
        + " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        + f'" fill="none" stroke="{_ARROW}" stroke-opacity="0.75" '
        f'stroke-width="{cell * 0.09:.1f}" stroke-linejoin="round"/>'
    )
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = max(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, 1e-6)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = cell * 0.3
    bx, by = x1 - ux * head, y1 - uy * head
    px, py = -uy * head * 0.55, ux * head * 0.55
    out.append(
        f'<polygon class="arrow-head" points="{x1:.1f},{y1:.1f} {bx + px:.1f},{by + py:.1f} '
        f'{bx - px:.1f},{by - py:.1f}" fill="{_ARROW}" fill-opacity="0.85"/>'
    )
    return out


def _coordinates(board: Board, flip: bool, left: float, cell: float) -> list[str]:
    out = []
    top = board.height * cell
    for column in range(board.width):
        file = chr(ord("a") + (board.width - 1 - column if flip else column))
        out.append(
            f'<text x="{left + (column + 0.5) * cell:.1f}" y="{top + cell * 0.34:.1f}" '
            f'font-size="{cell * 0.26:.1f}" text-anchor="middle" fill="#444">{file}</text>'
        )
    for row in range(board.height):
        rank = row + 1 if flip else board.height - row
        out.append(
            f'<text x="{left * 0.5:.1f}" y="{(row + 0.5) * cell + cell * 0.09:.1f}" '
            f'font-size="{cell * 0.26:.1f}" text-anchor="middle" fill="#444">{rank}</text>'
        )
    return out
