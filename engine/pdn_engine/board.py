"""Board geometry: square numbers, algebraic names and the tables the move generator uses.

Three layouts (``Variant.layout``), all numbered the same way: numeric square 1 is the top-left
playing square seen from White, numbers run row by row, left to right, so Black starts on the low
numbers and White on the high ones.

* ``"diagonal"``: the dark squares, a1 dark (English, Russian, International...). 1 = b8 on 8x8,
  b10 on 10x10; 32 = g1.
* ``"mirrored"``: the dark squares, h1 dark and a1 light (Italian and Spanish, whose federations
  set the board so that each player has a dark square in the bottom-right corner). 1 = a8,
  4 = g8, 5 = b7, ... 29 = b1, 32 = h1: the FID numbering, the one Italian PDN files use.
* ``"orthogonal"``: all 64 squares, pieces move along rows and columns (Turkish). 1 = a8,
  8 = h8, 9 = a7, ... 57 = a1, 64 = h1; Black starts on 9-24, White on 41-56.

One exception to the numbering, ``numbering="bottom-right"`` (Spanish): the federation numbers
from White's side, 1 = the bottom-right playing square (h1), right to left, row by row upward, to
32 = a8; White starts on 1-12. It is the usual numbering turned by 180 degrees (33 - n); only the
number <-> square tables change, the geometry and the bit layout are those of the layout.

Inside the engine a square is a bit in an integer. The bit layout is *padded*: unused ("ghost")
bits are inserted (after every two rows of a diagonal board, after every row of the orthogonal
one) so that each of the four directions is one fixed offset with no wrap-around from one edge to
the other. Shifting a whole bitboard by an offset therefore moves every piece one square at once.
On diagonal boards the directions are the diagonals; on the orthogonal board they are up, left,
right, down. Either way ``3 - d`` is the opposite of direction ``d``.

>>> b = board_for(8, 8)
>>> b.algebraic(1), b.algebraic(32), b.square_of("c3")
('b8', 'g1', 22)
>>> m = board_for(8, 8, "mirrored")
>>> m.algebraic(1), m.algebraic(21), m.algebraic(32)
('a8', 'b3', 'h1')
>>> t = board_for(8, 8, "orthogonal")
>>> t.squares, t.algebraic(1), t.algebraic(64), t.square_of("a1")
(64, 'a8', 'h1', 57)
"""

from __future__ import annotations

import csv
import functools
import io
import pkgutil

from .variants import Variant

#: Direction indices on diagonal boards: 0 up-left, 1 up-right, 2 down-left, 3 down-right ("up" =
#: towards square 1, White's forward direction). ``3 - d`` is the opposite direction.
UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = 0, 1, 2, 3
#: Direction indices on the orthogonal board; ``3 - d`` is again the opposite.
UP, LEFT, RIGHT, DOWN = 0, 1, 2, 3
_DELTAS = ((-1, -1), (1, -1), (-1, 1), (1, 1))  # (column, row) change, row 0 at the top
_ORTHOGONAL_DELTAS = ((0, -1), (-1, 0), (1, 0), (0, 1))
#: The layouts a :class:`Board` can have (see the module docstring).
LAYOUTS = ("diagonal", "mirrored", "orthogonal")


