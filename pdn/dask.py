"""pdn on Dask: bags of games or of verdicts, ballot statistics and a per-game table, for
collections that outgrow one machine (``pip install ".[dask]"`` in a clone of pdn).

The input is cut into :class:`Piece` s, each a byte range of one file that starts where a game
starts, and each piece becomes one partition: the workers open the files themselves (so they
must see the same paths, e.g. on a shared file system) and only the small results travel. A file
no larger than ``piece_bytes`` is one piece; a larger one is cut at game starts found by one
cutting pass on the client (the cheap half of reading: no parsing, no replay). A piece also
knows where its block of :data:`~pdn.rules.replays.BLOCK` games starts: the rules of the earlier
games of a block may settle those of a game (:class:`~pdn.rules.replays.Replays`), so a worker is
told of
them too, and a piece's verdicts are those of one process. A JSON file of
pdn's records is one piece, read as JSON (:func:`pdn.read_games`). A file whose
text is not plain UTF-8 with ``\\n`` line ends (a guessed code page, damaged bytes, CR line
ends) is not cut, since a piece read on its own might then be decoded otherwise: it stays one
piece, and the answers are those of one process either way.

Everything runs on whatever scheduler is active (``dask.config``, or a
``distributed.Client``); see the README for a real cluster. (No doctest here: this module
imports without dask, and its examples need it; ``tests/test_dask.py`` runs them.) ::

    with distributed.Client("tcp://scheduler:8786"):
        statuses = pdn.dask.verdicts(paths).map(lambda v: v.status).frequencies().compute()
"""

from __future__ import annotations

import collections
import io
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pdn.collections.batch import Verdict, verdict_of_report
from pdn.game.detection import FileEvidence
from pdn.game.model import Game
from pdn.reading.cutting import RawGame
from pdn.reading.reader import parse_raw, read_games, split_games
from pdn.reading.recording import Recorded, record
from pdn.rules.replays import BLOCK, Replays
from pdn.study.explore.tree import DEFAULT_DEPTH, SPILL, Tree
from pdn.text.schema import is_json

if TYPE_CHECKING:
    import dask.bag
    import dask.dataframe

    from pdn.engine import Position
    from pdn.rules.openings import BallotStats

__all__ = [
    "PIECE_BYTES",
    "TREES_AT_ONCE",
    "Piece",
    "ballot_stats",
    "explorer_tree",
    "game_table",
    "games",
    "pieces",
    "verdicts",
]

#: Bytes per partition: large enough that a task's overhead (tens of milliseconds on a
#: cluster) is small beside its work, small enough that a few hundred megabytes spread.
PIECE_BYTES = 16 << 20

#: Partition trees :func:`explorer_tree` asks for at once (each is held until it is merged).
TREES_AT_ONCE = 4

#: The columns of :func:`game_table`, in order, with their dtypes.
TABLE_COLUMNS: dict[str, str] = {
    "file": "object",
    "index": "int64",
    "line": "int64",
    "event": "object",
    "date": "object",
    "black": "object",
    "white": "object",
    "result": "object",
    "variant": "object",
    "plies": "int64",
    "status": "object",
    "errors": "int64",
    "warnings": "int64",
}


