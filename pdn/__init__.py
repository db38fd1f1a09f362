"""pdn: read, check, convert and study draughts and checkers game records (PDN).

>>> import pdn
>>> game = pdn.parse_game("1. 11-15 23-19 2. 15-11 *")
>>> [p.code for p in pdn.validate(game).problems]
['backward-man']

Reading: :func:`read_games` (a path or an open file), :func:`read_game` (one game from an open
file), :func:`parse_games` / :func:`parse_game` (PDN in a string), :func:`read_headers` (tags
only).  Writing: :func:`write_game`, :func:`write_games`.  Checking: :func:`validate` (its
report is :class:`Report`).  The rules engine is :mod:`pdn.engine`; every walk over a game is a
:class:`GameVisitor`. The engine's analysis of games is :mod:`pdn.study.play.analysis`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pdn import moved as _moved

if TYPE_CHECKING:
    from pdn import engine
    from pdn.game.model import Comment, Game, Node, Tags
    from pdn.game.visitor import SKIP, GameVisitor, HeadersOnly
    from pdn.reading.builder import GameBuilder
    from pdn.reading.cutting import RawGame
    from pdn.reading.parsing import accept_raw
    from pdn.reading.reader import (
        parse_game,
        parse_games,
        parse_raw,
        read_game,
        read_games,
        read_headers,
        split_games,
    )
    from pdn.rules.validation import Report, validate
    from pdn.study import novelty
    from pdn.study.explore import tree as explorer
    from pdn.study.play import analysis
    from pdn.text.problems import CODES, Problem
    from pdn.writing.writer import PdnWriter, write_game, write_games

    __version__: str

# Imported on first use (PEP 562), so that ``pdn --help`` or one small file does not pay for
# the grammar, the engine and every writer: each public name and the module that defines it.
_HOMES = {
    "analysis": "pdn.study.play.analysis",
    "engine": "pdn.engine",
    "explorer": "pdn.study.explore.tree",
    "novelty": "pdn.study.novelty",
    "GameBuilder": "pdn.reading.builder",
    "RawGame": "pdn.reading.cutting",
    "Comment": "pdn.game.model",
    "Game": "pdn.game.model",
    "Node": "pdn.game.model",
    "Tags": "pdn.game.model",
    "accept_raw": "pdn.reading.parsing",
    "CODES": "pdn.text.problems",
    "Problem": "pdn.text.problems",
    "parse_game": "pdn.reading.reader",
    "parse_games": "pdn.reading.reader",
    "parse_raw": "pdn.reading.reader",
    "read_game": "pdn.reading.reader",
    "read_games": "pdn.reading.reader",
    "read_headers": "pdn.reading.reader",
    "split_games": "pdn.reading.reader",
    "Report": "pdn.rules.validation",
    "validate": "pdn.rules.validation",
    "SKIP": "pdn.game.visitor",
    "GameVisitor": "pdn.game.visitor",
    "HeadersOnly": "pdn.game.visitor",
    "PdnWriter": "pdn.writing.writer",
    "write_game": "pdn.writing.writer",
    "write_games": "pdn.writing.writer",
}


#: The modules among the public names (``pdn.study.play.analysis``, ``pdn.engine``,
# ``pdn.study.explore.tree``,
#: ``pdn.study.novelty``).
_moved.install()  # the module paths before the subpackages, for a release

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
