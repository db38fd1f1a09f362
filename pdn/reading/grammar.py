"""The PDN grammar (``grammars/pdn.lark``) as a Lark LALR parser, and patterns built from it.

One parser is built per thread (Lark parsers are not thread-safe).  The reader cuts runs of
moves and tag pairs with regular expressions compiled from the grammar's own terminals, so that
the grammar stays the one definition of what a move, a move number or a tag pair looks like; the
result strings come from :data:`pdn.text.results.TERMINATORS`.

Lark is loaded only when a game needs the parser: the terminals' regular expressions are kept
in the user's cache folder with the LALR tables (:func:`terminals`), and a game of the common
shape is read without the parser (:mod:`pdn.reading.tokens`), in tokens of pdn's own class
(:class:`Token`), so that validating a small file of plain games never imports lark.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pkgutil
import re
import threading
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdn.text.results import TERMINATORS

if TYPE_CHECKING:
    from lark import Lark

__all__ = [
    "SETUP_PARTS",
    "TAG_PARTS",
    "Patterns",
    "Token",
    "Variation",
    "parser",
    "patterns",
    "terminals",
]


class Token(str):
    """One token of a game's text, as the grammar's lexer makes it: the text itself, the name of
    its terminal (``type``), and where it starts in the game's text (``start_pos`` from 0,
    ``line`` and ``column`` from 1; ``None`` for a token the parser's recovery made up).

    Lark's own tokens (the same attributes, and more) are turned into these as the parser hands
    them over, so that the walk of a game sees one class whether or not the parser ran.
    """

    __slots__ = ("column", "line", "start_pos", "type")

    type: str
    start_pos: int | None
    line: int | None
    column: int | None

    def __new__(
        cls,
        type: str,
        value: str,
        start_pos: int | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> Token:
        token = super().__new__(cls, value)
        token.type = type
        token.start_pos = start_pos
        token.line = line
        token.column = column
        return token

    @classmethod
    def of(cls, token: Any) -> Token:
        """The same token in this class (``token``: one of Lark's, or anything with the same
        attributes)."""
        return cls(token.type, token, token.start_pos, token.line, token.column)

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return Token, (self.type, str(self), self.start_pos, self.line, self.column)


class Variation(list[Any]):
    """The items of one ``( ... )`` in text order: tokens (LPAR first, RPAR last) and the
    variations nested in it."""

    __slots__ = ()


def _alternation(words: tuple[str, ...]) -> str:
    # Lark's /.../ regexps take "/" escaped.
    return "|".join(re.escape(word).replace("/", "\\/") for word in words)


def grammar_text() -> str:
    """The grammar with the result strings filled in."""
    # pkgutil rather than importlib.resources, which costs a small run more than this module
    # (it loads tempfile and zipfile); it reads from a zip archive too.
    data = pkgutil.get_data("pdn_grammars", "pdn.lark")
    if data is None:  # (a loader that cannot read data: no install of pdn has one)
        raise FileNotFoundError("pdn_grammars/pdn.lark cannot be read from its package")
    text = data.decode("utf-8")
    scores = tuple(word for word in TERMINATORS if word != "*")
    return text.replace("@RESULTS@", _alternation(TERMINATORS)).replace(
        "@SCORES@", _alternation(scores)
    )


_new_str = str.__new__


def _ours(items: list[Any]) -> list[Any]:
    """The children the parser hands over, each lark token as a :class:`Token` (variations as
    they are). Written out, without :meth:`Token.of`: a game the parser reads is made of
    many tokens, and each call would cost."""
    ours = []
    for item in items:
        if type(item) is not Variation:
            token = _new_str(Token, item)
            token.type, token.start_pos = item.type, item.start_pos
            token.line, token.column = item.line, item.column
            item = token
        ours.append(item)
    return ours


def _collector() -> Any:
    """The transformer that runs inside the LALR parser: ``start`` gets the items of a game in
    text order, each token in pdn's class (a class made here: it derives from lark's)."""
    from lark import Transformer

    class Collect(Transformer[Any, Any]):
        def start(self, children: list[Any]) -> list[Any]:
            return _ours(children)

        def variation(self, children: list[Any]) -> Variation:
            return Variation(_ours(children))

    return Collect()


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
    from lark import Lark  # here: only a game that needs the parser loads lark

    options: dict[str, Any] = {
        "parser": "lalr",
        "lexer": "contextual",
        "start": ["start", "pieces"],
        "transformer": _collector(),
        "maybe_placeholders": False,
    }
    target = cache_file(text)
    if target is None:
        return Lark(text, **options)
    # Lark reads the file back only if its first line is the digest of this grammar, these
    # options and its own version, and rebuilds (rewriting the file) when it is not or when the
    # file is damaged, e.g. half-written by another process starting at the same moment.
    return Lark(text, cache=str(target), **options)


def cache_folder() -> Path | None:
    """The folder the grammar's caches are kept in, or ``None`` for no cache.

    ``$PDN_CACHE_DIR`` if set (empty: no cache), else ``$XDG_CACHE_HOME/pdn`` or
    ``~/.cache/pdn``. A folder that cannot be made or is not the user's own (the LALR tables
    are a pickle, and are only ever read from a private folder) means no cache.
    """
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
    return folder


def cache_file(text: str | None = None) -> Path | None:
    """Where the parse tables of the grammar ``text`` are cached, or ``None`` for no cache
    (see :func:`cache_folder`); the name carries a digest of the grammar, so versions never
    collide."""
    import hashlib  # here: it loads OpenSSL, which only the parser's cache needs

    text = grammar_text() if text is None else text
    folder = cache_folder()
    if folder is None:
        return None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return folder / f"grammar-{digest}.lark-cache"


#: The terminals :class:`Patterns` is built from.
TERMINALS = (
    "NUMBER",
    "MOVE",
    "TAG",
    "TAGS",
    "BADTAG",
    "RESULT",
    "STRENGTH",
    "STAR",
    "NAG",
    "SETUP",
    "LPAR",
    "JUNKWORD",
    "MOVES",
)
# The first line of a file of terminals; another layout would get another.
_TERMINALS_FORMAT = "pdn grammar terminals 1"


def terminals() -> dict[str, str]:
    """The regular expression of each terminal of :data:`TERMINALS`, as Lark compiles them
    from the grammar.

    Read back from the cache folder when that file was written for this very grammar and this
    install of Lark (its path, size and time: another version of it could write a terminal
    otherwise), so that a run which never needs the parser never loads Lark; else taken from
    the parser and written there for later runs.
    """
    text = grammar_text()
    folder = cache_folder()
    identity = _lark_identity()
    if folder is None or identity is None:
        return _terminals_of(parser())
    # The name tells grammars apart; the file holds the whole grammar it is for.
    target = folder / f"grammar-{zlib.crc32(text.encode('utf-8')):08x}.terminals"
    key = [_TERMINALS_FORMAT, _escaped(identity), _escaped(text)]
    found = _read_terminals(target, key)
    if found is None:
        found = _terminals_of(parser())
        _keep(target, [*key, *(f"{name}\t{_escaped(found[name])}" for name in TERMINALS)])
    return found


def _terminals_of(built: Lark) -> dict[str, str]:
    return {name: str(built.get_terminal(name).pattern.to_regexp()) for name in TERMINALS}


def _lark_identity() -> str | None:
    """What tells this install of Lark from any other: the path, size and modification time
    of its package's first file (``None`` when Lark cannot be found without loading it)."""
    from importlib.util import find_spec

    try:
        spec = find_spec("lark")
        origin = None if spec is None else spec.origin
        if origin is None:
            return None
        info = os.stat(origin)
    except (ImportError, ValueError, OSError):
        return None
    return f"{origin} {info.st_size} {info.st_mtime_ns}"


