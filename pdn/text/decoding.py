"""Decoding PDN bytes: the encoding decided on the way, line ends and stray marks normalised.

A BOM decides; otherwise bytes are read as ASCII until the first byte above 127, and the text
around it decides between UTF-8 (damaged sequences are replaced by U+FFFD and recorded as
:class:`Damage`, which the reader reports as ``encoding`` warnings), Windows-1251 (Cyrillic
text), Windows-1252 and Latin-1.  CR and CRLF become LF; the literal text ``\\r`` that some
broken exports leave at line ends is dropped.  The result is a stream of normalised text blocks
(:class:`DecodedInput`) that :mod:`pdn.reading.cutting` cuts into games.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import IO, Any, cast

from .problems import Problem

__all__ = [
    "BLOCK_SIZE",
    "Damage",
    "DecodedInput",
    "Decoder",
    "decode_bytes",
    "decode_text",
    "decode_text_stream",
    "line_blocks",
    "utf16_without_bom",
]

#: The single-byte code pages the decoder may guess.
_CODE_PAGES = frozenset(["cp1251", "cp1252", "latin-1"])

#: How much is read from a file at a time.
BLOCK_SIZE = 1 << 20

_NON_ASCII = re.compile(rb"[\x80-\xff]")
#: How many bytes from the first non-ASCII one decide the encoding.
_GUESS_WINDOW = 65536
# The text "\r" (any number of times) before a line end, left by broken exports; removed.
_LITERAL_CR = re.compile(r"(?:\\r)+(?=\n)")
_LITERAL_CR_AT_END = re.compile(r"(?:\\r)+(?=\n|\Z)")


@dataclass(slots=True)
class Damage:
    """A byte sequence that is not valid in the detected encoding."""

    byte_offset: int
    data: bytes


class Decoder:
    """Bytes in blocks -> normalised text in blocks, deciding the encoding on the way."""

    def __init__(self, encoding: str | None, *, eager: bool = False) -> None:
        self.forced = encoding
        # Decide from the first block with a non-ASCII byte instead of waiting for a window of
        # text after it (for line-by-line reading, which must not read ahead).
        self.eager = eager
        self.encoding: str | None = None
        if encoding is not None:
            self.encoding = codecs.lookup(encoding).name
        self._pending = b""  # an incomplete multi-byte sequence at the end of a block
        self._undecided = b""  # bytes from the first non-ASCII one, until there are enough
        self._byte_base = 0  # file offset of the first byte of _pending + next block
        self._first = True
        self._carry = ""  # text held back: a CR that may start a CRLF, a "\" that may be "\r"
        self.damage: list[Damage] = []
        self._incremental: codecs.IncrementalDecoder | None = None
        self._wide: str | None = None  # the UTF-16 or UTF-32 codec with its byte order
        self.emitted = 0  # normalised characters returned so far
        # Offset (in normalised characters) from which the decided encoding applies: the first
        # non-ASCII character (0 for a BOM or a forced encoding); text before it is ASCII.
        self.decided_at: int | None = 0 if encoding is not None else None
        self._split: int | None = None  # where, in the text just decoded, the decision fell
        self._fed = 0  # bytes fed so far

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
        # Valid UTF-8 sequences are rare in text of a single-byte code page, so a few of them
        # among damaged bytes mean UTF-8 with a few lines written in another encoding: read as
        # UTF-8, each damaged byte reported where it is (never the whole file misread).
        if bad == 0 or good * 4 >= bad:
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
                self.damage.append(Damage(base + exc.start, data[exc.start : exc.end]))
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
            if len(rest) < _GUESS_WINDOW and not final and not self.eager:
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
        if encoding.startswith(("utf-16", "utf-32")):
            return self._decode_wide(self._pending + data, final)
        if self._incremental is None:
            self.encoding = encoding = byte_order(encoding, data)
            self._incremental = codecs.getincrementaldecoder(encoding)("replace")
        try:
            return self._incremental.decode(data, final)
        except UnicodeError:
            # A codec that fails even when told to replace: the block is damage, said like any
            # other, not a crash; all its bytes are kept, so that --in-place can put them back.
            self.damage.append(Damage(self._byte_base, bytes(data)))
            self._byte_base += len(data)
            self._incremental.reset()
            return "\ufffd"

    def _decode_wide(self, data: bytes, final: bool) -> str:
        """UTF-16 or UTF-32: each invalid code unit (a lone surrogate, a NUL, a last odd byte)
        is U+FFFD and recorded as :class:`Damage`, as in UTF-8; and a byte lost or gained,
        which would turn the rest of the file into other characters, is found where the text
        turns into :data:`_SHIFTED` characters and read past (issue 33)."""
        codec = self._wide
        if codec is None:
            assert self.encoding is not None
            codec = self._wide = _wide_codec(self.encoding, data)
            if self.encoding in ("utf-16", "utf-32") and not data.startswith(_BOMS):
                self.encoding = codec  # forced without a BOM: the byte order found
        decode = _WIDE_DECODERS[codec]
        width = 2 if codec.startswith("utf-16") else 4
        parts: list[str] = []
        base = self._byte_base  # the file offset of data[0]
        at = 0  # where the next piece starts in data
        # A piece at a time, so that the text after each damaged unit is decoded again only to
        # the piece's end: linear however many units are damaged.
        while True:
            end = min(at + _WIDE_PIECE, len(data))
            piece = data[at:end]
            last = final and end == len(data)
            try:
                text, consumed = decode(piece, "strict", last)
            except UnicodeDecodeError as exc:
                # The text before the invalid unit (valid: it decodes), unless it shows a shift,
                # which comes first (and most often is what made the unit invalid).
                text, consumed = decode(piece[: exc.start], "strict", True)
                if width == 4 or _SHIFTED.search(text) is None:
                    parts.append(self._wide_text(text, base + at, codec))
                    parts.append("\ufffd")
                    self.damage.append(Damage(base + at + exc.start, piece[exc.start : exc.end]))
                    at += exc.end
                    continue
            shifted = _SHIFTED.search(text) if width == 2 else None
            if shifted is None:
                parts.append(self._wide_text(text, base + at, codec))
                at += consumed
                if end == len(data):
                    self._pending = data[at:]
                    self._byte_base = base + at
                    return "".join(parts)
                continue
            # A byte lost or gained before the run: the unit just before it is two halves of
            # characters when both its bytes are ASCII text; the run's first byte is skipped.
            start = shifted.start()
            bad = len(text[:start].encode(codec))
            if start and _two_ascii(text[start - 1], codec):
                start -= 1
                bad -= 2
            parts.append(self._wide_text(text[:start], base + at, codec))
            parts.append("\ufffd")
            skip = len(text[: shifted.start()].encode(codec)) + 1
            self.damage.append(Damage(base + at + bad, piece[bad:skip]))
            at += skip

    def _wide_text(self, text: str, base: int, codec: str) -> str:
        """``text`` decoded from the bytes at ``base``, with each NUL made U+FFFD and recorded."""
        if "\x00" not in text:
            return text
        width = 2 if codec.startswith("utf-16") else 4
        offset, done = base, 0
        at = text.find("\x00")
        while at >= 0:
            offset += len(text[done:at].encode(codec))
            self.damage.append(Damage(offset, b"\x00" * width))
            offset, done = offset + width, at + 1
            at = text.find("\x00", done)
        return text.replace("\x00", "\ufffd")

    def feed(self, data: bytes, final: bool = False) -> str:
        """Decode the next block; ``final`` on the last one.

        A NUL byte is damage, not text: it becomes U+FFFD and is recorded (with its offset)
        like an invalid byte sequence, so that no NUL reaches the output.
        """
        fed, self._fed = self._fed, self._fed + len(data)
        nul = data.find(0) if not _wide(self.encoding) else -1
        while nul >= 0:
            self.damage.append(Damage(fed + nul, b"\x00"))
            nul = data.find(0, nul + 1)
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
                    self.damage = [d for d in self.damage if d.data != b"\x00"]
                elif (wide := utf16_without_bom(data)) is not None:
                    # A UTF-16 file whose BOM was lost or damaged: UTF-16 all the same.
                    self.encoding = wide
                    self.decided_at = 0
                    self.damage = [d for d in self.damage if d.data != b"\x00"]
        text = self._decode(data, final)
        if "\x00" in text and not _wide(self.encoding):
            text = text.replace("\x00", "\ufffd")
            self.damage.sort(key=lambda damage: damage.byte_offset)
        return self.normalise(text, final)

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


#: Bytes of UTF-16 or UTF-32 decoded at a time (see :meth:`Decoder._decode_wide`).
_WIDE_PIECE = 1 << 12

#: The BOMs that decide a wide encoding's byte order.
_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)

#: Three characters in a row whose code unit is an ASCII text byte and a NUL byte: UTF-16 text
#: read one byte out of step (CJK or Devanagari text has no such run in practice).
_SHIFTED = re.compile(
    "[" + "".join(chr(byte << 8) for byte in (9, 10, 13, *range(0x20, 0x7F))) + "]{3}"
)


#: The decoders of a wide codec with a byte order, told whether the data is complete.
_WIDE_DECODERS: dict[str, Callable[[bytes, str, bool], tuple[str, int]]] = {
    "utf-16-le": codecs.utf_16_le_decode,
    "utf-16-be": codecs.utf_16_be_decode,
    "utf-32-le": codecs.utf_32_le_decode,
    "utf-32-be": codecs.utf_32_be_decode,
}


def _two_ascii(char: str, codec: str) -> bool:
    """Whether ``char`` is a code unit whose two bytes are both ASCII text."""
    data = char.encode(codec)
    return len(data) == 2 and all(byte in _ASCII_TEXT for byte in data)


_ASCII_TEXT = frozenset([9, 10, 13, *range(0x20, 0x7F)])


def _wide_codec(encoding: str, data: bytes) -> str:
    """The codec with a byte order of a UTF-16 or UTF-32 ``encoding``: the BOM's, else the
    one the bytes show (see :func:`byte_order`). The BOM itself is decoded to U+FEFF, which
    :meth:`Decoder.normalise` drops, so that byte offsets count from the file's start."""
    width = "32" if encoding.startswith("utf-32") else "16"
    if encoding not in ("utf-16", "utf-32"):
        return encoding
    if data.startswith(codecs.BOM_UTF32_LE if width == "32" else codecs.BOM_UTF16_LE):
        return f"utf-{width}-le"
    if data.startswith(codecs.BOM_UTF32_BE if width == "32" else codecs.BOM_UTF16_BE):
        return f"utf-{width}-be"
    found = byte_order(encoding, data)
    return found if found != encoding else f"utf-{width}-le"


