"""Reading PDN: decoding, cutting a stream into games, parsing, error recovery.

``read_games(source)`` yields :class:`~pdn.model.Game` objects one at a time, in constant memory
for files of any size.  Nothing in the input stops it: what cannot be read becomes a
:class:`~pdn.problems.Problem` on ``game.errors`` (with a 1-based line and column, absolute in
the file) and the reader goes on with the next game.

Pipeline:

1. **Decoding** (:class:`_Decoder`): a BOM decides; otherwise bytes are read as ASCII until the
   first byte above 127, and the text around it decides between UTF-8 (damaged sequences are
   replaced by U+FFFD and reported as ``encoding`` warnings), Windows-1251 (Cyrillic text),
   Windows-1252 and Latin-1.  CR and CRLF become LF; the literal text ``\\r`` that some broken
   exports leave at line ends is dropped.
2. **Cutting** (:class:`_Chunker`): a game ends after a result at the top level, where a tag pair
   follows movetext, where a tag pair on its own line shows that a ``{`` comment was never closed,
   or at the end of the input.  Comments, tag values and ``%``/``;`` lines are skipped while
   cutting, so ``{if 1-0 then}`` never ends a game.
3. **Parsing**: each game is parsed by the LALR grammar ``grammars/pdn.lark`` with one Lark
   parser built once per thread; a run of plain moves is one token, split here with a compiled
   regular expression.  An unbalanced ``)`` is skipped and unclosed ``(`` are closed, each with
   an error; everything else that is not PDN is lexed as junk, kept as a comment and reported.

Policies:

* a ``*`` glued to a move (``27-20*``) with more movetext after it is the PDN 2.0 "star" strength
  mark; a ``*`` that ends the game (before white space and the next game or the end of input)
  is the terminator;
* ``;`` starts a comment to the end of the line anywhere outside braces and tag values;
  ``%`` too (PDN 3.0 allows it anywhere, not only in column 1);
* text glued to a move (``8-11Redoversteppedthetimecontrol.``) or stray words become brace
  comments with a ``junk`` warning; a result inside a variation too;
* ``[Empty]`` and other brackets with no quoted value are skipped with a ``junk`` warning; a tag
  whose value is damaged (``[Event "The "Big" Match"]``) is kept with a ``bad-tag`` warning;
* a move number with no move after it (``1. 0-2``) is dropped with a ``dangling-move-number``
  warning; ``- -`` is kept as the move ``"- -"`` with an ``unknown-move`` warning.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from typing import IO, Any, Union, cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from pdn.gametype import (
    GameTypeError,
    fen_evidence,
    parse_game_type,
    variant_from_evidence,
)
from pdn.model import Comment, Game, Node, Tags
from pdn.problems import Problem

__all__ = ["RawGame", "Source", "read_game", "read_games", "split_games"]

#: What :func:`read_games` reads: PDN text, raw bytes, a path, or an open text or binary file.
Source = Union[str, bytes, "os.PathLike[str]", IO[str], IO[bytes]]

#: How much is read from a file at a time.
BLOCK_SIZE = 1 << 20
#: A game longer than this (in characters) is cut, so that memory stays bounded whatever the input.
MAX_GAME_CHARS = 4 << 20


# =============================================================================================
# Grammar and patterns shared with it
# =============================================================================================


def _grammar_text() -> str:
    return resources.files("pdn.grammars").joinpath("pdn.lark").read_text(encoding="utf-8")


class _Collect(Transformer[Token, list[Token]]):
    """Runs inside the LALR parser: ``start`` gets the flat token list of a game."""

    def start(self, children: list[Token]) -> list[Token]:
        return children


_local = threading.local()


def _parser() -> Lark:
    """The Lark parser of this thread (built on first use; Lark parsers are not thread-safe)."""
    parser: Lark | None = getattr(_local, "parser", None)
    if parser is None:
        parser = Lark(
            _grammar_text(),
            parser="lalr",
            lexer="contextual",
            start=["start", "pieces"],
            transformer=_Collect(),
            maybe_placeholders=False,
        )
        _local.parser = parser
    return parser


def _terminal(name: str) -> str:
    return str(_parser().get_terminal(name).pattern.to_regexp())


class _Patterns:
    """Regular expressions built from the grammar's own terminals, compiled once."""

    def __init__(self) -> None:
        number = _terminal("NUMBER")
        move = _terminal("MOVE")
        # One match per move: its number (if any) and the move, or a number with no move.
        self.split = re.compile(f"(?:({number})\\s*)?({move})|({number})")
        self.tag = re.compile(_terminal("TAG"))
        self.tags = re.compile(_terminal("TAGS"))
        self.badtag = re.compile(_terminal("BADTAG"))
        self.result = re.compile(_terminal("RESULT"))
        # What starts the movetext (only the first piece is needed to know that it starts).
        self.lead = re.compile(
            "|".join(
                _terminal(name)
                for name in ("NUMBER", "MOVE", "STRENGTH", "STAR", "NAG", "SETUP", "LPAR")
            )
        )
        self.junk = re.compile(_terminal("JUNK"))


_patterns_cache: list[_Patterns] = []
_patterns_lock = threading.Lock()


def _patterns() -> _Patterns:
    if not _patterns_cache:
        with _patterns_lock:
            if not _patterns_cache:
                _patterns_cache.append(_Patterns())
    return _patterns_cache[0]


# Parts of a tag pair, the TAG terminal with groups: the name (everything up to the first quote)
# and the value, between straight quotes (group 2, with escapes) or curly ones (group 3).
_TAG_PARTS = re.compile(
    r"\[([^\"\]\[\n\u201c\u201d]*)"
    r"(?:\"((?:\\.|[^\"\\\n])*)[\"\u201d]|\u201c([^\n]*?)[\u201d\"])[ \t]*\]"
)
_GOOD_TAG_NAME = re.compile(r"[A-Z][A-Za-z0-9_]*")
# What a damaged tag pair's name may be for the pair to be kept (it must write back as a name).
_SALVAGED_NAME = re.compile(r"[^\s\"\]\[\u201c\u201d{}()]+(?: [^\s\"\]\[\u201c\u201d{}()]+)*")
# Tag names already checked (the same few names recur in every game of a file).
_TAG_NAMES_SEEN: dict[str, tuple[str, bool]] = {}
_UNESCAPE = re.compile(r"\\([\"\\])")
# White space other than " " and a line end inside a run (tabs, NO-BREAK SPACE...).
_ODD_SPACE = re.compile(r"[\t\x0b\x0c\x1c-\x1f]")  # after an isascii() check
_WORD = re.compile(r"\S+")
_ALGEBRAIC_IN_RUN = re.compile(r"[a-lA-L](?:1[0-2]|[1-9])(?![0-9])")
# A numeric square above 32 (not a move number: those are followed by "."); it starts with a
# character class so that the regex engine skips text quickly.
_HIGH_SQUARE_IN_RUN = re.compile(r"(?:3[3-9]|[4-9][0-9])(?<![0-9]..)(?![0-9.])")
# Every numeric square of a run: next to a separator (so not a move number), or one of the two
# halves of a move written without separator ("3228").  (A square above 32 in such a move is not
# seen by _HIGH_SQUARE_IN_RUN: those moves are too rare to slow every run down for them.)
_SQUARE_IN_RUN = re.compile(
    r"(?<![0-9])([0-9]{1,2})(?=\s*[-xX:])|[-xX:]\s*([0-9]{1,2})(?![0-9.])"
    r"|(?<![0-9.])([0-9]{2})([0-9]{2})(?![0-9.])"
)
# The keyword and the FEN of a setup command (the SETUP terminal with groups).
_SETUP_PARTS = re.compile(r'/[ \t]*([A-Za-z]*)[ \t]*"([^"\n/]*)"[ \t]*/')
_RESULTS = frozenset(["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"])


