"""Pictures of a position: a text board for the terminal and a self-contained SVG diagram.

Both are drawn with White at the bottom, as the square maps of every variant are given.

>>> from pdn.engine import ENGLISH, Position
>>> print(text_board(Position.start(ENGLISH)).splitlines()[1])
8    b   b   b   b   1-4
"""

from __future__ import annotations

from pdn.engine import Color, Position, board_for

_LETTERS = "abcdefghijkl"


def _cells(position: Position) -> dict[tuple[int, int], tuple[int, str]]:
    """(row from the top, column from the left) -> (square number, piece letter or '')."""
    board = board_for(position.variant)
    cells: dict[tuple[int, int], tuple[int, str]] = {}
    height = position.variant.height
    for square in range(1, board.squares + 1):
        name = board.algebraic(square)
        column = _LETTERS.index(name[0])
        row = height - int(name[1:])
        piece = position.piece_at(square)
        letter = ""
        if piece is not None:
            letter = "w" if piece.color is Color.WHITE else "b"
            if piece.king:
                letter = letter.upper()
        cells[(row, column)] = (square, letter)
    return cells


def text_board(position: Position) -> str:
    """The position as text: ``b``/``w`` men, ``B``/``W`` kings, ``.`` empty playing squares,
    with ranks, files, the square numbers of each row and the side to move.

    """
    variant = position.variant
    cells = _cells(position)
    lines = ["   " + " ".join(_LETTERS[: variant.width])]
    for row in range(variant.height):
        marks = []
        numbers = []
        for column in range(variant.width):
            cell = cells.get((row, column))
            if cell is None:
                marks.append(" ")
            else:
                marks.append(cell[1] or ".")
                numbers.append(cell[0])
        rank = variant.height - row
        span = f"{min(numbers)}-{max(numbers)}" if numbers else ""
        lines.append(f"{rank:<2} " + " ".join(marks) + f"   {span}")
    mover = "Black" if position.turn is Color.BLACK else "White"
    lines.append(f"{mover} to move   FEN {position.fen()}")
    return "\n".join(lines)


def svg_board(position: Position, *, size: int = 360, numbers: bool = True) -> str:
    """A standalone SVG diagram of the position (no external resources)."""
    variant = position.variant
    cell = size / variant.width
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}">',
        f'<rect width="{size}" height="{size}" fill="#f0d9b5"/>',
    ]
    for (row, column), (square, letter) in sorted(_cells(position).items()):
        x, y = column * cell, row * cell
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" fill="#8b5a2b"/>'
        )
        if numbers:
            parts.append(
                f'<text x="{x + 2:.1f}" y="{y + cell * 0.22:.1f}" font-size="{cell * 0.2:.1f}" '
                f'font-family="sans-serif" fill="#f0d9b5">{square}</text>'
            )
        if letter:
            fill, stroke = ("#fafafa", "#333") if letter.lower() == "w" else ("#c0392b", "#222")
            cx, cy, r = x + cell / 2, y + cell / 2, cell * 0.38
            parts.append(
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="{cell * 0.04:.1f}"/>'
            )
            if letter.isupper():
                parts.append(
                    f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.45:.1f}" fill="none" '
                    f'stroke="{stroke}" stroke-width="{cell * 0.05:.1f}"/>'
                )
    parts.append("</svg>")
    return "\n".join(parts)
