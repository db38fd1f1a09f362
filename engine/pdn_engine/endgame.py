"""Endgame tables: win, draw or loss with the distance to the end, by retrograde analysis.

A table holds every position of one *material*: the side to move's men and kings against the
other side's, named ``KKvK`` (two kings to move against a king), ``KMvM``... One table holds
both colours: a position with White to move is looked up turned by 180 degrees with the
colours swapped, which the rules of every variant but Frisian (whose king-move count is part
of a position) leave unchanged, so a table is stored as Black to move.

The rules are the engine's own (:meth:`~.movegen.Rules.deltas`: flying kings, majority
capture, crowning), and so is the end: a side with no legal move (no piece left, or every
piece blocked) has lost. Draws by repetition or by a count of moves are not rules the tables
know: a position is a draw when neither side can force the end.

A position's value is from the side to move's view, with the distance in plies to the end
under best play (the winner the quickest, the loser the longest): a win is an odd number of
plies away, a loss an even one (``0``: no legal move now). On disk a table is a header (a
line naming the format, a JSON line with the variant, the material, the counts and a CRC-32
of the data) and one cell per index, ``distance + 1`` (``0`` a draw, the top value no
position); one byte a cell when every distance fits, two otherwise.

The index: the side to move's men, the other's men, the side to move's kings, the other's
kings, each a combination of the squares it may stand on (a man never on its crowning row),
ranked in colexicographic order. Men of the two sides, or kings, on one square leave an
index that is no position (about a tenth of a table), which costs a little room and spares
a ranking of the free squares.

>>> from pdn_engine import ENGLISH, Position
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     built = build_tables(ENGLISH, materials_up_to(2), folder)
...     tables = EndgameTables(folder, ENGLISH)
...     tables.probe(Position.from_fen("B:WK32:BK1", ENGLISH))
Probe(result='draw', distance=None)
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .board import board_for
from .movegen import Move, rules_for
from .position import Position
from .variants import Color, Variant

__all__ = [
    "FORMAT_VERSION",
    "EndgameTables",
    "Material",
    "Probe",
    "TableStats",
    "build_tables",
    "materials_up_to",
    "positions_to_build",
]

#: The version of the file format; a table of another version is built again.
FORMAT_VERSION = 1
_MAGIC = b"PDN-ENDGAME\n"
_SUFFIX = ".pdntb"
#: A position as the build's inner loops see it: (mover's pieces, other's pieces, kings).
_Bits = tuple[int, int, int]


# ----------------------------------------------------------------------------- material


@dataclass(frozen=True, slots=True, order=True)
class Material:
    """The pieces of a table: the side to move's men and kings, then the other side's."""

    men: int
    kings: int
    other_men: int
    other_kings: int

    @property
    def pieces(self) -> int:
        """The number of pieces on the board."""
        return self.men + self.kings + self.other_men + self.other_kings

    @property
    def name(self) -> str:
        """``"KKvK"``: kings then men, the side to move first.

        >>> Material(1, 2, 0, 1).name
        'KKMvK'
        """
        mover = "K" * self.kings + "M" * self.men
        other = "K" * self.other_kings + "M" * self.other_men
        return f"{mover}v{other}"

    def swapped(self) -> Material:
        """The same pieces with the other side to move."""
        return Material(self.other_men, self.other_kings, self.men, self.kings)

    @classmethod
    def parse(cls, name: str) -> Material:
        """The material of a name such as ``"KKvK"`` (raises ``ValueError``)."""
        mover, sep, other = name.upper().partition("V")
        if not sep or not mover or not other or set(mover + other) - {"K", "M"}:
            raise ValueError(f"{name!r} is not a material such as KKvK or KMvM")
        return cls(mover.count("M"), mover.count("K"), other.count("M"), other.count("K"))


def materials_up_to(pieces: int) -> list[Material]:
    """Every material of 2 to ``pieces`` pieces, each side at least one, in build order.

    A table needs the tables its captures reach (fewer pieces) and its crownings reach (as many
    pieces, fewer men): the order is by pieces, then by men.

    >>> [m.name for m in materials_up_to(2)]
    ['KvK', 'KvM', 'MvK', 'MvM']
    """
    found = [
        Material(a, b, c, n - a - b - c)
        for n in range(2, pieces + 1)
        for a in range(n + 1)
        for b in range(n + 1 - a)
        for c in range(n + 1 - a - b)
        if a + b and n - a - b
    ]
    return sorted(found, key=_build_order)


def _build_order(material: Material) -> tuple[int, int, Material]:
    return (material.pieces, material.men + material.other_men, min(material, material.swapped()))


def needed_for(materials: Iterable[Material]) -> list[Material]:
    """The materials ``materials`` reach by captures and crownings, themselves included, in
    build order: what must be built to build them."""
    wanted: set[Material] = set()
    for material in materials:
        for side in _reachable(material.men, material.kings):
            for other in _reachable(material.other_men, material.other_kings):
                wanted.add(Material(*side, *other))
                wanted.add(Material(*other, *side))
    return sorted(wanted, key=_build_order)


def _reachable(men: int, kings: int) -> Iterator[tuple[int, int]]:
    # A side keeps at most its men, and at most its pieces; it never has none in a table.
    for m in range(men + 1):
        for k in range(men + kings - m + 1):
            if m + k:
                yield m, k


# ----------------------------------------------------------------------------- index


class _Group:
    """The combinations of ``count`` squares of a kind of piece, ranked: ``masks[rank]`` and
    ``rank[mask]``, and ``turned[mask]``: the rank of a mask seen from the other colour."""

    __slots__ = ("masks", "rank", "turned")

    def __init__(self, squares: list[int], count: int, turn: dict[int, int]) -> None:
        combos = itertools.combinations(squares, count)
        masks = [sum(c) for c in sorted(combos, key=lambda c: c[::-1])]  # colex order
        self.masks = masks
        self.rank = {mask: r for r, mask in enumerate(masks)}
        self.turned = {_turn_mask(mask, turn): r for r, mask in enumerate(masks)}


def _turn_mask(mask: int, turn: dict[int, int]) -> int:
    out = 0
    while mask:
        bit = mask & -mask
        mask ^= bit
        out |= turn[bit]
    return out


class _Layout:
    """A variant's index: the groups each table is made of, and the board turned round."""

    def __init__(self, variant: Variant) -> None:
        if variant.king_move_limit:
            raise ValueError(
                f"no endgame tables for {variant.title}: its king-move limit is part of a position"
            )
        board = board_for(variant)
        self.variant = variant
        self.rules = rules_for(variant)
        every = [board.bit[s] for s in range(1, board.squares + 1)]
        turn: dict[int, int] = {}
        for square in range(1, board.squares + 1):
            column, row = board.coordinates(square)
            other = board.square_at(board.width - 1 - column, board.height - 1 - row)
            assert other is not None
            turn[board.bit[square]] = board.bit[other]
        self.turn = turn
        # The side to move is Black as stored: its men never stand on its crowning row (the
        # bottom one), the other side's never on the top one.
        self.squares = {
            "men": [b for b in every if not b & board.bottom_row],
            "other_men": [b for b in every if not b & board.top_row],
            "kings": every,
        }
        self._groups: dict[tuple[str, int], _Group] = {}

    def group(self, kind: str, count: int) -> _Group:
        found = self._groups.get((kind, count))
        if found is None:
            squares = self.squares["kings" if kind == "other_kings" else kind]
            found = self._groups[kind, count] = _Group(squares, count, self.turn)
        return found

    def groups(self, material: Material) -> tuple[_Group, _Group, _Group, _Group]:
        """The groups of a table, in index order."""
        return (
            self.group("men", material.men),
            self.group("other_men", material.other_men),
            self.group("kings", material.kings),
            self.group("other_kings", material.other_kings),
        )

    def size(self, material: Material) -> int:
        """The number of indices of a table (positions and the few that are none)."""
        size = 1
        for group in self.groups(material):
            size *= len(group.masks)
        return size


