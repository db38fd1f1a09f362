"""pdn: read, check and write draughts and checkers game records (Portable Draughts Notation)."""

from pdn.model import Comment, Game, Node, Tags
from pdn.problems import Problem
from pdn.reader import read_game, read_games
from pdn.writer import write_game

__all__ = [
    "Comment",
    "Game",
    "Node",
    "Problem",
    "Tags",
    "read_game",
    "read_games",
    "write_game",
]
