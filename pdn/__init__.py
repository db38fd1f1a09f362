"""pdn: read, check, convert and study draughts and checkers game records (PDN).

>>> import pdn
>>> game = pdn.parse_game("1. 11-15 23-19 2. 15-11 *")
>>> [p.code for p in pdn.validate(game).problems]
['backward-man']

Reading: :func:`read_games` (a path or an open file), :func:`read_game` (one game from an open
file), :func:`parse_games` / :func:`parse_game` (PDN in a string), :func:`read_headers` (tags
only).  Writing: :func:`write_game`, :func:`write_games`.  Checking: :func:`validate` (its
report is :class:`Report`).  The rules engine is :mod:`pdn.engine`; every walk over a game is a
:class:`GameVisitor`. The engine's analysis of games is :mod:`pdn.analysis`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pdn import analysis, engine, explorer, novelty
    from pdn.builder import GameBuilder
    from pdn.cutting import RawGame
    from pdn.model import Comment, Game, Node, Tags
    from pdn.parsing import accept_raw
    from pdn.problems import CODES, Problem
    from pdn.reader import (
        parse_game,
        parse_games,
        parse_raw,
        read_game,
        read_games,
        read_headers,
        split_games,
    )
    from pdn.validation import Report, validate
    from pdn.visitor import SKIP, GameVisitor, HeadersOnly
    from pdn.writer import PdnWriter, write_game, write_games

    __version__: str

# Imported on first use (PEP 562), so that ``pdn --help`` or one small file does not pay for
# the grammar, the engine and every writer: each public name and the module that defines it.
_HOMES = {
    "analysis": "pdn.analysis",
    "engine": "pdn.engine",
    "explorer": "pdn.explorer",
    "novelty": "pdn.novelty",
    "GameBuilder": "pdn.builder",
    "RawGame": "pdn.cutting",
    "Comment": "pdn.model",
    "Game": "pdn.model",
    "Node": "pdn.model",
    "Tags": "pdn.model",
    "accept_raw": "pdn.parsing",
    "CODES": "pdn.problems",
    "Problem": "pdn.problems",
    "parse_game": "pdn.reader",
    "parse_games": "pdn.reader",
    "parse_raw": "pdn.reader",
    "read_game": "pdn.reader",
    "read_games": "pdn.reader",
    "read_headers": "pdn.reader",
    "split_games": "pdn.reader",
    "Report": "pdn.validation",
    "validate": "pdn.validation",
    "SKIP": "pdn.visitor",
    "GameVisitor": "pdn.visitor",
    "HeadersOnly": "pdn.visitor",
    "PdnWriter": "pdn.writer",
    "write_game": "pdn.writer",
    "write_games": "pdn.writer",
}


#: The modules among the public names (``pdn.analysis``, ``pdn.engine``, ``pdn.explorer``,
#: ``pdn.novelty``).
_MODULES = {"analysis", "engine", "explorer", "novelty"}


def __getattr__(name: str) -> Any:
    """The public names, imported when first asked for (then kept as plain attributes)."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value: Any = version("pdn")
        except PackageNotFoundError:  # running from a checkout that is not installed
            value = "0+unknown"
    elif name in _HOMES:
        module = importlib.import_module(_HOMES[name])
        value = module if name in _MODULES else getattr(module, name)
    else:
        raise AttributeError(f"module 'pdn' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES, "__version__"})


__all__ = [
    "CODES",
    "SKIP",
    "Comment",
    "Game",
    "GameBuilder",
    "GameVisitor",
    "HeadersOnly",
    "Node",
    "PdnWriter",
    "Problem",
    "RawGame",
    "Report",
    "Tags",
    "__version__",
    "accept_raw",
    "analysis",
    "engine",
    "explorer",
    "novelty",
    "parse_game",
    "parse_games",
    "parse_raw",
    "read_game",
    "read_games",
    "read_headers",
    "split_games",
    "validate",
    "write_game",
    "write_games",
]