def _escaped(text: str) -> str:
    """``text`` on one line of ASCII, every character kept (:func:`_unescaped` reverses it)."""
    return text.encode("unicode_escape").decode("ascii")


def _unescaped(line: str) -> str:
    return line.encode("ascii").decode("unicode_escape")


def _read_terminals(path: Path, key: list[str]) -> dict[str, str] | None:
    """The terminals of a file of them whose first lines are ``key``, else ``None`` (no such
    file, another grammar or Lark, a damaged file)."""
    try:
        lines = path.read_text(encoding="ascii").split("\n")
        if lines[: len(key)] != key:
            return None
        found = {}
        for line in lines[len(key) :]:
            if line:
                name, _, pattern = line.partition("\t")
                found[name] = _unescaped(pattern)
    except (OSError, ValueError):  # (a byte that is not ASCII, an escape cut short)
        return None
    return found if sorted(found) == sorted(TERMINALS) else None


def _keep(path: Path, lines: list[str]) -> None:
    """Write ``lines`` to ``path`` whole or not at all (another process may read it meanwhile);
    a cache that cannot be written is no error."""
    scratch = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        scratch.write_text("\n".join(lines) + "\n", encoding="ascii")
        os.replace(scratch, path)
    except OSError:
        with contextlib.suppress(OSError):
            scratch.unlink()


