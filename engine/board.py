"""Board geometry: square numbers, algebraic names and the tables the move generator uses.

Numeric square 1 is the top-left playing square seen from White (b8 on 8x8, b10 on 10x10);
numbers run row by row, left to right, so Black starts on the low numbers. The bottom-left
corner (a1) is a playing square.

Inside the engine a square is a bit in an integer. The bit layout is *padded*: after every two
rows one unused ("ghost") bit is inserted, which makes the four diagonal neighbours of every
square sit at the same four offsets ``-(n+1), -n, +n, +(n+1)`` (``n`` = squares per row) with no
wrap-around from one edge to the other. Shifting a whole bitboard by an offset therefore moves
every piece one square along a diagonal at once.

>>> b = board_for(8, 8)
>>> b.algebraic(1), b.algebraic(32), b.square_of("c3")
('b8', 'g1', 22)
"""

from __future__ import annotations

import csv
import functools
import io
from importlib import resources

from .variants import Variant

#: Direction indices: 0 up-left, 1 up-right, 2 down-left, 3 down-right ("up" = towards square 1,
#: White's forward direction). ``3 - d`` is the opposite direction.
UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = 0, 1, 2, 3
DIRECTIONS = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)
_DELTAS = ((-1, -1), (1, -1), (-1, 1), (1, 1))  # (column, row) change, row 0 at the top


@functools.cache
def _square_map(width: int, height: int) -> dict[int, str] | None:
    """The shipped numeric -> algebraic table for a board size, if there is one."""
    name = f"square_map_{width}x{height}.csv"
    source = resources.files("pdn.engine").joinpath("data").joinpath(name)
    if not source.is_file():
        return None
    rows = csv.DictReader(io.StringIO(source.read_text(encoding="utf-8")))
    return {int(row["numeric_square"]): row["algebraic_white_at_bottom"] for row in rows}