@functools.cache
def _layout(variant: Variant) -> _Layout:
    return _Layout(variant)


def _material_of(own: int, opp: int, kings: int) -> Material:
    return Material(
        (own & ~kings).bit_count(),
        (own & kings).bit_count(),
        (opp & ~kings).bit_count(),
        (opp & kings).bit_count(),
    )


def position_index(position: Position) -> tuple[Material, int]:
    """The table and the index of a position (the side to move has at least one piece)."""
    layout = _layout(position.variant)
    if position.turn is Color.BLACK:
        own, opp, ranked = position.black, position.white, "rank"
    else:
        own, opp, ranked = position.white, position.black, "turned"
    kings = position.kings
    material = _material_of(own, opp, kings)
    g1, g2, g3, g4 = layout.groups(material)
    r1 = getattr(g1, ranked)[own & ~kings]
    r2 = getattr(g2, ranked)[opp & ~kings]
    r3 = getattr(g3, ranked)[own & kings]
    r4 = getattr(g4, ranked)[opp & kings]
    return material, ((r1 * len(g2.masks) + r2) * len(g3.masks) + r3) * len(g4.masks) + r4


def _positions(layout: _Layout, material: Material) -> Iterator[tuple[int, int, int, int]]:
    """(index, mover, other, kings) of every position of a table, Black to move, in order."""
    g1, g2, g3, g4 = layout.groups(material)
    n2, n3, n4 = len(g2.masks), len(g3.masks), len(g4.masks)
    for r1, m1 in enumerate(g1.masks):
        for r2, m2 in enumerate(g2.masks):
            if m1 & m2:
                continue
            men = m1 | m2
            base2 = (r1 * n2 + r2) * n3
            for r3, k1 in enumerate(g3.masks):
                if k1 & men:
                    continue
                taken = men | k1
                base3 = (base2 + r3) * n4
                for r4, k2 in enumerate(g4.masks):
                    if k2 & taken:
                        continue
                    yield base3 + r4, m1 | k1, m2 | k2, k1 | k2