# =============================================================================================
# Decoding
# =============================================================================================

_NON_ASCII = re.compile(rb"[\x80-\xff]")
#: How many bytes from the first non-ASCII one decide the encoding.
_GUESS_WINDOW = 65536
# The text "\r" (any number of times) before a line end, left by broken exports; removed.
_LITERAL_CR = re.compile(r"(?:\\r)+(?=\n)")
_LITERAL_CR_AT_END = re.compile(r"(?:\\r)+(?=\n|\Z)")


@dataclass(slots=True)
class _Damage:
    """A byte sequence that is not valid in the detected encoding."""

    byte_offset: int
    data: bytes


class _Decoder:
    """Bytes in blocks -> normalised text in blocks, deciding the encoding on the way."""

    def __init__(self, encoding: str | None) -> None:
        self.forced = encoding
        self.encoding: str | None = None
        if encoding is not None:
            self.encoding = codecs.lookup(encoding).name
        self._pending = b""  # an incomplete multi-byte sequence at the end of a block
        self._undecided = b""  # bytes from the first non-ASCII one, until there are enough
        self._byte_base = 0  # file offset of the first byte of _pending + next block
        self._first = True
        self._carry = ""  # text held back: a CR that may start a CRLF, a "\" that may be "\r"
        self.damage: list[_Damage] = []
        self._incremental: codecs.IncrementalDecoder | None = None
        self.emitted = 0  # normalised characters returned so far
        # Offset (in normalised characters) from which the decided encoding applies: the first
        # non-ASCII character (0 for a BOM or a forced encoding); text before it is ASCII.
        self.decided_at: int | None = 0 if encoding is not None else None
        self._split: int | None = None  # where, in the text just decoded, the decision fell

    # Encoding detection -------------------------------------------------------------------

    @staticmethod
    def _guess(window: bytes, complete: bool = True) -> str:
        # Count invalid UTF-8 sequences and valid multi-byte characters (a U+FFFD written in
        # the file is a valid character; an incomplete sequence at the window's end is no error).
        bad = good = 0
        data = window
        while True:
            try:
                text, _ = codecs.utf_8_decode(data, "strict", complete)
            except UnicodeDecodeError as exc:
                good += sum(1 for ch in data[: exc.start].decode("utf-8") if ord(ch) > 127)
                bad += 1
                data = data[exc.end :]
                continue
            good += sum(1 for ch in text if ord(ch) > 127)
            break
        if bad == 0 or good >= bad:
            return "utf-8"
        high = [i for i, b in enumerate(window) if b > 127]
        letters = sum(1 for i in high if window[i] >= 0xC0)
        neighbours = sum(
            1
            for i in high
            if (i > 0 and window[i - 1] > 127) or (i + 1 < len(window) and window[i + 1] > 127)
        )
        # Cyrillic text in Windows-1251 is whole words of bytes 0xC0-0xFF; accented Latin text
        # has isolated high bytes between ASCII letters.
        if letters >= 0.6 * len(high) and neighbours >= 0.5 * len(high):
            return "cp1251"
        try:
            window.decode("cp1252")
        except UnicodeDecodeError:
            return "latin-1"
        return "cp1252"

    # Decoding -------------------------------------------------------------------------------

    def _decode_utf8(self, data: bytes, final: bool) -> str:
        parts: list[str] = []
        base = self._byte_base
        while True:
            try:
                text, consumed = codecs.utf_8_decode(data, "strict", final)
            except UnicodeDecodeError as exc:
                parts.append(data[: exc.start].decode("utf-8"))
                parts.append("\ufffd")
                self.damage.append(_Damage(base + exc.start, data[exc.start : exc.end]))
                data = data[exc.end :]
                base += exc.end
                continue
            parts.append(text)
            self._pending = data[consumed:]
            self._byte_base = base + consumed
            return "".join(parts)

    def _decode_single(self, data: bytes, encoding: str) -> str:
        # Single-byte code pages: a byte the code page leaves undefined is read as Latin-1.
        self._byte_base += len(data)
        parts: list[str] = []
        while data:
            try:
                parts.append(data.decode(encoding))
                break
            except UnicodeDecodeError as exc:
                parts.append(data[: exc.start].decode(encoding))
                parts.append(data[exc.start : exc.end].decode("latin-1"))
                data = data[exc.end :]
        return "".join(parts)

    def _decode(self, data: bytes, final: bool) -> str:
        encoding = self.encoding
        if encoding is None:
            data = self._undecided + data
            self._undecided = b""
            hit = _NON_ASCII.search(data)
            if hit is None:
                if final:
                    self.encoding = "utf-8"
                self._byte_base += len(data)
                return data.decode("ascii")
            head = data[: hit.start()].decode("ascii")
            self._byte_base += hit.start()
            rest = data[hit.start() :]
            if len(rest) < _GUESS_WINDOW and not final:
                # Too little text after the first non-ASCII byte to judge: wait for more.
                self._undecided = rest
                return head
            complete = final and len(rest) <= _GUESS_WINDOW
            self.encoding = encoding = self._guess(rest[:_GUESS_WINDOW], complete)
            self._split = len(head)
            return head + self._decode(rest, final)
        if encoding in ("utf-8", "utf-8-sig"):
            return self._decode_utf8(self._pending + data, final)
        if encoding in ("cp1252", "cp1251", "latin-1", "iso8859-1"):
            return self._decode_single(data, encoding)
        if self._incremental is None:
            self._incremental = codecs.getincrementaldecoder(encoding)("replace")
        return self._incremental.decode(data, final)

    def feed(self, data: bytes, final: bool = False) -> str:
        """Decode the next block; ``final`` on the last one."""
        if self._first:
            self._first = False
            if self.forced is None:
                if data.startswith(codecs.BOM_UTF8):
                    self.encoding = "utf-8-sig"
                    self.decided_at = 0
                    data = data[3:]
                    self._byte_base = 3
                elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
                    self.encoding = "utf-16"
                    self.decided_at = 0
        return self.normalise(self._decode(data, final), final)

    def normalise(self, text: str, final: bool) -> str:
        """LF line ends, no literal ``\\r`` before them, no BOM; holds back a split CRLF."""
        split = self._split
        self._split = None
        if split is not None:
            # The ASCII text before the first non-ASCII character: where it ends once
            # normalised (nothing is merged across that character, which is no CR, LF or "\").
            prefix = _plain_normalise(self._carry + text[:split], self.emitted == 0)
            self.decided_at = self.emitted + len(prefix)
        text = self._carry + text
        self._carry = ""
        if not final:
            # A CR may be followed by the LF of the next block, and literal "\r" texts (or a
            # "\" that may become one) by a line end: hold them back.
            cut = len(text)
            if cut and text[cut - 1] in "\r\\":
                cut -= 1
            while text.endswith("\\r", 0, cut):
                cut -= 2
            if cut < len(text):
                self._carry = text[cut:]
                text = text[:cut]
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if "\\r" in text:
            text = (_LITERAL_CR_AT_END if final else _LITERAL_CR).sub("", text)
        if self.emitted == 0 and text.startswith("\ufeff"):
            text = text[1:]
        self.emitted += len(text)
        return text


