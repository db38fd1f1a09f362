"""Cutting a stream of decoded text into games, keeping absolute positions.

A game ends after a result at the top level, where a tag pair follows movetext, where a tag
pair on its own line shows that a ``{`` comment was never closed, or at the end of the input.
Comments, tag values and ``%``/``;`` lines are skipped while cutting, so ``{if 1-0 then}`` never
ends a game.  A game longer than :data:`MAX_GAME_CHARS` is cut at a line end, so that memory
stays bounded whatever the input.

The result is a stream of :class:`RawGame` records: the text of one game with its position in
the file, cheap to make and small to send to another process.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from pdn.decoding import Damage, Decoder
from pdn.grammar import SETUP_PARTS, patterns
from pdn.problems import Problem
from pdn.results import TERMINATORS

if TYPE_CHECKING:
    from pdn.detection import FileEvidence
    from pdn.model import Game
    from pdn.visitor import GameVisitor

T = TypeVar("T")

__all__ = ["LOST_BRACKET", "MAX_GAME_CHARS", "TAG_LINE", "Chunker", "RawGame", "broken_tag_end"]

#: A game longer than this (in characters) is cut, so that memory stays bounded (a real game,
#: even with many annotated variations, is a few tens of kilobytes).
MAX_GAME_CHARS = 1 << 20
_RESULTS = frozenset(TERMINATORS)


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
    damage: list[tuple[int, Damage | None]] = field(default_factory=list)
    problem: Problem | None = None  # set when the source is not PDN at all
    body_at: int = -1  # where the movetext starts in ``text`` (-1: at the end, there is none)
    encoding_guessed: bool = False  # the first game read in an encoding guessed from the bytes
    evidence: FileEvidence | None = None  # what the file's games agree on (pdn.detection)
    # Where the run of tag pairs the text starts with (the TAGS terminal) ends, when the
    # movetext follows it (-1: not known); the parser then need not match it again.
    tags_end: int = -1

    def parse(self) -> Game:
        """The game: tags, move tree, terminator, variant and the problems found."""
        from pdn.builder import GameBuilder

        return self.accept(GameBuilder())

    def accept(self, visitor: GameVisitor[T]) -> T:
        """Parse the game, driving ``visitor``; its :meth:`~pdn.visitor.GameVisitor.result`."""
        from pdn.parsing import parse_raw

        return parse_raw(self, visitor)


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

# A line holding a tag pair: inside a "{" comment it shows that the comment was never closed.
TAG_LINE = re.compile(r"\n[ \t]*\[[A-Za-z][^\]\n\"]*\"[^\"\n]*\"[ \t]*\]")


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


class Chunker:
    """Cuts a stream of normalised text blocks into game chunks, keeping absolute positions."""

    def __init__(
        self, blocks: Iterator[str], decoder: Decoder | None, line: int = 1, column: int = 1
    ) -> None:
        self._blocks = blocks
        self._decoder = decoder
        self._buf = ""
        self._pos = 0  # where the next game starts in _buf
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
        self._body = -1  # where the movetext of the game being cut starts in _buf
        self._tags_end = -1  # where the tag pairs it starts with end in _buf (see RawGame)

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

    def rest(self) -> tuple[str, int, int]:
        """What was read but not cut yet, with the line and column it starts at."""
        return self._buf[self._pos :], self._line, self._col

    def _force_cut(self, start: int) -> RawGame:
        # A game that never ends within MAX_GAME_CHARS: cut at the last line end so that memory
        # stays bounded; the parser reports what this breaks.
        buf = self._buf
        end = buf.rfind("\n", start + 1)
        if end <= start:
            # One long line: cut at its last space, so that no word is cut in half.
            end = max(buf.rfind(" ", start + 1), buf.rfind("\t", start + 1))
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
        self._body = self._tags_end = -1
        end, reason, _ = self._find_end(buf, start, n, eof)
        line, column = self._advance(start, end)
        absolute = self._base + start
        chunk = RawGame(buf[start:end], absolute, line, column, reason)
        if 0 <= self._body - start < end - start:
            chunk.body_at = self._body - start
            if self._tags_end == self._body:
                chunk.tags_end = chunk.body_at
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
                tags = patterns.tags.match(buf, q)
                tag = tags or patterns.badtag.match(buf, q)
                assert tag is not None
                if tag.end() >= guard and not eof:
                    raise self._need(start, n)
                end = tag.end()
                if not eof and buf[end - 1] != "]" and buf.find("\n", end + 1, guard) < 0:
                    raise self._need(start, n)  # its next line may finish it: see all of it
                at, q = q, broken_tag_end(buf, q, end)
                if at == start and tags is not None and q == end:
                    self._tags_end = end  # the movetext may start here (then the parser knows)
                if q >= guard and not eof:
                    raise self._need(start, n)
                continue
            if ch == "{":
                q, cut = self._skip_comment(buf, q, n, eof, start)
                if cut >= 0:
                    return cut, "comment", q
                continue
            if ch in "%;":
                q = self._skip_line(buf, q, n, eof, start)
                continue
            begun = _LOST_START.match(buf, q) if ch.isalpha() else None
            if begun is not None:
                if begun.end() >= n and not eof:
                    raise self._need(start, n)  # see all of its line
                lost = LOST_BRACKET.match(buf, q)
                if lost is not None and (q == start or _at_line_start(buf, q, start)):
                    q = lost.end()
                    if q >= guard and not eof:
                        raise self._need(start, n)
                    continue
            if ch == "}":
                q += 1
                continue
            result = patterns.result.match(buf, q)
            if result is not None:
                if result.end() >= guard and not eof:
                    raise self._need(start, n)
                self._body = q
                return result.end(), "result", -1
            if patterns.lead.match(buf, q) is not None:
                self._body = q
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
        tag_line = TAG_LINE.search(buf, at + 1, limit)
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