@dataclass(frozen=True, slots=True)
class Piece:
    """A byte range of one file, from a game start: ``[start, end)`` (``end`` None: to the end).

    ``line`` is the file's line number at ``start`` and ``games`` the number of games before
    it, so the games of a piece carry the lines and numbers they have in the whole file;
    ``evidence`` is what the whole file's games agree on (:mod:`pdn.game.detection`), so that a
    game is read under the same rules as when the file is read whole.
    """

    path: str
    start: int = 0
    end: int | None = None
    line: int = 1
    games: int = 0
    evidence: FileEvidence | None = None
    #: Where the piece's block of games starts (see :meth:`earlier_games`): byte, line, games.
    block_start: int = 0
    block_line: int = 1
    block_games: int = 0
    #: The file holds pdn's JSON records (never cut; read as JSON, not as PDN text).
    json: bool = False

    @property
    def whole(self) -> bool:
        """Whether the piece is its whole file (read exactly as the reader reads a path)."""
        return self.start == 0 and self.end is None

    def raw_games(self) -> Iterator[RawGame]:
        """The games of this piece, cut but not parsed, placed as they are in the file."""
        if self.whole:
            yield from split_games(self.path)
            return
        yield from self._read(self.start, self.end, self.line, self.games)

    def earlier_games(self) -> Iterator[RawGame]:
        """The games of the file before this piece in its block of
        :data:`~pdn.rules.replays.BLOCK` games (for :meth:`pdn.rules.replays.Replays.skip`: what
        they
        replay under may settle the rules of the piece's games, as in one process)."""
        if self.block_start < self.start:
            yield from self._read(self.block_start, self.start, self.block_line, self.block_games)

    def _read(self, start: int, end: int | None, line: int, games: int) -> Iterator[RawGame]:
        with open(self.path, "rb") as handle:
            handle.seek(start)
            data = handle.read(-1 if end is None else end - start)
        for raw in split_games(io.BytesIO(data), scan=False):
            raw.line += line - 1
            raw.index += games
            raw.evidence = self.evidence
            yield raw

    def replays(self, variant: str | None = None) -> Replays:
        """Replays (:class:`pdn.rules.replays.Replays`) for the games of this piece, told of the
        earlier games of its block."""
        replays = Replays(variant)
        for raw in self.earlier_games():
            replays.skip(raw, self.path)
        return replays

    def games_of(self) -> list[Game]:
        """The games of this piece, parsed."""
        return list(self.iter_games())

    def iter_games(self) -> Iterator[Game]:
        """The games of this piece, parsed one at a time (those of its JSON records for a
        JSON file, as :func:`pdn.read_games` reads it)."""
        if self.json:
            yield from read_games(self.path)
            return
        for raw in self.raw_games():
            yield parse_raw(raw)

    def recorded(self) -> Iterator[Game | Recorded]:
        """The games of this piece read for their replay (:mod:`pdn.reading.recording`; a JSON
        file's as games)."""
        if self.json:
            yield from read_games(self.path)
            return
        for raw in self.raw_games():
            yield record(raw)


def pieces(
    paths: Iterable[str | os.PathLike[str]], *, piece_bytes: int = PIECE_BYTES
) -> list[Piece]:
    """The pieces of ``paths``, in order: one per file, or several for a file larger than
    ``piece_bytes`` whose text allows it (see the module docstring)."""
    out: list[Piece] = []
    for source in paths:
        path = os.fspath(source)
        size = os.path.getsize(path)
        if is_json(path):
            out.append(Piece(path, json=True))
            continue
        out.extend(_cut(path, size, piece_bytes) if size > piece_bytes else [Piece(path)])
    return out


def _cut(path: str, size: int, piece_bytes: int) -> list[Piece]:
    # Game starts at line starts, about piece_bytes apart, from one pass of the cutter.
    starts: list[tuple[int, int, int, int]] = []  # (line, games before), and its block's
    due = piece_bytes
    previous_end = ""
    evidence = None
    block: tuple[int, int] | None = None  # (line, games before) where the block starts
    for raw in split_games(path):
        evidence = raw.evidence
        if raw.problem is not None or raw.damage or raw.encoding != "utf-8" or raw.encoding_guessed:
            return [Piece(path)]
        # Only after a game that ended on its result: one ended by the next game's tags, or
        # cut for its size, would end otherwise (at the piece's end) when read on its own.
        clean = raw.column == 1 and previous_end == "result"
        if (raw.index - 1) % BLOCK == 0:
            # A block of games starts (pdn.rules.replays.Replays counts the rules of the earlier
            # games
            # of a block): a piece cut in it reads its block's earlier games from here too.
            block = (raw.line, raw.index - 1) if clean or raw.index == 1 else None
        if raw.offset >= due and clean and block is not None:
            starts.append((raw.line, raw.index - 1, *block))
            due = raw.offset + piece_bytes
        previous_end = raw.end
    if not starts:
        return [Piece(path)]
    lines = sorted({line for start in starts for line in (start[0], start[2])})
    found = _line_offsets(path, lines)
    if found is None:
        return [Piece(path)]
    offset = dict(zip(lines, found, strict=True))
    offsets = [offset[start[0]] for start in starts]
    bounds = [*offsets, None]
    out = [Piece(path, 0, offsets[0], evidence=evidence)]
    for (line, before, *lead), start, end in zip(starts, offsets, bounds[1:], strict=True):
        at = offset[lead[0]] if lead[0] > 1 else 0
        out.append(Piece(path, start, end, line, before, evidence, at, lead[0], lead[1]))
    return out