@functools.cache
def _square_map(width: int, height: int) -> dict[int, str] | None:
    """The shipped numeric -> algebraic table for a board size, if there is one."""
    # pkgutil rather than importlib.resources, which costs a command's start-up more than all
    # of this module (it loads tempfile and zipfile); it reads from a zip archive too.
    try:
        data = pkgutil.get_data("pdn_engine", f"data/square_map_{width}x{height}.csv")
    except OSError:  # no table for this size
        return None
    if data is None:
        return None
    rows = csv.DictReader(io.StringIO(data.decode("utf-8")))
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
        "deltas",
        "forward",
        "height",
        "index",
        "layout",
        "line_ray_table",
        "mask",
        "n",
        "offsets",
        "ray_table",
        "reverse",
        "square_of_index",
        "squares",
        "step_table",
        "top_row",
        "width",
    )

    def __reduce__(self) -> tuple[object, tuple[int, int, str, str]]:
        # Unpickled as the shared board of its size, not a second one (and the same way in
        # the compiled build, whose default would call the constructor with no arguments).
        numbering = "bottom-right" if self.reverse else "top-left"
        return board_for, (self.width, self.height, self.layout, numbering)

    def __init__(
        self, width: int, height: int, layout: str = "diagonal", numbering: str = "top-left"
    ) -> None:
        if width % 2 or height % 2 or width < 4 or height < 4:
            raise ValueError(f"unsupported board size {width}x{height}")
        if layout not in LAYOUTS:
            raise ValueError(f"unknown board layout {layout!r}")
        if numbering not in ("top-left", "bottom-right"):
            raise ValueError(f"unknown square numbering {numbering!r}")
        self.reverse = numbering == "bottom-right"
        self.width = width
        self.height = height
        self.layout = layout
        orthogonal = layout == "orthogonal"
        # n: playing squares per row; the ghost bits make every direction one fixed offset.
        n = width if orthogonal else width // 2
        self.n = n
        self.squares = n * height
        if orthogonal:
            self.offsets = (-(n + 1), -1, 1, n + 1)
            self.deltas = _ORTHOGONAL_DELTAS
            self.forward: tuple[tuple[int, ...], tuple[int, ...]] = ((DOWN,), (UP,))
        else:
            self.offsets = (-(n + 1), -n, n, n + 1)
            self.deltas = _DELTAS
            self.forward = ((DOWN_LEFT, DOWN_RIGHT), (UP_LEFT, UP_RIGHT))
        # Where the ghost bits go: after every row (orthogonal), after rows 1, 3, 5... (diagonal,
        # whose odd rows start on the first column), after rows 0, 2, 4... (mirrored).
        period = n + 1 if orthogonal else width
        shift = n if layout == "mirrored" else 0
        size = self.squares + self.squares // (n if orthogonal else width) + 2
        index = [0] * (self.squares + 1)
        bit = [0] * (self.squares + 1)
        square_of_index = [0] * size
        for square in range(1, self.squares + 1):
            i = self._order(square)
            p = i + (i // n if orthogonal else (i + shift) // period)
            index[square] = p
            bit[square] = 1 << p
            square_of_index[p] = square
        self.index = tuple(index)
        self.bit = tuple(bit)
        self.square_of_index = tuple(square_of_index)
        self.mask = sum(bit)
        rows = [self._order(s) // n for s in range(self.squares + 1)]
        self.top_row = sum(bit[s] for s in range(1, self.squares + 1) if rows[s] == 0)
        self.bottom_row = sum(bit[s] for s in range(1, self.squares + 1) if rows[s] == height - 1)

        names = [""] * (self.squares + 1)
        numbers: dict[str, int] = {}
        coords: dict[tuple[int, int], int] = {}
        for square in range(1, self.squares + 1):
            column, row = self._coords(square)
            coords[column, row] = square
            names[square] = f"{chr(ord('a') + column)}{height - row}"
        plain = layout == "diagonal" and not self.reverse
        shipped = _square_map(width, height) if plain else None
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
            for d, (dc, dr) in enumerate(self.deltas):
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
        # Frisian captures along rows and columns too: on a board of dark squares the next square
        # of a row is two columns on, of a column two rows on. Directions 4-7: up, left, right,
        # down (so 11 - d is the opposite). Not used on the orthogonal board, whose own four
        # directions are the lines.
        line_rays: list[tuple[tuple[int, ...], ...]] = [()] * size
        if not orthogonal:
            for square in range(1, self.squares + 1):
                column, row = self._coords(square)
                found = []
                for dc, dr in ((0, -2), (-2, 0), (2, 0), (0, 2)):
                    line: list[int] = []
                    c, r = column + dc, row + dr
                    while (c, r) in coords:
                        line.append(self.index[coords[c, r]])
                        c, r = c + dc, r + dr
                    found.append(tuple(line))
                line_rays[self.index[square]] = tuple(found)
        self.line_ray_table = tuple(line_rays)

    def _order(self, square: int) -> int:
        # 0-based place of a square in reading order (top-left first), whatever its number.
        return self.squares - square if self.reverse else square - 1

    def _coords(self, square: int) -> tuple[int, int]:
        row, j = divmod(self._order(square), self.n)
        if self.layout == "orthogonal":
            return j, row
        # Row 0 (the top, seen from White) starts on the second column when a1 is dark (the
        # height is even, so a1's colour decides the top-left corner's), on the first otherwise.
        first = row % 2 == 0 if self.layout == "diagonal" else row % 2 == 1
        return 2 * j + (1 if first else 0), row

    def __repr__(self) -> str:
        extra = "" if self.layout == "diagonal" else f", {self.layout!r}"
        if self.reverse:
            extra = f", {self.layout!r}, 'bottom-right'"
        return f"board_for({self.width}, {self.height}{extra})"

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
        if self.layout == "orthogonal":
            place = row * self.n + column
        elif (column + row) % 2 == (0 if self.layout == "diagonal" else 1):
            return None
        else:
            place = row * self.n + column // 2
        return self.squares - place if self.reverse else place + 1

    def algebraic(self, square: int) -> str:
        """The algebraic name of a square, White at the bottom (22 -> ``"c3"`` on 8x8)."""
        self._check(square)
        return self._names[square]

    def square_of(self, name: str) -> int | None:
        """The square number of an algebraic name (``"c3"`` -> 22 on 8x8), else ``None``."""
        return self._numbers.get(name.strip().lower())

    def neighbour(self, square: int, direction: int) -> int | None:
        """The next square from ``square`` in ``direction`` (an index above), or ``None``."""
        self._check(square)
        p = self.step_table[self.index[square]][direction]
        return self.square_of_index[p] if p >= 0 else None

    def direction(self, start: int, end: int) -> tuple[int, int] | None:
        """``(direction, distance)`` from ``start`` to ``end`` along a line, else ``None``.

        A line is a diagonal, or on the orthogonal board a row or a column.

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
        if self.layout == "orthogonal":
            if dc and dr:
                return None
        elif abs(dc) != abs(dr):
            return None
        unit = ((dc > 0) - (dc < 0), (dr > 0) - (dr < 0))
        return self.deltas.index(unit), max(abs(dc), abs(dr))

    def between(self, start: int, end: int) -> tuple[int, ...]:
        """The squares strictly between two squares on one line (empty if not on one)."""
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
def _board(width: int, height: int, layout: str, numbering: str) -> Board:
    return Board(width, height, layout, numbering)


def board_for(
    variant_or_width: Variant | int,
    height: int | None = None,
    layout: str = "diagonal",
    numbering: str = "top-left",
) -> Board:
    """The (shared) :class:`Board` of a variant, or of a ``width`` x ``height`` board.

    >>> from pdn.engine import INTERNATIONAL
    >>> board_for(INTERNATIONAL).squares
    50
    """
    if isinstance(variant_or_width, Variant):
        v = variant_or_width
        return _board(v.width, v.height, v.layout, v.numbering)
    size = variant_or_width if height is None else height
    return _board(variant_or_width, size, layout, numbering)


def square_name(square: int, variant: Variant, *, algebraic: bool | None = None) -> str:
    """A square as written: its number, or its algebraic name (by default on the variants whose
    notation is algebraic).

    >>> from pdn.engine import ENGLISH
    >>> square_name(22, ENGLISH), square_name(22, ENGLISH, algebraic=True)
    ('22', 'c3')
    """
    use_algebraic = variant.notation == "algebraic" if algebraic is None else algebraic
    return board_for(variant).algebraic(square) if use_algebraic else str(square)
