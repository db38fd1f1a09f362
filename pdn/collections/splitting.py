"""Splitting a collection into files, one per event, round, ballot, variant, player or N games.

File names come from tag values, so they are made safe (:func:`pdn.text.filenames.safe_name`): no
path separator, no ``..``, no control character, no name Windows reserves (``CON``,
``LPT1``...), no leading dot (nor ``-``, ``=``, ``+``, ``@``), at most :data:`NAME_BYTES` bytes
of UTF-8, and unique even on a file system that ignores case. Every file is written inside
the output folder: an existing symbolic link, folder or other non-regular file, and the inputs
themselves, are never written through; the next free name is taken instead.

The games are written as read (their :class:`~pdn.reading.cutting.RawGame` text, each line with its
file's line end and each file with its first game's BOM: :mod:`pdn.collections.copying`). They are
gathered in
private temporary files while the input streams by (memory stays constant whatever the number
of groups), then each output file is written atomically (:func:`pdn.text.atomic.atomic_writer`),
and last an index, ``index.csv``: one row per game and file it went to.

>>> safe_name("../../etc/passwd"), safe_name("CON"), safe_name("Nemets D.\\x1b[2J")
('etc_passwd', '_CON', 'Nemets_D._[2J')
"""

from __future__ import annotations

import contextlib
import csv
import os
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from pdn.game.model import Game, Tags
from pdn.game.visitor import HeadersOnly
from pdn.reading.cutting import RawGame
from pdn.reading.parsing import accept_raw
from pdn.reading.reader import parse_raw
from pdn.rules.replays import Replays
from pdn.text.atomic import atomic_writer, signals_as_exit
from pdn.text.filenames import NAME_BYTES, safe_name
from pdn.text.safe_text import csv_cell
from pdn.writing.writer import write_game

from .batch import Input, display_name
from .copying import AsRead
from .selection import OnProblem, games_as_read, opening_of

__all__ = [
    "GROUPINGS",
    "INDEX_NAME",
    "NAME_BYTES",
    "Names",
    "SplitResult",
    "safe_name",
    "split_files",
]

#: What ``--by`` accepts besides a number of games per file.
GROUPINGS = ("event", "round", "ballot", "variant", "player")
#: The index written beside the games (never a game file's name: those end in ``.pdn``).
INDEX_NAME = "index.csv"


@dataclass(slots=True)
class Names:
    """Hands out one unique, safe file name per group label, inside ``folder``."""

    folder: Path
    avoid: set[Path] = field(default_factory=set)  # resolved inputs: never written over
    _by_label: dict[str, str] = field(default_factory=dict)
    _taken: set[str] = field(default_factory=set)
    # The next number to try per stem (case folded): probing from 1 for each new label made
    # 16,000 labels that share a stem quadratic. The numbers below it were taken or unwritable.
    _next: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._taken.add(INDEX_NAME.casefold())

    def name(self, label: str) -> str:
        """The file name for ``label``: the same label always gets the same name."""
        known = self._by_label.get(label)
        if known is not None:
            return known
        stem = safe_name(label)
        number = self._next.get(stem.casefold(), 1)
        while True:
            candidate = f"{stem}.pdn" if number == 1 else f"{stem}-{number}.pdn"
            if candidate.casefold() not in self._taken and self.writable(candidate):
                break
            number += 1
        self._next[stem.casefold()] = number + 1
        self._taken.add(candidate.casefold())
        self._by_label[label] = candidate
        return candidate

    def writable(self, name: str) -> bool:
        """Whether ``folder/name`` is ours to write: absent, or a regular file that is no
        input (a symbolic link would be written through, out of the folder maybe)."""
        path = self.folder / name
        if path.parent != self.folder:
            return False
        if not os.path.lexists(path):
            return True
        return not path.is_symlink() and path.is_file() and path.resolve() not in self.avoid


@dataclass(slots=True)
class Row:
    """One line of the index: a game and the file it went to."""

    output: str
    group: str
    source: str
    game: int
    line: int
    tags: Tags


@dataclass(slots=True)
class SplitResult:
    """What :func:`split_files` wrote: the files (name to games) and the index rows."""

    folder: Path
    files: dict[str, int] = field(default_factory=dict)
    games: int = 0
    index_rows: int = 0


class _Lazy:
    """One game as read, its tags and its model made only when first asked for."""

    __slots__ = ("_game", "_tags", "raw")

    def __init__(self, raw: RawGame | None, game: Game | None) -> None:
        self.raw = raw
        self._game = game
        self._tags: Tags | None = game.tags if game is not None else None

    @property
    def tags(self) -> Tags:
        if self._tags is None:
            assert self.raw is not None
            self._tags = accept_raw(self.raw, HeadersOnly())
        return self._tags

    @property
    def game(self) -> Game:
        if self._game is None:
            assert self.raw is not None
            self._game = parse_raw(self.raw)
        return self._game

    def text(self) -> str:
        text = self.raw.text if self.raw is not None else write_game(self.game)
        return text if text.endswith("\n") else text + "\n"

    def place(self) -> tuple[int, int]:
        if self.raw is not None:
            return self.raw.index, self.raw.line
        return self.game.index, self.game.line


