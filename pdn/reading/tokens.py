"""The text of one game outside the parser: tokens found without it, and text that is no PDN.

* A game of the common shape (tag pairs, a run of plain moves, a result) gets the tokens the
  grammar's lexer would make of it without running the parser (:func:`simple_items`).
* Tag pairs that a line end broke (``[Date "`` then ``2025"]``) or that lost their ``[`` are
  set aside before the parse as ``BADTAG`` tokens (:func:`broken_tags`, :func:`set_aside`), and
  what a bracket of the tag section still says is read back (:func:`salvaged_pair`).
* Text that is no PDN is kept as comments that write back to comments holding it all
  (:func:`kept_text`; :func:`junk_bracket`).

:mod:`pdn.reading.parsing` walks the tokens; this module never drives a visitor.
"""

from __future__ import annotations

import re
from typing import Any

from pdn.game.model import Comment
from pdn.text.results import TERMINATORS

from .cutting import LOST_BRACKET, TAG_LINE, broken_tag_end
from .grammar import Token, Variation, patterns

#: A tag name of the PDN 3.0 form.
GOOD_TAG_NAME = re.compile(r"[A-Z][A-Za-z0-9_]*")
# What a damaged tag pair's name may be for the pair to be kept (it must write back as a name).
_SALVAGED_NAME = re.compile(r"[^\s\"\]\[\u201c\u201d{}()]+(?: [^\s\"\]\[\u201c\u201d{}()]+)*")
_RESULTS = frozenset(TERMINATORS)


def kept_text(text: str) -> list[Comment]:
    """Text that is no PDN, kept as comments that write back to comments holding it all.

    One brace comment when it can be one; a text holding ``}`` (or a tag pair line, which a
    reader takes for the next game) as one ``;`` line comment per line instead.

    >>> kept_text("[GameTy"), kept_text("}")
    ([Comment(text='[GameTy', kind='brace')], [Comment(text='}', kind='line')])
    """
    if "}" not in text and TAG_LINE.search(text) is None:
        return [Comment(text)]
    return [Comment(line, "line") for line in text.split("\n")]


# A bracket with no quote that stays on its line: the grammar's BADTAG, when no tag is in it.
_BRACKET = re.compile(r"\[[^\]\n\"\u201c\u201d]*\]?")


def _unquoted_pair(inner: str) -> tuple[str, str] | None:
    """``[Date 2025]``, ``[Round: 3]`` (``inner`` without the brackets): the name and the
    value of a tag pair whose quotes were left out, or ``None``."""
    name, _, value = inner.strip().partition(" ")
    name, value = name.rstrip(":"), value.strip()
    return (name, value) if value and GOOD_TAG_NAME.fullmatch(name) is not None else None


def junk_bracket(text: str) -> bool:
    """Whether the reader keeps ``text``, standing alone on a line of the tag section, as the
    comment ``text`` (a bracket no tag pair can be read from: ``[GameTy``, ``[``, ``[Empty]``),
    so that a writer may write it as it was read.

    >>> junk_bracket("[GameTy"), junk_bracket("[Empty]"), junk_bracket("[Date 2025]")
    (True, True, False)
    """
    if _BRACKET.fullmatch(text) is None:
        return False
    return _unquoted_pair(text[1:-1] if text.endswith("]") else text[1:]) is None


# A line of the tag section that opens a tag pair and does not close it.
_OPEN_TAG_LINE = re.compile(r"^[ \t]*\[[^\]\n]*$", re.MULTILINE)
# A line of the tag section that is a tag pair without its "[" (a game's first line counts
# from where the game starts, as the cutter sees it).
_LOST_LINE = re.compile(r"^[ \t]*(" + LOST_BRACKET.pattern + ")", re.MULTILINE)


def broken_tags(text: str, body_at: int) -> list[tuple[int, int]]:
    """Where the tag pairs that a line end broke (``[Date "`` / ``2025"]``) start and end,
    among the tags (before ``body_at``, the movetext)."""
    found: list[tuple[int, int]] = []
    if "[" in text:
        for line in _OPEN_TAG_LINE.finditer(text, 0, body_at):
            start = text.index("[", line.start())
            end = broken_tag_end(text, start, line.end())
            if end > line.end():
                found.append((start, end))
    # Tag pairs that lost their "[" (the cutter kept them in the tag section: pdn.reading.cutting),
    # unless a broken pair holds them; both lists are in text order.
    lost: list[tuple[int, int]] = []
    k = 0
    for line in _LOST_LINE.finditer(text, 0, body_at):
        start = line.start(1)
        while k < len(found) and found[k][1] <= start:
            k += 1
        if k == len(found) or found[k][0] > start:
            lost.append((start, line.end(1)))
    return sorted(found + lost) if lost else found


def set_aside(text: str, spans: list[tuple[int, int]]) -> tuple[str, list[Token]]:
    """``text`` with each span blanked (line ends kept), and each span as a BADTAG token."""
    chars = list(text)
    tokens: list[Token] = []
    for start, end in spans:
        line = text.count("\n", 0, start) + 1
        column = start - text.rfind("\n", 0, start)
        tokens.append(Token("BADTAG", text[start:end], start, line, column))
        for k in range(start, end):
            if chars[k] != "\n":
                chars[k] = " "
    return "".join(chars), tokens


