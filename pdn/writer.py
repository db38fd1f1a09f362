"""Writing PDN: a faithful copy of what was read, or the normalised PDN 3.0 form.

``write_game(game)`` (also ``str(game)``) gives text that :func:`pdn.read_game` reads back to an
equal game.  Two modes:

* **faithful** (default): tags in their order with their names, move numbers as written (none
  where none were written), moves exactly as written (``"1- 6"``, ``"c3:e5"``), strength marks,
  NAGs, comments with their delimiters, variations, setup commands, and the terminator as written
  (none if there was none).  Only the layout changes: lines are filled up to ``columns``.
* **normalised** (``normalize=True``): the PDN 3.0 "writing" form.  The seven standard tags come
  first in the standard order, then the others as written; move numbers are regenerated (``N.``
  before the first mover's move, ``N...`` before the other side's when it does not directly
  follow its pair); moves get canonical separators (``-`` for a plain move, ``x`` for a capture),
  lower case, no inner spaces and no leading zeros; the terminator is always written (the
  terminator, else the ``Result`` tag if it is a result, else ``*``).  What the moves mean does
  not change: the same squares in the same order.

Limits (all about models built by hand, never about models the reader produced): a brace comment
must not contain ``}`` and a line comment no line break (:class:`ValueError`); a comment in
``comments_before`` of a move that follows another move of its line reads back as a comment after
that earlier move unless the move has a number; a final move whose strength ends in ``*`` with no
terminator reads back as the terminator ``*``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import IO

from pdn.gametype import first_mover
from pdn.model import (
    BEGIN_VARIATION,
    END_VARIATION,
    STANDARD_TAGS,
    Comment,
    Game,
    Node,
    line_events,
)

__all__ = ["canonical_move", "write_game", "write_games"]

_RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
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
    return known


_CANONICAL: dict[str, str] = {}


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
    return text if canonical in _RESULTS else canonical


def _escape_value(value: str) -> str:
    # Only what the reader would misread is escaped: a quote, and a backslash that comes before
    # a quote, another backslash or the end of the value.
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


def _comment_text(comment: Comment) -> str:
    if comment.kind == "brace":
        if "}" in comment.text:
            raise ValueError(f"a brace comment cannot hold '}}': {comment.text!r}")
        return "{" + comment.text + "}"
    if "\n" in comment.text:
        raise ValueError(f"a {comment.kind} comment cannot hold a line break: {comment.text!r}")
    return (";" if comment.kind == "line" else "%") + comment.text


class _Layout:
    """Fills lines with words up to a width; some words must end or start a line."""

    def __init__(self, columns: int) -> None:
        self.columns = columns
        self.lines: list[str] = []
        self.parts: list[str] = []
        self.width = 0  # length of the current line
        self.glue = False  # the next word sticks to the previous one (after "(")

    def newline(self) -> None:
        """End the current line (if anything is on it)."""
        if self.parts:
            self.lines.append("".join(self.parts))
            self.parts = []
            self.width = 0
        self.glue = False

    def word(self, text: str, *, stick: bool = False) -> None:
        """Add a word; ``stick`` glues it to the previous word (a closing parenthesis)."""
        parts = self.parts
        multiline = "\n" in text
        if parts:
            if stick or self.glue:
                self.glue = False
                first = text.find("\n") if multiline else len(text)
                if self.width + first > self.columns and len(parts) > 2 and "\n" not in parts[-1]:
                    # Too long for this line: carry the word it sticks to ("(" or the move
                    # before ")") over to the next line with it.
                    last = parts.pop()
                    parts.pop()  # the space before it
                    self.lines.append("".join(parts))
                    parts = self.parts = [last]
                    self.width = len(last)
            else:
                first = text.find("\n") if multiline else len(text)
                if self.width + 1 + first > self.columns:
                    self.lines.append("".join(parts))
                    parts = self.parts = []
                    self.width = 0
                else:
                    parts.append(" ")
                    self.width += 1
        else:
            self.glue = False
        parts.append(text)
        if multiline:
            self.width = len(text) - text.rfind("\n") - 1
        else:
            self.width += len(text)

    def comment(self, comment: Comment) -> None:
        """A comment: line comments end their line, ``%`` lines also start one."""
        text = _comment_text(comment)
        if comment.kind == "percent":
            self.newline()
            self.parts.append(text)
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
    """Regenerated move numbers for the normalised form."""

    def __init__(self, game: Game) -> None:
        self.first = first_mover(game.variant, game.game_type)
        fen = game.tags.get("FEN")
        start = fen.strip()[:1].upper() if fen else ""
        self.start = start if start in ("W", "B") else self.first
        # State after each node: (move number of the next ply, side to move next).
        self.after: dict[int, tuple[int, str]] = {}

    def state_before(self, node: Node, root: Node) -> tuple[int, str]:
        parent = node.parent
        if parent is None or parent is root:
            return 1, self.start
        return self.after.get(id(parent), (1, self.start))

    def visit(self, node: Node, root: Node) -> tuple[int, str]:
        """(number, side) of this node's ply; records the state after it."""
        number, side = self.state_before(node, root)
        if node.move is None:
            # A setup command: the side to move is the FEN's; numbering goes on from here.
            fen_side = (node.setup or "").strip()[:1].upper()
            if fen_side in ("W", "B") and fen_side != side:
                if fen_side == self.first:
                    number += 1
                side = fen_side
            self.after[id(node)] = (number, side)
            return number, side
        other = "B" if side == "W" else "W"
        self.after[id(node)] = (number + 1 if side != self.first else number, other)
        return number, side