def _plain_normalise(text: str, at_start: bool) -> str:
    """What :meth:`_Decoder.normalise` makes of ``text`` when nothing is held back."""
    text = _LITERAL_CR.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    return text[1:] if at_start and text.startswith("\ufeff") else text


# =============================================================================================
# Opening sources
# =============================================================================================


@dataclass(slots=True)
class _Input:
    """Normalised text blocks of one source, and what is known about its encoding."""

    blocks: Iterator[str]
    decoder: _Decoder | None
    encoding_label: str
    binary_problem: Problem | None = None

    def encoding_of(self, end: int) -> str:
        """The encoding to record on a game whose text ends at character offset ``end``.

        A game read before the encoding was known is ASCII, so "utf-8"; the answer does not
        depend on how the input was cut into blocks.
        """
        decoder = self.decoder
        if decoder is None:
            return self.encoding_label
        if decoder.encoding is None or decoder.decided_at is None or end <= decoder.decided_at:
            return "utf-8"
        return decoder.encoding


def _binary_blocks(stream: IO[bytes], decoder: _Decoder, first: bytes) -> Iterator[str]:
    data = first
    while True:
        following = stream.read(BLOCK_SIZE)
        text = decoder.feed(data, final=not following)
        if text:
            yield text
        if not following:
            return
        data = following


def _text_blocks(stream: IO[str], decoder: _Decoder) -> Iterator[str]:
    data = stream.read(BLOCK_SIZE)
    while True:
        following = stream.read(BLOCK_SIZE) if data else ""
        text = decoder.normalise(data, final=not following)
        if text:
            yield text
        if not following:
            return
        data = following


def _sniff_binary(first: bytes) -> Problem | None:
    if first.startswith(b"PDN3"):
        return Problem(
            "not-pdn",
            "this is a Paint.NET image (it starts with 'PDN3'), not a draughts game record",
            line=1,
            column=1,
        )
    head = first[:4096]
    if b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return Problem(
            "not-pdn",
            f"this is a binary file (NUL byte at offset {head.index(0)}), not PDN text",
            line=1,
            column=1,
        )
    return None


def _open_bytes(stream: IO[bytes], encoding: str | None) -> _Input:
    # The first read is large enough to see a BOM or a binary header whatever BLOCK_SIZE is.
    first = stream.read(max(BLOCK_SIZE, 4096))
    decoder = _Decoder(encoding)
    problem = _sniff_binary(first) if encoding is None else None
    if problem is not None:
        return _Input(iter(()), decoder, "binary", problem)
    return _Input(_binary_blocks(stream, decoder, first), decoder, "utf-8")


def _open(source: Source | None, encoding: str | None, path: str | os.PathLike[str] | None) -> Any:
    """A context: (input, file to close or None)."""
    if path is not None:
        handle = open(path, "rb")  # noqa: SIM115 - closed by read_games
        return _open_bytes(handle, encoding), handle
    if source is None:
        raise TypeError("read_games() needs a source or path=")
    if isinstance(source, os.PathLike):
        handle = open(source, "rb")  # noqa: SIM115 - closed by read_games
        return _open_bytes(handle, encoding), handle
    if isinstance(source, str):
        decoder = _Decoder(None)
        text = decoder.normalise(source, final=True)
        return _Input(iter([text] if text else []), None, "unicode"), None
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _open_bytes(io.BytesIO(bytes(source)), encoding), None
    if isinstance(source, io.TextIOBase) or (
        hasattr(source, "read") and isinstance(getattr(source, "encoding", None), str)
    ):
        stream = cast(IO[str], source)
        label = getattr(stream, "encoding", None) or "unicode"
        return _Input(_text_blocks(stream, _Decoder(None)), None, str(label).lower()), None
    if hasattr(source, "read"):
        stream_any = cast(IO[Any], source)
        first = stream_any.read(0)
        if isinstance(first, str):
            return _Input(_text_blocks(stream_any, _Decoder(None)), None, "unicode"), None
        return _open_bytes(stream_any, encoding), None
    raise TypeError(f"cannot read PDN from {type(source).__name__}")


# =============================================================================================
# Cutting the text into games
# =============================================================================================


@dataclass(slots=True)
class RawGame:
    """The text of one game, cut from its source but not parsed yet.

    Cheap to make and small to send to another process (it pickles); :meth:`parse` turns it into
    a :class:`~pdn.model.Game`.  ``line`` and ``column`` (1-based) locate ``text[0]`` in the file,
    so every position the parser reports is absolute.
    """

    text: str
    offset: int  # character offset of text[0] in the (normalised) input
    line: int
    column: int
    end: str  # why the game ends: "result", "tag", "comment" (unclosed), "eof", "size"
    index: int = 0  # 1-based position of the game in its source
    encoding: str = "utf-8"
    damage: list[tuple[int, _Damage | None]] = field(default_factory=list)
    problem: Problem | None = None  # set when the source is not PDN at all

    def parse(self) -> Game:
        """The game: tags, move tree, terminator, variant and the problems found."""
        if self.problem is not None:
            game = Game(encoding=self.encoding, index=self.index, errors=[self.problem])
            game.variant = None
            return game
        return _parse_chunk(self)


_WS = re.compile(r"\s*")


def _skip_space(text: str, at: int) -> int:
    """The index of the first character at or after ``at`` that is not white space."""
    match = _WS.match(text, at)
    return at if match is None else match.end()


# What matters while cutting movetext, found by two searches that the regex engine runs fast: the
# rare delimiters (a bare character class) and results (anchored on their "-", which a literal
# scan finds; the look-behinds check that a result starts after white space or a delimiter).
_SPECIAL = re.compile(r"[\[{%;)*(/]")
_RESULT_DASH = re.compile(r"-(?:(?<=[\s)}\]][012]-)[012]|(?<=[\s)}\]]1/2-)1/2)(?![^\s\[\](){};%])")
_PAREN_STRENGTH = re.compile(r"\([!?]+\)")
_SETUP = _SETUP_PARTS
_SPECIAL_KIND = {"[": "bracket", "{": "brace", "%": "line", ";": "line", ")": "close"}
_SPECIAL_KIND.update({"*": "star", "(": "open", "/": "setup"})

# A line holding a tag pair: inside a "{" comment it shows that the comment was never closed.
_TAG_LINE = re.compile(r"\n[ \t]*\[[A-Za-z][^\]\n\"]*\"[^\"\n]*\"[ \t]*\]")


class _NeedMore(Exception):
    pass


