"""Each line of a file with its own line end: what keeps a file's line ends where a command
writes its lines back (``--in-place``, :mod:`pdn.collections.inplace`; a faithful ``convert``).

Reading makes every line end LF (and drops the literal text ``\\r`` some exports leave before
one); a file may mix CRLF, LF and CR. :class:`FileLines` reads a file's lines again with their
own ends, lazily (a bounded window of the next lines), and :class:`LineEnds` is a text stream
that gives each line written the end that line has in the file, when the file has it.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "g.pdn"
>>> _ = path.write_bytes(b'[Event "a"]\\r\\n[Date "x"]\\n1. 11-15 *\\r\\n')
>>> out = io.StringIO()
>>> ends = LineEnds(Plain(out), FileLines(str(path), None, "\\n"))
>>> _ = ends.write('[Event "a"]\\n[Date "y"]\\n1. 11-15 *\\n')
>>> ends.finish()
>>> out.getvalue()
'[Event "a"]\\r\\n[Date "y"]\\n1. 11-15 *\\r\\n'
"""

from __future__ import annotations

import codecs
import io
import re
from collections import Counter, deque
from dataclasses import dataclass
from typing import Protocol, TextIO

from .decoding import BLOCK_SIZE, Decoder

__all__ = ["FileLines", "LineEnds", "Plain", "Sink", "bom_of"]

_BOMS = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def bom_of(path: str) -> str:
    """``"\\ufeff"`` when the file starts with a byte order mark (UTF-8 or UTF-16), else
    ``""``: what a copy written as it was read starts with."""
    with open(path, "rb") as handle:
        start = handle.read(3)
    return "\ufeff" if start.startswith(_BOMS) else ""


class Sink(Protocol):
    """Where :class:`LineEnds` writes: text, and line ends (which no text is placed by)."""

    def write(self, text: str) -> int: ...

    def ending(self, text: str) -> None: ...


class Plain:
    """A :class:`Sink` that writes both into a text stream."""

    def __init__(self, out: TextIO) -> None:
        self._out = out

    def write(self, text: str) -> int:
        """Write ``text``."""
        return self._out.write(text)

    def ending(self, text: str) -> None:
        """Write a line end."""
        self._out.write(text)


#: A line end as a file holds it (the reader reads each as ``\n``).
_LINE_END = re.compile(r"\r\n|\r|\n")
#: How many of the file's lines ahead (and characters in them) a written line is looked for in.
_WINDOW_LINES = 1024
_WINDOW_CHARS = 4 << 20
#: A line found further ahead than this is taken alone: the lines before it stay to be found.
_NEAR = 64


class _Verbatim(Decoder):
    """The reader's decoder without its normalising: line ends (and the text ``\r`` before
    them) as the file holds them; only a first BOM is left out."""

    def normalise(self, text: str, final: bool) -> str:
        if self.emitted == 0 and text.startswith("\ufeff"):
            text = text[1:]
        self.emitted += len(text)
        return text


@dataclass(slots=True)
class _Line:
    """A line of the file: its text as read, and what ends it there (the literal ``\r``
    texts the reader drops, and the line end, ``""`` at the end of a file without one)."""

    text: str
    literal: str
    end: str
    number: int = 0  # its line number in the file (1-based)