def _labels(item: _Lazy, by: str | int, number: int, replays: Replays, file: str) -> list[str]:
    """The groups a game goes to (two for ``player``: its Black's and its White's); a ballot is
    that of the replay ``pdn validate`` makes (``replays``), and so is a variant (a GameType's
    without a replay)."""
    if isinstance(by, int):
        first = (number - 1) // by * by + 1
        return [f"games-{first:06d}-{first + by - 1:06d}"]
    if by == "player":
        names = [item.tags.get(side) or f"no {side}" for side in ("Black", "White")]
        return list(dict.fromkeys(names))
    if by in ("event", "round"):
        tag = "Event" if by == "event" else "Round"
        return [item.tags.get(tag) or f"no {tag}"]
    if by == "variant":
        return [replays.variant_of(item.game, file) or "unknown variant"]
    opening = opening_of(item.game, replays.of(item.game, file))
    if opening.kind == "ballot":
        return [f"ACF {opening.number:03d}"]
    return [opening.kind]


class _Spool:
    """Private temporary files, one per group, a few open at a time."""

    OPEN = 32

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.paths: dict[str, str] = {}
        self._open: OrderedDict[str, IO[str]] = OrderedDict()

    def write(self, name: str, text: str) -> None:
        handle = self._open.pop(name, None)
        if handle is None:
            path = self.paths.setdefault(name, os.path.join(self.folder, f"{len(self.paths)}"))
            handle = open(path, "a", encoding="utf-8", newline="")  # noqa: SIM115
            if len(self._open) >= self.OPEN:
                self._open.popitem(last=False)[1].close()
        self._open[name] = handle
        handle.write(text)

    def close(self) -> None:
        for handle in self._open.values():
            handle.close()
        self._open.clear()


def split_files(
    sources: Sequence[Input],
    folder: str | os.PathLike[str],
    by: str | int,
    *,
    on_problem: OnProblem | None = None,
    encoding: str | None = None,
    on_damage: Callable[[str, RawGame], None] | None = None,
    on_recoded: Callable[[str, str], None] | None = None,
) -> SplitResult:
    """Write the games of ``sources`` into ``folder`` (made if missing), one file per group
    (``by`` is one of :data:`GROUPINGS` or a number of games per file), and the index.

    Each game is written as read (:class:`pdn.collections.copying.AsRead`: each line with its file's
    line end, a file with the BOM of its first game's file); ``on_damage(file, raw)`` is told
    of each game holding bytes that could not be read (written as U+FFFD), ``on_recoded``
    of each UTF-16 file (its games are written in UTF-8).

    Files already in the folder with the names chosen are replaced, each atomically; an input
    file is never among them. ``encoding`` forces the codec of PDN bytes (else detected).
    """
    if isinstance(by, int) and by < 1:
        raise ValueError("a number of games per file is at least 1")
    if isinstance(by, str) and by not in GROUPINGS:
        raise ValueError(f"{by!r}: split by one of {', '.join(GROUPINGS)} or a number")
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    target = target.resolve()
    inputs = {Path(s).resolve() for s in sources if isinstance(s, (str, os.PathLike))}
    names = Names(target, inputs)
    if not names.writable(INDEX_NAME):
        raise ValueError(
            f"{target / INDEX_NAME} is a link, an input or no regular file: "
            "refusing to write the index through it"
        )
    result = SplitResult(target)
    # SIGTERM and SIGHUP end the run through the with blocks: the scratch folder goes too.
    with (
        signals_as_exit(),
        tempfile.TemporaryDirectory(prefix="pdn-split-") as scratch,
        contextlib.ExitStack() as stack,
    ):
        spool = _Spool(scratch)
        copy = stack.enter_context(contextlib.closing(AsRead(encoding, on_recoded)))
        index_path = os.path.join(scratch, "index")
        # The index goes to the scratch folder too: memory stays constant.
        with open(index_path, "w", encoding="utf-8", newline="") as index:
            rows = _index_writer(index)
            try:
                replays = Replays()
                for source in sources:
                    file = display_name(source)
                    for raw, game in games_as_read(source, on_problem, encoding=encoding):
                        result.games += 1
                        item = _Lazy(raw, game)
                        labels = _labels(item, by, result.games, replays, file)
                        text = item.text()
                        index_no, line = item.place()
                        copy.follow(file)
                        if raw is not None and raw.damage and on_damage is not None:
                            on_damage(file, raw)
                        separator = copy.separator
                        text = copy.game(text, None if raw is None else raw.line)
                        for label in labels:
                            name = names.name(label)
                            count = result.files.get(name, 0)
                            spool.write(name, (separator if count else copy.bom) + text)
                            result.files[name] = count + 1
                            rows(Row(name, label, file, index_no, line, item.tags))
                            result.index_rows += 1
            except OSError as exc:
                if exc.filename is not None:
                    raise
                # A full disk while spooling: say where (the scratch folder, in TMPDIR).
                raise OSError(exc.errno, exc.strerror, scratch) from exc
            finally:
                spool.close()
        for name, path in [*spool.paths.items(), (INDEX_NAME, index_path)]:
            if not names.writable(name):  # a link made while the input was read
                raise ValueError(f"{target / name} changed while splitting; not written through")
            with atomic_writer(target / name) as out, open(path, encoding="utf-8", newline="") as f:
                for block in iter(lambda: f.read(1 << 16), ""):
                    out.write(block)
    return result


_INDEX_TAGS = ("Event", "Round", "Date", "Black", "White", "Result")


def _index_writer(out: IO[str]) -> Callable[[Row], None]:
    """A function that writes one index row (the header is written now)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["file", "group", "source", "game", "line", *(t.lower() for t in _INDEX_TAGS)])

    def write(row: Row) -> None:
        cells: list[object] = [row.output, row.group, row.source, row.game, row.line]
        cells += [row.tags.get(name) or "" for name in _INDEX_TAGS]
        writer.writerow([csv_cell(cell) for cell in cells])

    return write
