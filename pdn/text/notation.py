"""Written moves: from the text of a PDN move to square numbers on a board, and back.

The reader keeps a move exactly as written (``"26x17x10x1"``, ``"1- 6"``, ``"c3:e5"``, ``"a3b4"``);
this module is where that text meets a board. It knows square names, not rules.

>>> from pdn.engine import ENGLISH
>>> parse_move("9x18x27").squares
('9', '18', '27')
>>> resolve_squares(parse_move("9x18x27"), ENGLISH)
(9, 18, 27)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pdn.engine import (
    CAPTURE_SEPARATORS,
    Move,
    Variant,
    board_for,
    move_text,
    pickle_by_fields,
)

# One square: a number (leading zeros allowed), or a letter and a number for boards up to 12x12.
_SQUARE = r"(?:\d{1,2}|[a-lA-L](?:1[0-2]|[1-9]))"
_SEPARATOR = r"\s*[-xX:]\s*"
_MOVE = re.compile(rf"({_SQUARE})((?:{_SEPARATOR}{_SQUARE})+)\Z")
_TAIL = re.compile(rf"{_SEPARATOR}({_SQUARE})")
_SEP_ONLY = re.compile(r"[-xX:]")
# Algebraic squares written with no separator at all (``a3b4``, ``c3d4e5``).
_GLUED_ALGEBRAIC = re.compile(r"(?:[a-lA-L](?:1[0-2]|[1-9])){2,}\Z")
_ALGEBRAIC_SQUARE = re.compile(r"[a-lA-L](?:1[0-2]|[1-9])")
# Four digits with no separator (``3228``): two two-digit squares.
_GLUED_NUMERIC = re.compile(r"(\d\d)(\d\d)\Z")


@dataclass(frozen=True, slots=True)
class WrittenMove:
    """A move's text split into its squares (as written) and separators."""

    text: str
    squares: tuple[str, ...]
    separators: tuple[str, ...]

    @property
    def capture_written(self) -> bool:
        """Whether the writer marked the move as a capture (``x`` or ``:``)."""
        return any(sep in "xX:" for sep in self.separators)

    @property
    def algebraic(self) -> bool:
        """Whether the squares are written as letter+number."""
        return bool(self.squares) and self.squares[0][0].isalpha()


pickle_by_fields(WrittenMove)


class NotationError(ValueError):
    """A move text that names no squares, or a square that is not on the board."""


def parse_move(text: str) -> WrittenMove:
    """Split a written move into squares and separators.

    Spaces around separators, upper-case letters, ``X`` and leading zeros are accepted as
    real files write them; the text itself is kept unchanged on the result.

    >>> parse_move("1- 6").squares
    ('1', '6')
    >>> parse_move("a3b4").squares
    ('a3', 'b4')
    """
    stripped = text.strip()
    match = _MOVE.match(stripped)
    if match:
        first, tail = match.groups()
        rest = tuple(m.group(1) for m in _TAIL.finditer(tail))
        seps = tuple(s.strip() for s in _SEP_ONLY.findall(tail))
        return WrittenMove(text, (first, *rest), seps)
    if _GLUED_ALGEBRAIC.match(stripped):
        squares = tuple(_ALGEBRAIC_SQUARE.findall(stripped))
        return WrittenMove(text, squares, ("",) * (len(squares) - 1))
    glued = _GLUED_NUMERIC.match(stripped)
    if glued:
        return WrittenMove(text, glued.groups(), ("",))
    raise NotationError(f"{text!r} is not a move")


def resolve_squares(written: WrittenMove, variant: Variant) -> tuple[int, ...]:
    """The 1-based square numbers of a written move on the variant's board.

    Raises :class:`NotationError` naming the first square that is not on the board.

    >>> from pdn.engine import RUSSIAN
    >>> resolve_squares(parse_move("c3-d4"), RUSSIAN)
    (22, 18)
    """
    board = board_for(variant)
    numbers: list[int] = []
    for name in written.squares:
        if name[0].isalpha():
            number = board.square_of(name.lower())
        else:
            value = int(name)
            number = value if 1 <= value <= board.squares else None
        if number is None:
            raise NotationError(f"square {name} is not on the {variant.title} board")
        numbers.append(number)
    return tuple(numbers)


def capture_separator(variant: Variant, chosen: str | None = None) -> str:
    """The separator captures are written with: ``chosen``, else the variant's PDN 3.0 writing
    form (its GameType table entry: ``:`` for Russian, ``x`` elsewhere), which every rewriting
    of moves uses, so that a variant's captures never change separator between modes.

    >>> from pdn.engine import ENGLISH, RUSSIAN
    >>> capture_separator(ENGLISH), capture_separator(RUSSIAN), capture_separator(RUSSIAN, "x")
    ('x', ':', 'x')
    """
    if chosen is None:
        return variant.capture_separator
    if chosen not in CAPTURE_SEPARATORS:
        raise ValueError(f"capture separator {chosen!r}: expected one of {CAPTURE_SEPARATORS}")
    return chosen


def move_texts(
    moves: Sequence[Move],
    variant: Variant,
    *,
    full: bool = False,
    algebraic: bool | None = None,
    separator: str | None = None,
) -> list[str]:
    """Write several legal moves of one position, short unless short would be ambiguous.

    A short capture ``27x11`` that fits two captures taking different pieces is written with its
    full path (PDN 3.0 asks for that); with ``full`` every capture is written in full.

    >>> from pdn.engine import ENGLISH, Position
    >>> move_texts(Position.from_fen("W:W27:B15,16,23,24", ENGLISH).legal_moves(), ENGLISH)
    ['27x18x11', '27x20x11']
    """
    captured: dict[tuple[int, int], set[frozenset[int]]] = {}
    for move in moves:
        captured.setdefault((move.start, move.end), set()).add(frozenset(move.captures))
    return [
        move_text(
            move,
            variant,
            full=full or len(captured[(move.start, move.end)]) > 1,
            algebraic=algebraic,
            separator=separator,
        )
        for move in moves
    ]