def tag_section_end(text: str) -> int:
    """Where the TAGS terminal that ``text`` starts with ends (-1: it starts otherwise)."""
    tags = patterns().tags.match(text)
    return -1 if tags is None else tags.end()


def simple_items(text: str, tags_end: int) -> list[Token] | None:
    """The tokens of a game of the common shape (tags, plain moves, result), or ``None``;
    ``tags_end`` is where the TAGS terminal it starts with ends (see :func:`tag_section_end`).

    They are the tokens the grammar's lexer makes of such a text (the same terminals, tried
    in the same order), so the parser, which could only accept them, is not needed.
    """
    spans = _plain_spans(text, tags_end)
    if spans is None:
        found = patterns().simple.match(text)
        if found is None:
            return None
        spans = (found.span(1), found.span(2), found.span(3))
    items: list[Token] = []
    for (start, end), kind in zip(spans, ("TAGS", "MOVES", "RESULT"), strict=True):
        if start < 0:
            continue
        newlines = text.count("\n", 0, start)
        column = start - text.rfind("\n", 0, start)
        items.append(Token(kind, text[start:end], start, 1 + newlines, column))
    return items


# Runs longer than this are left to the regular expression (the grammar bounds a run too).
_PLAIN_RUN_WORDS = 1000
_NO_SPAN = (-1, -1)


def _plain_spans(text: str, tags_end: int) -> tuple[tuple[int, int], ...] | None:
    """The spans of the groups of ``patterns().simple`` in ``text`` (tags, moves, result;
    (-1, -1) for none), found without that regular expression when the movetext is words
    that each are a word of a MOVES run, ending in a result or not; else ``None``.

    The regular expression costs more than the rest of reading such a game: here the tag
    pairs are its own first group (``tags_end``), and the movetext is str.split's words, each
    checked once per file (:meth:`~pdn.reading.grammar.Patterns.run_words`).  A run word starts with
    a digit or a letter, so it is one whole word of the run, and the result (never a run
    word) is the last word.
    """
    at = max(tags_end, 0)
    if text[at : at + 1].isspace():
        return None  # (text blanked out before the first tag pair)
    # Split no further than a run's words can go: the text may be a megabyte of prose.
    words = text[at:].split(None, _PLAIN_RUN_WORDS + 1)
    if len(words) > _PLAIN_RUN_WORDS + 1:
        return None  # (too many words for one run, even with a result at the end)
    end = len(text)
    result = _NO_SPAN
    if words and words[-1] in _RESULTS:
        stop = len(text.rstrip())
        end = stop - len(words.pop())
        result = (end, stop)
    if not words or len(words) > _PLAIN_RUN_WORDS or words[-1][-1] == ".":
        return None  # (after a number with nothing after it, the look-ahead needs a space)
    if not patterns().run_words(words):
        return None
    return ((0, at) if tags_end >= 0 else _NO_SPAN), (at, end), result


def salvaged_pair(text: str) -> tuple[str, str, str] | None:
    """What a bracket of the tag section that is no clean tag pair still says: its name, its
    value and how it is damaged, or ``None`` when no tag pair can be read from it.

    ``[Event "The "Big" Match"]``, ``[Event "no end]`` and ``Event "lost its bracket"]`` keep
    their tag, and so do ``[Date 2025]`` and ``[Round: 3]`` (their quotes left out);
    ``[Empty]`` and other brackets without a name and a quote give ``None``.

    >>> salvaged_pair('[Event "The "Big" Match"]'), salvaged_pair("[Date 2025]")
    (('Event', 'The "Big" Match', 'is damaged'), ('Date', '2025', 'has no quotes'))
    >>> salvaged_pair('Event "Open"]')[2], salvaged_pair("[Empty]")
    ("has lost its '['", None)
    """
    opened = text.startswith("[")
    inner = text[opened:-1] if text.endswith("]") else text[opened:]
    quote = re.search('["\u201c]', inner)
    if quote is not None:
        name = inner[: quote.start()].strip()
        rest = inner[quote.end() :]
        last = max(rest.rfind('"'), rest.rfind("\u201d"))
        value = rest[:last] if last >= 0 else rest.rstrip()
        if last >= 0 and rest[last + 1 :].strip():
            value = rest.rstrip()  # text after the closing quote ('"Cup" 2025') is kept
        if "\n" in value:  # a value broken over two lines: one space where it broke
            value = re.sub(r"\s*\n\s*", " ", value).strip()
        if _SALVAGED_NAME.fullmatch(name) is not None:
            return name, value, "is damaged" if opened else "has lost its '['"
        return None
    # "[Date 2025]", "[Round: 3]": a name and a value with the quotes left out.
    pair = _unquoted_pair(inner)
    return None if pair is None else (*pair, "has no quotes")


def start_of(item: Any, default: int = 0) -> int:
    """Where a token, or the first token of a variation, starts in the game's text."""
    while isinstance(item, Variation):
        item = item[0]
    position = item.start_pos if isinstance(item, Token) else None
    return default if position is None else position