def _line_offsets(path: str, lines: Sequence[int]) -> list[int] | None:
    """The byte offsets where ``lines`` (ascending, 1-based) begin; ``None`` when the file has
    a CR or a literal backslash-r, which the reader's line-end normalisation may count as a
    line end where a count of LF bytes would not."""
    found: list[int] = []
    line, base, last = 1, 0, b""
    with open(path, "rb") as handle:
        while len(found) < len(lines) and (block := handle.read(1 << 20)):
            if b"\r" in block or b"\\r" in last + block[:1] or b"\\r" in block:
                return None
            at = 0  # where this block's next line starts
            while len(found) < len(lines):
                need = lines[len(found)] - line  # line ends before the wanted line starts
                if need == 0:
                    found.append(base + at)
                    continue
                ends = block.count(b"\n", at)
                if ends < need:
                    line += ends
                    break
                for _ in range(need):
                    at = block.index(b"\n", at) + 1
                line += need
            base += len(block)
            last = block[-1:]
    return found if len(found) == len(lines) else None


def _bag(paths: Iterable[str | os.PathLike[str]], piece_bytes: int) -> dask.bag.Bag:
    import dask.bag

    return dask.bag.from_sequence(pieces(paths, piece_bytes=piece_bytes), partition_size=1)


def games(
    paths: Iterable[str | os.PathLike[str]], *, piece_bytes: int = PIECE_BYTES
) -> dask.bag.Bag:
    """A bag of the :class:`~pdn.game.model.Game` s of ``paths``, in file order within each
    partition (``select`` is ``games(...).filter(predicate)``)."""
    return _bag(paths, piece_bytes).map_partitions(_games_of_pieces)


def _games_of_pieces(part: Iterable[Piece]) -> list[Game]:
    return [game for piece in part for game in piece.games_of()]


def verdicts(
    paths: Iterable[str | os.PathLike[str]],
    *,
    variant: str | None = None,
    piece_bytes: int = PIECE_BYTES,
) -> dask.bag.Bag:
    """A bag of :class:`~pdn.collections.batch.Verdict` s, the records ``pdn validate`` prints, in
    input
    order: the games are parsed and replayed on the workers."""
    return _bag(paths, piece_bytes).map_partitions(_verdicts_of_pieces, variant)


def _verdicts_of_pieces(part: Iterable[Piece], variant: str | None) -> list[Verdict]:
    # Replays of their own: a threaded scheduler runs several partitions in one process.
    verdicts = []
    for piece in part:
        replays = piece.replays(variant)
        verdicts += [
            verdict_of_report(replays.of(game, piece.path), piece.path) for game in piece.recorded()
        ]
    return verdicts


def ballot_stats(
    paths: Iterable[str | os.PathLike[str]], *, piece_bytes: int = PIECE_BYTES
) -> list[BallotStats]:
    """``pdn openings --stats``: per ACF ballot, the games and their results (computed now).

    The workers classify the games; only (ballot, result) pairs travel back.
    """
    from pdn.rules import openings

    pairs = _bag(paths, piece_bytes).map_partitions(_openings_of_pieces).compute()
    return openings.ballot_stats(pairs)


def _openings_of_pieces(part: Iterable[Piece]) -> list[tuple[Any, str | None]]:
    from pdn.rules.openings import classify

    out = []
    for piece in part:
        replays = piece.replays()
        for game in piece.games_of():
            opening = classify(game, replays.of(game, piece.path))
            if opening.kind == "ballot":
                out.append((opening, game.result))
    return out


def game_table(
    paths: Iterable[str | os.PathLike[str]],
    *,
    variant: str | None = None,
    piece_bytes: int = PIECE_BYTES,
) -> dask.dataframe.DataFrame:
    """A dask dataframe with one row per game (:data:`TABLE_COLUMNS`): where it is, its main
    tags, its variant, mainline plies and its verdict with counts of errors and warnings."""
    import pandas

    meta = pandas.DataFrame(
        {name: pandas.Series(dtype=kind) for name, kind in TABLE_COLUMNS.items()}
    )
    bag = _bag(paths, piece_bytes).map_partitions(_rows_of_pieces, variant)
    return bag.to_dataframe(meta=meta)