def write_game(game: Game, *, normalize: bool = False, columns: int = 80) -> str:
    """The PDN text of one game (ending with a line end).

    ``normalize`` selects the PDN 3.0 writing form instead of the faithful copy; ``columns``
    is the line width that movetext is filled to (a long comment may exceed it).
    """
    out: list[str] = []
    root = game.root
    for comment in root.comments_before:
        out.append(_comment_text(comment) + "\n")
    pairs = game.tags.items()
    if normalize:
        standard = [pair for name in STANDARD_TAGS for pair in pairs if pair[0] == name]
        pairs = standard + [pair for pair in pairs if pair[0] not in STANDARD_TAGS]
    for name, value in pairs:
        out.append(f'[{name} "{_escape_value(value)}"]\n')
    layout = _Layout(columns)
    for comment in root.comments_after:
        layout.comment(comment)
    numbering = _Numbering(game) if normalize else None
    after_move = False  # the previous word was a move (so the next "N..." can be left out)
    for event, node in line_events(root):
        if event == BEGIN_VARIATION:
            layout.open()
            after_move = False
            continue
        if event == END_VARIATION:
            layout.word(")", stick=True)
            after_move = False
            continue
        assert node is not None
        if numbering is not None:
            number, side = numbering.visit(node, root)
            if node.move is None:
                written = None
            elif side == numbering.first:
                written = f"{number}."
            elif not after_move or node._before:
                written = f"{number}..."
            else:
                written = None
        else:
            written = node.number
        if node.move is None:
            text = f'/FEN "{node.setup or ""}"/'
        else:
            text = (canonical_move(node.move) if normalize else node.move) + (node.strength or "")
        # The lists are read without the properties, which would create empty ones.
        before = node._before
        if written and before:
            layout.word(written)
            written = None
        if before:
            for comment in before:
                layout.comment(comment)
        # A number stays on the line of its move.
        layout.word(f"{written} {text}" if written else text)
        after_move = node.move is not None
        if node._nags:
            for nag in node._nags:
                layout.word(f"${nag}")
        if node._after:
            for comment in node._after:
                layout.comment(comment)
            after_move = False
    terminator = game.terminator
    if normalize and terminator is None:
        result = (game.tags.get("Result") or "").strip()
        terminator = result if result in _RESULTS else "*"
    if terminator is not None:
        layout.word(terminator)
    body = layout.text()
    if pairs and body:
        out.append("\n")
    out.append(body)
    return "".join(out)


def write_games(
    games: Iterable[Game],
    out: IO[str],
    *,
    normalize: bool = False,
    columns: int = 80,
) -> int:
    """Write games to a text stream, a blank line between them; return how many were written.

    In faithful mode two games without terminators can run into each other when read back (a
    game of tags only followed by another game's tags, or two games without tags): write them
    normalised, or give them terminators, to keep them apart.
    """
    count = 0
    for game in games:
        if count:
            out.write("\n")
        out.write(write_game(game, normalize=normalize, columns=columns))
        count += 1
    return count
