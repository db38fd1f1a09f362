"""Cutting a stream of decoded text into games, keeping absolute positions.

A game ends after a result at the top level, where a tag pair follows movetext, where a tag
pair on its own line shows that a ``{`` comment was never closed, where a tag section with no
movetext is followed, after a blank line, by tag pairs that repeat its names (the next game's:
the parser warns ``tags-only``), or at the end of the input.
Comments, tag values and ``%``/``;`` lines are skipped while cutting, so ``{if 1-0 then}`` never
ends a game.  Games are cut by their structure whatever the length of the lines (a file may hold
all its games on one line), and the scan of a game goes on where it stopped when more text comes,
so the work is linear in every input shape.

Memory is bounded: a game longer than :data:`MAX_GAME_CHARS` (a huge comment or variation) is
still cut at its real end, so it swallows no game after it and splits into none, but only its
first characters are kept (its head, cut at a line end or else a space): it comes as a
:class:`RawGame` with ``end == "size"`` and ``skipped`` (how many characters were not kept),
which the parser reports as a ``game-too-long`` error: a copy written from it holds only the
head (the CLI then exits with status 1), and a file holding one is never rewritten in place.
Within the skipped part, an item longer than :data:`MAX_ITEM_CHARS` (a tag pair of one huge
line) is skipped to the end of its line.

The result is a stream of :class:`RawGame` records: the text of one game with its position in
the file, cheap to make and small to send to another process.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdn.text.decoding import Damage, Decoder
from pdn.text.problems import Problem
from pdn.text.results import TERMINATORS

from .grammar import SETUP_PARTS, TAG_PARTS, Patterns, patterns

if TYPE_CHECKING:
    from pdn.game.detection import FileEvidence


__all__ = [
    "CLOSED_TAG_WINDOW",
    "LOST_BRACKET",
    "MAX_GAME_CHARS",
    "MAX_ITEM_CHARS",
    "TAG_LINE",
    "Chunker",
    "RawGame",
    "broken_tag_end",
    "comment_reads_whole",
]

#: What is kept of a game (in characters): a longer one is read this far and the rest of it
#: skipped to its end, so that memory stays bounded (a real game, even with many annotated
#: variations, is a few tens of kilobytes).
MAX_GAME_CHARS = 1 << 20
#: The longest item (a tag pair, a bracket, a comment's line that may be a tag pair) that is
#: still read as one in the skipped part of an over-long game; a longer one is skipped to the
#: end of its line, so that what is held while skipping stays bounded too.
MAX_ITEM_CHARS = 1 << 20
#: The text a game's scan is done with is set aside in pieces at least this long while more
#: text is read, so that a refill never copies all of the game (read_game refills by line).
HOLD_PIECE = 1 << 12
_RESULTS = frozenset(TERMINATORS)


@dataclass(slots=True)
class RawGame:
    """The text of one game, cut from its source but not parsed yet.

    Cheap to make and small to send to another process (it pickles).  It is parsed by the layers
    above this one: :func:`pdn.reading.reader.parse_raw` makes its :class:`~pdn.game.model.Game`,
    :func:`pdn.reading.parsing.accept_raw` drives any visitor.  ``line`` and ``column`` (1-based)
    locate
    ``text[0]`` in the file, so every position the parser reports is absolute.
    """

    text: str
    offset: int  # character offset of text[0] in the (normalised) input
    line: int
    column: int
    end: str  # why the game ends: "result", "tag", "comment" (unclosed), "eof", "size" (long)
    index: int = 0  # 1-based position of the game in its source
    encoding: str = "utf-8"
    damage: list[tuple[int, Damage | None]] = field(default_factory=list)
    problem: Problem | None = None  # set when the source is not PDN at all
    body_at: int = -1  # where the movetext starts in ``text`` (-1: at the end, there is none)
    encoding_guessed: bool = False  # the first game read in an encoding guessed from the bytes
    evidence: FileEvidence | None = None  # what the file's games agree on (pdn.game.detection)
    # Where the run of tag pairs the text starts with (the TAGS terminal) ends, when the
    # movetext follows it (-1: not known); the parser then need not match it again.
    tags_end: int = -1
    # A game longer than MAX_GAME_CHARS (``end == "size"``): ``text`` is its head, and this
    # many characters after it, up to ``skipped_end`` (line, column), were skipped unread.
    skipped: int = 0
    skipped_end: tuple[int, int] = (0, 0)


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
_SETUP = SETUP_PARTS
_SPECIAL_KIND = {"[": "bracket", "{": "brace", "%": "line", ";": "line", ")": "close"}
_SPECIAL_KIND.update({"*": "star", "(": "open", "/": "setup"})

# A line holding a tag pair: inside a "{" comment it shows that the comment was never closed
# and that the next game starts there, unless the comment ends soon after with no game in
# between (see comment_reads_whole).
TAG_LINE = re.compile(r"\n[ \t]*\[[A-Za-z][^\]\n\"]*\"[^\"\n]*\"[ \t]*\]")
#: How soon after the start of a tag pair line inside a ``{`` comment a ``}`` must close the
#: comment for the comment to be read as closed, holding the line.
CLOSED_TAG_WINDOW = 4096
# What shows a game after a tag pair line, outside tag pairs: a move, a move number or a
# result (digits, "*"), or a comment opening.
_GAME_SIGN = re.compile(r"[{0-9*]")


def _shows_a_game(text: str) -> bool:
    """Whether ``text``, from a tag pair line on, holds what a game's tags are followed by
    (see _GAME_SIGN) rather than only tag pairs and words."""
    return _GAME_SIGN.search(TAG_LINE.sub("", text)) is not None


def comment_reads_whole(text: str) -> bool:
    """Whether a brace comment holding ``text`` reads back as one comment: it holds no tag
    pair line, or its end comes within :data:`CLOSED_TAG_WINDOW` characters of the first one
    with only tag pairs and words between (no ``{``, and no digit or ``*`` that would show a
    game's moves or result): else the reader takes the comment for unclosed, and the line
    for the next game's tags.

    >>> comment_reads_whole('as in\\n[Event "x 2"]\\n'), comment_reads_whole('a\\n[Event "x"] 1.')
    (True, False)
    """
    line = TAG_LINE.search(text)
    if line is None:
        return True
    rest = text[line.start() :]
    return len(rest) < CLOSED_TAG_WINDOW and not _shows_a_game(rest)


#: A tag pair that lost its ``[`` (``Event "Suriname 2025"]``), the rest of its line blank: in
#: a tag section it is a damaged tag pair of that game, never movetext (its year a move).
LOST_BRACKET = re.compile(
    r'[A-Za-z][A-Za-z0-9_]*[ \t]+"(?:\\.|[^"\\\n])*"[ \t]*\](?=[ \t]*(?:\n|\Z))'
)
# As far as a text could be one: where it stops, the cutter knows whether it must see more.
_LOST_START = re.compile(r'[A-Za-z][A-Za-z0-9_]*[ \t]+"(?:\\.|[^"\\\n])*(?:"[ \t]*\][ \t]*)?')


# The rest of a tag pair that a line end broke (``[Date "`` then ``2025"]``, ``[Date`` then
# ``"2025"]``): the next line, up to a closing bracket that ends it. It belongs to the pair only
# when the two parts hold one quoted value between them (:func:`broken_tag_end`).
_TAG_TAIL = re.compile(r"\n[ \t]*[^\[\]{}()\n]*\][ \t]*(?=\n|\Z)")


def broken_tag_end(text: str, start: int, end: int) -> int:
    """Where a damaged tag pair ``text[start:end]`` (a ``[`` with no ``]`` on its line) ends
    when its next line finishes it, else ``end``: so that the year of ``[Date "`` / ``2025"]``
    stays the tag's value, never a move."""
    if text[end - 1 : end] == "]":
        return end
    tail = _TAG_TAIL.match(text, end)
    if tail is None or (text[start:end] + tail.group()).count('"') != 2:
        return end
    return tail.end()


class _NeedMore(Exception):
    pass


# What more text may still finish, each matched where its item starts ("\Z" is the end of the
# buffer): a decision on such an item waits for that text rather than being made on part of
# it.  A tag pair (the TAG terminal), a setup command, a "(!?)" strength, and a tag pair line
# (TAG_LINE) inside a comment.
_TAG_PREFIX = re.compile(
    r'\[[^"\]\[\n\u201c\u201d]*(?:"(?:\\.|[^"\\\n])*(?:\\|["\u201d][ \t]*)?|\u201c[^\n]*)?\Z'
)
_SETUP_PREFIX = re.compile(r'/[ \t]*[A-Za-z]*[ \t]*(?:"[^"\n/]*(?:"[ \t]*)?)?\Z')
_STRENGTH_PREFIX = re.compile(r"\([!?]*\Z")
_TAG_LINE_PREFIX = re.compile(r'\n[ \t]*(?:\[(?:[A-Za-z][^\]\n"]*(?:"[^"\n]*(?:"[ \t]*)?)?)?)?\Z')
# Characters kept before where the scan stands, for the look-behinds of its searches.
_BEHIND = 8
# A word of junk longer than this that the buffer's end cuts goes on from there rather than
# being matched again from its start (a shorter one may still turn out to be a move number).
_LONG_WORD = 1024


@dataclass(slots=True)
class _Cut:
    """How far the cutting of one game got.

    It is kept while the buffer is refilled, so that the scan goes on where it stopped (each
    character is scanned about once, whatever the length of the game, of its lines or of the
    blocks) and what it no longer needs can be let go.  Offsets are absolute in the input.
    """

    start: int  # the game's first character
    q: int  # where the scan goes on: the start of the first item not decided yet
    moves: bool = False  # in the movetext (else in the tag section)
    depth: int = 0  # variations open there
    body: int = -1  # where the movetext starts
    tags_end: int = -1  # where the run of tag pairs the game starts with ends
    # An item that the end of the buffer cut and that goes on where its search stopped, not
    # from its start (which may be let go): "comment", "line" (to its end), "junk" (a word).
    item: str = ""
    searched: int = -1  # searched up to here: for "}" (a comment) or the line end ("line")
    tag_from: int = -1  # a comment: where the search for a tag pair line goes on
    # The game's text scanned and set aside (see HOLD_PIECE), and the line and column of its
    # start then.
    held: list[str] = field(default_factory=list)
    line: int = 0
    column: int = 0
    # An over-long game (see MAX_GAME_CHARS): what is kept of it.
    head: RawGame | None = None
    # The game's text let go since its last line end that was let go: None while no line end
    # was (its first line), else whether that text is blank (for _at_line_start).
    blank: bool | None = None
    # The names of the game's tag pairs (only once a blank line among them was met), and how
    # far they were gathered.
    names: set[str] = field(default_factory=set)
    names_to: int = -1


class Chunker:
    """Cuts a stream of normalised text blocks into game chunks, keeping absolute positions.

    Memory is bounded: the buffer holds the game being cut and a block; a game longer than
    :data:`MAX_GAME_CHARS` keeps its first characters (its head, cut at a line end or a space)
    while the scan goes on to the game's real end, letting go of the text in between.  Such a
    game is a :class:`RawGame` with ``end == "size"`` and ``skipped`` set.
    """

    def __init__(
        self, blocks: Iterator[str], decoder: Decoder | None, line: int = 1, column: int = 1
    ) -> None:
        self._blocks = blocks
        self._decoder = decoder
        self._buf = ""
        self._pos = 0  # where the next game starts in _buf (or, inside a game, the text let go)
        self._base = 0  # absolute offset of _buf[0]
        self._line = line  # line at _buf[_pos]
        self._col = column  # column at _buf[_pos]
        self._eof = False
        self._damage_seen = 0  # how many damage records of the decoder are placed
        self._damage: list[tuple[int, Damage | None]] = []  # (absolute offset, record)
        self._patterns = patterns()
        # (searched from, first result at or after it or -1, its end)
        self._result_cache: tuple[int, int, int] = (1 << 62, -1, -1)
        self._special_cache: tuple[int, re.Match[str] | None] = (1 << 62, None)
        self._cut: _Cut | None = None  # the game being cut
        self._junk_run: re.Pattern[str] | None = None  # see _junk_words
        self._run_past = -1  # below this (absolute), junk words are scanned one at a time

    def _junk_words(self) -> re.Pattern[str]:
        """The expression of :func:`_junk_run`, compiled when first needed (it is long)."""
        found = self._junk_run
        if found is None:
            found = self._junk_run = _junk_run(self._patterns)
        return found

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
            except _NeedMore:
                self._fill()  # more text, or the end of the input (then _scan decides)
                continue
            if found is None:
                return
            yield found

    def rest(self) -> tuple[str, int, int]:
        """What was read but not cut yet, with the line and column it starts at."""
        return self._buf[self._pos :], self._line, self._col

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
        cut = self._cut
        if cut is None:
            start = _skip_space(buf, self._pos)
            if start >= n:
                if not eof:
                    self._advance(n, n)  # blank text between games: not scanned again
                    raise _NeedMore
                return None
            cut = self._cut = _Cut(self._base + start, self._base + start)
        try:
            end, reason = self._find_end(cut, buf, n, eof)
        except _NeedMore:
            self._hold(cut, buf, n)
            raise
        self._cut = None
        if cut.head is not None:
            return self._finish_long(cut, end, reason)
        absolute = cut.start
        if cut.held:
            text = "".join(cut.held) + buf[self._pos : end]
            line, column = cut.line, cut.column
            self._advance(end, end)
        else:
            start = absolute - self._base
            text = buf[start:end]
            line, column = self._advance(start, end)
        chunk = RawGame(text, absolute, line, column, reason)
        self._place(chunk, cut, len(text))
        return chunk

    def _place(self, chunk: RawGame, cut: _Cut, length: int) -> None:
        """Where the movetext starts in ``chunk`` (its ``length`` first characters of the
        game), and the damage in it."""
        body = cut.body - cut.start
        if cut.body >= 0 and 0 <= body < length:
            chunk.body_at = body
            if cut.tags_end == cut.body:
                chunk.tags_end = body
        if self._damage:
            absolute = cut.start
            stop = absolute + length
            chunk.damage = [(o - absolute, d) for o, d in self._damage if absolute <= o < stop]
            self._damage = [(o, d) for o, d in self._damage if o >= stop]

    # Over-long games ----------------------------------------------------------------------

    def _hold(self, cut: _Cut, buf: str, n: int) -> None:
        """After a wait for more text: a game longer than MAX_GAME_CHARS keeps its head, and
        lets go of what the scan no longer needs, so that memory stays bounded."""
        base = self._base
        # What the scan still needs: the item it waits on, from its start, or from where its
        # search stopped for an item that goes on.
        if cut.item == "comment":
            need = min(cut.tag_from, cut.searched) - base
        elif cut.item == "line":
            need = cut.searched - base
        else:
            need = cut.q - base
        if cut.head is None:
            start = cut.start - base
            if n - start <= MAX_GAME_CHARS + 64:  # (a game that ends before it never waits here)
                # The text scanned is set aside in pieces for the game's text, so that a
                # refill (a line, for read_game) does not copy all of the game again.
                pos = max(self._pos, start)
                if need - _BEHIND - pos >= HOLD_PIECE:
                    if not cut.held:
                        cut.line, cut.column = self._advance(start, start)
                    self._let_go(cut, buf, pos, need - _BEHIND)
                    cut.held.append(buf[pos : need - _BEHIND])
                    self._advance(need - _BEHIND, need - _BEHIND)
                return
            cut.head = self._head(cut, buf, start)
        if n - need > MAX_ITEM_CHARS:
            # One item of an over-long game longer than that (a tag pair, a bracket, a line
            # of a comment that may still be a tag pair): skipped to the end of its line.
            if cut.item == "comment":
                cut.tag_from = cut.searched
            else:
                cut.item, cut.searched = "line", base + n
            need = n
        keep = need - _BEHIND
        pos = self._pos
        if keep > pos:
            self._let_go(cut, buf, pos, keep)
            self._advance(keep, keep)
            if self._damage:
                self._damage = [(o, d) for o, d in self._damage if o >= base + keep]

    def _let_go(self, cut: _Cut, buf: str, start: int, end: int) -> None:
        """Remember of ``buf[start:end]``, let go of, what _at_line_start needs."""
        line = buf.rfind("\n", start, end)
        if line >= 0:
            cut.blank = _blank(buf, line + 1, end)
        elif cut.blank is not None:
            cut.blank = cut.blank and _blank(buf, start, end)

    def _head(self, cut: _Cut, buf: str, start: int) -> RawGame:
        # The first MAX_GAME_CHARS characters of the game, cut at the last line end or space
        # in them (so that no word is cut in half): the parser reads them.
        if cut.held:  # the text set aside, then the buffer's
            text, start = "".join(cut.held) + buf[self._pos :], 0
            line, column = cut.line, cut.column
            cut.held = []
        else:
            # (The text is let go as the scan goes on, which may still need some of it.)
            text = buf
            line, column = self._advance(start, start)
        limit = start + MAX_GAME_CHARS + 1
        end = max(text.rfind(c, start + 1, limit) for c in "\n \t")
        if end <= start:
            end = limit - 1
        head = RawGame(text[start:end], cut.start, line, column, "size")
        self._place(head, cut, end - start)
        return head

    def _finish_long(self, cut: _Cut, end: int, reason: str) -> RawGame:
        head = cut.head
        assert head is not None
        self._advance(end, end)
        length = self._base + end - cut.start
        if length <= len(head.text):
            # Not over-long after all (what held it was a wait for the next line of a damaged
            # tag pair, a long one): the head holds all of the game.
            chunk = RawGame(head.text[:length], cut.start, head.line, head.column, reason)
            body = cut.body - cut.start
            if cut.body >= 0 and 0 <= body < length:
                chunk.body_at = body
                if cut.tags_end == cut.body:
                    chunk.tags_end = body
            chunk.damage = [(o, d) for o, d in head.damage if o < length]
            after = [(o + cut.start, d) for o, d in head.damage if o >= length]
            self._damage = after + self._damage
            return chunk
        stop = self._base + end
        head.skipped = stop - cut.start - len(head.text)
        head.skipped_end = (self._line, self._col)
        if self._damage:  # in the text skipped
            self._damage = [(o, d) for o, d in self._damage if o >= stop]
        return head

    # Finding the end of a game -------------------------------------------------------------

    def _wait(self, cut: _Cut, q: int) -> _NeedMore:
        """Wait for more text; the scan goes on at ``q`` then."""
        cut.q = self._base + q
        return _NeedMore()

    def _find_end(self, cut: _Cut, buf: str, n: int, eof: bool) -> tuple[int, str]:
        """End of the game ``cut`` is about, and why it ends there (see RawGame.end)."""
        patterns = self._patterns
        base = self._base
        guard = n if eof else n - 64  # decisions closer than this to the end wait for more text
        start = cut.start - base  # below _pos once an over-long game let go of its start
        q = cut.q - base
        # --- the tag section ---------------------------------------------------------------
        while not cut.moves:
            if cut.item:
                q, end = self._go_on(cut, buf, q, n, eof)
                if end >= 0:
                    return end, "comment"
            q = _skip_space(buf, q)
            if q >= guard:
                if eof and q >= n:
                    return n, "eof"
                raise self._wait(cut, q)
            ch = buf[q]
            if ch == "[":
                tags = patterns.tags.match(buf, q)
                if tags is None and not eof and _TAG_PREFIX.match(buf, q) is not None:
                    raise self._wait(cut, q)  # a tag pair that the text to come may finish
                tag = tags or patterns.badtag.match(buf, q)
                assert tag is not None
                end = tag.end()
                if end >= guard and not eof:
                    raise self._wait(cut, q)
                # A bracket with no "]" on its line (a BADTAG: a TAGS match ends with the
                # white space after its last "]") may be finished by its next line: see it all.
                if (
                    tags is None
                    and not eof
                    and buf[end - 1] != "]"
                    and buf.find("\n", end + 1, guard) < 0
                ):
                    raise self._wait(cut, q)
                if tags is not None:
                    section = self._next_section(cut, buf, q, end)
                    if section >= 0:
                        # Tags only, then another game's: a game with no moves ends here.
                        return section, "tag"
                at, q = q, broken_tag_end(buf, q, end)
                if at == start and tags is not None and q == end:
                    cut.tags_end = base + end  # the movetext may start here (then the parser knows)
                if q >= guard and not eof:
                    raise self._wait(cut, at)
                continue
            if ch == "{":
                q, end = self._skip_comment(cut, buf, q, n, eof)
                if end >= 0:
                    return end, "comment"
                continue
            if ch in "%;":
                q = self._skip_line(cut, buf, q, n, eof)
                continue
            begun = _LOST_START.match(buf, q) if ch.isalpha() else None
            if begun is not None:
                if begun.end() >= n and not eof:
                    raise self._wait(cut, q)  # see all of its line
                lost = LOST_BRACKET.match(buf, q)
                if lost is not None and (q == start or self._at_line_start(cut, buf, q, start)):
                    if lost.end() >= guard and not eof:
                        raise self._wait(cut, q)
                    q = lost.end()
                    continue
            if ch == "}":
                q += 1
                continue
            result = patterns.result.match(buf, q)
            if result is not None:
                if result.end() >= guard and not eof:
                    raise self._wait(cut, q)
                cut.body = base + q
                return result.end(), "result"
            if patterns.lead.match(buf, q) is not None:
                cut.body = base + q
                cut.moves = True
                break
            # Words that are neither a result nor the start of the movetext, as many at a time
            # as the expression takes (a line of junk words is scanned at the regex's speed).
            # (A run that reaches the guard is left to the word-by-word scan, up to its end.)
            # Its first word is neither (see _junk_run), so it is tried after them: a file with
            # no junk in a tag section never compiles it.
            if base + q >= self._run_past:
                junk_run = self._junk_words().match(buf, q)
                if junk_run is not None:
                    if junk_run.end() < guard or eof:
                        q = junk_run.end()
                        continue
                    self._run_past = base + junk_run.end()
            junk = patterns.junk.match(buf, q)
            if junk is None:
                q += 1
                continue
            if junk.end() >= n and not eof:
                if n - q <= _LONG_WORD:
                    raise self._wait(cut, q)  # all of it may be a move number yet
                cut.item = "junk"  # it goes on in the text to come
                raise self._wait(cut, n)
            q = junk.end()
        # --- the movetext --------------------------------------------------------------------
        depth = cut.depth
        try:
            while True:
                if cut.item:
                    q, end = self._go_on(cut, buf, q, n, eof)
                    if end >= 0:
                        return end, "comment"
                kind, at, end = self._signal(buf, q)
                if at < 0 or at >= guard:
                    if not eof:
                        # Nothing to decide before the guard: the scan goes on from there.
                        raise self._wait(cut, max(q, guard))
                    if at < 0:
                        return n, "eof"
                if kind == "result" or kind == "star":
                    glued = kind == "star" and at > 0 and buf[at - 1] in "0123456789!?"
                    # A glued "*" (PDN 2.0 "star") and a result inside a variation end the game
                    # only when nothing but white space and the next game (or the end) follows.
                    if (depth == 0 and not glued) or self._next_game_follows(
                        cut, buf, end, n, eof, at
                    ):
                        return end, "result"
                    q = end
                elif kind == "bracket":
                    if patterns.tag.match(buf, at) is not None or self._at_line_start(
                        cut, buf, at, start
                    ):
                        return at, "tag"
                    if not eof and _TAG_PREFIX.match(buf, at) is not None:
                        raise self._wait(cut, at)
                    bad = patterns.badtag.match(buf, at)
                    assert bad is not None
                    q = bad.end()
                    if q >= n and not eof:
                        raise self._wait(cut, at)
                elif kind == "brace":
                    q, end = self._skip_comment(cut, buf, at, n, eof)
                    if end >= 0:
                        return end, "comment"
                elif kind == "line":
                    q = self._skip_line(cut, buf, at, n, eof)
                elif kind == "open":
                    strength = _PAREN_STRENGTH.match(buf, at)
                    if strength is not None:
                        q = strength.end()
                    elif not eof and _STRENGTH_PREFIX.match(buf, at) is not None:
                        raise self._wait(cut, at)
                    else:
                        depth += 1
                        q = at + 1
                elif kind == "close":
                    depth = max(0, depth - 1)
                    q = end
                elif kind == "setup":
                    setup = _SETUP.match(buf, at)
                    if setup is None and not eof and _SETUP_PREFIX.match(buf, at) is not None:
                        raise self._wait(cut, at)
                    q = setup.end() if setup is not None else at + 1
                else:
                    q = end
        except _NeedMore:
            cut.depth = depth
            raise

    def _next_section(self, cut: _Cut, buf: str, at: int, end: int) -> int:
        """Where, among the tag pairs ``buf[at:end]``, another game's tag section starts: a
        tag pair after a blank line whose name the game's tags already hold (pairings,
        problem sets: tag sections with no movetext between them); -1 if none does.

        A blank line alone may stand inside one tag section, and so may a repeated name
        (the PDN 3.0 standard's own example repeats ``Event``), so it takes both."""
        low = max(cut.start - self._base, self._pos)
        first = at
        while first > low and buf[first - 1].isspace():
            first -= 1  # (the white space before the run: a blank line there counts)
        found = _SECTION_BREAK.search(buf, first, end)
        while found is not None:
            pair = found.end()
            if pair > low:
                names = cut.names
                begin = max(cut.names_to - self._base, low)
                for tag in TAG_PARTS.finditer(buf, begin, pair):
                    names.add(tag.group(1).strip())
                cut.names_to = max(cut.names_to, self._base + pair)
                named = TAG_PARTS.match(buf, pair)
                if named is not None and named.group(1).strip() in names:
                    return pair
            found = _SECTION_BREAK.search(buf, pair + 1, end)
        return -1

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

    def _next_game_follows(
        self, cut: _Cut, buf: str, at: int, n: int, eof: bool, signal: int
    ) -> bool:
        end = _skip_space(buf, at)
        if end >= n:
            if not eof:
                raise self._wait(cut, signal)
            return True
        return buf[end] == "["

    def _at_line_start(self, cut: _Cut, buf: str, at: int, start: int) -> bool:
        """Whether only white space is before ``at`` on its line, in the game."""
        low = max(start, self._pos)  # an over-long game let go of the text before _pos
        p = at
        while p > low and buf[p - 1].isspace():
            p -= 1
            if buf[p] == "\n":
                return True
        # A non-blank character, or the game's start (never blank), or what was let go.
        return p <= low and low > start and cut.blank is True

    def _go_on(self, cut: _Cut, buf: str, q: int, n: int, eof: bool) -> tuple[int, int]:
        """Go on with the item that the end of the buffer cut (``cut.item``), from where its
        search stopped: (index after it, -1), or (q, end of the game)."""
        if cut.item == "comment":
            return self._skip_comment(cut, buf, q, n, eof)
        if cut.item == "line":
            return self._skip_line(cut, buf, q, n, eof), -1
        cut.item = ""  # a long word of junk
        junk = self._patterns.junk.match(buf, q)
        if junk is not None:
            q = junk.end()
            if q >= n and not eof:
                cut.item = "junk"
                raise self._wait(cut, q)
        return q, -1

    def _skip_comment(self, cut: _Cut, buf: str, at: int, n: int, eof: bool) -> tuple[int, int]:
        """(index after the comment, -1) or (index of the "{", cut) for an unclosed comment."""
        base = self._base
        if cut.item == "comment":  # goes on: the "{" at ``at`` may be let go
            close_from, tag_from = cut.searched - base, cut.tag_from - base
            cut.item = ""
        else:
            close_from = tag_from = at + 1
        close = buf.find("}", close_from)
        limit = close if close >= 0 else n
        tag_line = TAG_LINE.search(buf, tag_from, limit)
        if tag_line is not None:
            # Closed, holding the line, when a "}" follows soon with no game between (see
            # comment_reads_whole); decided on whole lines, so on the same text however it
            # comes in blocks.
            line = tag_line.start()
            window = line + CLOSED_TAG_WINDOW
            if close >= 0 and close < window:
                return (at, line) if _shows_a_game(buf[line:close]) else (close + 1, -1)
            if close < 0 and n < window and not eof:
                whole = buf.rfind("\n", line, n)
                if not _shows_a_game(buf[line:whole]):
                    cut.item, cut.searched, cut.tag_from = "comment", base + n, base + line
                    raise self._wait(cut, at)
            return at, line
        if close < 0:
            if not eof:
                # The search goes on at the end; a tag pair line may still start at the last
                # line end, if what follows it can begin one.
                cut.item, cut.searched = "comment", base + n
                line = buf.rfind("\n", tag_from, n)
                open_line = line >= 0 and _TAG_LINE_PREFIX.match(buf, line) is not None
                cut.tag_from = base + (line if open_line else n)
                raise self._wait(cut, at)
            return at, n
        return close + 1, -1

    def _skip_line(self, cut: _Cut, buf: str, at: int, n: int, eof: bool) -> int:
        if cut.item == "line":  # goes on where the search stopped
            stop = buf.find("\n", cut.searched - self._base)
            cut.item = ""
        else:
            stop = buf.find("\n", at)
        if stop < 0:
            if not eof:
                cut.item, cut.searched = "line", self._base + n
                raise self._wait(cut, at)
            return n
        return stop


# A blank line, then the "[" of a tag pair.
_SECTION_BREAK = re.compile(r"\n[^\S\n]*\n\s*(?=\[)")
_JUNK_RUNS: list[tuple[Patterns, re.Pattern[str]]] = []


def _junk_run(found: Patterns) -> re.Pattern[str]:
    """Up to 2,000 words of the tag section that are junk, each followed by white space: what
    the scan of the tag section skips one word at a time (no result, no start of movetext,
    no delimiter), in one match; bounded, as the grammar's runs are."""
    for known, compiled in _JUNK_RUNS:
        if known is found:
            return compiled
    stop = f"(?!(?:{found.result.pattern})|(?:{found.lead.pattern}))"
    # Most junk words are known by their first characters: no result, number, move, NAG,
    # strength, star or setup starts with a letter that no digit follows, nor with a
    # character other than a digit, a letter, ".-!?*$/(" (the other words are checked whole).
    plain = r"(?:[^\s{}()\[;%0-9.\-!?*$/a-lA-L]|[a-lA-L](?![0-9]))"
    # (Nor a word that may begin a tag pair that lost its "[": see LOST_BRACKET.)
    lost = r'(?![A-Za-z][A-Za-z0-9_]*[ \t]+")'
    word = f"{lost}(?:{plain}|{stop}(?:{found.junk.pattern}))[^\\s{{}}()\\[;%]*"
    compiled = re.compile(f"(?:{word}\\s+){{1,2000}}")
    _JUNK_RUNS[:] = [(found, compiled)]
    return compiled


def _blank(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is white space only (or empty)."""
    return start >= end or text[start:end].isspace()