class _Chunker:
    """Cuts a stream of normalised text blocks into game chunks, keeping absolute positions."""

    def __init__(self, blocks: Iterator[str], decoder: _Decoder | None) -> None:
        self._blocks = blocks
        self._decoder = decoder
        self._buf = ""
        self._pos = 0  # where the next game starts in _buf
        self._base = 0  # absolute offset of _buf[0]
        self._line = 1  # line at _buf[_pos]
        self._col = 1  # column at _buf[_pos]
        self._eof = False
        self._damage_seen = 0  # how many damage records of the decoder are placed
        self._damage: list[tuple[int, _Damage | None]] = []  # (absolute offset, record)
        self._patterns = _patterns()
        # (searched from, first result at or after it or -1, its end)
        self._result_cache: tuple[int, int, int] = (1 << 62, -1, -1)
        self._special_cache: tuple[int, re.Match[str] | None] = (1 << 62, None)

    def _fill(self) -> bool:
        try:
            block = next(self._blocks)
        except StopIteration:
            self._eof = True
            return False
        if self._decoder is not None and len(self._decoder.damage) > self._damage_seen:
            records = self._decoder.damage[self._damage_seen :]
            self._damage_seen = len(self._decoder.damage)
            where = [m.start() for m in re.finditer("\ufffd", block)]
            absolute = self._base + len(self._buf)
            for i, offset in enumerate(where):
                record = records[i] if len(where) == len(records) else None
                self._damage.append((absolute + offset, record))
            # The decoder keeps only what is not yet placed.
            del self._decoder.damage[:]
            self._damage_seen = 0
        # Drop what was consumed before appending, so the buffer holds about one block.
        if self._pos:
            self._base += self._pos
            self._buf = self._buf[self._pos :]
            self._pos = 0
        self._buf += block
        self._result_cache = (1 << 62, -1, -1)
        self._special_cache = (1 << 62, None)
        return True

    def __iter__(self) -> Iterator[RawGame]:
        while True:
            try:
                found = self._scan()
            except _TooLong as too_long:
                found = self._force_cut(too_long.start)
            except _NeedMore:
                self._fill()  # more text, or the end of the input (then _scan decides)
                continue
            if found is None:
                return
            yield found

    def _force_cut(self, start: int) -> RawGame:
        # A game that never ends within MAX_GAME_CHARS: cut at the last line end so that memory
        # stays bounded; the parser reports what this breaks.
        buf = self._buf
        end = buf.rfind("\n", start + 1)
        if end <= start:
            end = len(buf)
        line, column = self._advance(start, end)
        return RawGame(buf[start:end], self._base + start, line, column, "size")

    def _advance(self, start: int, end: int) -> tuple[int, int]:
        """Line and column at ``start``, moving the running position from _pos to ``end``."""
        buf = self._buf
        newlines = buf.count("\n", self._pos, start)
        if newlines:
            line = self._line + newlines
            column = start - buf.rfind("\n", self._pos, start)
        else:
            line = self._line
            column = self._col + (start - self._pos)
        newlines = buf.count("\n", start, end)
        if newlines:
            self._line = line + newlines
            self._col = end - buf.rfind("\n", start, end)
        else:
            self._line = line
            self._col = column + (end - start)
        self._pos = end
        return line, column

    def _scan(self) -> RawGame | None:
        buf = self._buf
        n = len(buf)
        eof = self._eof
        start = _skip_space(buf, self._pos)
        if start >= n:
            if not eof:
                raise _NeedMore
            return None
        end, reason, _ = self._find_end(buf, start, n, eof)
        line, column = self._advance(start, end)
        absolute = self._base + start
        chunk = RawGame(buf[start:end], absolute, line, column, reason)
        if self._damage:
            stop = self._base + end
            chunk.damage = [(o - absolute, d) for o, d in self._damage if absolute <= o < stop]
            self._damage = [(o, d) for o, d in self._damage if o >= stop]
        return chunk

    def _find_end(self, buf: str, start: int, n: int, eof: bool) -> tuple[int, str, int]:
        """End of the game that starts at ``start``: (end index, reason, unclosed "{" or -1)."""
        patterns = self._patterns
        guard = n if eof else n - 64  # decisions closer than this to the end wait for more text
        q = start
        # --- the tag section ---------------------------------------------------------------
        while True:
            q = _skip_space(buf, q)
            if q >= guard:
                if eof and q >= n:
                    return n, "eof", -1
                raise self._need(start, n)
            ch = buf[q]
            if ch == "[":
                tag = patterns.tags.match(buf, q) or patterns.badtag.match(buf, q)
                assert tag is not None
                if tag.end() >= guard and not eof:
                    raise self._need(start, n)
                q = tag.end()
                continue
            if ch == "{":
                q, cut = self._skip_comment(buf, q, n, eof, start)
                if cut >= 0:
                    return cut, "comment", q
                continue
            if ch in "%;":
                q = self._skip_line(buf, q, n, eof, start)
                continue
            if ch == "}":
                q += 1
                continue
            result = patterns.result.match(buf, q)
            if result is not None:
                if result.end() >= guard and not eof:
                    raise self._need(start, n)
                return result.end(), "result", -1
            if patterns.lead.match(buf, q) is not None:
                break
            junk = patterns.junk.match(buf, q)
            q = junk.end() if junk is not None else q + 1
            if q >= guard and not eof:
                raise self._need(start, n)
        # --- the movetext --------------------------------------------------------------------
        depth = 0
        while True:
            kind, at, end = self._signal(buf, q)
            if at < 0 or at >= guard:
                if not eof:
                    raise self._need(start, n)
                if at < 0:
                    return n, "eof", -1
            if kind == "result" or kind == "star":
                glued = kind == "star" and at > 0 and buf[at - 1] in "0123456789!?"
                # A glued "*" (PDN 2.0 "star") and a result inside a variation end the game
                # only when nothing but white space and the next game (or the end) follows.
                if (depth == 0 and not glued) or self._next_game_follows(buf, end, n, eof):
                    return end, "result", -1
                q = end
            elif kind == "bracket":
                if patterns.tag.match(buf, at) is not None or _at_line_start(buf, at, start):
                    return at, "tag", -1
                bad = patterns.badtag.match(buf, at)
                assert bad is not None
                q = bad.end()
            elif kind == "brace":
                q, cut = self._skip_comment(buf, at, n, eof, start)
                if cut >= 0:
                    return cut, "comment", q
            elif kind == "line":
                q = self._skip_line(buf, at, n, eof, start)
            elif kind == "open":
                strength = _PAREN_STRENGTH.match(buf, at)
                if strength is None:
                    depth += 1
                    q = at + 1
                else:
                    q = strength.end()
            elif kind == "close":
                depth = max(0, depth - 1)
                q = end
            elif kind == "setup":
                setup = _SETUP.match(buf, at)
                q = setup.end() if setup is not None else at + 1
            else:
                q = end

    def _signal(self, buf: str, q: int) -> tuple[str, int, int]:
        """The next delimiter or result at or after ``q``: (kind, start, end); start -1 if none.

        Both searches are remembered, so that a search that ran far ahead (a file without
        results, or without delimiters) is not repeated for every game.
        """
        start, result_at, result_end = self._result_cache
        if not start <= q <= result_at and not (result_at < 0 and start <= q):
            result_at = result_end = -1
            found = _RESULT_DASH.search(buf, q)
            while found is not None:
                begin = found.start() - (1 if found.end() - found.start() == 2 else 3)
                if buf[begin : found.end()] in _RESULTS:
                    result_at, result_end = begin, found.end()
                    break
                found = _RESULT_DASH.search(buf, found.end())  # "1-2", "2-1", "2-2": moves
            self._result_cache = (q, result_at, result_end)
        special_from, special = self._special_cache
        if special_from > q or (special is not None and special.start() < q):
            special = _SPECIAL.search(buf, q)
            self._special_cache = (q, special)
        if result_at >= 0 and (special is None or result_at < special.start()):
            return "result", result_at, result_end
        if special is None:
            return "", -1, -1
        at = special.start()
        return _SPECIAL_KIND[buf[at]], at, at + 1

    def _next_game_follows(self, buf: str, at: int, n: int, eof: bool) -> bool:
        end = _skip_space(buf, at)
        if end >= n:
            if not eof:
                raise _NeedMore
            return True
        return buf[end] == "["

    def _need(self, start: int, n: int) -> Exception:
        if n - start > MAX_GAME_CHARS:
            return _TooLong(start)
        return _NeedMore()

    def _skip_comment(self, buf: str, at: int, n: int, eof: bool, start: int) -> tuple[int, int]:
        """(index after the comment, -1) or (index of the "{", cut) for an unclosed comment."""
        close = buf.find("}", at + 1)
        limit = close if close >= 0 else n
        tag_line = _TAG_LINE.search(buf, at + 1, limit)
        if tag_line is not None:
            return at, tag_line.start()
        if close < 0:
            if not eof:
                raise self._need(start, n)
            return at, n
        return close + 1, -1

    def _skip_line(self, buf: str, at: int, n: int, eof: bool, start: int) -> int:
        stop = buf.find("\n", at)
        if stop < 0:
            if not eof:
                raise self._need(start, n)
            return n
        return stop