class FileLines:
    """The lines of a file as read, each with its own line end, read lazily into a window
    of the next lines (at most :data:`_WINDOW_LINES`, and about :data:`_WINDOW_CHARS`), in
    which a written line is looked for: memory stays bounded and each line is read once."""

    def __init__(self, path: str | None, encoding: str | None, newline: str) -> None:
        # (No path: a source that cannot be read again, standard input; it has no lines.)
        self._handle: io.BufferedReader | None = (
            open(path, "rb") if path is not None else None  # noqa: SIM115 (closed at the end)
        )
        self._decoder = _Verbatim(encoding)
        self._buffer = ""
        self._window: deque[_Line] = deque()
        self._counts: Counter[str] = Counter()
        self._chars = 0
        self._numbered = 0  # the number of the last line read
        self._last: int | None = None  # no line past this one is taken (see start_at)
        self.last_end = newline  # the line end of the last line taken

    def close(self) -> None:
        """Close the file (also when it was not read to its end)."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def _read(self) -> bool:
        """Read at least one more line into the window; ``False`` at the end of the file."""
        while self._handle is not None:
            data = self._handle.read(BLOCK_SIZE)
            final = not data
            # Searched from where the last search stopped: a long line costs one pass.
            scan = len(self._buffer)
            self._buffer += self._decoder.feed(data, final=final)
            buffer, start, added = self._buffer, 0, False
            for match in _LINE_END.finditer(buffer, max(0, scan - 1)):
                at = match.start()
                if match.end() == len(buffer) and match.group() == "\r" and not final:
                    break  # a CR the next block may make a CRLF
                cut = at
                while cut - 2 >= start and buffer.startswith("\\r", cut - 2):
                    cut -= 2
                self._add(_Line(buffer[start:cut], buffer[cut:at], match.group()))
                start, added = match.end(), True
            self._buffer = buffer[start:]
            if final:
                self.close()
                if self._buffer:
                    rest = self._buffer
                    cut = len(rest)
                    while cut >= 2 and rest.startswith("\\r", cut - 2):
                        cut -= 2
                    self._add(_Line(rest[:cut], rest[cut:], ""))
                    self._buffer, added = "", True
            if added:
                return True
        return False

    def _add(self, line: _Line) -> None:
        self._numbered += 1
        line.number = self._numbered
        self._window.append(line)
        self._counts[line.text] += 1
        self._chars += len(line.text)

    def _drop(self, at: int = 0) -> _Line:
        line = self._window[at]
        del self._window[at]
        self._counts[line.text] -= 1
        if not self._counts[line.text]:
            del self._counts[line.text]
        self._chars -= len(line.text)
        return line

    def start_at(self, number: int, last: int | None = None) -> None:
        """Leave out the lines before line ``number`` (1-based) of the file: the text written
        next starts there (a game as read, whose place the reader knows), and, with ``last``,
        ends at line ``last`` (a later line is never taken for it: the end of a game that
        shares its line with the next reads as that line of a later game). Each line skipped
        is read once, as it is when taken."""
        self._last = last
        window = self._window
        while True:
            while window and window[0].number < number:
                self._drop()
            if window or not self._read():
                return

    def rest(self) -> list[_Line]:
        """The lines of the text started at :meth:`start_at` not taken yet (up to its
        ``last``), taken now: the lines written that were not found stand for them."""
        last, self._last = self._last, None
        window, rest = self._window, []
        while last is not None and (window or self._read()) and window[0].number <= last:
            rest.append(self._drop())
        if rest and rest[-1].end:
            self.last_end = rest[-1].end
        return rest

    def take(self, text: str) -> tuple[_Line, list[_Line]] | None:
        """The next line of the file that reads as ``text``, with the lines before it taken
        with it (the new text changed them); ``None`` when the window holds none (the window
        then moves on by a line if it is full). A blank line, which says little about where
        the new text stands in the file, or a line far ahead, is taken alone."""
        window = self._window
        while len(window) < _WINDOW_LINES and self._chars < _WINDOW_CHARS and self._read():
            pass
        if text not in self._counts:
            if len(window) >= _WINDOW_LINES or self._chars >= _WINDOW_CHARS:
                self._drop()
            return None
        at = 0
        while window[at].text != text:
            at += 1
        if self._last is not None and window[at].number > self._last:
            return None  # (the first line that reads as text is past the text's last)
        passed: list[_Line] = []
        if at > _NEAR or not text.strip():
            line = self._drop(at)
        else:
            passed = [self._drop() for _ in range(at)]
            line = self._drop()
        if line.end:
            self.last_end = line.end
        return line, passed


class LineEnds(io.TextIOBase):
    """A text stream that gives each line written the line end it has in the file when the
    file has that line (a file's lines keep their own CRLF, LF or CR, and the literal ``\\r``
    texts before them); lines that take the place of as many lines of the file take theirs
    (a changed tag pair keeps its line's end), and other new lines that of the last line
    found. It writes into a :class:`Sink`."""

    def __init__(self, out: Sink, lines: FileLines) -> None:
        self._out = out
        self._lines = lines
        self._pieces: list[str] = []  # the line being written, not ended yet
        self._held: _Line | None = None  # a last line of the file without a line end
        # New lines not found in the file, kept until the next line found tells whether
        # they take the place of lines of the file (at most _NEAR, and _WINDOW_CHARS).
        self._new: list[str] = []
        self._new_chars = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        start = 0
        end = text.find("\n")
        while end >= 0:
            self._pieces.append(text[start:end])
            line = "".join(self._pieces)
            self._pieces = []
            self._line(line)
            start = end + 1
            end = text.find("\n", start)
        if start < len(text):
            self._pieces.append(text[start:])
        return len(text)

    def _release(self) -> None:
        held = self._held
        if held is not None:
            # More text follows the file's last line: it needs a line end now.
            self._held = None
            self._out.ending(held.literal + self._lines.last_end)

    def _line(self, text: str) -> None:
        self._release()
        found = self._lines.take(text)
        if found is None:
            self._new.append(text)
            self._new_chars += len(text)
            if len(self._new) > _NEAR or self._new_chars > _WINDOW_CHARS:
                self._write_new([])
            return
        line, passed = found
        self._write_new(passed)
        self._out.write(text)
        if line.end:
            self._out.ending(line.literal + line.end)
        else:
            self._held = line  # its end (none) is written only if nothing follows

    def _write_new(self, passed: list[_Line]) -> None:
        """Write the new lines kept, each with the end of the line of the file it takes the
        place of when they replace ``passed`` one for one, else the last line's end."""
        replaced = len(passed) == len(self._new)
        for text, old in zip(self._new, passed if replaced else [], strict=False):
            self._out.write(text)
            self._out.ending(old.literal + old.end)
        for text in self._new[len(passed) if replaced else 0 :]:
            self._out.write(text)
            self._out.ending(self._lines.last_end)
        self._new = []
        self._new_chars = 0

    def start_at(self, number: int, last: int | None = None) -> None:
        """The text written next starts at line ``number`` of the file and ends at line
        ``last`` (see :meth:`FileLines.start_at`); the new lines kept are written first."""
        self._write_new([])
        self._lines.start_at(number, last)

    def flush(self) -> None:
        """Write the new lines kept (with the end of the last line found) and the end of the
        file's last line when it has none (that of the lines before): nothing written so far
        is held back (each game of a copy is written whole, :mod:`pdn.collections.copying`). New
        lines
        as many as the lines of the text started at :meth:`start_at` left take their ends
        (the end of a game on the line the next game starts on)."""
        self._write_new(self._lines.rest())
        self._release()

    def follow(self, lines: FileLines) -> None:
        """Go on with the lines of another file: what is written next was read from it."""
        self._write_new([])
        self._release()
        self._lines.close()
        self._lines = lines

    def finish(self) -> None:
        """Write what is held back: the new lines kept, the text after the last line end,
        and what ends the file's last line when it ends the new text too."""
        self._write_new([])
        rest = "".join(self._pieces)
        self._pieces = []
        if rest:
            self._release()
            self._out.write(rest)
        elif self._held is not None:
            self._out.ending(self._held.literal)
            self._held = None
        self._lines.close()