class Board:
    """Geometry of one board size. Get one with :func:`board_for`; never build two for one size.

    Public, 1-based: :attr:`squares`, :meth:`algebraic`, :meth:`square_of`, :meth:`coordinates`,
    :meth:`square_at`, :meth:`direction`, :meth:`between`, :meth:`neighbour`. The attributes ending
    in ``_table`` or starting with ``bit``/``index`` are the padded-bitboard tables of the engine.
    """

    __slots__ = (
        "_names",
        "_numbers",
        "bit",
        "bottom_row",
        "height",
        "index",
        "mask",
        "n",
        "offsets",
        "ray_table",
        "square_of_index",
        "squares",
        "step_table",
        "top_row",
        "width",
    )

    def __init__(self, width: int, height: int) -> None:
        if width % 2 or height % 2 or width < 4 or height < 4:
            raise ValueError(f"unsupported board size {width}x{height}")
        self.width = width
        self.height = height
        n = width // 2
        self.n = n
        self.squares = n * height
        self.offsets = (-(n + 1), -n, n, n + 1)
        size = self.squares + self.squares // width + 2
        index = [0] * (self.squares + 1)
        bit = [0] * (self.squares + 1)
        square_of_index = [0] * size
        for square in range(1, self.squares + 1):
            i = square - 1
            p = i + i // width
            index[square] = p
            bit[square] = 1 << p
            square_of_index[p] = square
        self.index = tuple(index)
        self.bit = tuple(bit)
        self.square_of_index = tuple(square_of_index)
        self.mask = sum(bit)
        self.top_row = sum(bit[1 : n + 1])
        self.bottom_row = sum(bit[self.squares - n + 1 :])

        names = [""] * (self.squares + 1)
        numbers: dict[str, int] = {}
        coords: dict[tuple[int, int], int] = {}
        for square in range(1, self.squares + 1):
            column, row = self._coords(square)
            coords[column, row] = square
            names[square] = f"{chr(ord('a') + column)}{height - row}"
        shipped = _square_map(width, height)
        if shipped is not None and any(shipped[s] != names[s] for s in shipped):
            raise RuntimeError(f"engine/data square map for {width}x{height} disagrees")
        for square in range(1, self.squares + 1):
            numbers[names[square]] = square
        self._names = tuple(names)
        self._numbers = numbers

        # Per padded index: the neighbour in each direction (-1 off the board) and the whole ray.
        steps: list[tuple[int, int, int, int]] = [(-1, -1, -1, -1)] * size
        rays: list[tuple[tuple[int, ...], ...]] = [()] * size
        for square in range(1, self.squares + 1):
            column, row = self._coords(square)
            p = self.index[square]
            neighbours = []
            ray_list = []
            for d, (dc, dr) in enumerate(_DELTAS):
                ray: list[int] = []
                c, r = column + dc, row + dr
                while (c, r) in coords:
                    ray.append(self.index[coords[c, r]])
                    c, r = c + dc, r + dr
                if ray and ray[0] != p + self.offsets[d]:
                    raise RuntimeError("padded layout broken")  # a bug here breaks every shift
                neighbours.append(ray[0] if ray else -1)
                ray_list.append(tuple(ray))
            steps[p] = (neighbours[0], neighbours[1], neighbours[2], neighbours[3])
            rays[p] = tuple(ray_list)
        self.step_table = tuple(steps)
        self.ray_table = tuple(rays)

    def _coords(self, square: int) -> tuple[int, int]:
        i = square - 1
        row, j = divmod(i, self.n)
        # Row 0 (the top, seen from White) starts on the second column because a1 is dark.
        return 2 * j + (1 if row % 2 == 0 else 0), row

    def __repr__(self) -> str:
        return f"board_for({self.width}, {self.height})"

    def coordinates(self, square: int) -> tuple[int, int]:
        """``(column, row)`` of a square, 0-based, row 0 at the top as seen from White.

        >>> board_for(8, 8).coordinates(1)
        (1, 0)
        """
        self._check(square)
        return self._coords(square)

    def square_at(self, column: int, row: int) -> int | None:
        """The square at 0-based ``(column, row)``; ``None`` for a light or off-board square."""
        if not (0 <= column < self.width and 0 <= row < self.height):
            return None
        if (column + row) % 2 == 0:
            return None
        return row * self.n + column // 2 + 1

    def algebraic(self, square: int) -> str:
        """The algebraic name of a square, White at the bottom (22 -> ``"c3"`` on 8x8)."""
        self._check(square)
        return self._names[square]

    def square_of(self, name: str) -> int | None:
        """The square number of an algebraic name (``"c3"`` -> 22 on 8x8), else ``None``."""
        return self._numbers.get(name.strip().lower())

    def neighbour(self, square: int, direction: int) -> int | None:
        """The next square from ``square`` in ``direction`` (:data:`DIRECTIONS`), or ``None``."""
        self._check(square)
        p = self.step_table[self.index[square]][direction]
        return self.square_of_index[p] if p >= 0 else None

    def direction(self, start: int, end: int) -> tuple[int, int] | None:
        """``(direction, distance)`` from ``start`` to ``end`` along a diagonal, else ``None``.

        >>> board_for(8, 8).direction(22, 13)   # c3 -> a5: up-left, two squares
        (0, 2)
        """
        self._check(start)
        self._check(end)
        if start == end:
            return None
        c1, r1 = self._coords(start)
        c2, r2 = self._coords(end)
        dc, dr = c2 - c1, r2 - r1
        if abs(dc) != abs(dr):
            return None
        return _DELTAS.index((1 if dc > 0 else -1, 1 if dr > 0 else -1)), abs(dc)

    def between(self, start: int, end: int) -> tuple[int, ...]:
        """The squares strictly between two squares on one diagonal (empty if not on one)."""
        found = self.direction(start, end)
        if found is None:
            return ()
        direction, distance = found
        ray = self.ray_table[self.index[start]][direction]
        return tuple(self.square_of_index[p] for p in ray[: distance - 1])

    def _check(self, square: int) -> None:
        if not 1 <= square <= self.squares:
            raise ValueError(f"square {square} is not on the {self.width}x{self.height} board")


@functools.cache
def _board(width: int, height: int) -> Board:
    return Board(width, height)


def board_for(variant_or_width: Variant | int, height: int | None = None) -> Board:
    """The (shared) :class:`Board` of a variant, or of a ``width`` x ``height`` board.

    >>> from pdn.engine.variants import INTERNATIONAL
    >>> board_for(INTERNATIONAL).squares
    50
    """
    if isinstance(variant_or_width, Variant):
        return _board(variant_or_width.width, variant_or_width.height)
    return _board(variant_or_width, variant_or_width if height is None else height)
