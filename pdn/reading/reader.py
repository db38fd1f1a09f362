"""Reading PDN: files and streams into games, one at a time, in constant memory.

* :func:`read_games` reads a path (``str`` or ``os.PathLike``) or an open file, text or binary;
  :func:`parse_games` and :func:`parse_game` read PDN held in a ``str`` (or ``bytes``);
* :func:`read_game` reads exactly one game from an open file and leaves the rest for the next
  call (``None`` at the end), as python-chess's ``read_game`` does;
* :func:`read_headers` gives the tag pairs of every game without parsing the movetext;
* :func:`split_games` cuts without parsing: each :class:`~pdn.reading.cutting.RawGame` can then be
  parsed elsewhere (:func:`parse_raw`, or :func:`pdn.reading.parsing.accept_raw` for any
  :class:`~pdn.game.visitor.GameVisitor`).

Nothing in the input stops reading: what cannot be read becomes a
:class:`~pdn.text.problems.Problem` on ``game.errors`` (with a 1-based line and column, absolute in
the file) and the reader goes on with the next game.  The work is done by
:mod:`pdn.text.decoding` (bytes to text), :mod:`pdn.reading.cutting` (text to games) and
:mod:`pdn.reading.parsing`
(one game to visitor events; :class:`~pdn.reading.builder.GameBuilder` makes the model).

>>> import io, pdn
>>> handle = io.StringIO('[Event "A"]\\n1. 11-15 *\\n\\n[Event "B"]\\n1. 9-13 *\\n')
>>> while (game := pdn.read_game(handle)) is not None:
...     print(game.tags["Event"], game.mainline_moves())
A ['11-15']
B ['9-13']
"""

from __future__ import annotations

import io
import os
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any, Union, cast

from pdn.game.detection import scan_file
from pdn.game.model import Game, Tags
from pdn.game.visitor import HeadersOnly
from pdn.text.decoding import (
    DecodedInput,
    Decoder,
    decode_bytes,
    decode_text,
    decode_text_stream,
    line_blocks,
)
from pdn.text.problems import Problem
from pdn.text.schema import is_json

from .builder import GameBuilder
from .cutting import Chunker, RawGame
from .parsing import accept_raw

__all__ = [
    "Source",
    "parse_game",
    "parse_games",
    "parse_raw",
    "read_game",
    "read_games",
    "read_headers",
    "split_games",
]

#: What :func:`read_games` reads: a path, or an open text or binary file.
Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]


def _is_text_stream(source: object) -> bool:
    if isinstance(source, io.TextIOBase):
        return True
    if isinstance(source, (io.RawIOBase, io.BufferedIOBase)):
        return False
    return isinstance(getattr(source, "encoding", None), str) or isinstance(
        cast(IO[Any], source).read(0), str
    )


def _decoded(
    source: Source, encoding: str | None, *, by_line: bool = False
) -> tuple[DecodedInput, IO[bytes] | None]:
    """The decoded input of a source, and the file to close afterwards (if it was opened)."""
    if isinstance(source, (str, os.PathLike)):
        handle = open(source, "rb")  # noqa: SIM115 - closed by the caller
        return decode_bytes(handle, encoding), handle
    if isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError(
            "read_games() reads a path or an open file; for PDN bytes use parse_games()"
        )
    if not hasattr(source, "read"):
        raise TypeError(f"cannot read PDN from {type(source).__name__}")
    if _is_text_stream(source):
        return decode_text_stream(cast(IO[str], source), by_line=by_line), None
    return decode_bytes(cast(IO[bytes], source), encoding, by_line=by_line), None


def _cut(decoded: DecodedInput) -> Iterator[RawGame]:
    if decoded.binary_problem is not None:
        yield RawGame("", 0, 1, 1, "eof", 1, "binary", problem=decoded.binary_problem)
        return
    told = False
    for index, chunk in enumerate(Chunker(decoded.blocks, decoded.decoder), start=1):
        chunk.index = index
        chunk.encoding = decoded.encoding_of(chunk.offset + len(chunk.text))
        if not told and decoded.guessed(chunk.encoding):
            chunk.encoding_guessed = told = True  # said once, on the first game it concerns
        yield chunk


def split_games(
    source: Source, *, encoding: str | None = None, scan: bool = True
) -> Iterator[RawGame]:
    """Cut a file into games without parsing them (see :func:`read_games` for ``source``).

    This is the cheap, streaming half of reading: the games can then be parsed elsewhere, for
    instance in worker processes, with :func:`parse_raw`.  A file, or a
    stream that can be read twice, is first scanned for what its games agree on
    (:mod:`pdn.game.detection`), so that each game's variant is decided in the light of the others;
    ``scan=False`` leaves each game to itself.
    """
    evidence = scan_file(source) if scan else None
    decoded, handle = _decoded(source, encoding)
    try:
        for raw in _cut(decoded):
            raw.evidence = evidence
            yield raw
    finally:
        if handle is not None:
            handle.close()


def parse_raw(raw: RawGame) -> Game:
    """The :class:`~pdn.game.model.Game` of a game cut by :func:`split_games` (in any process).

    >>> import io
    >>> [parse_raw(raw).mainline_moves() for raw in split_games(io.StringIO("1. 11-15 * 9-13 *"))]
    [['11-15'], ['9-13']]
    """
    return accept_raw(raw, GameBuilder())


