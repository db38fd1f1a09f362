"""What the reader says is wrong, and where: the parser's errors it recovers from, damaged
bytes, a guessed encoding. Positions are absolute in the file, 1-based.

:class:`Recovery` is the ``on_error`` handler of a parse (:func:`pdn.reading.grammar.parser`): each
error becomes a problem, the text the parser skipped is handed back to the walk of
:mod:`pdn.reading.parsing` (which keeps it as comments in its place), and variations left open at
the
end are closed.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from pdn.text.problems import Problem, Severity

from .cutting import MAX_GAME_CHARS, RawGame
from .grammar import Token

if TYPE_CHECKING:
    from lark.exceptions import UnexpectedInput, UnexpectedToken


class Walk(Protocol):
    """What :class:`Recovery` needs of the walk of one game's items."""

    #: The game's text, as cut.
    text: str
    #: Tokens the parser's recovery skipped, in text order: kept as comments in their place.
    skipped: deque[Token]

    def position(self, line: int | None, column: int | None) -> tuple[int | None, int | None]:
        """Absolute (line, column) of a position relative to the game's text."""

    def problem(
        self,
        code: str,
        message: str,
        line: int | None,
        column: int | None,
        move: str | None = None,
        severity: Severity | None = None,
    ) -> None:
        """Tell of a problem."""


_WORD = re.compile(r"\S+")


