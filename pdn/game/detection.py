"""Which rules a game is read under when its own tags do not say: the evidence of its file.

A game without a ``GameType`` tag is guessed from the squares it uses (:mod:`pdn.game.gametype`). In
a 10x10 file a short game, or an opening fragment, may use only squares up to 32 and look like
English checkers; the file as a whole does not. Before its games are read, a file on disk (or a
seekable stream) is scanned once, quickly (about 40 MB/s), for the squares of its movetext and
FENs (tags and comments left out): when numeric squares above 32 are a real share of its moves
(more than one in twenty) and algebraic squares are not, the file is on a 10x10 board (12x12
above 50), and a game without a GameType that uses only low squares is on it too.

A ``GameType`` tag decides its own game only: in a collection, one tagged Russian game among
untagged English ones says nothing of the others. Where the squares do not agree, each game is
decided on its own. Every decision keeps its evidence as a sentence that reports show.

>>> import io
>>> evidence = scan_file(io.BytesIO(b'1. 32-28 19-23 *\\n\\n1. 32-28 18-23 2. 38-33 12-18 *\\n'))
>>> evidence.moves, evidence.high, evidence.highest
(6, 1, 33)
>>> evidence.decide("english", "squares")[:2]
('international', 'file')
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from pdn.engine import VARIANTS

from .gametype import fen_evidence, variant_from_evidence

__all__ = ["FileEvidence", "game_evidence", "scan_file", "source_sentence"]

#: How much of a file is scanned at a time.
_BLOCK = 1 << 20

_FEN_TAG_RE = re.compile(r'^[ \t]*\[[ \t]*FEN[ \t]+"([^"\n]*)"', re.MULTILINE)
# Tag lines and comments are left out of the square scan; newlines stay, so lines still count.
_TAG_LINE_RE = re.compile(r"^[ \t]*\[[^\n]*", re.MULTILINE)
_BRACE_RE = re.compile(r"\{[^}]*\}?")
_LINE_COMMENT_RE = re.compile(r";[^\n]*")
# A numeric square above 32 after a move separator. The squares a man or king moves to are
# enough to tell a board (on 10x10, White's first moves go to 33-50 as often as not), and one
# search costs a tenth of the scan where two, from and to, cost a third.  The separator is
# matched, not looked behind at, so that the regex engine skips to each separator in C.
_HIGH_TO_RE = re.compile(r"[-xX:][ \t]*(3[3-9]|[4-9][0-9])(?![0-9])")
_ALGEBRAIC_RE = re.compile(r"[a-lA-L](?:1[0-2]|[1-9])(?![0-9])")
#: A kind of square is the file's when it is above one in this many moves.
_SHARE = 20


def _squares_of(name: str | None) -> int:
    """The playing squares of a variant's board (its :class:`~pdn.engine.Variant`), for "the
    squares fit this board"; 32 for a name the engine does not know."""
    rules = VARIANTS.get(name or "")
    return 32 if rules is None else rules.squares


@dataclass(slots=True)
class FileEvidence:
    """What the games of one file agree on (see the module's docstring).

    Counts are of the movetext's moves and squares (tags and comments left out): ``moves``
    (separators, about one per move), ``high`` (numeric squares above 32 that a move goes
    to), ``algebraic``
    (algebraic squares); ``highest`` is the highest numeric square above 32 (0 if none).
    A square count is evidence of the file's board only when it is a real share of the moves:
    one mistyped square in an English archive of 20,000 games says nothing.
    """

    moves: int = 0
    high: int = 0
    algebraic: int = 0
    highest: int = 0

    def add_text(self, text: str) -> None:
        """Take in a piece of the file made of whole lines."""
        for fen in _FEN_TAG_RE.findall(text) if "FEN" in text else ():
            algebraic, highest = fen_evidence(fen)
            self.algebraic += algebraic
            self._count_high(highest)
        movetext = _TAG_LINE_RE.sub("", text)
        if "{" in movetext:
            movetext = _BRACE_RE.sub("", movetext)
        if ";" in movetext:
            movetext = _LINE_COMMENT_RE.sub("", movetext)
        self.moves += movetext.count("-") + movetext.count("x") + movetext.count(":")
        if _ALGEBRAIC_RE.search(movetext) is not None:
            self.algebraic += len(_ALGEBRAIC_RE.findall(movetext))
        if _HIGH_TO_RE.search(movetext) is not None:
            for square in _HIGH_TO_RE.findall(movetext):
                self._count_high(int(square))

    def _count_high(self, square: int) -> None:
        if square > 32:
            self.high += 1
            self.highest = max(self.highest, square)

    def _share(self, count: int) -> bool:
        return count * _SHARE > max(self.moves, 1)

    def decide(self, variant: str | None, source: str) -> tuple[str, str, str] | None:
        """``(variant, "file", evidence)`` for a game whose own guess was ``variant`` from
        ``source`` (see :func:`pdn.game.gametype.detect_variant`), when the file says better; else
        ``None``. A game's own GameType tag always wins."""
        if source == "gametype":
            return None
        if self._share(self.algebraic):
            if source != "default" or self._share(self.high):
                return None
            return (
                "russian",
                "file",
                "no GameType and no squares of its own; the moves of this file are algebraic "
                "(taken as Russian, the most common alphanumeric game)",
            )
        if not self._share(self.high):
            return None
        board = variant_from_evidence(False, self.highest)
        if board is None or board == variant or not _fits(board, variant):
            return None
        return (
            board,
            "file",
            f"no GameType; the moves of this file go to squares up to {self.highest} "
            f"({self.high} of its about {self.moves} moves go above 32)",
        )


def _fits(name: str, guess: str | None) -> bool:
    """Whether a game guessed as ``guess`` (from its own squares) can be of variant ``name``:
    a guess of English only says that no square is above 32."""
    if guess in (None, "english"):
        return True
    return _squares_of(guess) <= _squares_of(name)


def _blocks(handle: IO[Any]) -> Iterator[str]:
    """Whole lines of a file, a large block at a time, line ends made ``\\n``."""
    rest = ""
    while True:
        data = handle.read(_BLOCK)
        if not data:
            break
        text = data.decode("latin-1") if isinstance(data, bytes) else data
        text = rest + text.replace("\r\n", "\n").replace("\r", "\n")
        cut = text.rfind("\n") + 1
        if not cut and len(text) > _BLOCK:
            # A line longer than a block (every game of a file on one line, a line of junk):
            # given at its last space, so that memory stays bounded (the counts are of words).
            cut = max(text.rfind(" "), text.rfind("\t")) + 1
        rest = text[cut:]
        if cut:
            yield text[:cut]
    if rest:
        yield rest


def scan_file(source: str | os.PathLike[str] | IO[Any]) -> FileEvidence | None:
    """The evidence of a file (a path, an open file of a file on disk, or a stream that can be
    sought back to where it was); ``None`` for a stream that cannot be read twice, such as a
    pipe.

    The digits, letters and brackets it looks at are ASCII, so the bytes are read as Latin-1
    whatever their encoding (a UTF-16 file gives no evidence; its games are decided alone).
    """
    if isinstance(source, (str, os.PathLike)):
        if not os.path.isfile(source):
            return None  # a FIFO or a device: reading it here would eat what it gives
        with open(source, "rb") as handle:
            return _scan(handle)
    name = getattr(source, "name", None)
    if isinstance(name, str) and os.path.isfile(name):
        # An open file on disk (a progress bar's byte counter, which cannot seek, among
        # them): its file is scanned on its own, and the stream is left where it is.
        return scan_file(name)
    try:
        if not source.seekable():
            return None
        at = source.tell()
    except (AttributeError, OSError, ValueError):
        return None
    try:
        return _scan(source)
    finally:
        source.seek(at)


def _scan(handle: IO[Any]) -> FileEvidence:
    evidence = FileEvidence()
    for text in _blocks(handle):
        evidence.add_text(text)
    return evidence


#: What each detection source means, for the reports ("rules: Russian draughts, from ...").
_SOURCES = {
    "option": "the --variant option",
    "gametype": "the GameType tag",
    "file": "the other games of the file",
    "squares": "a guess from the squares the moves use",
    "fen": "a guess from the squares of the FEN",
    "default": "nothing to go on: English, the original PDN's game",
    "replay": "a guess: the only rules that replay the game",
    "replay-file": "a guess: rules that replay the game, those of the file's earlier games",
    "replay-common": "a guess: the common game of the one board whose rules replay the game",
    "record": "the variant a JSON record names",
}


def source_sentence(source: str) -> str:
    """A few words saying what a detection source is (``"gametype"`` -> ``"the GameType
    tag"``)."""
    return _SOURCES.get(source, source)


#: What the squares of a game say, by the variant they are taken for.
_SQUARES_SAY = {
    "russian": "algebraic squares (taken as Russian, the most common alphanumeric game)",
    "english": "numeric squares, none above 32",
    "international": "numeric squares above 32 (a 10x10 board)",
    "canadian": "numeric squares above 50 (a 12x12 board)",
}


def game_evidence(variant: str | None, source: str, game_type_text: str | None) -> str:
    """The sentence saying why a game is taken for ``variant``, from what the game itself
    holds (``source`` as :func:`pdn.game.gametype.detect_variant` gives it).

    >>> game_evidence("english", "squares", None)
    'no GameType; numeric squares, none above 32'
    """
    if source == "gametype":
        if variant is None:
            return f"GameType {game_type_text!r}: no draughts rules for this type"
        return f"GameType {game_type_text!r}"
    if source == "default":
        return "no GameType and no squares to go on: English, the original PDN's game"
    said = _SQUARES_SAY.get(variant or "", "its squares")
    return f"no GameType; {said}" + (" in the FEN" if source == "fen" else "")
