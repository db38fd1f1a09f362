"""pdn: read, check, convert and study draughts and checkers game records (PDN).

>>> import pdn
>>> game = pdn.parse_game("1. 11-15 23-19 2. 15-11 *")
>>> [p.code for p in pdn.validate(game).problems]
['backward-man']

Reading: :func:`read_games` (a path or an open file), :func:`read_game` (one game from an open
file), :func:`parse_games` / :func:`parse_game` (PDN in a string), :func:`read_headers` (tags
only).  Writing: :func:`write_game`, :func:`write_games`.  Checking: :func:`validate` (its
report is :class:`Report`).  The rules engine is :mod:`pdn.engine`; every walk over a game is a
:class:`GameVisitor`.
"""

from importlib.metadata import PackageNotFoundError, version

from pdn import engine
from pdn.builder import GameBuilder
from pdn.cutting import RawGame
from pdn.model import Comment, Game, Node, Tags
from pdn.problems import CODES, Problem
from pdn.reader import (
    parse_game,
    parse_games,
    read_game,
    read_games,
    read_headers,
    split_games,
)
from pdn.validation import Report, validate
from pdn.visitor import SKIP, GameVisitor, HeadersOnly
from pdn.writer import PdnWriter, write_game, write_games

try:
    __version__ = version("pdn")
except PackageNotFoundError:  # running from a checkout that is not installed
    __version__ = "0+unknown"

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
    "engine",
    "parse_game",
    "parse_games",
    "read_game",
    "read_games",
    "read_headers",
    "split_games",
    "validate",
    "write_game",
    "write_games",
]