def shorten(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, its white space folded, cut to ``limit`` characters.

    >>> shorten("a  long   line"), shorten("x" * 50)[-5:]
    ("'a long line'", "...'")
    """
    # The words up to the limit only: the text may be a megabyte of junk.
    words = []
    size = -1
    for found in _WORD.finditer(text):
        words.append(found.group())
        size += len(words[-1]) + 1
        if size > limit:
            break
    text = " ".join(words)
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def count_words(text: str) -> int:
    """How many words (runs of characters other than white space) ``text`` holds."""
    return _WORD.subn("", text)[1]  # (counted in C, with no list of the words)


class Recovery:
    """``on_error`` handler of one parse: records each problem and tells Lark to go on."""

    def __init__(self, walker: Walk) -> None:
        self.walker = walker

    def __call__(self, error: UnexpectedInput) -> bool:
        # Here: only a game the parser reads (so lark is loaded already) meets an error.
        from lark.exceptions import UnexpectedCharacters, UnexpectedToken

        walker = self.walker
        if isinstance(error, UnexpectedToken):
            token = error.token
            if token.type == "$END":
                return self._close_variations(error)
            line, column = walker.position(token.line, token.column)
            text = str(token)
            if token.type == "RPAR":
                walker.problem(
                    "unopened-variation",
                    f"unexpected ')' at {line}:{column}: no variation is open; kept as a comment",
                    line,
                    column,
                )
            elif token.type == "RESULT":
                walker.problem(
                    "syntax-error",
                    f"result {text!r} at {line}:{column} in the middle of the game was kept "
                    "as a comment",
                    line,
                    column,
                )
            elif token.type == "TAGS":
                walker.problem(
                    "bad-tag",
                    f"tag pairs {shorten(text)} at {line}:{column} after the moves were kept "
                    "as comments",
                    line,
                    column,
                )
            else:
                walker.problem(
                    "syntax-error",
                    f"unexpected {shorten(text)} at {line}:{column} was kept as a comment",
                    line,
                    column,
                )
            # The parser goes on without it; the walker puts its text back in its place.
            walker.skipped.append(Token.of(token))
            return True
        if isinstance(error, UnexpectedCharacters):
            line, column = walker.position(error.line, error.column)
            at = error.pos_in_stream or 0
            char = walker.text[at : at + 1]
            walker.problem(
                "syntax-error",
                f"unexpected character {char!r} at {line}:{column} was kept as a comment",
                line,
                column,
            )
            # The lexer steps over it; the walker puts it back in its place, as any skipped token.
            walker.skipped.append(Token("JUNK", char, at, error.line, error.column))
            return True
        return False

    def _close_variations(self, error: UnexpectedToken) -> bool:
        from lark import Token as LarkToken  # the parser's own, as it feeds them

        interactive = error.interactive_parser
        opened = [
            value
            for value in interactive.parser_state.value_stack
            if isinstance(value, LarkToken) and value.type == "LPAR"
        ]
        if not opened:
            return False
        walker = self.walker
        for token in reversed(opened):
            line, column = walker.position(token.line, token.column)
            walker.problem(
                "unclosed-variation",
                f"unclosed variation opened at {line}:{column}",
                line,
                column,
            )
            interactive.feed_token(LarkToken("RPAR", ")"))
        return True


#: The names users know the guessed encodings by.
_ENCODING_NAMES = {"cp1251": "Windows-1251", "cp1252": "Windows-1252", "latin-1": "Latin-1"}


def encoding_messages(chunk: RawGame, line0: int, col0: int) -> Iterator[tuple[str, int, int]]:
    """``(message, line, column)`` for each damaged byte sequence or U+FFFD of a game's text,
    in text order, then for its file's encoding when it was guessed; ``line0`` and ``col0``
    are where the text starts (its first column less one)."""
    text = chunk.text
    # Positions found by counting on from the previous record (offsets come in order), so
    # that a game of many damaged bytes costs linear time; the same answer as counting the
    # line ends before each.
    seen = newlines = 0
    line_start = -1  # the last line end before ``seen``
    for offset, damage in chunk.damage:
        if offset < seen:
            seen = newlines = 0
            line_start = -1
        newlines += text.count("\n", seen, offset)
        found = text.rfind("\n", seen, offset)
        line_start = found if found >= 0 else line_start
        seen = offset
        if newlines:
            line, column = line0 + newlines, offset - line_start
        else:
            line, column = line0, col0 + offset + 1
        if damage is not None:
            shown = " ".join(f"{b:02X}" for b in damage.data[:8])
            if len(damage.data) > 8:
                shown += f" ... ({len(damage.data)} bytes)"
            what = f"byte {shown} at {line}:{column} (byte offset {damage.byte_offset}) is"
            if len(damage.data) > 1:
                what = f"bytes {shown} at {line}:{column} (byte offset {damage.byte_offset}) are"
            message = f"{what} not valid {chunk.encoding}; replaced by U+FFFD"
            if damage.data == b"\x00":
                where = f"{line}:{column} (byte offset {damage.byte_offset})"
                message = f"NUL byte at {where} is no text; replaced by U+FFFD"
        else:
            message = f"character U+FFFD at {line}:{column}: damaged or unreadable bytes"
        yield message, line, column
    if chunk.encoding_guessed:
        name = _ENCODING_NAMES.get(chunk.encoding, chunk.encoding)
        yield (
            f"the file is not UTF-8: read as {name}, "
            "a guess from its bytes (give it with --encoding, or encoding= in Python, "
            "to be sure)",
            chunk.line,
            chunk.column,
        )


def missing_terminator(chunk: RawGame, line: int, column: int) -> tuple[str, Severity | None]:
    """The message of a game that ends at (``line``, ``column``) without a result or ``*``,
    and its severity: a warning when the next game (or the cutter's size limit) ended it,
    else the code's own."""
    if chunk.end in ("tag", "comment", "size"):
        return (
            f"the game ends at {line}:{column} without a result or '*' before the next game",
            "warning",
        )
    return (f"the game ends at {line}:{column} (end of input) without a result or '*'", None)


def too_long(chunk: RawGame, line: int, column: int) -> Problem:
    """The problem of a game cut short at (``line``, ``column``) for its size."""
    end_line, end_column = chunk.skipped_end
    return Problem(
        "game-too-long",
        f"the game at {chunk.line}:{chunk.column} is longer than the "
        f"{MAX_GAME_CHARS} characters kept of a game: it is read up to "
        f"{line}:{column}, and its other {chunk.skipped} characters, up to "
        f"{end_line}:{end_column}, are skipped",
        line=line,
        column=column,
    )


def unlisted(chunk: RawGame, count: int) -> Problem:
    """The last problem of a game with ``count`` problems past those listed."""
    message = f"{count} more problems in the game at {chunk.line}:{chunk.column} are not listed"
    return Problem("syntax-error", message, line=chunk.line, column=chunk.column)


# A move of chess in the standard algebraic notation (e4, exd5, Nf3, O-O, e8=Q+), as a chess
# PGN file writes it: no draughts move looks like one (a draughts square alone is no move).
_CHESS_MOVE = re.compile(
    r"(?:[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=?[QRBN])?|O-O(?:-O)?)[+#]?[!?]*"
)
#: Junk words kept to say what a game with no draughts move holds.
JUNK_SAMPLE = 6


def no_draughts_move(words: int, sample: list[str], line: int, column: int) -> Problem:
    """The ``not-pdn`` error of a game whose movetext holds ``words`` junk words (the first
    of them ``sample``) and no draughts move at all: a chess game, or other text."""
    shown = " ".join(sample[:JUNK_SAMPLE]) + (" ..." if words > len(sample) else "")
    chess = sum(_CHESS_MOVE.fullmatch(word) is not None for word in sample)
    if chess * 2 >= len(sample) and chess:
        what = f"its {words} words ({shown!r}) are chess moves: a chess game, not draughts"
    else:
        what = f"only {words} words that are not PDN ({shown!r})"
    message = f"the game holds no draughts move at all, {what}; kept as comments"
    return Problem("not-pdn", message, line=line, column=column)
