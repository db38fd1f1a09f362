"""Writing PDN: a faithful copy of what was read, or the normalised PDN 3.0 form.

``write_game(game)`` (also ``str(game)``) gives text that :func:`pdn.read_game` reads back to an
equal game.  Two modes:

* **faithful** (default): tags in their order with their names, move numbers as written (none
  where none were written), moves exactly as written (``"1- 6"``, ``"c3:e5"``), strength marks,
  NAGs, comments with their delimiters, variations, setup commands, and the terminator as written
  (none if there was none).  Only the layout changes: lines are filled up to ``columns``.  A
  bracket the reader kept as a comment (``[GameTy``, ``[Empty]``) is written as it was read when
  it stands among the tags or before the first move (it reads back as the same comment).
* **separate** (``separate=True``, what :func:`write_games`, ``pdn convert`` and ``fix``'s JSON
  records use for a file of games; ``fix`` adds ``*`` to PDN text only where the next game would
  join it): a game without a terminator is written with the terminator ``*`` (unknown
  result), the one change.  A game ends at its terminator or at the next tag line after its
  moves, so without one it would take in what follows: the comments the next game starts with,
  all of a next game without tags, or, for a game of tags only, the next game's tags.  A game
  with nothing in it (a JSON record without tags or moves) is written as ``*`` alone, a game of
  its own (PDN 3.0: a body may be a terminator alone); only an empty game that stands for text
  that is no game (a refused JSON record: :data:`~pdn.text.problems.NO_GAME_CODES`) is written as
  nothing.
* **normalised** (``normalize=True``): the PDN 3.0 "writing" form.  The seven standard tags come
  first in the standard order, then the others as written; move numbers are regenerated (``N.``
  before the first mover's move, ``N...`` before the other side's when it does not directly
  follow its pair; none before a setup command unless comments stand before it); the
  terminator is always written (the terminator, else the ``Result`` tag if it is a result, else
  ``*``).  :func:`write_game` first replays the game (:mod:`pdn.writing.rewriting`): every legal
  move is
  written in the PDN 3.0 form (``-`` for a plain move, the variant's capture separator, lower
  case, no inner spaces or leading zeros, the path as long as written) and the FEN tag and
  setup commands in canonical form; a move that does not replay keeps its text (``9999`` is
  not ``99-99``).  :class:`PdnWriter` itself lays the game out and never changes a move.

Limits (all about models built by hand, never about models the reader produced): a brace comment
must not contain ``}`` nor a line that is a tag pair (``[Event "x"]``: a reader takes it for the
next game after an unclosed comment) unless its end follows soon after, with no ``{`` between
(:func:`pdn.reading.cutting.comment_reads_whole`), and a line comment no line break
(:class:`ValueError`); a
comment in
``comments_before`` of a move that follows another move of its line reads back as a comment after
that earlier move unless the move has a number; a final move whose strength ends in ``*`` with no
terminator reads back as the terminator ``*``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Sequence
from typing import IO

from mypy_extensions import mypyc_attr

from pdn.game.gametype import first_mover, game_type_of
from pdn.game.model import STANDARD_TAGS, Comment, Game
from pdn.game.visitor import GameStart, GameVisitor
from pdn.reading.cutting import comment_reads_whole
from pdn.reading.parsing import junk_bracket
from pdn.text.problems import NO_GAME_CODES, Problem
from pdn.text.results import TERMINATORS

from .rewriting import rewrite_moves

__all__ = [
    "PdnWriter",
    "canonical_move",
    "canonical_moves",
    "tag_line",
    "write_game",
    "write_games",
]

_NUMERIC_SQUARE = re.compile(r"[0-9]+")
_ALGEBRAIC_SQUARE = re.compile(r"([a-lA-L])\s*0*([0-9]+)")


def canonical_move(text: str) -> str:
    """A written move in the PDN 3.0 writing form (``"01- 6"`` -> ``"1-6"``).

    ``-`` separates a plain move (two squares), ``x`` a capture (written with ``x``, ``X`` or
    ``:``, or a path of three or more squares).  Unknown moves (``"- -"``) and texts that are
    not moves are returned unchanged.

    >>> canonical_move("26-17-10"), canonical_move("3228"), canonical_move("a3b4")
    ('26x17x10', '32-28', 'a3-b4')
    """
    known = _CANONICAL.get(text)
    if known is None:
        known = _canonical(text)
        if len(_CANONICAL) < 100_000:  # the same few thousand moves recur in every game
            _CANONICAL[text] = known
            if known == text:
                _ALREADY.add(text)
    return known


def canonical_moves(texts: list[str]) -> list[str]:
    """:func:`canonical_move` of each of ``texts``: ``texts`` itself when each is written
    that way already (as most archives write every move), else a new list.

    >>> canonical_moves(["11-15", "23-19"]), canonical_moves(["11-15", "2319"])
    (['11-15', '23-19'], ['11-15', '23-19'])
    """
    if _ALREADY.issuperset(texts):  # one C loop over the line (the common case)
        return texts
    return [canonical_move(text) for text in texts]


_CANONICAL: dict[str, str] = {}
#: The texts of _CANONICAL that are their own canonical form.
_ALREADY: set[str] = set()


def _canonical(text: str) -> str:
    stripped = text.strip()
    if not stripped or stripped[0] == "-":
        return text
    algebraic = _ALGEBRAIC_SQUARE.findall(stripped)
    if algebraic:
        squares = [letter.lower() + str(int(digits)) for letter, digits in algebraic]
    else:
        digits = _NUMERIC_SQUARE.findall(stripped)
        if len(digits) == 1 and len(digits[0]) == 4:
            digits = [digits[0][:2], digits[0][2:]]
        if any(int(value) == 0 for value in digits):
            return text
        squares = [str(int(value)) for value in digits]
    if len(squares) < 2:
        return text
    capture = any(ch in "xX:" for ch in stripped) or len(squares) > 2
    canonical = ("x" if capture else "-").join(squares)
    # "1-01" is no move, but as "1-1" it would read back as a result.
    return text if canonical in TERMINATORS else canonical


def _escape_value(value: str) -> str:
    # Only what the reader would misread is escaped: a quote, and a backslash that comes before
    # a quote, another backslash or the end of the value. A line break, which a tag value read
    # never holds and PDN cannot escape, would end the tag line: it becomes a space.
    if "\n" in value or "\r" in value:
        value = value.replace("\r\n", " ").replace("\r", " ").replace("\n", " ")
    if '"' not in value and "\\" not in value:
        return value
    out: list[str] = []
    for i, ch in enumerate(value):
        if ch == '"':
            out.append('\\"')
        elif ch == "\\" and (i + 1 == len(value) or value[i + 1] in '"\\'):
            out.append("\\\\")
        else:
            out.append(ch)
    return "".join(out)


def _line_text(comment: Comment) -> str:
    """A comment on a line of its own among the tags: a bracket the reader kept as a comment
    (``[GameTy``) is written as it was read, and reads back as the same comment."""
    if comment.kind == "brace" and junk_bracket(comment.text):
        return comment.text
    return _comment_text(comment)


def _comment_text(comment: Comment) -> str:
    if comment.kind == "brace":
        if "}" in comment.text:
            raise ValueError(f"a brace comment cannot hold '}}': {comment.text!r}")
        if not comment_reads_whole(comment.text):
            # A reader takes such a line for the next game's tags after an unclosed comment.
            raise ValueError(f"a brace comment cannot hold a tag pair line: {comment.text!r}")
        return "{" + comment.text + "}"
    if "\n" in comment.text:
        raise ValueError(f"a {comment.kind} comment cannot hold a line break: {comment.text!r}")
    return (";" if comment.kind == "line" else "%") + comment.text


class _Layout:
    """Fills lines with words up to a width.

    A word can be glued to the one before it (the word after ``(``, and ``)``): glued words
    move to the next line together, so a line never starts with ``)`` and ``(`` stays with
    the move it opens on.  Nothing is ever dropped: a group of glued words longer than the
    width stands alone on a line that is too long.
    """

    def __init__(self, columns: int) -> None:
        self.columns = columns
        self.lines: list[str] = []
        # The current line, each word as it is written there: after a space, unless it is the
        # first or glued to the one before (so the line is their join).
        self.units: list[str] = []
        self.glue = False  # the next word sticks to the previous one (after "(")
        # The width of the current line's last row, kept as words come: measuring the line
        # again for each word made laying out a long movetext quadratic.
        self.width = 0
        # Where the trailing group of glued words starts in ``units``, and whether one of them
        # holds a line break, kept as words come for the same reason: looking back for the
        # group at each word made a long run of glued ")" quadratic.
        self.group = 0
        self.group_breaks = False

    def _add(self, text: str, glued: bool) -> None:
        units = self.units
        spaced = bool(units) and not glued
        if glued and units:
            self.group_breaks = self.group_breaks or "\n" in text
        else:
            self.group = len(units)
            self.group_breaks = "\n" in text
        units.append(" " + text if spaced else text)
        last = text.rfind("\n")
        if last >= 0:
            self.width = len(text) - last - 1
        else:
            self.width += len(text) + spaced

    def newline(self) -> None:
        """End the current line (if anything is on it)."""
        if self.units:
            self.lines.append("".join(self.units))
            self.units = []
        self.width = 0
        self.glue = False

    def word(self, text: str, *, stick: bool = False) -> None:
        """Add a word; ``stick`` glues it to the previous word (a closing parenthesis)."""
        glued = (stick or self.glue) and bool(self.units)
        self.glue = False
        units = self.units
        first = text.find("\n")
        length = len(text) if first < 0 else first
        if not units:
            self._add(text, False)
        elif glued:
            if self.width + length > self.columns:
                # Too long for this line: carry the glued group it joins over with it (its
                # first word stood after a space, which it loses at the start of a line).
                start = self.group
                if start > 0 and not self.group_breaks:
                    group = units[start:]
                    del units[start:]
                    self.newline()
                    self._add(group[0][1:], False)
                    for word in group[1:]:
                        self._add(word, True)
            self._add(text, True)
        elif self.width + 1 + length > self.columns:
            self.newline()
            self._add(text, False)
        else:
            self._add(text, False)

    def words(self, texts: Sequence[str]) -> None:
        """Words in a row, none glued to the one before: what :meth:`word` does for each, in
        one loop (the moves of a line, which are most of an archive's words)."""
        units = self.units
        width = self.width
        columns = self.columns
        plain = False  # whether the last word was laid out here
        for text in texts:
            plain = not self.glue and "\n" not in text
            if not plain:
                # Not the plain case: the general way, and the state read back after it.
                self.width = width
                self.word(text)
                units, width = self.units, self.width
                continue
            length = len(text)
            if not units:
                width = length
                units.append(text)
            elif width + 1 + length > columns:
                self.lines.append("".join(units))
                units = self.units = [text]
                width = length
            else:
                width += 1 + length
                units.append(" " + text)
        if plain:
            # Each word laid out here starts a group of its own: the last one is the group.
            self.group = len(units) - 1
            self.group_breaks = False
        self.width = width

    def comment(self, comment: Comment) -> None:
        """A comment: line comments end their line, ``%`` lines also start one."""
        text = _comment_text(comment)
        if comment.kind == "percent":
            self.newline()
            self._add(text, False)
            self.newline()
            return
        self.word(text)
        if comment.kind == "line":
            self.newline()

    def open(self) -> None:
        """An opening parenthesis, glued to the next word."""
        self.word("(")
        self.glue = True

    def text(self) -> str:
        """Everything written so far, one line per line, with a final line end."""
        self.newline()
        return "".join(line + "\n" for line in self.lines)


class _Numbering:
    """Regenerated move numbers for the normalised form, followed through the events.

    The state is ``(number of the next ply, side to move next)``; an alternative starts from
    the state before the move it replaces, and a variation written before any move of its line
    from the state before the next move.
    """

    def __init__(self, first: str, start: str) -> None:
        self.first = first
        self.state = (1, start)  # before the next ply of the current line
        self.before_last = self.state  # before the last ply of the current line
        self.saved: list[tuple[tuple[int, str], tuple[int, str]]] = []

    def move(self) -> tuple[int, str]:
        """(number, side) of the next move; the state moves past it."""
        number, side = self.state
        other = "B" if side == "W" else "W"
        self.before_last = self.state
        self.state = (number + 1 if side != self.first else number, other)
        return number, side

    def following(self, moves: Sequence[str]) -> list[str]:
        """The words of ``moves`` that each follow a move with nothing between them (only the
        first mover's get a number), the state moving past them: :meth:`move` for each."""
        number, side = self.state
        first = self.first
        second = "B" if first == "W" else "W"
        words: list[str] = []
        for move in moves:
            if side == first:
                words.append(f"{number}. {move}")
                side = second
            else:
                words.append(move)
                number, side = number + 1, first
        if moves:
            # The state before the last move: its side was the other one.
            self.before_last = (number, first) if side == second else (number - 1, second)
            self.state = (number, side)
        return words

    def setup(self, fen: str) -> None:
        """A setup command: the side to move is the FEN's; numbering goes on from here."""
        number, side = self.state
        fen_side = fen.strip()[:1].upper()
        if fen_side in ("W", "B") and fen_side != side:
            if fen_side == self.first:
                number += 1
            side = fen_side
        self.before_last = self.state
        self.state = (number, side)

    def begin_variation(self) -> None:
        self.saved.append((self.state, self.before_last))
        self.state = self.before_last

    def end_variation(self) -> None:
        self.state, self.before_last = self.saved.pop()


@mypyc_attr(allow_interpreted_subclasses=True)
class PdnWriter(GameVisitor[str]):
    """The visitor that writes PDN text (what :func:`write_game` uses).

    Give it the events of a model (``game.accept(PdnWriter())``) or of a text as it is read
    (``accept_raw(raw, PdnWriter())``): the text is the same, except that straight from the text a
    comment among the tag pairs keeps its place (a model holds such comments before the tags).
    ``variant`` (an engine variant name) decides the first mover for the regenerated numbers
    of the normalised form, when the ``GameType`` tag does not. ``move_numbers=False``
    writes no move number at all (a comment before a move then reads back after the move
    before it).
    ``separate`` writes ``*`` for a game without a terminator, so that the next game written
    stays apart from it.
    """

    def __init__(
        self,
        *,
        normalize: bool = False,
        columns: int = 80,
        variant: str | None = None,
        move_numbers: bool = True,
        separate: bool = False,
    ) -> None:
        self.normalize = normalize
        self.separate = separate
        self.columns = columns
        self.variant = variant
        self.move_numbers = move_numbers

    def begin_game(self, start: GameStart) -> None:
        self.head: list[str] = []  # comments before the tags, and the tag lines
        self.pairs: list[tuple[str, str]] = []
        self.tag_comments: list[Comment] = []  # comments of the tag section not yet placed
        self.layout = _Layout(self.columns)
        self.numbering: _Numbering | None = None
        self.word: str | None = None  # the move being written (a strength may follow)
        self.after_move = False  # the previous word was a move (so "N..." can be left out)
        self.terminator: str | None = None
        self.in_tags = True
        self.started = False  # a move, setup, variation, NAG or strength: the movetext began
        self.no_game = False  # a problem says the game stands for text that is no game
        self.text = ""

    def visit_tag(self, name: str, value: str) -> None:
        self.pairs.append((name, value))
        # A comment before a tag pair stands before the tags (normalised: before them all).
        for comment in self.tag_comments:
            self.head.append(_line_text(comment) + "\n")
        self.tag_comments = []
        if not self.normalize:
            self.head.append(tag_line(name, value))

    def visit_comment(self, comment: Comment) -> None:
        if self.in_tags:
            self.tag_comments.append(comment)
            return
        self.flush()
        self.comment(comment)
        self.after_move = False

    def comment(self, comment: Comment) -> None:
        """A comment of the movetext; before its first move or variation, a bracket the reader
        kept as a comment is written as read, on a line of its own (still the tag section)."""
        layout = self.layout
        if not self.started and comment.kind == "brace" and junk_bracket(comment.text):
            layout.newline()
            layout.word(comment.text)
            layout.newline()
        else:
            layout.comment(comment)

    def end_tags(self) -> None:
        pairs = self.pairs
        if self.normalize:
            # The standard tags first, in their order, then the others as written.
            standard = [pair for name in STANDARD_TAGS for pair in pairs if pair[0] == name]
            others = [pair for pair in pairs if pair[0] not in STANDARD_TAGS]
            self.head.extend(tag_line(name, value) for name, value in standard + others)
        self.in_tags = False
        for comment in self.tag_comments:
            self.comment(comment)
        self.tag_comments = []
        if self.normalize:
            tags = dict(reversed(pairs))  # the first value of each name
            first = first_mover(self.variant, game_type_of(tags.get("GameType")))
            fen = (tags.get("FEN") or "").strip()[:1].upper()
            self.numbering = _Numbering(first, fen if fen in ("W", "B") else first)

    def flush(self) -> None:
        """Write the move being written."""
        if self.word is not None:
            self.layout.word(self.word)
            self.word = None

    def _numbered(self, number: str | None, before: Sequence[Comment], text: str) -> None:
        self.flush()
        layout = self.layout
        if not self.move_numbers:
            number = None
        if number and before:
            layout.word(number)
            number = None
        for comment in before:
            layout.comment(comment)
        # A number stays on the line of its move.
        self.word = f"{number} {text}" if number else text

    def visit_move(
        self,
        move: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        numbering = self.numbering
        if numbering is not None:
            ply, side = numbering.move()
            if side == numbering.first:
                number = f"{ply}."
            elif not self.after_move or before:
                number = f"{ply}..."
            else:
                number = None
        self._numbered(number, before, move)
        self.after_move = self.started = True

    def visit_moves(
        self,
        moves: list[str],
        numbers: list[str | None],
        before: Sequence[Comment],
        lines: list[int],
        columns: list[int],
    ) -> None:
        if type(self).visit_move is not PdnWriter.visit_move or len(moves) < 2:
            # A subclass that does something of its own with each move sees each one.
            super().visit_moves(moves, numbers, before, lines, columns)
            return
        # The first move as visit_move writes it; after it, each move follows a move with
        # nothing between them, so only its number can stand before it: the words are laid
        # out in one loop, and the last is kept back, as visit_move keeps it (a strength
        # may follow).
        self.visit_move(moves[0], numbers[0], before, lines[0], columns[0])
        words = [self.word or ""]
        numbering = self.numbering
        if numbering is not None:
            numbered = numbering.following(moves[1:])  # (the numbering goes on without them)
            words.extend(numbered if self.move_numbers else moves[1:])
        elif self.move_numbers:
            for move, number in zip(moves[1:], numbers[1:], strict=True):
                words.append(f"{number} {move}" if number else move)
        else:
            words.extend(moves[1:])
        self.word = words.pop()
        self.layout.words(words)

    def visit_setup(
        self,
        fen: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        numbering = self.numbering
        if numbering is not None:
            # No number, unless comments stand before the command: only a number keeps them
            # there (without one they would belong to the move before).
            number = None
            if before:
                ply, side = numbering.state
                number = f"{ply}." if side == numbering.first else f"{ply}..."
            numbering.setup(fen)
        self._numbered(number, before, f'/FEN "{fen}"/')
        self.after_move = False
        self.started = True

    def visit_strength(self, strength: str) -> None:
        self.started = True
        if self.word is None:  # only from a model built in code: keep it as a word
            self.word = strength
        else:
            self.word += strength

    def visit_nag(self, nag: int) -> None:
        self.started = True
        self.flush()
        self.layout.word(f"${nag}")

    def begin_variation(self) -> None:
        self.started = True
        self.flush()
        self.layout.open()
        self.after_move = False
        if self.numbering is not None:
            self.numbering.begin_variation()

    def end_variation(self) -> None:
        self.flush()
        self.layout.word(")", stick=True)
        self.after_move = False
        if self.numbering is not None:
            self.numbering.end_variation()

    def visit_terminator(self, terminator: str) -> None:
        self.terminator = terminator

    def visit_problem(self, problem: Problem) -> None:
        if problem.code in NO_GAME_CODES:
            self.no_game = True

    def end_game(self) -> None:
        if self.in_tags:
            self.end_tags()
        self.flush()
        terminator = self.terminator
        if self.normalize and terminator is None:
            result = (dict(reversed(self.pairs)).get("Result") or "").strip()
            terminator = result if result in TERMINATORS else "*"
        elif (
            self.separate
            and terminator is None
            and (self.head or self.layout.units or self.layout.lines or not self.no_game)
        ):
            # Without one, the game would take in what follows it up to the next tag line:
            # the next game's first comments, or all of a next game that has no tags; and a
            # game with nothing in it would be no game at all. Only a refused JSON record (an
            # empty game that stands for text that is no game) is written as nothing.
            terminator = "*"
        if terminator is not None:
            self.layout.word(terminator)
        body = self.layout.text()
        head = "".join(self.head)
        self.text = head + ("\n" if self.pairs and body else "") + body

    def result(self) -> str:
        return self.text


def tag_line(name: str, value: str) -> str:
    """The line of a tag pair as written (the value escaped where a reader would misread
    it), with its line end.

    >>> tag_line("Black", 'A "B"')
    '[Black "A \\\\"B\\\\""]\\n'
    """
    return f'[{name} "{_escape_value(value)}"]\n'


def write_game(
    game: Game,
    *,
    normalize: bool = False,
    columns: int = 80,
    move_numbers: bool = True,
    separate: bool = False,
) -> str:
    """The PDN text of one game (ending with a line end).

    ``normalize`` selects the PDN 3.0 writing form instead of the faithful copy (the game is
    replayed for it, on a copy: ``game`` is not changed); ``columns`` is the line width that
    movetext is filled to (a long comment may exceed it); ``move_numbers=False`` leaves the
    move numbers out.
    ``separate`` gives a game without a terminator the terminator ``*``, for a text that
    holds other games after it.

    >>> import pdn
    >>> print(write_game(pdn.parse_game("1.11-15 {a} 23-19 *"), normalize=True), end="")
    1. 11-15 {a} 1... 23-19 *
    >>> game = pdn.parse_game('[GameType "21"] 1. 11- 15 22-18 2. 9999 *')
    >>> print(write_game(game, normalize=True), end="")
    [GameType "21"]
    <BLANKLINE>
    1. 11-15 22-18 2. 9999 *
    """
    if normalize:
        game = copy.deepcopy(game)
        rewrite_moves(game, normalize=True)
    writer = PdnWriter(
        normalize=normalize,
        columns=columns,
        variant=game.variant,
        move_numbers=move_numbers,
        separate=separate,
    )
    return game.accept(writer)


def write_games(
    games: Iterable[Game],
    out: IO[str],
    *,
    normalize: bool = False,
    columns: int = 80,
) -> int:
    """Write games to a text stream, a blank line between them; return how many were written.

    Each is written with ``separate`` (a game without a terminator gets ``*``, see the module
    docstring), so that the games read back as the same games.
    """
    count = 0
    for game in games:
        if count:
            out.write("\n")
        out.write(write_game(game, normalize=normalize, columns=columns, separate=True))
        count += 1
    return count
