"""Parsing one game: the grammar's items turned into visitor events, with error recovery.

Each game cut by :mod:`pdn.reading.cutting` is parsed by the LALR grammar
(:mod:`pdn.reading.grammar`); its items
(tokens in text order, variations as nested items) are then walked once, driving a
:class:`~pdn.game.visitor.GameVisitor`.  This module decides what the text *says*: which words are
moves and move numbers, which comments go with the next move, what is junk; the visitor decides
what to do with it (:class:`~pdn.reading.builder.GameBuilder` builds the model).

Policies:

* a ``*`` glued to a move (``27-20*``) with more movetext after it is the PDN 2.0 "star" strength
  mark; a ``*`` that ends the game (before white space and the next game or the end of input)
  is the terminator, and so is a glued one followed only by comments;
* ``;`` starts a comment to the end of the line anywhere outside braces and tag values;
  ``%`` too (PDN 3.0 allows it anywhere, not only in column 1);
* text glued to a move (``8-11Redoversteppedthetimecontrol.``) or stray words become brace
  comments with a ``junk`` warning; a run of stray words (white space between, nothing of PDN)
  is one comment holding them as written, with one warning at its first word; a result inside
  a variation too;
* ``[Empty]``, a cut tag pair (``[GameTy``, ``[``) and other brackets with no name and value
  are kept as comments with a ``junk`` warning (:func:`kept_text`; the faithful writer writes
  them back as read, :func:`junk_bracket`); a tag whose value is damaged
  (``[Event "The "Big" Match"]``), unquoted (``[Date 2025]``) or broken by a line end
  (``[Date "`` then ``2025"]``: :func:`pdn.reading.cutting.broken_tag_end`) is kept
  with a ``bad-tag`` warning, so that a year never becomes a move; so is a tag line that
  lost its ``[`` (``Event "Suriname 2025"]``: :data:`pdn.reading.cutting.LOST_BRACKET`), in the game
  whose tags it stands among or before;
* a move number with no move after it (``1. 0-2``) is kept as a comment with a
  ``dangling-move-number`` warning; ``- -`` is kept as the move ``"- -"`` with an
  ``unknown-move`` warning;
* an unbalanced ``)``, a ``}`` with no comment open, an empty variation and whatever else the
  parser must skip are kept as comments, each with a problem; unclosed ``(`` are closed, with
  an error; so nothing read is lost, and the faithful writer writes it back (in comments);
* nothing read is dropped for being too much: past :data:`MAX_LISTED_PROBLEMS` problems in one
  game the rest are counted, not listed, and reading goes on.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pdn.game.gametype import GameTypeError, parse_game_type
from pdn.game.model import Comment
from pdn.game.visitor import SKIP, GameStart, GameVisitor
from pdn.text.problems import Problem, Severity

from .cutting import RawGame
from .grammar import SETUP_PARTS, TAG_PARTS, Token, Variation, parser, patterns
from .parse_problems import (
    JUNK_SAMPLE,
    Recovery,
    count_words,
    encoding_messages,
    missing_terminator,
    no_draughts_move,
    shorten,
    too_long,
    unlisted,
)
from .tokens import (
    GOOD_TAG_NAME,
    broken_tags,
    junk_bracket,
    kept_text,
    salvaged_pair,
    set_aside,
    simple_items,
    start_of,
    tag_section_end,
)

if TYPE_CHECKING:
    from lark.exceptions import UnexpectedInput

__all__ = ["MAX_LISTED_PROBLEMS", "accept_raw", "junk_bracket", "kept_text"]

T = TypeVar("T")

#: Problems listed per game; past this they are counted in one last problem.
MAX_LISTED_PROBLEMS = 10_000
#: A NAG with more digits than this is not a NAG (and would not fit an int safely).
_MAX_NAG_DIGITS = 6

# Tag names already checked (the same few names recur in every game of a file).
_TAG_NAMES_SEEN: dict[str, tuple[str, bool]] = {}
#: How many tag names the table keeps; names met after it is full are checked every time.
_TAG_NAMES_KEPT = 10_000
_UNESCAPE = re.compile(r"\\([\"\\])")
# White space other than " " and a line end inside a run (tabs, NO-BREAK SPACE...).
_ODD_SPACE = re.compile(r"[\t\x0b\x0c\x1c-\x1f]")  # after an isascii() check
_SPACE_IN_LINE = re.compile(r"[^\S\n]")
_NO_COMMENTS: tuple[Comment, ...] = ()
_MARKABLE = frozenset(["MOVES", "LOOSEMOVES", "STRENGTH", "STAR"])
_COMMENT_KINDS = frozenset(["COMMENT", "LINECOMMENT", "UNCLOSED", "JUNK", "BADTAG"])
# What turns a held "*" into a strength: more movetext after it.
_MOVE_KINDS = frozenset(["MOVES", "LOOSEMOVES", "SETUP", "NAG", "RESULT"])


def accept_raw(chunk: RawGame, visitor: GameVisitor[T]) -> T:
    """Parse one game cut by :mod:`pdn.reading.cutting`, driving ``visitor``; return its result.

    :func:`pdn.reading.reader.parse_raw` is this with a :class:`~pdn.reading.builder.GameBuilder`.

    >>> import io, pdn
    >>> [raw] = pdn.split_games(io.StringIO('[Event "A"]\\n1. 11-15 *'))
    >>> accept_raw(raw, pdn.HeadersOnly())["Event"]
    'A'
    """
    visitor.begin_game(
        GameStart(chunk.line, chunk.column, chunk.index, chunk.encoding, chunk.evidence)
    )
    if chunk.problem is not None:
        # Not PDN at all (a binary file): one problem, no tags, no moves.
        visitor.visit_problem(chunk.problem)
        visitor.end_tags()
        visitor.end_game()
        return visitor.result()
    walker = _Walker(chunk, visitor)
    try:
        walker.run()
    except Exception as exc:  # a bug of the reader must not stop the file, nor lose the game
        walker.problem(
            "internal-error",
            f"the reader failed on the game at {chunk.line}:{chunk.column} "
            f"({type(exc).__name__}: {exc}); what was read before it is kept",
            chunk.line,
            chunk.column,
        )
        walker.close_all()
    visitor.end_game()
    return visitor.result()


class _Line:
    """What the text of one line of play (the main line or a variation) has said so far."""

    __slots__ = (
        "before",
        "closed",
        "content",
        "last_is_move",
        "number",
        "number_at",
        "number_mark",
        "opened",
        "started",
    )

    def __init__(self, opened: Token | None = None, closed: bool = True) -> None:
        self.number: str | None = None  # a move number waiting for its move
        self.number_at: tuple[int | None, int | None] = (None, None)
        self.number_mark = 0  # how many of `before` were waiting when the number came
        # Comments waiting for the next move: a deque, so that an empty variation's "(" goes
        # before them and a line can take over an inner line's comments in constant time.
        self.before: deque[Comment] = deque()
        self.started = False  # a move or setup of this line was visited
        self.last_is_move = False  # ... and the last one was a move (it can take a strength)
        self.content = False  # this line or a variation inside it holds a move
        self.opened = opened  # the "(" of a variation
        self.closed = closed  # ... and a ")" was written to close it (not added by recovery)


class _Walker:
    """Walks the items of one game, in text order, driving the visitor."""

    def __init__(self, chunk: RawGame, visitor: GameVisitor[Any]) -> None:
        self.chunk = chunk
        self.visitor = visitor
        self.text = chunk.text
        self.line0 = chunk.line
        self.col0 = chunk.column - 1
        self.listed = 0  # problems given to the visitor
        self.unlisted = 0  # problems past MAX_LISTED_PROBLEMS
        self.tags = 0
        self.game_type_text: str | None = None
        self.nodes = 0  # moves and setups visited
        self.junk_words = 0  # words that are no PDN, kept as comments
        self.junk_sample: list[str] = []  # ... the first of them
        self.junk_at: tuple[int | None, int | None] = (None, None)  # ... where they start
        self.terminator: str | None = None
        self.lines: list[_Line] = []  # the lines of play open, innermost last
        self.star: Token | None = None  # a glued "*" that may still turn out to be the end
        self.held: list[Comment] = []  # comments after that "*"
        # Tokens the parser's recovery skipped, in text order: kept as comments in their place.
        self.skipped: deque[Token] = deque()

    # Positions and problems ---------------------------------------------------------------

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
        severity: Severity | None = None,
    ) -> None:
        """Give a problem to the visitor (or count it, past the listing limit)."""
        if self.listed >= MAX_LISTED_PROBLEMS:
            self.unlisted += 1
            return
        self.listed += 1
        if severity is None:
            found = Problem(code, message, line=line, column=column, move=move)
        else:
            found = Problem(code, message, line=line, column=column, move=move, severity=severity)
        self.visitor.visit_problem(found)

    def token_problem(self, code: str, message: str, token: Token) -> None:
        line, column = self.position(token.line, token.column)
        where = f" at {line}:{column}" if line is not None else ""
        self.problem(code, message.replace(" @", where), line, column)

    # The game -------------------------------------------------------------------------------

    def run(self) -> None:
        chunk = self.chunk
        visitor = self.visitor
        text = chunk.text
        if not visitor.reads_movetext and chunk.body_at >= 0:
            text = text[: chunk.body_at]
        body_at = chunk.body_at if chunk.body_at >= 0 else len(text)
        tags_end = chunk.tags_end if chunk.tags_end == chunk.body_at >= 0 else tag_section_end(text)
        # Tag pairs and nothing else before the movetext (the common case): each is whole on
        # its line, so none is broken; else the lines of the tag section are looked at.
        broken = [] if tags_end == body_at else broken_tags(text, body_at)
        if broken:
            # Each is read whole below; the parser sees white space in its place (line ends
            # kept, so every position after it stays true), never the words of its next line.
            text, broken_tokens = set_aside(text, broken)
            tags_end = tag_section_end(text)
        items: list[Any] | None = simple_items(text, tags_end)
        if not items:
            # Here: a game of the common shape (above) needs no parser, nor lark.
            from lark.exceptions import UnexpectedInput

            try:
                items = cast(
                    list[Any], parser().parse(text, start="start", on_error=Recovery(self))
                )
            except UnexpectedInput as exc:
                # Recovery gave up (it never should): keep the tag pairs, the rest as comments.
                self.unreadable(exc)
                return
        n = len(items)
        i = 0
        pending = broken_tokens if broken else []
        while i < n:
            item = items[i]
            if isinstance(item, Variation):
                break
            while pending and (pending[0].start_pos or 0) < (item.start_pos or 0):
                self.bad_tag(pending.pop(0))
            if self.skipped:
                self.put_back(start_of(item), in_tags=True)
            kind = item.type
            if kind == "TAGS":
                if pending and (pending[0].start_pos or 0) < (item.start_pos or 0) + len(item):
                    self.tag_run_located(item, pending)  # a broken pair inside the run
                else:
                    self.tag_run(item)
            elif kind == "JUNK":
                barrier = (pending[0].start_pos or 0) if pending else None
                item, i = self.junk_run(items, i, item, barrier)
                visitor.visit_comment(self.any_comment(item))
            elif kind in ("COMMENT", "LINECOMMENT", "UNCLOSED"):
                visitor.visit_comment(self.any_comment(item))
            elif kind == "BADTAG":
                self.bad_tag(item)
            elif kind == "STRAY":
                for comment in self.stray(item):
                    visitor.visit_comment(comment)
            else:
                break
            i += 1
        for token in pending:  # broken pairs after the last item of the tag section
            self.bad_tag(token)
        if self.skipped and i >= n:
            self.put_back(len(text), in_tags=True)
        if self.game_type_text is not None:
            self.check_game_type(self.game_type_text)
        if visitor.end_tags() is SKIP:
            self.finish(headers_only=True)
            return
        self.lines = [_Line()]
        if i < n:
            self.body(items, i)
        if self.skipped:
            self.put_back(len(text))
        self.close_all()
        self.finish(headers_only=False)

    def close_all(self) -> None:
        """Close what is still open (only after an internal error or a recovery that failed)."""
        while len(self.lines) > 1:
            self.end_variation()
        if self.lines:
            self.end_line(self.lines[0])
            self.lines = []
        self.flush_star(end=True)

    def unreadable(self, exc: UnexpectedInput) -> None:
        chunk = self.chunk
        line, column = self.position(getattr(exc, "line", None), getattr(exc, "column", None))
        self.problem(
            "syntax-error",
            f"the game at {chunk.line}:{chunk.column} could not be parsed past {line}:{column}; "
            "its tag pairs are kept and the rest as comments",
            line,
            column,
        )
        rest = TAG_PARTS.sub("", chunk.text)
        for found in patterns().tag.finditer(chunk.text):
            self.tag_run(Token("TAGS", found.group(), start_pos=found.start(), line=1, column=1))
        self.visitor.end_tags()
        for text in rest.splitlines():
            if text.strip():
                self.visitor.visit_comment(Comment(text, "percent"))
        self.finish(headers_only=False)

    def finish(self, *, headers_only: bool) -> None:
        """Encoding damage, the terminator, what the game lacks."""
        chunk = self.chunk
        for message, line, column in encoding_messages(chunk, self.line0, self.col0):
            self.problem("encoding", message, line, column)
        if headers_only:
            return
        if self.junk_words and not self.nodes and (self.tags or self.terminator is not None):
            # Tags, words and no move (a chess PGN game): not a draughts game at all; said
            # even past the listing limit, as a binary input is.
            at_line, at_column = self.junk_at
            self.visitor.visit_problem(
                no_draughts_move(
                    self.junk_words,
                    self.junk_sample,
                    at_line or chunk.line,
                    at_column or chunk.column,
                )
            )
        elif not (self.tags or self.nodes or self.terminator is not None):
            line, column = chunk.line, chunk.column
            self.problem(
                "empty-game", f"text at {line}:{column} holds neither tags nor moves", line, column
            )
        elif chunk.end == "tag" and not (self.nodes or self.junk_words or self.terminator):
            # Cut before another tag section that repeats its tag names (pdn.reading.cutting).
            line, column = self.offset_position(len(self.text))
            self.problem(
                "tags-only",
                f"the game at {chunk.line}:{chunk.column} has tags and no movetext before the "
                f"next game's tags at {line}:{column}: read as a game with no moves",
                chunk.line,
                chunk.column,
            )
        elif self.terminator is None and self.nodes and not chunk.skipped:
            line, column = self.offset_position(len(self.text.rstrip()))
            message, severity = missing_terminator(chunk, line, column)
            self.problem("missing-terminator", message, line, column, severity=severity)
        if chunk.skipped:
            # Said even past the listing limit: no writer may take the head for the game.
            line, column = self.offset_position(len(self.text))
            self.visitor.visit_problem(too_long(chunk, line, column))
        if self.unlisted:
            self.visitor.visit_problem(unlisted(chunk, self.unlisted))

    def check_game_type(self, text: str) -> None:
        """Report a GameType tag that cannot be read or is not of the standard form."""
        try:
            game_type = parse_game_type(text)
        except GameTypeError as exc:
            line, column = self.tag_position("GameType")
            self.problem("bad-gametype", f"{exc} (at {line}:{column})", line, column)
            return
        if not game_type.well_formed:
            line, column = self.tag_position("GameType")
            message = f"GameType {text!r} at {line}:{column} is not of the form T,S,W,H,Nk,I"
            self.problem("bad-gametype", message, line, column)

    def tag_position(self, name: str) -> tuple[int, int]:
        """Where the first tag pair called ``name`` stands (the start of the game if not found)."""
        found = re.search(r"\[\s*" + re.escape(name) + r"\s*[\"\u201c]", self.text)
        return self.offset_position(found.start() if found is not None else 0)

    # Tag section --------------------------------------------------------------------------

    def tag(self, name: str, value: str) -> None:
        self.tags += 1
        if name == "GameType" and self.game_type_text is None:
            self.game_type_text = value
        self.visitor.visit_tag(name, value)

    def tag_run(self, token: Token) -> None:
        """Consecutive tag pairs (one TAGS token)."""
        seen = _TAG_NAMES_SEEN
        found = TAG_PARTS.findall(token)
        names = []
        for raw, _, _ in found:
            known = seen.get(raw)
            if known is None:
                name = raw.strip()
                known = (name, bool(name) and GOOD_TAG_NAME.fullmatch(name) is not None)
                if len(seen) < _TAG_NAMES_KEPT:
                    seen[raw] = known
            if not known[1]:
                # An odd name must be reported with its position: the slow way.
                self.tag_run_located(token)
                return
            names.append(known[0])
        tag = self.tag
        for (_, value, curly), name in zip(found, names, strict=True):
            if curly:
                value = curly
            elif "\\" in value:
                value = _UNESCAPE.sub(r"\1", value)
            tag(name, value)

    def tag_run_located(self, token: Token, broken: list[Token] | None = None) -> None:
        """A TAGS token read pair by pair, with each pair's position; the ``broken`` pairs
        (set aside from the text, see :func:`~pdn.reading.tokens.set_aside`) that stand among them
        are read
        in their places."""
        for m in TAG_PARTS.finditer(token):
            while broken and (broken[0].start_pos or 0) < (token.start_pos or 0) + m.start():
                self.bad_tag(broken.pop(0))
            raw, value, curly = m.group(1, 2, 3)
            name = raw.strip()
            if not self.odd_tag(name, token, m.start()):
                for comment in kept_text(m.group().strip()):
                    self.visitor.visit_comment(comment)
                continue
            if curly is not None:
                value = curly
            elif "\\" in value:
                value = _UNESCAPE.sub(r"\1", value)
            self.tag(name, value)

    def odd_tag(self, name: str, token: Token, offset: int) -> bool:
        """Report a tag name outside the PDN 3.0 form; False if the pair must be skipped."""
        line, column = self.offset_position((token.start_pos or 0) + offset)
        if not name:
            self.problem(
                "bad-tag",
                f"tag pair at {line}:{column} has no name; kept as a comment",
                line,
                column,
            )
            return False
        if GOOD_TAG_NAME.fullmatch(name) is None:
            self.problem(
                "odd-tag-name",
                f"tag name {name!r} at {line}:{column} is not of the PDN 3.0 form "
                "[A-Z][A-Za-z0-9_]*",
                line,
                column,
            )
        return True

    def bad_tag(self, token: Token) -> None:
        """A bracket in the tag section that is no clean tag pair: salvage or skip it.

        A tag pair that can be read (:func:`~pdn.reading.tokens.salvaged_pair`) keeps its tag (with
        a
        ``bad-tag`` error), so that no tag is lost; ``[Empty]`` and other brackets without a
        name and a quote are kept as comments with a ``junk`` warning.
        """
        text = str(token)
        found = salvaged_pair(text)
        if found is not None:
            name, value, damage = found
            self.tag(name, value)
            self.token_problem(
                "bad-tag", f"tag pair {shorten(text)} @ {damage}; read as {name} = {value!r}", token
            )
            return
        self.token_problem("junk", f"{shorten(text)} @ is not a tag pair; kept as a comment", token)
        for comment in kept_text(text):
            self.visitor.visit_comment(comment)

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

    def any_comment(self, token: Token) -> Comment:
        kind = token.type
        if kind == "COMMENT":
            return self.comment(token)
        if kind == "LINECOMMENT":
            return Comment(token[1:], "percent" if token[0] == "%" else "line")
        if kind == "UNCLOSED":
            line, column = self.position(token.line, token.column)
            self.problem(
                "unclosed-comment", f"unclosed comment opened at {line}:{column}", line, column
            )
            return Comment(token[1:].rstrip())
        if kind == "JUNK":
            words = count_words(token)
            if not self.junk_words:
                self.junk_at = self.position(token.line, token.column)
            self.junk_words += words
            if len(self.junk_sample) < JUNK_SAMPLE:
                self.junk_sample += token.split(None, JUNK_SAMPLE)[:JUNK_SAMPLE]
            if words == 1:
                message = f"{shorten(str(token))} @ is not PDN; kept as a comment"
            else:
                message = f"{words} words {shorten(str(token))} @ are not PDN; kept as one comment"
            self.token_problem("junk", message, token)
            return Comment(str(token))
        # A bracket that is no tag pair ("[%clock 1:02]" outside braces). It never spans lines;
        # if it holds a "}" it cannot be a brace comment, so it becomes a line comment.
        text = str(token)
        self.token_problem("junk", f"{shorten(text)} @ is not PDN; kept as a comment", token)
        return Comment(text) if "}" not in text else Comment(text, "line")

    def junk_run(
        self, items: Sequence[Any], i: int, first: Token, barrier: int | None = None
    ) -> tuple[Token, int]:
        """``first`` (the JUNK token ``items[i]``) joined with the JUNK tokens right after it,
        white space between, into one token of the text as written; and the index of the last
        one. The lexer's runs are bounded: a page of junk is one comment and one problem all
        the same. Never past a token the parser's recovery skipped, nor past ``barrier``."""
        start = first.start_pos
        if start is None:
            return first, i
        text = self.text
        end = start + len(first)
        last = i
        limit = self.skipped[0].start_pos if self.skipped else None
        if barrier is not None and (limit is None or barrier < limit):
            limit = barrier
        while last + 1 < len(items):
            after = items[last + 1]
            if type(after) is Variation or after.type != "JUNK" or after.start_pos is None:
                break
            at = after.start_pos
            if (limit is not None and at >= limit) or not text[end:at].isspace():
                break
            last += 1
            end = at + len(after)
        if last == i:
            return first, i
        return Token("JUNK", text[start:end], start, first.line, first.column), last

    def stray(self, token: Token) -> list[Comment]:
        """A ``}`` with no comment open: reported, and kept (a ``}`` cannot be in a brace
        comment: a line comment holds it)."""
        self.token_problem(
            "syntax-error", "unexpected '}' @: no comment is open; kept as a comment", token
        )
        return kept_text(str(token))

    def misplaced(self, token: Token, what: str) -> Comment:
        self.token_problem(
            "junk", f"{what} {str(token)!r} @ follows no move; kept as a comment", token
        )
        return Comment(str(token))

    def place_comment(self, comment: Comment) -> None:
        """A comment goes with the last move of its line, the game, or the next move."""
        state = self.lines[-1]
        if self.star is not None:
            self.held.append(comment)
        elif state.number is None and (state.started or len(self.lines) == 1):
            self.visitor.visit_comment(comment)
        else:
            state.before.append(comment)

    def place_comments(self, comments: deque[Comment]) -> None:
        """:meth:`place_comment` for each of ``comments`` (which this takes over), in time
        that does not grow with the comments already waiting: empty variations nested ``n``
        deep hand their comments outwards ``n`` times."""
        state = self.lines[-1]
        if self.star is not None:
            self.held.extend(comments)
        elif state.number is None and (state.started or len(self.lines) == 1):
            visit = self.visitor.visit_comment
            for comment in comments:
                visit(comment)
        elif len(state.before) < len(comments):
            # The smaller run joins the larger: each comment moves O(log n) times at most.
            comments.extendleft(reversed(state.before))
            state.before = comments
        else:
            state.before.extend(comments)

    def dangling(self, number: str, at: tuple[int | None, int | None]) -> None:
        """A move number with no move after it: reported, and kept as a comment where it
        stands (the line's number must be cleared before)."""
        line, column = at
        where = f" at {line}:{column}" if line is not None else ""
        self.problem(
            "dangling-move-number",
            f"move number {number!r}{where} has no move after it; kept as a comment",
            line,
            column,
        )
        state = self.lines[-1]
        waiting = state.before
        mark = min(state.number_mark, len(waiting))
        if mark == len(waiting):
            self.place_comment(Comment(number))
            return
        # Comments written after the number wait for its move: the number goes before them,
        # and they go where they would have gone without it.
        waiting.insert(mark, Comment(number))
        if self.star is not None or state.started or len(self.lines) == 1:
            state.before = deque()
            self.place_comments(waiting)

    # Movetext -------------------------------------------------------------------------------

    def body(self, items: list[Any], i: int) -> None:
        """The movetext, from ``items[i]`` on, variations walked with a stack (no recursion)."""
        visitor = self.visitor
        stack: list[tuple[Sequence[Any], int]] = []
        n = len(items)
        current: Sequence[Any] = items
        previous = kind = ""  # the kinds of the item before this one, and of this one
        while True:
            if i >= n:
                if not stack:
                    return
                if self.skipped:
                    self.put_back(start_of(current[-1], len(self.text)))
                self.end_variation()
                current, i = stack.pop()
                n = len(current)
                previous, kind = kind, "VARIATION"
                continue
            item = current[i]
            i += 1
            if self.skipped:
                self.put_back(start_of(item))
            if isinstance(item, Variation):
                previous, kind = kind, "VARIATION"
                self.flush_star()
                if visitor.begin_variation() is SKIP:
                    continue
                # The items between "(" and ")"; recovery may have added a ")" of its own.
                opened = item[0] if isinstance(item[0], Token) else None
                close = item[-1]
                closed = not isinstance(close, Token) or close.start_pos is not None
                self.lines.append(_Line(opened, closed))
                stack.append((current, i))
                current, i, n = item, 1, len(item) - 1
                continue
            previous, kind = kind, item.type
            if kind in _MOVE_KINDS and self.star is not None:
                self.flush_star()
            state = self.lines[-1]
            if kind == "MOVES" or kind == "LOOSEMOVES":
                run = str(item)
                if kind == "LOOSEMOVES":
                    self.moves_slow(item, run, state)
                else:
                    self.moves_fast(item, run, state)
            elif kind in _COMMENT_KINDS:
                if kind == "JUNK":
                    item, i = self.junk_run(current, i - 1, item)
                    i += 1
                self.place_comment(self.any_comment(item))
            elif kind == "STRENGTH" or kind == "STAR":
                # A "*" is a strength only right after a move or another mark ("27-20*"):
                # after "$6" it is junk.
                glued = kind == "STRENGTH" or previous in _MARKABLE
                if state.last_is_move and state.number is None and glued:
                    if kind == "STAR" and len(self.lines) == 1:
                        self.flush_star()
                        self.star = item  # the end of the game, if only comments follow
                    else:
                        self.flush_star()
                        visitor.visit_strength(str(item))
                else:
                    self.place_comment(self.misplaced(item, "a move strength"))
            elif kind == "NAG":
                digits = item[1:]
                if state.started and state.number is None and len(digits) <= _MAX_NAG_DIGITS:
                    visitor.visit_nag(int(digits))
                elif len(digits) > _MAX_NAG_DIGITS:
                    self.token_problem(
                        "junk",
                        f"NAG {shorten(str(item))} @ is too large to be one; kept as a comment",
                        item,
                    )
                    self.place_comment(Comment(str(item)))
                else:
                    self.place_comment(self.misplaced(item, "a NAG"))
            elif kind == "SETUP":
                self.setup(item, state)
            elif kind == "RESULT":
                if len(self.lines) > 1:
                    self.token_problem(
                        "junk",
                        f"result {str(item)!r} @ inside a variation; kept as a comment",
                        item,
                    )
                    self.place_comment(Comment(str(item)))
                else:
                    self.terminator = str(item)
                    visitor.visit_terminator(self.terminator)
            elif kind == "STRAY":
                for comment in self.stray(item):
                    self.place_comment(comment)
            # LPAR and RPAR only stand at the ends of a variation, which are skipped above.

    def put_back(self, before: int, *, in_tags: bool = False) -> None:
        """The skipped tokens that stand before offset ``before``, as comments in their place."""
        skipped = self.skipped
        while skipped and (skipped[0].start_pos or 0) < before:
            for comment in kept_text(str(skipped.popleft()).strip()):
                if in_tags:
                    self.visitor.visit_comment(comment)
                else:
                    self.place_comment(comment)

    def flush_star(self, *, end: bool = False) -> None:
        """A held "*" is a strength after all (or, at the end of the game, the terminator)."""
        star = self.star
        if star is None:
            return
        self.star = None
        held, self.held = self.held, []
        visitor = self.visitor
        if end and self.terminator is None:
            for comment in held:
                visitor.visit_comment(comment)
            self.terminator = "*"
            visitor.visit_terminator("*")
            return
        visitor.visit_strength(str(star))
        for comment in held:
            self.place_comment(comment)

    def end_variation(self) -> None:
        """A variation ends: its pending number and comments find their place."""
        inner = self.lines[-1]
        if inner.number is not None:
            number, inner.number = inner.number, None
            self.dangling(number, inner.number_at)
        self.lines.pop()
        outer = self.lines[-1]
        pending = inner.before
        inner.before = deque()
        if pending and inner.started:
            # Comments after the last move of a variation (and a dangling number) stay with
            # that move.
            for comment in pending:
                self.visitor.visit_comment(comment)
            pending.clear()
        if not inner.content and inner.opened is not None:
            line, column = self.position(inner.opened.line, inner.opened.column)
            self.problem(
                "junk", f"empty variation at {line}:{column} kept as a comment", line, column
            )
            # Its parentheses (the ")" only if one was written) go with its comments.
            pending.appendleft(Comment("("))
            if inner.closed:
                pending.append(Comment(")"))
        self.visitor.end_variation()
        if inner.content:
            outer.content = True
        if pending:
            # Comments of an empty variation go to the line it was written in.
            self.place_comments(pending)

    def end_line(self, state: _Line) -> None:
        if state.number is not None:
            number, state.number = state.number, None
            self.dangling(number, state.number_at)
        for comment in state.before:
            self.visitor.visit_comment(comment)
        state.before = deque()

    def setup(self, token: Token, state: _Line) -> None:
        m = SETUP_PARTS.match(token)
        line, column = self.position(token.line, token.column)
        if m is None:
            fen = str(token)[1:-1].strip()
        else:
            fen = m.group(2)
            if m.group(1).upper() != "FEN":
                self.problem(
                    "syntax-error",
                    f'setup command {shorten(str(token))} at {line}:{column} is not /FEN "..."/',
                    line,
                    column,
                )
        before = list(state.before)
        state.before.clear()
        self.visitor.visit_setup(fen, state.number, before, line, column)
        self.nodes += 1
        state.number = None
        state.started = state.content = True
        state.last_is_move = False

    def moves_fast(self, token: Token, run: str, state: _Line) -> None:
        """A run of words separated by white space, each a move number or a whole move.

        This is where almost all the moves of a large archive are read, so it is kept tight:
        the moves of the run go to the visitor in one ``visit_moves`` event, and the words of
        each line are cut at each " " (after any other white space but line ends became
        spaces, one for one), so that their columns follow from their lengths.
        """
        assert token.line is not None and token.column is not None
        line = self.line0 + token.line - 1
        column = self.col0 + token.column if token.line == 1 else token.column
        visit = self.visitor.visit_moves
        before: Sequence[Comment] = list(state.before) if state.before else _NO_COMMENTS
        number = state.number
        number_line, number_column = state.number_at
        fresh = False  # a number of this run waits for its move
        found: list[str] = []
        numbers: list[str | None] = []
        lines: list[int] = []
        columns: list[int] = []
        moves = 0
        if not run.isascii() or _ODD_SPACE.search(run) is not None:
            run = _SPACE_IN_LINE.sub(" ", run)  # tabs, NO-BREAK SPACE...: each one a space
        for text in run.split("\n"):
            for word in text.split(" "):
                if not word:
                    column += 1  # a space after another (or at the start of the line)
                    continue
                if word[-1] == ".":
                    if number is not None:
                        if found:  # the moves before it first, so that events keep text order
                            visit(found, numbers, before, lines, columns)
                            moves += len(found)
                            found, numbers, lines, columns = [], [], [], []
                            state.before.clear()
                            state.started = state.content = state.last_is_move = True
                        state.number = None
                        self.dangling(number, (number_line, number_column))
                        before = list(state.before) if state.before else _NO_COMMENTS
                    number, number_line, number_column = word, line, column
                    fresh = True
                else:
                    found.append(word)
                    numbers.append(number)
                    lines.append(line)
                    columns.append(column)
                    number = None
                column += len(word) + 1
            line += 1
            column = 1
        if found:
            visit(found, numbers, before, lines, columns)
            moves += len(found)
        if moves:
            state.before.clear()
            state.started = state.content = state.last_is_move = True
            self.nodes += moves
        state.number = number
        state.number_at = (number_line, number_column)
        if fresh:
            state.number_mark = len(state.before)

    def moves_slow(self, token: Token, run: str, state: _Line) -> None:
        """The general case: numbers glued to moves, spaces inside moves."""
        assert token.line is not None and token.column is not None
        seen = 0
        rel_line = token.line
        line_start = 1 - token.column  # offset in `run` where the token's first line begins
        visit = self.visitor.visit_move
        for m in patterns().split.finditer(run):
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
                    number, state.number = state.number, None
                    self.dangling(number, state.number_at)
                state.number = lone_number
                state.number_at = (line, column)
                state.number_mark = len(state.before)
                continue
            if written_number is not None:
                if state.number is not None:
                    number, state.number = state.number, None
                    self.dangling(number, state.number_at)
                state.number = written_number
                state.number_mark = len(state.before)
            if move[0] == "-":
                self.problem(
                    "unknown-move",
                    f"move {move!r} at {line}:{column} is written as unknown",
                    line,
                    column,
                    move=move,
                )
            before = list(state.before)
            state.before.clear()
            visit(move, state.number, before, line, column)
            self.nodes += 1
            state.number = None
            state.started = state.content = state.last_is_move = True
