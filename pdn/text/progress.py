"""A progress bar for the long commands: percent of the input's bytes, rate and time left.

Shown on standard error only when it is a terminal and the input is large (a pipe or a log gets
nothing, so output captured from ``pdn ... 2>log`` stays clean); ``quiet`` silences it. The bar is
`tqdm <https://tqdm.github.io/>`_'s, imported only when one is shown. Progress is measured in
bytes read from the input files, so it moves at the same pace whatever a command does per game;
files are read through a counter only while a bar is shown, and otherwise passed on untouched.
Work that takes seconds a move (an analysis) counts the plies done against the plies its input
holds instead (``plies=``), so that the bar moves, and says the time left, on a file of one game.

>>> with Progress(["examples/illegal-moves.pdn"]) as progress:  # small, and not a terminal
...     progress.enabled, list(progress.sources(["examples/illegal-moves.pdn"]))
(False, ['examples/illegal-moves.pdn'])
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from tqdm import tqdm

T = TypeVar("T")

#: Inputs smaller than this finish before a bar would be worth drawing.
LARGE = 2 << 20  # bytes


class _Counted(io.RawIOBase):
    """A file read through, each chunk added to the bar."""

    def __init__(self, path: str, bar: tqdm[Any]) -> None:
        self._file = open(path, "rb", buffering=0)  # noqa: SIM115 - closed with this object
        self._bar = bar
        self.name = path  # messages name the file as the user wrote it

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = self._file.readinto(buffer) or 0
        self._bar.update(count)
        return count

    def close(self) -> None:
        self._file.close()
        super().close()


class Progress:
    """The bar of one command over ``files`` (paths as given, ``-`` for standard input).

    Use as a context manager (the bar is closed and erased at the end); pass the command's
    sources through :meth:`sources` and, optionally, its games through :meth:`count` for a
    games counter beside the bytes.
    """

    def __init__(
        self,
        files: Sequence[str],
        *,
        quiet: bool = False,
        stream: IO[str] | None = None,
        large: int = LARGE,
        every: int = 200,
        plies: int | None = None,
        unit: str = " plies",
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        #: Whether the bar counts plies (:meth:`advance`) rather than bytes read.
        self.by_plies = plies is not None
        #: What the bar counts with ``plies=`` (``" positions"`` for an endgame build).
        self.unit = unit
        if plies is not None:
            self.total = plies
        else:
            sizes = [os.path.getsize(f) for f in files if f != "-" and os.path.isfile(f)]
            #: Bytes of the files, or plies to go through (standard input is read, but has no
            #: size to count against).
            self.total = sum(sizes)
        self.enabled = not quiet and 0 < self.total >= large and is_terminal(self.stream)
        #: Plies done so far (with ``plies=``).
        self.plies = 0
        self.games = 0
        #: Games between two updates of the games counter (1 for work slow per game).
        self.every = every
        self._bar: tqdm[Any] | None = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _the_bar(self) -> tqdm[Any]:
        if self._bar is None:
            from tqdm import tqdm

            self._bar = tqdm(
                total=self.total,
                unit=self.unit if self.by_plies else "B",
                unit_scale=not self.by_plies,
                unit_divisor=1024,
                file=self.stream,
                leave=False,  # the command's own summary is what stays on screen
                dynamic_ncols=True,
                mininterval=0.25,
            )
        return self._bar

    def sources(self, sources: Iterable[str | IO[bytes]]) -> Iterator[str | IO[bytes]]:
        """The sources to read, in order: unchanged without a bar; with one, each path opened
        through a byte counter when the reader gets to it and closed when it moves on (a
        binary file, which the reader treats exactly as it treats the path)."""
        for source in sources:
            counted = self.enabled and not self.by_plies
            if counted and isinstance(source, str) and os.path.isfile(source):
                with io.BufferedReader(_Counted(source, self._the_bar())) as handle:
                    yield handle
            else:
                yield source

    def count(self, items: Iterable[T]) -> Iterator[T]:
        """``items`` passed on, each counted as a game; the bar is closed when they end."""
        try:
            for item in items:
                self.tick()
                yield item
        finally:
            self.close()

    def tick(self) -> None:
        """One more game done (shown beside the bytes every ``every`` games: every few hundred
        by default, drawn with the next bytes read; at once when each game is slow, since
        the reader may be done with the bytes long before the games are)."""
        self.games += 1
        if self.enabled and self.games % self.every == 0:
            text = f"{self.games:,} games"
            self._the_bar().set_postfix_str(text, refresh=self.every == 1)

    def advance(self, plies: int) -> None:
        """``plies`` more plies done (with ``plies=``): the bar moves, its rate and time left
        with it."""
        self.plies += plies
        if self.enabled and plies:
            self._the_bar().update(plies)

    def close(self) -> None:
        """Close the bar, erasing it."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def is_terminal(stream: IO[str]) -> bool:
    """Whether ``stream`` is a terminal (where a bar is drawn)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False  # a closed stream is no terminal
