"""The PDN grammar (``grammars/pdn.lark``) as a Lark LALR parser, and patterns built from it.

One parser is built per thread (Lark parsers are not thread-safe).  The reader cuts runs of
moves and tag pairs with regular expressions compiled from the grammar's own terminals, so that
the grammar stays the one definition of what a move, a move number or a tag pair looks like; the
result strings come from :data:`pdn.results.TERMINATORS`.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from importlib import resources
from pathlib import Path
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
    text = resources.files("pdn_grammars").joinpath("pdn.lark").read_text(encoding="utf-8")
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
    """The Lark parser of this thread (built on first use).

    Building the LALR tables takes most of a small file's run, so they are kept in the user's
    cache folder (see :func:`cache_file`) and read back by later runs; Lark checks that the
    cached tables belong to this grammar, these options and this Lark version, and rebuilds
    them when they do not.
    """
    built: Lark | None = getattr(_local, "parser", None)
    if built is None:
        built = _build(grammar_text())
        _local.parser = built
    return built


def _build(text: str) -> Lark:
    options: dict[str, Any] = {
        "parser": "lalr",
        "lexer": "contextual",
        "start": ["start", "pieces"],
        "transformer": _Collect(),
        "maybe_placeholders": False,
    }
    target = cache_file(text)
    if target is None:
        return Lark(text, **options)
    # Lark reads the file back only if its first line is the digest of this grammar, these
    # options and its own version, and rebuilds (rewriting the file) when it is not or when the
    # file is damaged, e.g. half-written by another process starting at the same moment.
    return Lark(text, cache=str(target), **options)


def cache_file(text: str | None = None) -> Path | None:
    """Where the parse tables of the grammar ``text`` are cached, or ``None`` for no cache.

    ``$PDN_CACHE_DIR`` if set (empty: no cache), else ``$XDG_CACHE_HOME/pdn`` or
    ``~/.cache/pdn``; the name carries a digest of the grammar, so versions never collide.
    A folder that cannot be made or is not the user's own (the cache is a pickle, and is
    only ever read from a private folder) means no cache.
    """
    text = grammar_text() if text is None else text
    chosen = os.environ.get("PDN_CACHE_DIR")
    if chosen == "":
        return None
    if chosen is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        chosen = os.path.join(base, "pdn")
    folder = Path(chosen)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError:
        return None
    if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
        return None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return folder / f"grammar-{digest}.lark-cache"


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
        self._moves = re.compile(_terminal("MOVES"))
        self._run_words: set[str] = set()

    def run_words(self, words: list[str]) -> bool:
        """Whether each of ``words`` (str.split's) is a word of a MOVES run whatever word of
        such a run, or result, follows it.

        Those words start with a digit or a letter, never with the "." or separator that
        the terminal's look-aheads look for, so a word is checked alone (once: a file writes
        the same few hundred words again and again).
        """
        known = self._run_words
        if known.issuperset(words):
            return True
        for word in words:
            if word not in known:
                if self._moves.fullmatch(word + " ") is None:
                    return False
                if len(known) >= _RUN_WORDS_KNOWN:
                    known.clear()
                known.add(word)
        return True


#: Words :meth:`Patterns.run_words` remembers (far above the distinct words of a file).
_RUN_WORDS_KNOWN = 1 << 15

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
