"""Rewriting a PDN file in place without losing a byte of what was not changed.

``pdn convert|annotate|fix --in-place`` replace each input with its own output. Reading
normalises what it reads (the text is decoded, line ends become LF, bytes that are not valid
in the file's encoding become U+FFFD), which is right for a new file but not for the one being
rewritten, so :func:`rewrite` writes the new text back in the file's own form:

* in its encoding (a Windows-1252 file stays Windows-1252, a BOM is kept) and with its line
  ends: each line the new text holds as the file had it keeps its own line end (CRLF, LF or
  CR, in a file that mixes them too) and the literal text ``\\r`` the reader drops before
  it; a changed or new line takes the line end of the last line kept (:class:`_LineEnds`);
* every U+FFFD that stands for bytes the decoder could not read is written back as those
  bytes, when the new text still holds it where it was (the same characters before it);

and refuses, leaving the file byte for byte as it was (:class:`InPlaceRefused`, one line naming
the file), when the rewrite would lose something:

* the file holds JSON records (it would be rewritten as PDN), or is no regular file;
* a game lost text on reading (:func:`text_lost`: text the parser skipped, a game cut for
  being longer than :data:`~pdn.cutting.MAX_GAME_CHARS`);
* the new file would hold fewer or more games than were read (counted by cutting both), or
  a game the reader would cut for its length (a command keeps a game whose new text does
  not :func:`fits` as it was read, :func:`as_read`);
* damaged bytes were dropped, changed or moved, or the new text holds a character the file's
  encoding cannot hold.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "g.pdn"
>>> _ = path.write_bytes(b'[Black "M\\xfcller"]\\r\\n1. 11-15 *\\r\\n')
>>> with rewrite(path) as out:
...     _ = out.write('[Black "M\\xfcller"]\\n[Round "1"]\\n1. 11-15 *\\n')
>>> path.read_bytes()
b'[Black "M\\xfcller"]\\r\\n[Round "1"]\\r\\n1. 11-15 *\\r\\n'
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import stat
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, TextIO

from .atomic import atomic_writer
from .cutting import MAX_GAME_CHARS, RawGame
from .decoding import BLOCK_SIZE, Decoder, byte_order

if TYPE_CHECKING:
    from .model import Game
    from .problems import Problem

__all__ = [
    "LOSSY_CODES",
    "FileForm",
    "InPlaceRefused",
    "as_read",
    "file_form",
    "fits",
    "rewrite",
    "text_lost",
]

#: Reading problems (of severity ``error``) whose text is not in the game as read: a game cut
#: for its length (its end skipped), or no PDN at all. Writing such a game back over its file
#: would lose it. Every other piece of text the reader cannot read is kept in the game (as a
#: comment, or as read), so its problem alone does not stop a rewrite.
LOSSY_CODES = frozenset({"game-too-long", "not-pdn"})

# How many characters (not white space) before a damaged byte must be the same in the new text
# for the byte to be put back there.
_CONTEXT = 3
# How many games past those read a U+FFFD of the new text is looked for in.
_LOOK_AHEAD = 2


class InPlaceRefused(ValueError):
    """A file was not rewritten in place because that would lose some of it; the message is
    one line that names the file, and the file is as it was."""


def text_lost(game: Game) -> Problem | None:
    """The first reading problem of ``game`` by which text of the file is not in the game (see
    :data:`LOSSY_CODES`), or ``None``."""
    for problem in game.errors:
        if problem.severity == "error" and problem.code in LOSSY_CODES:
            return problem
    return None


#: How many characters below :data:`~pdn.cutting.MAX_GAME_CHARS` a game written in place must
#: stay (:func:`fits`): the reader's cut falls near the limit, not on it.
_SIZE_MARGIN = 4096


def fits(text: str) -> bool:
    """Whether a game's new text is short enough that reading the file again will not cut it
    for its length (:data:`~pdn.cutting.MAX_GAME_CHARS`); a command writing in place keeps a
    game that does not fit as it was read (:func:`as_read`)."""
    return len(text) < MAX_GAME_CHARS - _SIZE_MARGIN


def as_read(out: TextIO, index: int) -> str | None:
    """The text of game ``index`` (1-based, the games asked for in order) of the file that
    ``out``, a stream of :func:`rewrite`, replaces, as it was read (written back into ``out``,
    it keeps its bytes and line ends); ``None`` when ``out`` replaces no file."""
    if not isinstance(out, _LineEnds):
        return None
    return out.game_as_read(index)


@dataclass(slots=True)
class FileForm:
    """How a file is written: the codec (as :mod:`pdn.decoding` decided it), the line end,
    and the byte order mark written first (a UTF-16 file's, in its byte order)."""

    encoding: str
    newline: str
    bom: str = ""


def file_form(path: str | os.PathLike[str], encoding: str | None = None) -> FileForm:
    """The encoding (``encoding`` when given, else decided as the reader decides it) and the
    line end (that of most lines of its first block: ``"\\n"``, ``"\\r\\n"`` or ``"\\r"``)
    of a file."""
    decoder = Decoder(encoding)
    with open(path, "rb") as handle:
        data = first = handle.read(max(BLOCK_SIZE, 4096))
        newline = _newline(data)
        while decoder.encoding is None:
            following = handle.read(BLOCK_SIZE)
            decoder.feed(data, final=not following)
            if not following:
                break
            data = following
    encoding = byte_order(decoder.encoding or "utf-8", first)
    if encoding == "utf-16":
        # Python's "utf-16" writes the machine's byte order: keep the file's.
        big = first.startswith(codecs.BOM_UTF16_BE)
        return FileForm("utf-16-be" if big else "utf-16-le", newline, "\ufeff")
    return FileForm(encoding, newline)


def _newline(data: bytes) -> str:
    # The line end most lines of the block have (the NUL bytes of UTF-16 left out).
    data = data.replace(b"\x00", b"")
    crlf = data.count(b"\r\n")
    lf, cr = data.count(b"\n") - crlf, data.count(b"\r") - crlf
    if crlf > lf and crlf >= cr:
        return "\r\n"
    return "\r" if cr > lf else "\n"


# ------------------------------------------------------------------ putting damaged bytes back


@lru_cache(maxsize=1024)
def _undefined(encoding: str, code: int) -> bool:
    """Whether byte ``code`` is undefined in a single-byte code page (the decoder then read it
    as Latin-1, so the character ``chr(code)`` is written back as that byte)."""
    try:
        bytes([code]).decode(encoding)
    except UnicodeDecodeError:
        return True
    except LookupError:
        return False
    return False


def _keep_bytes(encoding: str, exc: UnicodeError) -> tuple[bytes, int]:
    """Encoding error handler: a lone surrogate U+DC80-U+DCFF is the byte it escapes, a
    character the decoder read from a byte undefined in the code page ``encoding`` is that
    byte; anything else cannot be written in the file's encoding."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = bytearray()
    for at in range(exc.start, exc.end):
        code = ord(exc.object[at])
        if 0xDC80 <= code <= 0xDCFF:
            out.append(code - 0xDC00)
        elif code < 0x100 and _undefined(encoding, code):
            out.append(code)
        else:
            raise UnicodeEncodeError(exc.encoding, exc.object, at, at + 1, "not in the encoding")
    return bytes(out), exc.end


@lru_cache(maxsize=64)
def _errors_for(encoding: str) -> str:
    """The name of the :func:`_keep_bytes` handler for ``encoding`` (registered once; the
    code pages' codecs call themselves "charmap" in their errors, so each has its own)."""
    name = f"pdn.keep-bytes.{encoding}"
    codecs.register_error(name, partial(_keep_bytes, encoding))
    return name


def _escaped(data: bytes) -> str:
    """``data`` as characters that :func:`_keep_bytes` writes back as the same bytes."""
    return "".join(chr(0xDC00 + b) if b >= 0x80 else chr(b) for b in data)


def _context(text: str, end: int, begin: int = 0) -> str:
    """The last :data:`_CONTEXT` characters of ``text[begin:end]`` that are not white space."""
    chars: list[str] = []
    at = end - 1
    while at >= begin and len(chars) < _CONTEXT:
        if not text[at].isspace():
            chars.append(text[at])
        at -= 1
    return "".join(reversed(chars))


@dataclass(slots=True)
class _Mark:
    """A U+FFFD of the file as read: the bytes it stands for (``None``: a U+FFFD written in the
    file; ``b""``: damage whose bytes are not known), what stands before it, and its line."""

    data: bytes | None
    context: str
    line: int


class _Marks:
    """The U+FFFD characters of a file in order, read lazily (the file is cut, not parsed,
    beside the command reading it); counts the games and notes the first cut for its size."""

    def __init__(self, path: str, encoding: str | None = None) -> None:
        from .reader import split_games

        self._games: Iterator[RawGame] = split_games(path, encoding=encoding)
        self._pending: deque[_Mark] = deque()
        self.games = 0
        self.cut: RawGame | None = None

    def next(self) -> _Mark | None:
        """The next mark not taken yet, or ``None`` when the file holds no more."""
        while not self._pending:
            if not self._read():
                return None
        return self._pending.popleft()

    def take(self, before: str) -> _Mark | None:
        """The first mark not taken yet whose context ``before`` ends with, reading games
        up to the next that holds a mark and at most :data:`_LOOK_AHEAD` more for it (the new
        text may have reordered the tags of a game); ``None`` when there is none."""
        extra = 0
        while True:
            for at, mark in enumerate(self._pending):
                if before.endswith(mark.context):
                    del self._pending[at]
                    return mark
            if self._pending:
                if extra == _LOOK_AHEAD:
                    return None
                extra += 1
            if not self._read():
                return None

    def _read(self) -> bool:
        raw = next(self._games, None)
        if raw is None:
            return False
        self._add(raw)
        return True

    def drain(self) -> None:
        """Read the rest of the file (counting its games)."""
        for raw in self._games:
            self._add(raw)

    def _add(self, raw: RawGame) -> None:
        self.games += 1
        if raw.end == "size" and self.cut is None:
            self.cut = raw
        text = raw.text
        at = text.find("\ufffd")
        if at < 0:
            return
        damage = dict(raw.damage)
        line, counted = raw.line, 0  # line ends counted on from the previous mark: linear
        while at >= 0:
            if at in damage:
                record = damage[at]
                data: bytes | None = record.data if record is not None else b""
            else:
                data = None
            line += text.count("\n", counted, at)
            counted = at
            self._pending.append(_Mark(data, _context(text, at), line))
            at = text.find("\ufffd", at + 1)


# ------------------------------------------------------------------ each line's own line end

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


class _FileLines:
    """The lines of a file as read, each with its own line end, read lazily into a window
    of the next lines (at most :data:`_WINDOW_LINES`, and about :data:`_WINDOW_CHARS`), in
    which a written line is looked for: memory stays bounded and each line is read once."""

    def __init__(self, path: str, encoding: str | None, newline: str) -> None:
        self._handle: io.BufferedReader | None = open(path, "rb")  # noqa: SIM115 (closed at the end)
        self._decoder = _Verbatim(encoding)
        self._buffer = ""
        self._window: deque[_Line] = deque()
        self._counts: Counter[str] = Counter()
        self._chars = 0
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
                if match.end() == len(buffer) and buffer[at] == "\r" and not final:
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
        passed: list[_Line] = []
        if at > _NEAR or not text.strip():
            line = self._drop(at)
        else:
            passed = [self._drop() for _ in range(at)]
            line = self._drop()
        if line.end:
            self.last_end = line.end
        return line, passed


class _LineEnds(io.TextIOBase):
    """A text stream that gives each line written the line end it has in the file when the
    file has that line (a file's lines keep their own CRLF, LF or CR, and the literal ``\\r``
    texts before them); lines that take the place of as many lines of the file take theirs
    (a changed tag pair keeps its line's end), and other new lines that of the last line
    found. It writes into a :class:`_Restoring`."""

    def __init__(self, out: _Restoring, lines: _FileLines, path: str, encoding: str | None) -> None:
        self._out = out
        self._lines = lines
        self._path = path
        self._encoding = encoding
        self._games: Iterator[RawGame] | None = None  # the file's games, for game_as_read
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

    def game_as_read(self, index: int) -> str:
        """The text of the file's game ``index`` as read (see :func:`as_read`)."""
        from .reader import split_games

        if self._games is None:
            self._games = split_games(self._path, encoding=self._encoding)
        for raw in self._games:
            if raw.index == index:
                return raw.text if raw.text.endswith("\n") else raw.text + "\n"
            if raw.index > index:
                break
        raise ValueError(f"{self._path}: game {index} is not after the games asked for")

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


class _Restoring(io.TextIOBase):
    """A text stream that puts damaged bytes back where the new text keeps their U+FFFD."""

    def __init__(self, out: TextIO, marks: _Marks, path: str, encoding: str) -> None:
        self._out = out
        self._marks = marks
        self._path = path
        self._encoding = encoding
        self._tail = ""  # the last characters written that are not white space

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        written = len(text)
        if "\ufffd" in text:
            text = self._restore(text)
        else:
            self._tail = (self._tail + _context(text, len(text)))[-_CONTEXT:]
        self._out.write(text)
        return written

    def ending(self, text: str) -> None:
        """Write a line end (and the literal ``\\r`` texts before it) as it is: no text a
        damaged byte is placed by."""
        self._out.write(text)

    def _restore(self, text: str) -> str:
        parts: list[str] = []
        start = 0
        at = text.find("\ufffd")
        while at >= 0:
            before = (self._tail + _context(text, at, start))[-_CONTEXT:]
            mark = self._marks.take(before)
            if mark is None:
                raise InPlaceRefused(
                    f"{self._path}: the new text holds a U+FFFD where the file did not; "
                    "it was left as it is"
                )
            if mark.data == b"":
                raise InPlaceRefused(
                    f"{self._path}:{mark.line}: bytes that are not valid {self._encoding} "
                    "cannot be told apart from the text around them; it was left as it is"
                )
            parts.append(text[start:at])
            parts.append("\ufffd" if mark.data is None else _escaped(mark.data))
            self._tail = (before + "\ufffd")[-_CONTEXT:]
            start = at + 1
            at = text.find("\ufffd", start)
        parts.append(text[start:])
        self._tail = (self._tail + _context(text, len(text), start))[-_CONTEXT:]
        return "".join(parts)

    def _moved(self, mark: _Mark) -> InPlaceRefused:
        return InPlaceRefused(
            f"{self._path}:{mark.line}: bytes that are not valid {self._encoding} would be "
            "changed or dropped (shown as U+FFFD); it was left as it is (write a copy with -o)"
        )

    def finish(self) -> None:
        """Check that every damaged byte of the file was put back and no game was cut."""
        mark = self._marks.next()
        if mark is not None:
            raise self._moved(mark)
        self._marks.drain()
        cut = self._marks.cut
        if cut is not None:
            raise InPlaceRefused(
                f"{self._path}:{cut.line}: game {cut.index} is longer than {MAX_GAME_CHARS} "
                "characters and was cut on reading; it was left as it is"
            )


@contextlib.contextmanager
def rewrite(path: str | os.PathLike[str], encoding: str | None = None) -> Iterator[TextIO]:
    """A text stream for the new content of ``path`` (a PDN file), which replaces it
    atomically, in the file's own encoding (``encoding`` when the user gave the one it was
    read in) and line ends, once the block ends; or :class:`InPlaceRefused` with the file
    left as it was when that would lose some of it (see the module docstring). Text is
    written with ``\\n`` line ends, as read."""
    from .batch import is_json
    from .reader import split_games

    name = os.fspath(path)
    if not stat.S_ISREG(os.stat(name).st_mode):
        raise InPlaceRefused(f"{name} is no regular file; it cannot be rewritten in place")
    if is_json(name):
        raise InPlaceRefused(
            f"{name} holds JSON records; rewriting it in place would write PDN into it "
            "(give -o to write the PDN elsewhere); it was left as it is"
        )
    form = file_form(name, encoding)
    marks = _Marks(name, encoding)

    def same_games(temporary: str) -> None:
        written = 0
        for raw in split_games(temporary, encoding=encoding):
            written += 1
            if raw.end == "size":
                raise InPlaceRefused(
                    f"{name}: game {raw.index} would be longer than {MAX_GAME_CHARS} characters "
                    "as written, and cut on reading; it was left as it is"
                )
        if written != marks.games:
            raise InPlaceRefused(
                f"{name}: the new text holds {written} game{'s' * (written != 1)} where "
                f"{marks.games} {'were' if marks.games != 1 else 'was'} read; it was left as it is"
            )

    try:
        lines = _FileLines(name, encoding, form.newline)
        with (
            contextlib.closing(lines),
            atomic_writer(
                name,
                encoding=form.encoding,
                errors=_errors_for(form.encoding),
                newline="",  # each line's end is written as the file has it (_LineEnds)
                check=same_games,
            ) as handle,
        ):
            handle.write(form.bom)
            restoring = _Restoring(handle, marks, name, form.encoding)
            ends = _LineEnds(restoring, lines, name, encoding)
            yield ends  # type: ignore[misc]  # a TextIOBase used as a TextIO
            ends.finish()
            restoring.finish()
    except UnicodeEncodeError as exc:
        char = exc.object[exc.start : exc.end]
        raise InPlaceRefused(
            f"{name}: the new text holds {char!r}, which {form.encoding} (the file's "
            "encoding) cannot hold; it was left as it is"
        ) from None
