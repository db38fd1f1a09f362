"""pdn: read, check, convert and study draughts and checkers game records (PDN).

>>> import pdn
>>> game = pdn.read_game("1. 11-15 23-19 2. 15-11 *")
>>> [p.code for p in pdn.validate(game).problems]
['backward-man']

``pdn.validate`` is the function; the module that holds it (with ``Report`` and ``Step``) is
``pdn.validate`` in ``sys.modules``, imported as ``from pdn.validate import Report``.
"""

from pdn import engine
from pdn.model import Comment, Game, Node, Tags
from pdn.problems import CODES, Problem
from pdn.reader import read_game, read_games, split_games
from pdn.validate import Report, validate
from pdn.writer import write_game

__all__ = [
    "CODES",
    "Comment",
    "Game",
    "Node",
    "Problem",
    "Report",
    "Tags",
    "engine",
    "read_game",
    "read_games",
    "split_games",
    "validate",
    "write_game",
]