class _TooLong(_NeedMore):
    def __init__(self, start: int) -> None:
        super().__init__()
        self.start = start


def _at_line_start(buf: str, at: int, start: int) -> bool:
    line_start = buf.rfind("\n", start, at) + 1
    if line_start == 0:
        return False
    return not buf[line_start:at].strip()


# =============================================================================================
# Parsing one game
# =============================================================================================


class _Recovery:
    """``on_error`` handler of one parse: records each problem and tells Lark to go on."""

    def __init__(self, builder: _Builder) -> None:
        self.builder = builder
        self.count = 0

    def __call__(self, error: UnexpectedInput) -> bool:
        self.count += 1
        if self.count > 10_000:
            return False
        builder = self.builder
        if isinstance(error, UnexpectedToken):
            token = error.token
            if token.type == "$END":
                return self._close_variations(error)
            line, column = builder.position(token.line, token.column)
            text = str(token)
            if token.type == "RPAR":
                builder.problem(
                    "unopened-variation",
                    f"unexpected ')' at {line}:{column}: no variation is open",
                    line,
                    column,
                )
            elif token.type == "RESULT":
                builder.problem(
                    "syntax-error",
                    f"result {text!r} at {line}:{column} in the middle of the game was skipped",
                    line,
                    column,
                )
            elif token.type == "TAGS":
                builder.problem(
                    "bad-tag",
                    f"tag pairs {_shorten(text)} at {line}:{column} after the moves were skipped",
                    line,
                    column,
                )
            else:
                builder.problem(
                    "syntax-error",
                    f"unexpected {_shorten(text)} at {line}:{column} was skipped",
                    line,
                    column,
                )
            return True
        if isinstance(error, UnexpectedCharacters):
            line, column = builder.position(error.line, error.column)
            at = error.pos_in_stream or 0
            char = builder.text[at : at + 1]
            builder.problem(
                "syntax-error",
                f"unexpected character {char!r} at {line}:{column} was skipped",
                line,
                column,
            )
            return True
        return False

    def _close_variations(self, error: UnexpectedToken) -> bool:
        parser = error.interactive_parser
        opened = [
            value
            for value in parser.parser_state.value_stack
            if isinstance(value, Token) and value.type == "LPAR"
        ]
        if not opened:
            return False
        builder = self.builder
        for token in reversed(opened):
            line, column = builder.position(token.line, token.column)
            builder.problem(
                "unclosed-variation",
                f"unclosed variation opened at {line}:{column}",
                line,
                column,
            )
            parser.feed_token(Token("RPAR", ")"))
        return True