def _wide(encoding: str | None) -> bool:
    # UTF-16 and UTF-32 write NUL bytes in every ASCII character: no damage there.
    return encoding is not None and encoding.startswith(("utf-16", "utf-32"))


def byte_order(encoding: str, data: bytes) -> str:
    """``utf-16`` or ``utf-32`` (codec names) forced on bytes without a BOM: the codec of the
    byte order their NUL bytes show (Python's own refuses such bytes); any other unchanged.

    >>> byte_order("utf-16", "[Event".encode("utf-16-be"))
    'utf-16-be'
    """
    boms = {
        "utf-16": (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE),
        "utf-32": (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE),
    }
    if encoding not in boms or data.startswith(boms[encoding]) or 0 not in data:
        return encoding  # (no NUL: no UTF-16 or UTF-32 text at all, read as damage)
    width = 2 if encoding == "utf-16" else 4
    little = data[width - 1 :: width].count(0) >= data[0::width].count(0)
    return f"{encoding}-{'le' if little else 'be'}"


def _plain_normalise(text: str, at_start: bool) -> str:
    """What :meth:`Decoder.normalise` makes of ``text`` when nothing is held back."""
    text = _LITERAL_CR.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    return text[1:] if at_start and text.startswith("\ufeff") else text


# =============================================================================================
# Sources
# =============================================================================================