def _rows_of_pieces(part: Iterable[Piece], variant: str | None) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for piece in part:
        replays = piece.replays(variant)
        for game in piece.iter_games():
            report = replays.of(game, piece.path)
            problems = report.all_problems
            tags = game.tags
            rows.append(
                {
                    "file": piece.path,
                    "index": game.index,
                    "line": game.line,
                    "event": tags.get("Event"),
                    "date": tags.get("Date"),
                    "black": tags.get("Black"),
                    "white": tags.get("White"),
                    "result": game.result,
                    "variant": None if report.variant is None else report.variant.name,
                    "plies": len(game.mainline_moves()),
                    "status": report.status,
                    "errors": sum(p.severity == "error" for p in problems),
                    "warnings": sum(p.severity == "warning" for p in problems),
                }
            )
    return rows


def explorer_tree(
    paths: Iterable[str | os.PathLike[str]],
    depth: int = DEFAULT_DEPTH,
    *,
    variant: str | None = None,
    players_at: Iterable[Position] = (),
    within: Iterable[Position] | None = None,
    piece_bytes: int = PIECE_BYTES,
    spill: int = SPILL,
    at_once: int = TREES_AT_ONCE,
) -> Tree:
    """The opening explorer's tree of ``paths``, equal to :func:`pdn.study.explore.tree.build`'s
    (the
    arguments are its own): the workers replay the games and build one tree per partition,
    and only these trees' counts travel back, to be merged here in input order, into a tree
    that spills to SQLite past ``spill`` entries as one process's does (computed now).

    On a :mod:`distributed` cluster (the default client), ``at_once`` partitions are
    computed at a time and each tree is merged as it arrives, the next partition asked for
    at once: besides its tree this process then holds one partition's tree at a time. On
    a local scheduler ``at_once`` partitions are computed together, then merged: it holds
    at most ``at_once`` of them."""
    from dask.base import compute

    players_at, within = tuple(players_at), None if within is None else tuple(within)
    tree = Tree(depth, players_at=players_at, within=within, spill=spill)
    bag = _bag(paths, piece_bytes).map_partitions(
        _tree_of_pieces, depth, variant, players_at, within, spill
    )
    parts = bag.to_delayed()
    step = max(at_once, 1)
    client = _distributed_client()
    if client is not None:
        _merge_as_they_arrive(tree, client, parts, step)
        return tree
    for first in range(0, len(parts), step):
        done = list(compute(*parts[first : first + step]))
        done.reverse()
        while done:  # each partition's tree let go once merged
            for part in done.pop():
                tree.merge(part)
    return tree


def _distributed_client() -> Any:
    """The :mod:`distributed` client that computes now, if one does (``None`` when dask's
    scheduler is a local one, or distributed is not installed)."""
    from dask.base import get_scheduler

    scheduler = get_scheduler()
    owner = getattr(scheduler, "__self__", None)
    try:
        from distributed import Client
    except ImportError:
        return None
    return owner if isinstance(owner, Client) else None


def _merge_as_they_arrive(tree: Tree, client: Any, parts: Sequence[Any], step: int) -> None:
    """Merge each partition's trees into ``tree`` in input order as soon as it arrives,
    keeping ``step`` partitions computing on the cluster (their trees stay there until
    asked for), and letting each go once merged."""
    window: collections.deque[Any] = collections.deque(
        client.compute(part) for part in parts[:step]
    )
    following = step
    while window:
        future = window.popleft()
        trees = future.result()
        future.release()
        del future
        if following < len(parts):
            window.append(client.compute(parts[following]))
            following += 1
        trees.reverse()
        while trees:  # each let go once merged
            tree.merge(trees.pop())


def _tree_of_pieces(
    part: Iterable[Piece],
    depth: int,
    variant: str | None,
    players_at: tuple[Position, ...],
    within: tuple[Position, ...] | None,
    spill: int,
) -> list[Tree]:
    tree = Tree(depth, players_at=players_at, within=within, spill=spill)
    for piece in part:
        replays = piece.replays(variant)
        for game in piece.iter_games():
            tree.add_report(replays.of(game, piece.path))
    return [tree]