def read_games(source: Source, *, encoding: str | None = None) -> Iterator[Game]:
    """Yield the games of a PDN file one at a time.

    ``source`` is a path (``str`` or any ``os.PathLike``) or an open text or binary file.  Files
    are read in blocks, so memory stays constant whatever their size.  ``encoding`` forces a
    codec for bytes; by default it is detected (see :mod:`pdn.text.decoding`) and recorded on each
    game.  For PDN held in a string use :func:`parse_games`.

    A source of pdn's JSON game records (``pdn convert --to json`` or ``ndjson``; told, as the
    commands tell it, by a name ending in ``.json``, ``.ndjson`` or ``.jsonl`` or by its first
    bytes) gives the games of those records (:func:`pdn.writing.jsonio.read_json_games`; JSON is
    always
    UTF-8), not their text read as PDN.

    Never raises for bad input: problems are reported on ``game.errors``.  A file that is not
    text at all (a Paint.NET image, binary data) gives one empty game carrying a ``not-pdn``
    error.  (A file that cannot be opened raises the usual ``OSError``.)
    """
    if is_json(source):
        yield from _json_games(source)
        return
    for raw in split_games(source, encoding=encoding):
        yield parse_raw(raw)


def _json_games(source: Source) -> Iterator[Game]:
    # Only here is the JSON reader loaded: a run over PDN alone never needs it.
    from pdn.writing.jsonio import read_json_games

    if isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8", errors="replace") as handle:
            yield from read_json_games(handle)
    elif _is_text_stream(source):
        yield from read_json_games(cast(IO[str], source))
    else:
        text = io.TextIOWrapper(cast(IO[bytes], source), encoding="utf-8", errors="replace")
        try:
            yield from read_json_games(text)
        finally:
            text.detach()  # the caller's file stays open


def read_headers(source: Source, *, encoding: str | None = None) -> Iterator[Tags]:
    """The tag pairs of every game of a file, in order, without parsing the movetext."""
    for raw in split_games(source, encoding=encoding, scan=False):
        yield accept_raw(raw, HeadersOnly())


def parse_games(text: str | bytes, *, encoding: str | None = None) -> Iterator[Game]:
    """Yield the games of PDN held in memory: a ``str``, or ``bytes`` (decoded as a file is).

    >>> [g.mainline_moves() for g in parse_games("1. 11-15 * 1. 9-13 *")]
    [['11-15'], ['9-13']]
    """
    if isinstance(text, str):
        decoded = decode_text(text)
        evidence = scan_file(io.StringIO(text))
    elif isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
        decoded = decode_bytes(io.BytesIO(data), encoding)
        evidence = scan_file(io.BytesIO(data))
    else:
        raise TypeError(f"parse_games() reads str or bytes, not {type(text).__name__}")
    for raw in _cut(decoded):
        raw.evidence = evidence
        yield parse_raw(raw)


def parse_game(text: str | bytes, *, encoding: str | None = None) -> Game:
    """The first game of PDN held in memory (see :func:`parse_games`).

    A text without any game gives an empty :class:`Game` with an ``empty-game`` warning.

    >>> parse_game("1. 11-15 23-19 *").mainline_moves()
    ['11-15', '23-19']
    """
    for game in parse_games(text, encoding=encoding):
        return game
    return Game(errors=[Problem("empty-game", "the text holds no game", line=1, column=1)])


@dataclass(slots=True)
class _HandleState:
    """What :func:`read_game` read from a handle beyond the games it returned."""

    decoder: Decoder  # the handle's decoder (for a text handle, only its normaliser)
    binary: bool
    rest: str = ""
    line: int = 1
    column: int = 1
    index: int = 0


# Keyed by the handle, so the state goes away with it.
_HANDLES: weakref.WeakKeyDictionary[Any, _HandleState] = weakref.WeakKeyDictionary()


def read_game(handle: IO[str] | IO[bytes], *, encoding: str | None = None) -> Game | None:
    """Read exactly one game from an open file; ``None`` when no game is left.

    The file is read line by line, so what follows the game stays for the next call (or for
    the next tool reading the handle, when the file is seekable).  Line numbers and game
    indexes go on from one call to the next.

    ``handle`` must be an open file: a path or a text raises :class:`TypeError` (use
    :func:`read_games` for a path, :func:`parse_game` for a text).
    """
    if not callable(getattr(handle, "read", None)):
        # Before the weak-keyed lookup, which would fail with a message about weak references.
        if isinstance(handle, os.PathLike):
            hint = "read_games(path) reads the games of a path"
        elif isinstance(handle, (bytes, bytearray, memoryview)):
            hint = "parse_game(data) reads the game of PDN held in memory"
        else:
            hint = "read_games(path) for a path, parse_game(text) for PDN held in a string"
        name = type(handle).__name__
        raise TypeError(f"read_game() wants an open file, not {name}: {hint}")
    state = _HANDLES.get(handle)
    if state is None:
        if _is_text_stream(handle):
            state = _HandleState(Decoder(None), binary=False)
            lines = line_blocks(handle, state.decoder)
        else:
            decoded = decode_bytes(cast(IO[bytes], handle), encoding, by_line=True)
            assert decoded.decoder is not None
            state = _HandleState(decoded.decoder, binary=True)
            if decoded.binary_problem is not None:
                state.index = 1
                _HANDLES[handle] = state
                chunk = RawGame("", 0, 1, 1, "eof", 1, "binary", problem=decoded.binary_problem)
                return parse_raw(chunk)
            lines = decoded.blocks
        _HANDLES[handle] = state
    else:
        lines = line_blocks(handle, state.decoder)
    if state.rest:
        lines = _chain(state.rest, lines)
        state.rest = ""
    chunker = Chunker(lines, state.decoder if state.binary else None, state.line, state.column)
    for raw in chunker:
        state.index += 1
        raw.index = state.index
        raw.encoding = (state.decoder.encoding or "utf-8") if state.binary else "unicode"
        state.rest, state.line, state.column = chunker.rest()
        return parse_raw(raw)
    return None


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest
