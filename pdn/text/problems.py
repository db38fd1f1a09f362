"""The one list of problem codes, and the record every diagnostic is reported as.

Readers, the validator, the CLI's text and JSON output and the annotator all take their codes
from :data:`CODES`, so a code means the same thing everywhere.

>>> p = Problem("missed-capture", "a jump was available", line=3, column=7, ply=5, move="9-13")
>>> p.severity
'error'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, overload

Severity = Literal["error", "warning", "notice"]


@dataclass(frozen=True, slots=True)
class CodeInfo:
    """What a problem code means and how serious it is."""

    code: str
    severity: Severity
    summary: str


def _info(code: str, severity: Severity, summary: str) -> tuple[str, CodeInfo]:
    return code, CodeInfo(code, severity, summary)


#: Every problem code, with its default severity and a one-line summary.
CODES: dict[str, CodeInfo] = dict(
    [
        # --- reading: syntax and encoding -------------------------------------------------
        _info("syntax-error", "error", "the text is not PDN at this point"),
        _info("unclosed-comment", "error", "a '{' comment is never closed"),
        _info("unclosed-variation", "error", "a '(' variation is never closed"),
        _info("unopened-variation", "error", "a ')' closes no variation"),
        _info("nested-comment", "warning", "a '{' inside a comment (comments do not nest)"),
        _info("bad-tag", "error", "a tag pair that cannot be read"),
        _info("junk", "warning", "text that is not PDN was skipped"),
        _info("encoding", "warning", "bytes that are not valid in the detected encoding"),
        _info("empty-game", "warning", "a game with neither tags nor moves"),
        _info(
            "tags-only",
            "warning",
            "a tag section with no movetext, another game's tags after it: a game with no moves",
        ),
        _info("odd-tag-name", "warning", "a tag name outside the PDN 3.0 form [A-Z][A-Za-z0-9_]*"),
        _info("missing-terminator", "notice", "the game has no result or '*' at its end"),
        _info("dangling-move-number", "warning", "a move number with no move after it"),
        _info(
            "lone-variation",
            "warning",
            "the game's moves are in a variation with no move before or after it: read as "
            "its main line (a writer drops the parentheses)",
        ),
        _info(
            "not-pdn",
            "error",
            "the input is not PDN text (binary data, an image), or a game holds no draughts "
            "move, only words that are not PDN (a chess game)",
        ),
        _info(
            "game-too-long",
            "error",
            "a game longer than the reader keeps (MAX_GAME_CHARS): its end was skipped",
        ),
        _info("internal-error", "error", "pdn failed on a game (a bug); the game is kept as read"),
        # --- replay: moves --------------------------------------------------------------
        _info("missed-capture", "error", "a plain move while a jump was available"),
        _info("backward-man", "error", "a man moved backward"),
        _info("incomplete-capture", "error", "a multi-jump stopped while a further jump was open"),
        _info("capture-after-crowning", "error", "a man went on jumping after it was crowned"),
        _info("wrong-side", "error", "a piece of the side not to move was moved (out of turn)"),
        _info("empty-square", "error", "the move starts on an empty square"),
        _info("occupied-square", "error", "the move ends on an occupied square"),
        _info("not-diagonal", "error", "the move is not along a diagonal"),
        _info("king-too-far", "error", "a king moved more than one square"),
        _info("ambiguous-move", "error", "the written move fits more than one legal capture"),
        _info("move-after-game-end", "error", "a move after the side to move had no legal move"),
        _info("illegal-move", "error", "the move is not legal here"),
        _info("bad-square", "error", "a square that does not exist on this board"),
        _info("unknown-move", "warning", "a move written as unknown ('- -')"),
        # --- replay: the game as a whole ------------------------------------------------
        _info("result-mismatch", "warning", "the terminator and the Result tag disagree"),
        _info("result-impossible", "error", "the result contradicts the final position"),
        _info("bad-fen", "error", "a FEN setup that cannot be read"),
        _info("bad-gametype", "warning", "a GameType tag that cannot be read"),
        _info("unsupported-variant", "warning", "the rules of this variant are not implemented"),
        _info("variant-guess", "warning", "no GameType tag: the rules were chosen from the moves"),
        _info("move-number", "notice", "a move number that does not fit the position"),
        _info("separator", "notice", "a capture written with '-', or a plain move with 'x'"),
        _info("draw-claimable", "notice", "a draw could be claimed (move count or repetition)"),
        _info("draw-rule", "notice", "the rules declare the game drawn from this ply on"),
        _info("draws-unwatched", "notice", "this variant's draw rules are not watched"),
        _info(
            "start-colour",
            "notice",
            "the GameType's start colour is not the variant's: the game starts with the GameType's",
        ),
    ]
)


#: The codes of a problem that makes an empty game stand for text that is no game: a JSON
#: record pdn could not read, an input that is not PDN. Such a game is no game to write (its
#: problem says what was there); any other game, even one with nothing in it, is one.
NO_GAME_CODES = frozenset(("syntax-error", "not-pdn"))


class VariationPath(Sequence[int]):
    """The path to a side line (see :attr:`Problem.variation`) that shares its prefix with
    the path of the line it branches from: variations nested ``n`` deep, each with a problem,
    hold ``n`` links, not the ``n * n / 2`` numbers of as many tuples.

    It reads as the tuple of its numbers (``len``, iteration, indexing, slices) and is equal
    to it, with the same hash.

    >>> path = VariationPath.of((2,)).child(1)
    >>> path == (2, 1), list(path), path[-1], len(path), path
    (True, [2, 1], 1, 2, (2, 1))
    """

    __slots__ = ("_hash", "_length", "_number", "_parent")

    def __init__(self, parent: VariationPath | None, number: int) -> None:
        self._parent = parent
        self._number = number
        self._length: int = 1 if parent is None else parent._length + 1
        self._hash: int | None = None

    @classmethod
    def of(cls, numbers: Sequence[int]) -> VariationPath | tuple[int, ...]:
        """The path of ``numbers`` (the empty tuple for the main line)."""
        if isinstance(numbers, VariationPath):
            return numbers
        path: VariationPath | None = None
        for number in numbers:
            path = cls(path, number)
        return () if path is None else path

    def child(self, number: int) -> VariationPath:
        """The path of the ``number``-th alternative inside this line."""
        return VariationPath(self, number)

    def _numbers(self) -> tuple[int, ...]:
        numbers = []
        link: VariationPath | None = self
        while link is not None:
            numbers.append(link._number)
            link = link._parent
        return tuple(reversed(numbers))

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[int]:
        return iter(self._numbers())

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...
    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        return self._numbers()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, VariationPath):
            return self is other or (
                self._length == other._length and self._numbers() == other._numbers()
            )
        if isinstance(other, tuple):
            return self._length == len(other) and self._numbers() == other
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._numbers())
        return self._hash

    def __repr__(self) -> str:
        return repr(self._numbers())

    def __reduce__(self) -> tuple[object, ...]:
        # As its numbers: a chain of links thousands long would recurse as deep in pickle.
        return VariationPath.of, (self._numbers(),)


def branch(path: Sequence[int], number: int) -> VariationPath:
    """The path of the ``number``-th alternative inside the line at ``path``."""
    parent = VariationPath.of(path)
    return VariationPath(parent if isinstance(parent, VariationPath) else None, number)


@dataclass(frozen=True, slots=True)
class Problem:
    """One located diagnostic: a syntax error from the reader or an illegal move from replay.

    ``line`` and ``column`` are 1-based and absolute in the file; ``ply`` is 1-based along the
    line of play it was found in (``None`` for problems that are not about a move);
    ``variation`` is the path to that line: empty on the main line, ``(2,)`` in the second
    alternative where it branches off, ``(2, 1)`` in the first alternative inside that one (a
    tuple, or a :class:`VariationPath` that reads and compares as one).
    """

    code: str
    message: str
    line: int | None = None
    column: int | None = None
    ply: int | None = None
    move: str | None = None
    legal: tuple[str, ...] = ()
    severity: Severity = field(default="error")
    variation: Sequence[int] = ()

    def __post_init__(self) -> None:
        info = CODES.get(self.code)
        if info is None:
            raise ValueError(f"unknown problem code {self.code!r}")
        # The registry decides the severity unless the caller chose one deliberately.
        if self.severity == "error" and info.severity != "error":
            object.__setattr__(self, "severity", info.severity)

    @property
    def where(self) -> str:
        """Where along the game: ``"ply 3"``, or ``"variation 2.1, ply 3"`` in a side line;
        empty for problems that are not about a move."""
        if self.ply is None:
            return ""
        if not self.variation:
            return f"ply {self.ply}"
        return f"variation {'.'.join(map(str, self.variation))}, ply {self.ply}"

    @property
    def location(self) -> str:
        """``line:column`` (or just the line, or ``?``) for messages."""
        if self.line is None:
            return "?"
        return f"{self.line}:{self.column}" if self.column is not None else str(self.line)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dictionary with every field."""
        return {
            "code": self.code,
            "severity": self.severity,
            "ply": self.ply,
            "move": self.move,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "legal": list(self.legal),
            "variation": list(self.variation),
        }