@dataclass(slots=True)
class DecodedInput:
    """Normalised text blocks of one source, and what is known about its encoding."""

    blocks: Iterator[str]
    decoder: Decoder | None
    encoding_label: str
    binary_problem: Problem | None = None

    def guessed(self, encoding: str) -> bool:
        """Whether ``encoding`` (a game's) is a single-byte code page guessed from the bytes
        (not forced, not marked by a BOM): a reader must be told, it may be wrong."""
        decoder = self.decoder
        return decoder is not None and decoder.forced is None and encoding in _CODE_PAGES

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


def _binary_blocks(read: Callable[[], bytes], decoder: Decoder, first: bytes) -> Iterator[str]:
    data = first
    while True:
        following = read()
        text = decoder.feed(data, final=not following)
        if text:
            yield text
        if not following:
            return
        data = following


def _text_blocks(read: Callable[[], str], decoder: Decoder) -> Iterator[str]:
    data = read()
    while True:
        following = read() if data else ""
        text = decoder.normalise(data, final=not following)
        if text:
            yield text
        if not following:
            return
        data = following


def utf16_without_bom(first: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` when ``first`` (a file's first bytes) is UTF-16 text
    without a BOM (its BOM lost or damaged): NUL bytes in three code units of ten or more, on
    one side (nine in ten of them at least), around ASCII text, in the first 64, 512 or 4,096
    bytes (a byte lost or gained further on puts the NULs on the other side from there: the
    decoder reads past it); else ``None``. Text of any other encoding holds no NUL, binary
    data holds them on both sides.

    >>> utf16_without_bom("[Event]".encode("utf-16-be")), utf16_without_bom(b"[Event]")
    ('utf-16-be', None)
    """
    if first.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or len(first) < 8:
        return None
    return _nul_side(first[:64]) or _nul_side(first[:512]) or _nul_side(first[:4096])


def _nul_side(head: bytes) -> str | None:
    units = len(head) // 2
    for order, low, high in (
        ("utf-16-le", head[0::2], head[1::2]),
        ("utf-16-be", head[1::2], head[0::2]),
    ):
        if high.count(0) * 10 >= units * 3 and low.count(0) * 10 <= units:
            # ... and the characters of those units are ASCII text, as PDN's are: no binary data.
            ascii = [lo for lo, hi in zip(low, high, strict=False) if hi == 0]
            if sum(1 for byte in ascii if byte in _ASCII_TEXT) * 10 >= len(ascii) * 9:
                return order
    return None


def _sniff_binary(first: bytes) -> Problem | None:
    if first.startswith(b"PDN3"):
        return Problem(
            "not-pdn",
            "this is a Paint.NET image (it starts with 'PDN3'), not a draughts game record",
            line=1,
            column=1,
        )
    head = first[:4096]
    # A stray NUL is damage to report (see Decoder.feed); a head full of control bytes is
    # binary data.  UTF-16, whose every other byte may be NUL, is judged by its characters
    # instead, as the same text in UTF-8 would be (what convert writes of it reads back).
    wide = _wide_order(head)
    if wide is not None:
        text = head[2 if head.startswith(_BOMS) else 0 :].decode(wide, "replace")
        size, controls, unit = (
            len(text),
            len(text) - len(text.translate(_CONTROL_CHARS)),
            "characters",
        )
    else:
        size = len(head)
        controls, unit = size - len(head.translate(None, _CONTROL_BYTES)), "bytes"
    if controls * 10 > size:
        return Problem(
            "not-pdn",
            f"this is a binary file ({controls} control {unit} in its first {size}), not PDN text",
            line=1,
            column=1,
        )
    return None


def _wide_order(head: bytes) -> str | None:
    """The UTF-16 codec of a file's first bytes, by its BOM or its NUL bytes, or ``None``."""
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le"
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be"
    return utf16_without_bom(head)


# The bytes no text file holds (C0 controls but tab, line feed, form feed and carriage return).
_CONTROL_BYTES = bytes([*range(0, 9), 11, *range(14, 32)])
_CONTROL_CHARS = dict.fromkeys(_CONTROL_BYTES)  # str.translate: deleted


def line_blocks(stream: IO[Any], decoder: Decoder, first: bytes | None = None) -> Iterator[str]:
    """The lines of a stream, decoded one at a time and never read ahead, so that a caller
    can stop after any line and leave the rest of the stream unread.  ``first`` is a line of
    a binary stream already read; a text stream is only normalised.  A line longer than
    :data:`BLOCK_SIZE` comes in pieces of that size, so that memory stays bounded."""
    if first is None:
        first = stream.readline(BLOCK_SIZE)
    data: bytes | str = first
    if isinstance(data, str):
        while data:
            yield decoder.normalise(cast(str, data), final=False)
            data = stream.readline(BLOCK_SIZE)
        yield decoder.normalise("", final=True)
        return
    while data:
        yield decoder.feed(cast(bytes, data))
        data = stream.readline(BLOCK_SIZE)
    yield decoder.feed(b"", final=True)


def decode_bytes(
    stream: IO[bytes], encoding: str | None = None, *, by_line: bool = False
) -> DecodedInput:
    """The decoded text of a binary stream; ``encoding`` forces a codec (else it is detected).

    ``by_line`` reads one line at a time (see :func:`line_blocks`) and decides the encoding
    from the first line that needs it.
    """
    decoder = Decoder(encoding, eager=by_line)
    # The first read is large enough to see a BOM or a binary header whatever BLOCK_SIZE is.
    size = max(BLOCK_SIZE, 4096)
    first = stream.readline(size) if by_line else stream.read(size)
    problem = _sniff_binary(first) if encoding is None else None
    if problem is not None:
        return DecodedInput(iter(()), decoder, "binary", problem)
    if by_line:
        return DecodedInput(line_blocks(stream, decoder, first), decoder, "utf-8")
    read = partial(stream.read, BLOCK_SIZE)
    return DecodedInput(_binary_blocks(read, decoder, first), decoder, "utf-8")


def decode_text_stream(stream: IO[str], *, by_line: bool = False) -> DecodedInput:
    """The normalised text of an open text stream (its encoding is the stream's business)."""
    label = str(getattr(stream, "encoding", None) or "unicode").lower()
    if by_line:
        return DecodedInput(line_blocks(stream, Decoder(None)), None, label)
    return DecodedInput(_text_blocks(partial(stream.read, BLOCK_SIZE), Decoder(None)), None, label)


def decode_text(text: str) -> DecodedInput:
    """PDN already held as a ``str``: only line ends and stray marks are normalised."""
    normalised = Decoder(None).normalise(text, final=True)
    return DecodedInput(iter([normalised] if normalised else []), None, "unicode")
