"""The PDN grammar (``grammars/pdn.lark``) as a Lark LALR parser, and patterns built from it.

One parser is built per thread (Lark parsers are not thread-safe).  The reader cuts runs of
moves and tag pairs with regular expressions compiled from the grammar's own terminals, so that
the grammar stays the one definition of what a move, a move number or a tag pair looks like; the
result strings come from :data:`pdn.results.TERMINATORS`.
"""

from __future__ import annotations

import re
import threading
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer

from pdn.results import TERMINATORS

__all__ = ["SETUP_PARTS", "TAG_PARTS", "Patterns", "Variation", "parser", "patterns"]


class Variation(list[Any]):
    """The items of one ``( ... )`` in text order: tokens (LPAR first, RPAR last) and the
    variations nested in it."""

    __slots__ = ()


def _alternation(words: tuple[str, ...]) -> str:
    # Lark's /.../ regexps take "/" escaped.
    return "|".join(re.escape(word).replace("/", "\\/") for word in words)


def grammar_text() -> str:
    """The grammar with the result strings filled in."""
    text = resources.files("pdn.grammars").joinpath("pdn.lark").read_text(encoding="utf-8")
    scores = tuple(word for word in TERMINATORS if word != "*")
    return text.replace("@RESULTS@", _alternation(TERMINATORS)).replace(
        "@SCORES@", _alternation(scores)
    )


class _Collect(Transformer[Token, Any]):
    """Runs inside the LALR parser: ``start`` gets the items of a game in text order."""

    def start(self, children: list[Any]) -> list[Any]:
        return children

    def variation(self, children: list[Any]) -> Variation:
        return Variation(children)


_local = threading.local()


def parser() -> Lark:
    """The Lark parser of this thread (built on first use)."""
    built: Lark | None = getattr(_local, "parser", None)
    if built is None:
        built = Lark(
            grammar_text(),
            parser="lalr",
            lexer="contextual",
            start=["start", "pieces"],
            transformer=_Collect(),
            maybe_placeholders=False,
        )
        _local.parser = built
    return built


def _terminal(name: str) -> str:
    return str(parser().get_terminal(name).pattern.to_regexp())


class Patterns:
    """Regular expressions built from the grammar's own terminals, compiled once."""

    def __init__(self) -> None:
        number = _terminal("NUMBER")
        move = _terminal("MOVE")
        # One match per move: its number (if any) and the move, or a number with no move.
        self.split = re.compile(f"(?:({number})\\s*)?({move})|({number})")
        self.tag = re.compile(_terminal("TAG"))
        self.tags = re.compile(_terminal("TAGS"))
        self.badtag = re.compile(_terminal("BADTAG"))
        self.result = re.compile(_terminal("RESULT"))
        # What starts the movetext (only the first piece is needed to know that it starts).
        self.lead = re.compile(
            "|".join(
                _terminal(name)
                for name in ("NUMBER", "MOVE", "STRENGTH", "STAR", "NAG", "SETUP", "LPAR")
            )
        )
        self.junk = re.compile(_terminal("JUNK"))
        # The shape of most games of a large archive: tag pairs, one run of plain moves, the
        # result.  Such a game is lexed with the grammar's own terminals, without the parser
        # (whose set-up per game costs more than lexing it).
        self.simple = re.compile(
            f"({_terminal('TAGS')})?({_terminal('MOVES')})({_terminal('RESULT')})?\\s*\\Z"
        )


_patterns_cache: list[Patterns] = []
_patterns_lock = threading.Lock()


def patterns() -> Patterns:
    """The shared :class:`Patterns` (compiled on first use)."""
    if not _patterns_cache:
        with _patterns_lock:
            if not _patterns_cache:
                _patterns_cache.append(Patterns())
    return _patterns_cache[0]


# Parts of a tag pair, the TAG terminal with groups: the name (everything up to the first quote)
# and the value, between straight quotes (group 2, with escapes) or curly ones (group 3).
TAG_PARTS = re.compile(
    r"\[([^\"\]\[\n\u201c\u201d]*)"
    r"(?:\"((?:\\.|[^\"\\\n])*)[\"\u201d]|\u201c([^\n]*?)[\u201d\"])[ \t]*\]"
)
# The keyword and the FEN of a setup command (the SETUP terminal with groups).
SETUP_PARTS = re.compile(r'/[ \t]*([A-Za-z]*)[ \t]*"([^"\n/]*)"[ \t]*/')