# ----------------------------------------------------------------------------- tables on disk


@dataclass(frozen=True, slots=True)
class TableStats:
    """What a built table holds: its positions by value, and the longest distance."""

    material: Material
    positions: int
    wins: int
    draws: int
    losses: int
    longest: int
    #: Whether it was built now (False: found already built and verified).
    built: bool = True


class _Table:
    """One table in memory: its cells, and how wide each is."""

    __slots__ = ("cells", "none", "stats")

    def __init__(self, cells: array[int], stats: TableStats) -> None:
        self.cells = cells
        self.none = 0xFF if cells.itemsize == 1 else 0xFFFF
        self.stats = stats


def table_path(directory: str | os.PathLike[str], variant: Variant, material: Material) -> Path:
    """Where a table lives: ``DIRECTORY/VARIANT/KKvK.pdntb``."""
    return Path(directory) / variant.name / f"{material.name}{_SUFFIX}"


def _write(path: Path, variant: Variant, table: _Table) -> None:
    stats = table.stats
    data = table.cells.tobytes()
    header = {
        "format": FORMAT_VERSION,
        "variant": variant.name,
        "material": stats.material.name,
        "cell": table.cells.itemsize,
        "size": len(table.cells),
        "positions": stats.positions,
        "wins": stats.wins,
        "draws": stats.draws,
        "losses": stats.losses,
        "longest": stats.longest,
        "crc32": zlib.crc32(data),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(scratch, "wb") as out:
            out.write(_MAGIC)
            out.write(json.dumps(header, sort_keys=True).encode("ascii") + b"\n")
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(scratch, path)  # a table is there whole or not at all
    finally:
        scratch.unlink(missing_ok=True)


def _read(path: Path, variant: Variant, material: Material) -> _Table | None:
    """The table at ``path`` if it is whole and is the one asked for, else ``None``."""
    try:
        with open(path, "rb") as handle:
            if handle.readline() != _MAGIC:
                return None
            header = json.loads(handle.readline())
            data = handle.read()
    except (OSError, ValueError):
        return None
    size = _layout(variant).size(material)
    if not isinstance(header, dict) or header.get("cell") not in (1, 2):
        return None
    expected = {
        "format": FORMAT_VERSION,
        "variant": variant.name,
        "material": material.name,
        "size": size,
    }
    if any(header.get(key) != value for key, value in expected.items()):
        return None
    if len(data) != size * header["cell"] or zlib.crc32(data) != header.get("crc32"):
        return None
    cells = array("B" if header["cell"] == 1 else "H")
    cells.frombytes(data)
    try:
        counts = [int(header[key]) for key in ("positions", "wins", "draws", "losses", "longest")]
    except (KeyError, TypeError, ValueError):
        return None
    positions, wins, draws, losses, longest = counts
    return _Table(cells, TableStats(material, positions, wins, draws, losses, longest, False))


# ----------------------------------------------------------------------------- the build


def _key(men: int, kings: int, other_men: int, other_kings: int) -> int:
    # A material as one int, for the inner loops' lookups (no object made per child).
    return ((men * 64 + kings) * 64 + other_men) * 64 + other_kings


class _Target:
    """A material as the build's inner loops look into it: the rank of each of its groups'
    masks seen from the other colour, its groups' sizes, and its table's cells (if built)."""

    def __init__(self, layout: _Layout, material: Material, cells: array[int] | None) -> None:
        g1, g2, g3, g4 = layout.groups(material)
        self.masks1: list[int] = g1.masks
        self.masks2: list[int] = g2.masks
        self.masks3: list[int] = g3.masks
        self.masks4: list[int] = g4.masks
        self.turned1: dict[int, int] = g1.turned
        self.turned2: dict[int, int] = g2.turned
        self.turned3: dict[int, int] = g3.turned
        self.turned4: dict[int, int] = g4.turned
        self.n2: int = len(g2.masks)
        self.n3: int = len(g3.masks)
        self.n4: int = len(g4.masks)
        self.size: int = len(g1.masks) * self.n2 * self.n3 * self.n4
        self.cells: array[int] = cells if cells is not None else array("B")

    def turned_index(self, mover: int, other: int, kings: int) -> int:
        """The index of a position given as seen by the other colour (``mover`` to move)."""
        r1: int = self.turned1[mover & ~kings]
        r2: int = self.turned2[other & ~kings]
        r3: int = self.turned3[mover & kings]
        r4: int = self.turned4[other & kings]
        return ((r1 * self.n2 + r2) * self.n3 + r3) * self.n4 + r4


class _Builder:
    """Builds the tables of one variant in order. The tables its captures and crownings reach
    are read from the folder when first needed and let go when no table left needs them, so
    that memory holds one component and its lookups, not every table built."""

    def __init__(
        self,
        variant: Variant,
        directory: str | os.PathLike[str],
        progress: Callable[[int], None] | None,
    ) -> None:
        self.layout = _layout(variant)
        self.variant = variant
        self.directory = directory
        self.done: dict[Material, _Table] = {}
        self.progress = progress

    def table(self, material: Material) -> _Table:
        """A table already built: in memory, else read (and kept) from the folder."""
        found = self.done.get(material)
        if found is None:
            path = table_path(self.directory, self.variant, material)
            found = _read(path, self.variant, material)
            if found is None:
                raise RuntimeError(f"the table {path} is needed but is damaged or missing")
            self.done[material] = found
        return found

    def keep_only(self, wanted: Iterable[Material]) -> None:
        """Let go of the tables in memory that are not in ``wanted``."""
        keep = set(wanted)
        for material in list(self.done):
            if material not in keep:
                del self.done[material]

    def _targets(self, material: Material) -> dict[int, _Target]:
        # Every material a capture or a crowning of this component reaches, seen from the
        # child's side (the child's mover first), with its table's cells.
        layout = self.layout
        found: dict[int, _Target] = {}
        for child in needed_for([material]):
            if child in (material, material.swapped()):
                continue
            key = _key(child.men, child.kings, child.other_men, child.other_kings)
            found[key] = _Target(layout, child, self.table(child).cells)
        return found

    def component(self, material: Material) -> list[_Table]:
        """Build a table and the table of the same pieces with the other side to move (they
        reach each other by every quiet move); both, in that order (one if they are one)."""
        layout = self.layout
        members = [material] if material.swapped() == material else [material, material.swapped()]
        parts = [_Target(layout, member, None) for member in members]
        total = sum(part.size for part in parts)
        # Per position: ``remaining``: its children in the component not yet known to be won
        # by their mover; ``best``: the quickest win a known child gives (distance + 1, 0
        # none); ``worst``: the longest loss the known children give; ``drawn``: a known child
        # is a draw, so the position is no loss. ``distance``: -2 no position, -1 not known.
        distance = array("h", [-2]) * total
        remaining = array("H", [0]) * total
        best = array("H", [0]) * total
        worst = array("H", [0]) * total
        drawn = bytearray(total)
        buckets: list[array[int]] = []
        targets = self._targets(material)
        base = 0
        for part in parts:
            self._forward(part, base, targets, distance, remaining, best, worst, drawn, buckets)
            base += part.size
        del targets
        # Retrograde: positions settle in order of distance; a settled loss makes each parent a
        # win one ply further, a settled win takes one hope from each parent, and a parent left
        # with none (and no draw, no win elsewhere) is lost as late as its longest child allows.
        # The parents are found by moving back (no list of them is kept).
        rules = layout.rules
        quiet = rules.quiet
        has_capture = rules.has_capture
        bits: tuple[int, ...] = rules.bits
        first = parts[0]
        last = parts[-1]
        split: int = first.size
        d: int = 0
        while d < len(buckets):
            bucket = buckets[d]
            won: bool = d % 2 == 0  # a settled loss: each parent wins
            for at in bucket:
                if distance[at] != -1:
                    continue
                distance[at] = d
                # The position, and its parents' table (the other member, or itself).
                here, there, index, there_base = first, last, at, 0
                if at >= split:
                    here, there, index = last, first, at - split
                elif last is not first:
                    there_base = split
                r4 = index % here.n4
                index //= here.n4
                r3 = index % here.n3
                index //= here.n3
                r2 = index % here.n2
                r1 = index // here.n2
                k1: int = here.masks3[r3]
                k2: int = here.masks4[r4]
                own: int = here.masks1[r1] | k1
                opp: int = here.masks2[r2] | k2
                kings: int = k1 | k2
                # The side that just moved is ``opp``: its men step back the way the side to
                # move's men go forward, its kings as kings do.
                for start, end in quiet(opp, own, kings, 0):
                    moved = bits[start] | bits[end]
                    before = opp ^ moved
                    before_kings = kings ^ moved if bits[start] & kings else kings
                    if has_capture(before, own, before_kings, 1):
                        continue  # the parent had to capture: this was no move of it
                    parent = there_base + there.turned_index(before, own, before_kings)
                    if distance[parent] != -1:
                        continue
                    if won:
                        _schedule(buckets, d + 1, parent)
                    else:
                        remaining[parent] -= 1
                        if not remaining[parent] and not drawn[parent] and not best[parent]:
                            _schedule(buckets, max(d + 1, worst[parent]), parent)
            buckets[d] = array("I")
            d += 1
        del remaining, best, worst, drawn
        tables = []
        base = 0
        for member, part in zip(members, parts, strict=True):
            tables.append(self._table(member, distance, base, part.size))
            base += part.size
        return tables

    def _forward(
        self,
        part: _Target,
        base: int,
        targets: dict[int, _Target],
        distance: array[int],
        remaining: array[int],
        best: array[int],
        worst: array[int],
        drawn: bytearray,
        buckets: list[array[int]],
    ) -> None:
        # Every position of one member: its moves counted, those that leave the component
        # (captures, crownings) looked up in the tables built before.
        rules = self.layout.rules
        has_capture = rules.has_capture
        deltas = rules.deltas
        count_quiet = rules.count_quiet
        mask: int = rules.mask
        crown: int = rules.crown[0]
        steps: list[int] = [rules.offsets[d] for d in rules.man_move_dirs[0]]
        report = self.progress
        seen: int = 0
        n2, n3, n4 = part.n2, part.n3, part.n4
        for r1, m1 in enumerate(part.masks1):
            for r2, m2 in enumerate(part.masks2):
                if m1 & m2:
                    continue
                men: int = m1 | m2
                base2: int = (r1 * n2 + r2) * n3
                for r3, k1 in enumerate(part.masks3):
                    if k1 & men:
                        continue
                    taken: int = men | k1
                    base3: int = (base2 + r3) * n4
                    for r4, k2 in enumerate(part.masks4):
                        if k2 & taken:
                            continue
                        at: int = base + base3 + r4
                        own: int = m1 | k1
                        opp: int = m2 | k2
                        kings: int = k1 | k2
                        distance[at] = -1
                        seen += 1
                        if report is not None and seen % 4096 == 0:
                            report(4096)
                        quickest: int = 0
                        longest: int = 0
                        inside: int = 0
                        moves: list[tuple[int, int, int]]
                        if has_capture(own, opp, kings, 0):
                            moves = list(set(deltas(own, opp, kings, 0, False)))
                        else:
                            inside = count_quiet(own, opp, kings, 0)
                            moves = []
                            ready = m1 & ~kings
                            if ready:
                                empty = mask & ~(own | opp)
                                for step in steps:
                                    ends = (
                                        (ready << step if step > 0 else ready >> -step)
                                        & empty
                                        & crown
                                    )
                                    while ends:
                                        end = ends & -ends
                                        ends ^= end
                                        start = end >> step if step > 0 else end << -step
                                        moves.append((start | end, 0, end))
                            inside -= len(moves)
                        for ox, cm, kx in moves:
                            # The child, the other side to move: its mover's pieces are what
                            # was not taken.
                            mover = opp & ~cm
                            if not mover:
                                quickest = 1  # nothing left to move: lost at once
                                continue
                            child_kings = (kings & ~cm) ^ kx
                            other = own ^ ox
                            target = targets[
                                _key(
                                    (mover & ~child_kings).bit_count(),
                                    (mover & child_kings).bit_count(),
                                    (other & ~child_kings).bit_count(),
                                    (other & child_kings).bit_count(),
                                )
                            ]
                            code: int = target.cells[target.turned_index(mover, other, child_kings)]
                            if not code:
                                drawn[at] = 1
                            elif (code - 1) % 2 == 0:  # the child is lost: a win here
                                if not quickest or code < quickest:
                                    quickest = code
                            elif code > longest:
                                longest = code
                        remaining[at] = inside
                        best[at] = quickest
                        worst[at] = longest
                        if quickest:
                            _schedule(buckets, quickest, at)
                        elif not inside and not drawn[at]:
                            # Every move (if any: else lost now, at 0) leads to a known loss.
                            _schedule(buckets, longest, at)
        if report is not None:
            report(seen % 4096)

    def _table(self, material: Material, distance: array[int], base: int, size: int) -> _Table:
        part = distance[base : base + size]
        longest: int = max(part) if size else -1
        wide = longest + 1 >= 0xFF
        cells = array("H" if wide else "B", [0]) * size
        none = 0xFFFF if wide else 0xFF
        positions: int = 0
        wins: int = 0
        losses: int = 0
        for i in range(size):
            d: int = part[i]
            if d == -2:
                cells[i] = none
                continue
            positions += 1
            if d >= 0:
                cells[i] = d + 1
                if d % 2:
                    wins += 1
                else:
                    losses += 1
        draws = positions - wins - losses
        stats = TableStats(material, positions, wins, draws, losses, max(longest, 0))
        table = _Table(cells, stats)
        self.done[material] = table
        return table


def _schedule(buckets: list[array[int]], d: int, at: int) -> None:
    while len(buckets) <= d:
        buckets.append(array("I"))
    buckets[d].append(at)


def build_tables(
    variant: Variant,
    materials: Iterable[Material],
    directory: str | os.PathLike[str],
    *,
    progress: Callable[[int], None] | None = None,
    on_table: Callable[[TableStats], None] | None = None,
) -> list[TableStats]:
    """Build the tables of ``materials`` and every table they need into ``directory``.

    A table already there, whole and of this format (its header and CRC checked), is read
    rather than built again, so a build stopped half-way goes on where it stopped. Each table
    is written atomically. ``progress(n)`` is told of every ``n`` positions done (see
    :func:`positions_to_build`); ``on_table`` of each table ready. Memory holds the component
    being built and the tables it reaches, not every table.
    """
    builder = _Builder(variant, directory, progress)
    stats: list[TableStats] = []
    finished: set[Material] = set()
    for material in needed_for(materials):
        if material in finished:
            continue
        partner = material.swapped()
        members = [material] if partner == material else [material, partner]
        found = [_read(table_path(directory, variant, m), variant, m) for m in members]
        ready = [table for table in found if table is not None]
        if len(ready) == len(members):
            for table in ready:
                finished.add(table.stats.material)
                stats.append(table.stats)
                if on_table is not None:
                    on_table(table.stats)
                if progress is not None:
                    progress(table.stats.positions)
            continue
        builder.keep_only(needed_for(members))
        for table in builder.component(material):
            _write(table_path(directory, variant, table.stats.material), variant, table)
            finished.add(table.stats.material)
            stats.append(table.stats)
            if on_table is not None:
                on_table(table.stats)
    return stats


def positions_to_build(variant: Variant, materials: Iterable[Material]) -> int:
    """The number of positions a build of ``materials`` goes through (for a progress bar)."""
    layout = _layout(variant)
    return sum(_count(layout, m) for m in needed_for(materials))


def _count(layout: _Layout, material: Material) -> int:
    g1, g2, _, _ = layout.groups(material)
    # The men of each side, the kings of each: exact counts of the positions (the men of the
    # two sides may meet on a square, which is no position).
    men = sum(1 for a in g1.masks for b in g2.masks if not a & b)
    free = len(layout.squares["kings"]) - material.men - material.other_men
    kings = _choose(free, material.kings) * _choose(free - material.kings, material.other_kings)
    return men * kings


def _choose(n: int, k: int) -> int:
    from math import comb

    return comb(n, k) if 0 <= k <= n else 0


# ----------------------------------------------------------------------------- probing


@dataclass(frozen=True, slots=True)
class Probe:
    """A position's value from the side to move's view: ``"win"``, ``"draw"`` or ``"loss"``,
    and the plies to the end under best play (``None`` for a draw)."""

    result: str
    distance: int | None

    @property
    def score(self) -> int:
        """+1, 0 or -1 for a win, a draw or a loss."""
        return {"win": 1, "draw": 0, "loss": -1}[self.result]

    @property
    def text(self) -> str:
        """``"win in 31"``, ``"loss in 12"`` (plies) or ``"draw"``."""
        return self.result if self.distance is None else f"{self.result} in {self.distance}"

    def for_mover(self) -> Probe:
        """This value, of the position after a move, as the move's mover sees it: the other
        way round, one ply further from the end.

        >>> Probe("loss", 4).for_mover(), Probe("draw", None).for_mover().text
        (Probe(result='win', distance=5), 'draw')
        """
        if self.distance is None:
            return self
        return Probe("win" if self.result == "loss" else "loss", self.distance + 1)

    def rank(self) -> tuple[int, int]:
        """A key that sorts values from the worst to the best: the longest loss is better
        than a quicker one, the quickest win the best."""
        if self.distance is None:
            return (0, 0)
        return (1, -self.distance) if self.result == "win" else (-1, self.distance)


_DRAW = Probe("draw", None)


class EndgameTables:
    """The tables of one variant in a folder, read when first asked for.

    :meth:`probe` answers for any position whose material has a table there, ``None`` for
    the others (more pieces than were built, or a table missing or damaged).
    """

    def __init__(self, directory: str | os.PathLike[str], variant: Variant) -> None:
        self.directory = Path(directory)
        self.variant = variant
        self._layout = _layout(variant)
        self._tables: dict[Material, _Table | None] = {}
        self._most: int | None = None

    @property
    def most(self) -> int:
        """The most pieces a table in the folder holds (0: none), from the tables' names,
        read once: a position with more is known to be no table's without ranking it (the
        ranking of many pieces would build their every combination)."""
        if self._most is None:
            most = 0
            for path in (self.directory / self.variant.name).glob(f"*{_SUFFIX}"):
                try:
                    most = max(most, Material.parse(path.name[: -len(_SUFFIX)]).pieces)
                except ValueError:
                    continue
            self._most = most
        return self._most

    def table(self, material: Material) -> _Table | None:
        """The table of ``material``, read once (``None`` if it is missing or damaged)."""
        if material not in self._tables:
            path = table_path(self.directory, self.variant, material)
            self._tables[material] = _read(path, self.variant, material)
        return self._tables[material]

    def available(self) -> list[TableStats]:
        """What every table in the folder holds (those that read whole)."""
        folder = self.directory / self.variant.name
        found = []
        for path in sorted(folder.glob(f"*{_SUFFIX}")):
            try:
                material = Material.parse(path.name[: -len(_SUFFIX)])
            except ValueError:
                continue
            table = self.table(material)
            if table is not None:
                found.append(table.stats)
        return found

    def probe(self, position: Position) -> Probe | None:
        """The value of ``position``, or ``None`` when no table here holds it."""
        if position.variant != self.variant:
            raise ValueError(f"these are {self.variant.title} tables, not {position.variant.title}")
        own = position.black if position.turn is Color.BLACK else position.white
        if not own:
            return Probe("loss", 0)
        opp = position.white if position.turn is Color.BLACK else position.black
        if not opp:
            return None  # the other side lost before this position: no table value
        if (own | opp).bit_count() > self.most:
            return None
        try:
            material, index = position_index(position)
        except KeyError:  # a man on its crowning row: no position of a game
            return None
        table = self.table(material)
        if table is None:
            return None
        code = table.cells[index]
        if code == table.none:
            return None
        if not code:
            return _DRAW
        distance = code - 1
        return Probe("win" if distance % 2 else "loss", distance)

    def best_moves(self, position: Position) -> list[tuple[Move, Probe]]:
        """The moves that keep the value of ``position`` under best play (the quickest win,
        the longest loss, any move that holds a draw), each with the value it leads to from
        the mover's view; empty when the tables do not hold the position or there is no move.
        """
        here = self.probe(position)
        if here is None:
            return []
        found: list[tuple[Move, Probe]] = []
        for move in position.legal_moves(merge_duplicates=True):
            after = self.probe(position.play(move))
            if after is None:
                return []
            mine = after.for_mover()
            if mine == here:
                found.append((move, mine))
        return found