def _shorten(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


class _Builder:
    """Turns the flat token list of one game into a :class:`Game`."""

    def __init__(self, chunk: RawGame) -> None:
        self.chunk = chunk
        self.text = chunk.text
        self.line0 = chunk.line
        self.col0 = chunk.column - 1
        self.problems: list[Problem] = []
        self.game = Game(encoding=chunk.encoding, line=chunk.line, index=chunk.index)
        self.algebraic = False
        self.highest = 0
        self.fens: list[str] = []

    # Positions and problems -------------------------------------------------------------

    def position(self, line: int | None, column: int | None) -> tuple[int | None, int | None]:
        """Absolute (line, column) of a chunk-relative Lark position."""
        if line is None or column is None:
            return None, None
        if line == 1:
            return self.line0, self.col0 + column
        return self.line0 + line - 1, column

    def offset_position(self, offset: int) -> tuple[int, int]:
        """Absolute (line, column) of a character offset in the chunk."""
        newlines = self.text.count("\n", 0, offset)
        if newlines == 0:
            return self.line0, self.col0 + offset + 1
        return self.line0 + newlines, offset - self.text.rfind("\n", 0, offset)

    def problem(
        self,
        code: str,
        message: str,
        line: int | None,
        column: int | None,
        move: str | None = None,
    ) -> None:
        self.problems.append(Problem(code, message, line=line, column=column, move=move))

    def token_problem(self, code: str, message: str, token: Token) -> None:
        line, column = self.position(token.line, token.column)
        where = f" at {line}:{column}" if line is not None else ""
        self.problem(code, message.replace(" @", where), line, column)

    # The game ---------------------------------------------------------------------------

    def build(self, items: list[Token]) -> Game:
        game = self.game
        tags = game.tags
        root = game.root
        before_tags: list[Comment] = []
        pending: list[Comment] = []
        i = 0
        n = len(items)
        while i < n:
            token = items[i]
            kind = token.type
            if kind == "TAGS":
                if pending:
                    before_tags.extend(pending)
                    pending = []
                self.tag_run(token, tags)
            elif kind == "COMMENT":
                pending.append(self.comment(token))
            elif kind == "LINECOMMENT":
                pending.append(_line_comment(token))
            elif kind == "UNCLOSED":
                pending.append(self.unclosed(token))
            elif kind == "BADTAG":
                if self.bad_tag(token, tags) and pending:
                    before_tags.extend(pending)
                    pending = []
            elif kind == "JUNK":
                pending.append(self.junk(token))
            elif kind == "STRAY":
                self.stray(token)
            else:
                break
            i += 1
        if not tags:
            # Comments before tag pairs that were all skipped stand before the first move.
            before_tags.extend(pending)
            pending, before_tags = before_tags, []
        if before_tags:
            root.comments_before = before_tags
        if pending:
            root.comments_after = pending
        game_type_text = tags.get("GameType")
        if game_type_text is not None:
            self.read_game_type(game_type_text)
        if i < n:
            self.body(items, i)
        self.finish()
        return game

    def finish(self) -> None:
        """Encoding damage, the variant, the terminator check; problems in file order."""
        game = self.game
        chunk = self.chunk
        if game.terminator is None and game.root.variations:
            last = game.root.end()
            if last.strength is not None and last.strength.endswith("*"):
                # A "*" glued to the last move with nothing but comments or junk after it:
                # the terminator after all (read as such when the game is written back).
                game.terminator = "*"
                last.strength = last.strength[:-1] or None
        for offset, damage in chunk.damage:
            line, column = self.offset_position(offset)
            if damage is not None:
                shown = " ".join(f"{b:02X}" for b in damage.data)
                what = f"byte {shown} at {line}:{column} (byte offset {damage.byte_offset}) is"
                if len(damage.data) > 1:
                    what = (
                        f"bytes {shown} at {line}:{column} (byte offset {damage.byte_offset}) are"
                    )
                message = f"{what} not valid {game.encoding}; replaced by U+FFFD"
            else:
                message = f"character U+FFFD at {line}:{column}: damaged or unreadable bytes"
            self.problem("encoding", message, line, column)
        if game.variant is None and game.variant_source == "default":
            fen = game.tags.get("FEN")
            fens = ([fen] if fen else []) + self.fens
            algebraic, highest = self.algebraic, self.highest
            has_moves = algebraic or highest > 0
            for text in fens:
                fen_algebraic, fen_highest = fen_evidence(text)
                algebraic = algebraic or fen_algebraic
                highest = max(highest, fen_highest)
            guess = variant_from_evidence(algebraic, highest)
            if guess is None:
                game.variant, game.variant_source = "english", "default"
            else:
                game.variant = guess
                game.variant_source = "squares" if has_moves else "fen"
        has_content = bool(game.tags) or bool(game.root.variations) or game.terminator is not None
        if not has_content:
            line, column = game.line, chunk.column
            self.problem(
                "empty-game",
                f"text at {line}:{column} holds neither tags nor moves",
                line,
                column,
            )
        elif game.terminator is None and game.root.variations:
            line, column = self.offset_position(len(self.text.rstrip()))
            if chunk.end in ("tag", "comment", "size"):
                self.problems.append(
                    Problem(
                        "missing-terminator",
                        f"the game ends at {line}:{column} without a result or '*' before the "
                        "next game",
                        line=line,
                        column=column,
                        severity="warning",
                    )
                )
            else:
                self.problem(
                    "missing-terminator",
                    f"the game ends at {line}:{column} (end of input) without a result or '*'",
                    line,
                    column,
                )
        if chunk.end == "size":
            self.problem(
                "syntax-error",
                f"the game starting at {game.line}:{chunk.column} is longer than "
                f"{MAX_GAME_CHARS} characters without an end; it was cut",
                game.line,
                chunk.column,
            )
        self.problems.sort(key=_problem_order)
        game.errors = self.problems

    def read_game_type(self, text: str) -> None:
        """Parse the GameType tag; the variant follows from it when it can be read."""
        game = self.game
        try:
            game_type = parse_game_type(text)
        except GameTypeError as exc:
            line, column = self.tag_position("GameType")
            self.problem("bad-gametype", f"{exc} (at {line}:{column})", line, column)
            return
        game.game_type = game_type
        game.variant = game_type.variant
        game.variant_source = "gametype"
        if not game_type.well_formed:
            line, column = self.tag_position("GameType")
            message = f"GameType {text!r} at {line}:{column} is not of the form T,S,W,H,Nk,I"
            self.problem("bad-gametype", message, line, column)

    def tag_position(self, name: str) -> tuple[int, int]:
        """Where the first tag pair called ``name`` stands (the start of the game if not found)."""
        found = re.search(r"\[\s*" + re.escape(name) + r"\s*[\"\u201c]", self.text)
        return self.offset_position(found.start() if found is not None else 0)

    # Tag section --------------------------------------------------------------------------

    def tag_run(self, token: Token, tags: Tags) -> None:
        """Consecutive tag pairs (one TAGS token)."""
        pairs = tags._pairs  # appended to directly: this runs for every tag of every game
        seen = _TAG_NAMES_SEEN
        mark = len(pairs)
        for raw, value, curly in _TAG_PARTS.findall(token):
            known = seen.get(raw)
            if known is None:
                name = raw.strip()
                known = (name, bool(name) and _GOOD_TAG_NAME.fullmatch(name) is not None)
                if len(seen) < 10_000:
                    seen[raw] = known
            name, good = known
            if not good:
                # An odd name must be reported with its position: start again the slow way.
                del pairs[mark:]
                self.tag_run_located(token, pairs)
                return
            if curly:
                value = curly
            elif "\\" in value:
                value = _UNESCAPE.sub(r"\1", value)
            pairs.append((name, value))

    def tag_run_located(self, token: Token, pairs: list[tuple[str, str]]) -> None:
        for m in _TAG_PARTS.finditer(token):
            raw, value, curly = m.group(1, 2, 3)
            name = raw.strip()
            if not self.odd_tag(name, token, m.start()):
                continue
            if curly is not None:
                value = curly
            elif "\\" in value:
                value = _UNESCAPE.sub(r"\1", value)
            pairs.append((name, value))

    def odd_tag(self, name: str, token: Token, offset: int) -> bool:
        """Report a tag name outside the PDN 3.0 form; False if the pair must be skipped."""
        line, column = self.offset_position((token.start_pos or 0) + offset)
        if not name:
            self.problem(
                "bad-tag", f"tag pair at {line}:{column} has no name; skipped", line, column
            )
            return False
        if _GOOD_TAG_NAME.fullmatch(name) is None:
            self.problem(
                "odd-tag-name",
                f"tag name {name!r} at {line}:{column} is not of the PDN 3.0 form "
                "[A-Z][A-Za-z0-9_]*",
                line,
                column,
            )
        return True

    def bad_tag(self, token: Token, tags: Tags) -> bool:
        """A bracket in the tag section that is no clean tag pair: salvage or skip it.

        ``[Event "The "Big" Match"]`` and ``[Event "no end]`` keep their tag (with a ``bad-tag``
        error), so that no tag is lost; ``[Empty]`` and other brackets without a name and a
        quote are skipped with a ``junk`` warning.
        """
        text = str(token)
        inner = text[1:-1] if text.endswith("]") else text[1:]
        quote = re.search('["\u201c]', inner)
        if quote is not None:
            name = inner[: quote.start()].strip()
            rest = inner[quote.end() :]
            last = max(rest.rfind('"'), rest.rfind("\u201d"))
            value = rest[:last] if last >= 0 else rest.rstrip()
            if _SALVAGED_NAME.fullmatch(name) is not None:
                tags.add(name, value)
                self.token_problem(
                    "bad-tag",
                    f"tag pair {_shorten(text)} @ is damaged; read as {name} = {value!r}",
                    token,
                )
                return True
        self.token_problem("junk", f"{_shorten(text)} @ is not a tag pair; skipped", token)
        return False

    # Comments and junk ----------------------------------------------------------------------

    def comment(self, token: Token) -> Comment:
        text = token[1:-1]
        inner = text.find("{")
        if inner >= 0:
            line, column = self.position(token.line, token.column)
            line2, column2 = self.offset_position((token.start_pos or 0) + 1 + inner)
            self.problem(
                "nested-comment",
                f"'{{' at {line2}:{column2} inside the comment opened at {line}:{column}: "
                "comments do not nest, the first '}' closes it",
                line2,
                column2,
            )
        return Comment(text)

    def unclosed(self, token: Token) -> Comment:
        line, column = self.position(token.line, token.column)
        self.problem(
            "unclosed-comment",
            f"unclosed comment opened at {line}:{column}",
            line,
            column,
        )
        return Comment(token[1:].rstrip())

    def junk(self, token: Token) -> Comment:
        self.token_problem(
            "junk",
            f"{_shorten(str(token))} @ is not PDN; kept as a comment",
            token,
        )
        return Comment(str(token))

    def stray(self, token: Token) -> None:
        self.token_problem("syntax-error", "unexpected '}' @: no comment is open; skipped", token)

    # Movetext -------------------------------------------------------------------------------

    def body(self, items: list[Token], i: int) -> None:
        """The movetext, from ``items[i]`` on: builds the tree of nodes on ``game.root``."""
        game = self.game
        root = game.root
        line = _Line(root)
        stack: list[tuple[_Line, Node | None, Token]] = []  # (outer line, holder, "(" token)
        holder: Node | None = None  # collects a variation written before any move of its line
        check_squares = game.variant_source != "gametype"
        n = len(items)
        previous = current = ""  # the kinds of the token before this one, and of this one
        while i < n:
            token = items[i]
            i += 1
            kind = token.type
            previous, current = current, kind
            if kind == "MOVES" or kind == "LOOSEMOVES":
                run = str(token)
                if check_squares:
                    self.squares(run)
                if kind == "LOOSEMOVES" or line.before or line.orphans:
                    self.moves_slow(token, run, line)
                else:
                    self.moves_fast(token, run, line)
            elif kind in _COMMENT_KINDS:
                _file_comment(self.any_comment(token), line, root, not stack)
            elif kind == "STRENGTH" or kind == "STAR":
                last = line.last
                # A "*" is a strength only right after a move or another mark ("27-20*"):
                # after "$6" it is junk.
                glued = kind == "STRENGTH" or previous in _MARKABLE
                if last is not None and last.move is not None and line.number is None and glued:
                    last.strength = (last.strength or "") + str(token)
                else:
                    comment = self.misplaced(token, "a move strength")
                    _file_comment(comment, line, root, not stack)
            elif kind == "NAG":
                if line.last is not None and line.number is None:
                    line.last.nags.append(int(token[1:]))
                else:
                    _file_comment(self.misplaced(token, "a NAG"), line, root, not stack)
            elif kind == "SETUP":
                line.attach(self.setup(token, line.cur, line.number))
            elif kind == "LPAR":
                stack.append((line, holder, token))
                last = line.last
                if last is not None and last.parent is not None:
                    # Alternatives to `last`: siblings of it under its parent.
                    line = _Line(last.parent)
                    holder = None
                else:
                    holder = Node()
                    line = _Line(holder)
            elif kind == "RPAR":
                if not stack:
                    continue  # reported by the parser's recovery
                inner = line
                closing = holder
                line, holder, opened = stack.pop()
                self.close_variation(inner, closing, line, opened, not stack)
            elif kind == "RESULT":
                if stack:
                    self.token_problem(
                        "junk",
                        f"result {str(token)!r} @ inside a variation; kept as a comment",
                        token,
                    )
                    _file_comment(Comment(str(token)), line, root, False)
                else:
                    game.terminator = str(token)
            elif kind == "STRAY":
                self.stray(token)
        while stack:  # only if recovery could not close them; keep what was read
            inner = line
            closing = holder
            line, holder, opened = stack.pop()
            self.close_variation(inner, closing, line, opened, not stack)
        self.end_line(line, root)

    def end_line(self, line: _Line, root: Node) -> None:
        if line.number is not None:
            self.dangling(line.number, line.number_at)
            line.number = None
        if line.orphans:
            # Variations written before any move of the game, and no move after them: the
            # first becomes the main line, and comments before its first move are the game's
            # comments before the first move (as they read back).
            first = line.orphans[0]
            empty = not line.cur.variations
            _adopt(line.cur, line.orphans)
            line.orphans = []
            if empty and line.cur is root and first.number is None and first._before:
                root.comments_after.extend(first._before)
                first._before = None
        if line.before:
            if line.last is not None:
                line.last.comments_after.extend(line.before)
            else:
                root.comments_after.extend(line.before)
            line.before = []

    def close_variation(
        self, inner: _Line, closing: Node | None, outer: _Line, opened: Token, top: bool
    ) -> None:
        """End a variation: pending numbers, comments and alternatives find their place."""
        if inner.number is not None:
            self.dangling(inner.number, inner.number_at)
        if inner.orphans:
            _adopt(inner.cur, inner.orphans)
        if closing is not None:
            outer.orphans.extend(closing.variations)
        if inner.before:
            # Comments after the last move of a variation stay with that move; those of an
            # empty variation go to the move it was written after.
            if inner.last is not None:
                inner.last.comments_after.extend(inner.before)
            else:
                for comment in inner.before:
                    _file_comment(comment, outer, self.game.root, top)
        if inner.last is None and (closing is None or not closing.variations):
            line, column = self.position(opened.line, opened.column)
            self.problem("junk", f"empty variation at {line}:{column} skipped", line, column)

    def any_comment(self, token: Token) -> Comment:
        kind = token.type
        if kind == "COMMENT":
            return self.comment(token)
        if kind == "LINECOMMENT":
            return _line_comment(token)
        if kind == "UNCLOSED":
            return self.unclosed(token)
        if kind == "JUNK":
            return self.junk(token)
        # A bracket that is no tag pair ("[%clock 1:02]" outside braces). It never spans lines;
        # if it holds a "}" it cannot be a brace comment, so it becomes a line comment.
        text = str(token)
        self.token_problem("junk", f"{_shorten(text)} @ is not PDN; kept as a comment", token)
        return Comment(text) if "}" not in text else Comment(text, "line")

    def misplaced(self, token: Token, what: str) -> Comment:
        self.token_problem(
            "junk", f"{what} {str(token)!r} @ follows no move; kept as a comment", token
        )
        return Comment(str(token))

    def dangling(self, number: str, at: tuple[int | None, int | None]) -> None:
        line, column = at
        where = f" at {line}:{column}" if line is not None else ""
        self.problem(
            "dangling-move-number",
            f"move number {number!r}{where} has no move after it; dropped",
            line,
            column,
        )

    def squares(self, run: str) -> None:
        """Note which squares a run uses, for variant detection when GameType is missing."""
        if not self.algebraic and _ALGEBRAIC_IN_RUN.search(run) is not None:
            self.algebraic = True
        if _HIGH_SQUARE_IN_RUN.search(run) is not None:
            for found in _SQUARE_IN_RUN.findall(run):
                for square in found:
                    if square and int(square) > self.highest:
                        self.highest = int(square)
        elif self.highest == 0 and _SQUARE_IN_RUN.search(run) is not None:
            self.highest = 1  # numeric squares, none above 32

    def setup(self, token: Token, cur: Node, number: str | None) -> Node:
        m = _SETUP_PARTS.match(token)
        line, column = self.position(token.line, token.column)
        if m is None:
            fen = str(token)[1:-1].strip()
        else:
            fen = m.group(2)
            if m.group(1).upper() != "FEN":
                self.problem(
                    "syntax-error",
                    f'setup command {_shorten(str(token))} at {line}:{column} is not /FEN "..."/',
                    line,
                    column,
                )
        self.fens.append(fen)
        return Node(None, fen, number, parent=cur, line=line, column=column)

    def moves_fast(self, token: Token, run: str, state: _Line) -> None:
        """A run of words separated by white space, each a move number or a whole move.

        This is where almost all the nodes of a large archive are made, so it is kept tight:
        when the only white space is " " and "\\n", str.split gives the words and their
        columns follow from their lengths.
        """
        assert token.line is not None and token.column is not None
        line = self.line0 + token.line - 1
        offset = self.col0 + token.column if token.line == 1 else token.column
        cur = state.cur
        last = state.last
        number = state.number
        number_line, number_column = state.number_at
        leaf = Node._leaf
        # Tabs or other odd white space anywhere: every line the slow way.
        odd = not run.isascii() or _ODD_SPACE.search(run) is not None
        for text in run.split("\n"):
            if odd or "  " in text or text[:1] == " ":
                # Several spaces: find each word's column with the regex, for this line only.
                words = [(m.group(), offset + m.start()) for m in _WORD.finditer(text)]
            else:
                words = []
                column = offset
                for word in text.split():
                    words.append((word, column))
                    column += len(word) + 1
            for word, column in words:
                if word[-1] == ".":
                    if number is not None:
                        self.dangling(number, (number_line, number_column))
                    number, number_line, number_column = word, line, column
                else:
                    cur = last = leaf(word, number, cur, line, column)
                    number = None
            line += 1
            offset = 1
        state.cur = cur
        state.last = last
        state.number = number
        state.number_at = (number_line, number_column)

    def moves_slow(self, token: Token, run: str, state: _Line) -> None:
        """The general case: numbers glued to moves, spaces inside moves, pending comments."""
        assert token.line is not None and token.column is not None
        seen = 0
        rel_line = token.line
        line_start = 1 - token.column  # offset in `run` where the token's first line begins
        for m in _patterns().split.finditer(run):
            written_number, move, lone_number = m.group(1, 2, 3)
            at = m.start(2) if move is not None else m.start(3)
            newlines = run.count("\n", seen, at)
            if newlines:
                rel_line += newlines
                line_start = run.rfind("\n", seen, at) + 1
            seen = at
            line, column = self.position(rel_line, at - line_start + 1)
            if move is None:
                if state.number is not None:
                    self.dangling(state.number, state.number_at)
                state.number = lone_number
                state.number_at = (line, column)
                continue
            if written_number is not None:
                if state.number is not None:
                    self.dangling(state.number, state.number_at)
                state.number = written_number
            if move[0] == "-":
                self.problem(
                    "unknown-move",
                    f"move {move!r} at {line}:{column} is written as unknown",
                    line,
                    column,
                    move=move,
                )
            state.attach(Node(move, None, state.number, parent=state.cur, line=line, column=column))


_MARKABLE = frozenset(["MOVES", "LOOSEMOVES", "STRENGTH", "STAR"])
_COMMENT_KINDS = frozenset(["COMMENT", "LINECOMMENT", "UNCLOSED", "JUNK", "BADTAG"])


class _Line:
    """Where the builder stands in one line of play (the main line or a variation)."""

    __slots__ = ("before", "cur", "last", "number", "number_at", "orphans")

    def __init__(self, cur: Node) -> None:
        self.cur = cur  # the node the next move is attached to
        self.last: Node | None = None  # the last node of this line
        self.number: str | None = None  # a move number waiting for its move
        self.number_at: tuple[int | None, int | None] = (None, None)
        self.before: list[Comment] = []  # comments waiting for the next move
        self.orphans: list[Node] = []  # alternatives written before any move of the line

    def attach(self, node: Node) -> None:
        """Append ``node`` to the line (``node.parent`` must already be ``cur``)."""
        if self.before:
            node.comments_before = self.before
            self.before = []
        self.cur.variations.append(node)
        if self.orphans:
            _adopt(self.cur, self.orphans)
            self.orphans = []
        self.cur = self.last = node
        self.number = None


def _file_comment(comment: Comment, line: _Line, root: Node, top: bool) -> None:
    """Put a comment where writing it back puts it again.

    After a move it belongs to that move; after a move number, or before the first move of a
    variation, to the next move; before the first move of the game, to the root.
    """
    last = line.last
    if last is not None and line.number is None:
        last.comments_after.append(comment)
    elif top and last is None and line.number is None:
        root.comments_after.append(comment)
    else:
        line.before.append(comment)


def _adopt(parent: Node, nodes: list[Node]) -> None:
    for node in nodes:
        node.parent = parent
    parent.variations.extend(nodes)


def _line_comment(token: Token) -> Comment:
    return Comment(token[1:], "percent" if token[0] == "%" else "line")


def _problem_order(problem: Problem) -> tuple[int, int]:
    return (problem.line or 0, problem.column or 0)


def _parse_chunk(chunk: RawGame) -> Game:
    builder = _Builder(chunk)
    parser = _parser()
    try:
        items = cast(
            list[Token], parser.parse(chunk.text, start="start", on_error=_Recovery(builder))
        )
    except UnexpectedInput as exc:
        # Recovery gave up (it never should); keep what can be kept: the tag pairs.
        line, column = builder.position(getattr(exc, "line", None), getattr(exc, "column", None))
        builder.problem(
            "syntax-error",
            f"the game at {chunk.line}:{chunk.column} could not be read past {line}:{column}",
            line,
            column,
        )
        items = _tags_only(chunk)
    try:
        return builder.build(items)
    except Exception as exc:  # one game's failure must not stop the file
        # A bug of the reader: report it on the game, keep its tags, and go on with the file.
        fallback = _Builder(chunk)
        fallback.problem(
            "internal-error",
            f"the reader failed on the game at {chunk.line}:{chunk.column} "
            f"({type(exc).__name__}: {exc}); only its tags were kept",
            chunk.line,
            chunk.column,
        )
        return fallback.build(_tags_only(chunk))


def _tags_only(chunk: RawGame) -> list[Token]:
    return [
        Token("TAGS", m.group(), start_pos=m.start(), line=1, column=1)
        for m in _patterns().tag.finditer(chunk.text)
    ]


# =============================================================================================
# Public API
# =============================================================================================


def split_games(
    source: Source | None = None,
    *,
    encoding: str | None = None,
    path: str | os.PathLike[str] | None = None,
) -> Iterator[RawGame]:
    """Cut a source into games without parsing them (see :func:`read_games` for the arguments).

    This is the cheap, streaming half of reading: the games can then be parsed elsewhere, for
    instance in worker processes, with :meth:`RawGame.parse`.
    """
    opened, handle = _open(source, encoding, path)
    try:
        if opened.binary_problem is not None:
            yield RawGame("", 0, 1, 1, "eof", 1, "binary", problem=opened.binary_problem)
            return
        chunker = _Chunker(opened.blocks, opened.decoder)
        for index, chunk in enumerate(chunker, start=1):
            chunk.index = index
            chunk.encoding = opened.encoding_of(chunk.offset + len(chunk.text))
            yield chunk
    finally:
        if handle is not None:
            handle.close()


def read_games(
    source: Source | None = None,
    *,
    encoding: str | None = None,
    path: str | os.PathLike[str] | None = None,
) -> Iterator[Game]:
    """Yield the games of a PDN source one at a time.

    ``source`` is the PDN text itself (``str``), raw bytes, a path (``pathlib.Path`` or any
    ``os.PathLike``), or an open text or binary file; ``path=`` names a file by a plain string.
    Files are read in blocks, so memory stays constant whatever their size.  ``encoding``
    forces a codec for bytes; by default it is detected (see the module documentation) and
    recorded on each game.

    Never raises for bad input: problems are reported on ``game.errors``.  A file that is not
    text at all (a Paint.NET image, binary data) gives one empty game carrying a ``not-pdn``
    error.  (A file that cannot be opened raises the usual ``OSError``.)
    """
    for raw in split_games(source, encoding=encoding, path=path):
        yield raw.parse()


def read_game(text: Source) -> Game:
    """The first game of ``text`` (anything :func:`read_games` accepts).

    An input without any game gives an empty :class:`Game` with an ``empty-game`` warning.
    """
    games = read_games(text)
    try:
        for game in games:
            return game
    finally:
        close = getattr(games, "close", None)
        if close is not None:
            close()
    return Game(
        errors=[Problem("empty-game", "the input holds no game", line=1, column=1)],
    )