class Patterns:
    """Regular expressions built from the grammar's own terminals, each compiled when first
    used, then kept: compiling them all costs more than reading a small file, which needs few.
    """

    def __init__(self) -> None:
        #: The regular expression of each terminal (:func:`terminals`), as text.
        self.terminal = terminals()
        self._run_words: set[str] = set()

    @functools.cached_property
    def split(self) -> re.Pattern[str]:
        """One match per move: its number (if any) and the move, or a number with no move."""
        number, move = self.terminal["NUMBER"], self.terminal["MOVE"]
        return re.compile(f"(?:({number})\\s*)?({move})|({number})")

    @functools.cached_property
    def tag(self) -> re.Pattern[str]:
        """A tag pair (the TAG terminal)."""
        return re.compile(self.terminal["TAG"])

    @functools.cached_property
    def tags(self) -> re.Pattern[str]:
        """Tag pairs in a row, with the white space after them (TAGS)."""
        return re.compile(self.terminal["TAGS"])

    @functools.cached_property
    def badtag(self) -> re.Pattern[str]:
        """A bracket that is not a tag pair (BADTAG)."""
        return re.compile(self.terminal["BADTAG"])

    @functools.cached_property
    def result(self) -> re.Pattern[str]:
        """A result (RESULT)."""
        return re.compile(self.terminal["RESULT"])

    @functools.cached_property
    def lead(self) -> re.Pattern[str]:
        """What starts the movetext (only the first piece is needed to know that it starts)."""
        names = ("NUMBER", "MOVE", "STRENGTH", "STAR", "NAG", "SETUP", "LPAR")
        return re.compile("|".join(self.terminal[name] for name in names))

    @functools.cached_property
    def junk(self) -> re.Pattern[str]:
        """A word that is no PDN (JUNKWORD; the JUNK token is a run of them)."""
        return re.compile(self.terminal["JUNKWORD"])

    @functools.cached_property
    def simple(self) -> re.Pattern[str]:
        """The shape of most games of a large archive: tag pairs, one run of plain moves, the
        result.  Such a game is lexed with the grammar's own terminals, without the parser
        (whose set-up per game costs more than lexing it)."""
        tags, moves, result = (self.terminal[name] for name in ("TAGS", "MOVES", "RESULT"))
        return re.compile(f"({tags})?({moves})({result})?\\s*\\Z")

    @functools.cached_property
    def _moves(self) -> re.Pattern[str]:
        return re.compile(self.terminal["MOVES"])

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
