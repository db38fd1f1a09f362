"""Rules engine for draughts and checkers: variants, positions, legal moves, perft, diagnosis.

``engine`` knows nothing of PDN text; the ``pdn`` package builds on it.

>>> from pdn.engine import ENGLISH, Position, perft
>>> perft(Position.start(ENGLISH), 4)
1469
"""

from .board import Board, board_for
from .diagnose import Diagnosis, Fault, diagnose
from .fen import FenError
from .movegen import Move, perft
from .picture import svg_diagram
from .position import Piece, Position, parse_fen
from .variants import (
    BRAZILIAN,
    CANADIAN,
    CZECH,
    ENGLISH,
    FRISIAN,
    INTERNATIONAL,
    ITALIAN,
    POOL,
    RUSSIAN,
    SPANISH,
    THAI,
    TURKISH,
    VARIANTS,
    Color,
    Variant,
    get_variant,
    variant_for_game_type,
)

__all__ = [
    "BRAZILIAN",
    "CANADIAN",
    "CZECH",
    "ENGLISH",
    "FRISIAN",
    "INTERNATIONAL",
    "ITALIAN",
    "POOL",
    "RUSSIAN",
    "SPANISH",
    "THAI",
    "TURKISH",
    "VARIANTS",
    "Board",
    "Color",
    "Diagnosis",
    "Fault",
    "FenError",
    "Move",
    "Piece",
    "Position",
    "Variant",
    "board_for",
    "diagnose",
    "get_variant",
    "parse_fen",
    "perft",
    "svg_diagram",
    "variant_for_game_type",
]
