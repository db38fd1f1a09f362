"""Rewriting a PDN file in place without losing a byte of what was not changed.

``pdn convert|annotate|fix --in-place`` replace each input with its own output. Reading
normalises what it reads (the text is decoded, line ends become LF, bytes that are not valid
in the file's encoding become U+FFFD), which is right for a new file but not for the one being
rewritten, so :func:`rewrite` writes the new text back in the file's own form:

* in its encoding (a Windows-1252 file stays Windows-1252, a BOM is kept) and with its line
  ends: each line the new text holds as the file had it keeps its own line end (CRLF, LF or
  CR, in a file that mixes them too) and the literal text ``\\r`` the reader drops before
  it; a changed or new line takes the line end of the last line kept
  (:class:`~pdn.text.line_ends.LineEnds`);
* every U+FFFD that stands for bytes the decoder could not read is written back as those
  bytes, when the new text still holds it where it was (the same characters before it);

and refuses, leaving the file byte for byte as it was (:class:`InPlaceRefused`, one line naming
the file), when the rewrite would lose something:

* the file holds JSON records (it would be rewritten as PDN), or is no regular file;
* a game lost text on reading (:func:`text_lost`: text the parser skipped, a game cut for
  being longer than :data:`~pdn.reading.cutting.MAX_GAME_CHARS`);
* the new file would hold fewer or more games than were read (counted by cutting both), or
  a game the reader would cut for its length (a command keeps such a game, and one whose
  text no writer gives back, as it was read: :func:`keep_as_read`, :func:`as_read`);
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
import stat
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, TextIO

from pdn.reading.cutting import MAX_GAME_CHARS, RawGame
from pdn.text.atomic import atomic_writer
from pdn.text.decoding import BLOCK_SIZE, Decoder, byte_order
from pdn.text.line_ends import FileLines, LineEnds

if TYPE_CHECKING:
    from pdn.game.model import Game
    from pdn.text.problems import Problem

__all__ = [
    "LOSSY_CODES",
    "UNWRITABLE_CODES",
    "FileForm",
    "InPlaceRefused",
    "as_read",
    "file_form",
    "keep_as_read",
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


#: How many characters below :data:`~pdn.reading.cutting.MAX_GAME_CHARS` a game written in place
# must
#: stay (:func:`keep_as_read`): the reader's cut falls near the limit, not on it.
_SIZE_MARGIN = 4096


#: Reading problems of a game whose text no writer gives back as it was read (the parentheses
#: of a variation that is all of the game's moves): a command writing in place keeps such a
#: game as it was read (:func:`keep_as_read`).
UNWRITABLE_CODES = frozenset({"lone-variation"})  # (each said by cli.converting too)


def keep_as_read(game: Game, text: str) -> str | None:
    """Why a command writing in place must keep ``game`` as it was read (:func:`as_read`)
    rather than write ``text``, its new text: the reader would cut ``text`` for its length
    (:data:`~pdn.reading.cutting.MAX_GAME_CHARS`), or the game holds what a writer cannot give back
    (:data:`UNWRITABLE_CODES`); ``None`` when ``text`` can be written."""
    if len(text) >= MAX_GAME_CHARS - _SIZE_MARGIN:
        return f"would be longer than {MAX_GAME_CHARS} characters as written, and cut on reading"
    for problem in game.errors:
        if problem.code in UNWRITABLE_CODES:
            return f"would be written without what {problem.code} says"
    return None


def as_read(out: TextIO, index: int) -> str | None:
    """The text of game ``index`` (1-based, the games asked for in order) of the file that
    ``out``, a stream of :func:`rewrite`, replaces, as it was read (written back into ``out``,
    it keeps its bytes and line ends); ``None`` when ``out`` replaces no file."""
    if not isinstance(out, _InPlace):
        return None
    return out.game_as_read(index)


@dataclass(slots=True)
class FileForm:
    """How a file is written: the codec (as :mod:`pdn.text.decoding` decided it), the line end,
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
        from pdn.reading.reader import split_games

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


class _InPlace(LineEnds):
    """The stream :func:`rewrite` gives: each line with its own line end in the file
    (:class:`~pdn.text.line_ends.LineEnds`), and the file's games as read (:func:`as_read`)."""

    def __init__(self, out: _Restoring, lines: FileLines, path: str, encoding: str | None) -> None:
        super().__init__(out, lines)
        self._path = path
        self._encoding = encoding
        self._games: Iterator[RawGame] | None = None  # the file's games, for game_as_read

    def game_as_read(self, index: int) -> str:
        """The text of the file's game ``index`` as read (see :func:`as_read`)."""
        from pdn.reading.reader import split_games

        if self._games is None:
            self._games = split_games(self._path, encoding=self._encoding)
        for raw in self._games:
            if raw.index == index:
                return raw.text if raw.text.endswith("\n") else raw.text + "\n"
            if raw.index > index:
                break
        raise ValueError(f"{self._path}: game {index} is not after the games asked for")


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
            if mark.data and self._encoding.startswith(("utf-16", "utf-32")):
                # Its encoder writes no odd count of bytes, and a lost byte is no character
                # to put back: a damaged UTF-16 file stays as it is (issue 33).
                raise InPlaceRefused(
                    f"{self._path}:{mark.line}: bytes that are not valid {self._encoding} "
                    "cannot be written back in it; it was left as it is (write a copy with -o)"
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
    from pdn.reading.reader import split_games

    from .batch import is_json

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
        lines = FileLines(name, encoding, form.newline)
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
            ends = _InPlace(restoring, lines, name, encoding)
            yield ends  # type: ignore[misc]  # a TextIOBase used as a TextIO
            ends.finish()
            restoring.finish()
    except UnicodeEncodeError as exc:
        char = exc.object[exc.start : exc.end]
        raise InPlaceRefused(
            f"{name}: the new text holds {char!r}, which {form.encoding} (the file's "
            "encoding) cannot hold; it was left as it is"
        ) from None
