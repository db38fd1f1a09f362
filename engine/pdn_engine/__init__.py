"""Rules engine for draughts and checkers: variants, positions, legal moves, perft, diagnosis,
search.

``pdn_engine`` knows nothing of PDN text; the ``pdn`` package builds on it, and names it
``pdn.engine`` for its users.

>>> from pdn.engine import ENGLISH, Position, perft
>>> perft(Position.start(ENGLISH), 4)
1469
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .board import Board, board_for, square_name
    from .build import COMPILED
    from .diagnose import Diagnosis, Fault, diagnose
    from .endgame import (
        EndgameTables,
        Material,
        Probe,
        TableStats,
        build_tables,
        materials_up_to,
        positions_to_build,
    )
    from .fen import FenError
    from .history import History
    from .lookup import MoveLookup, Played, Written
    from .movegen import CAPTURE_SEPARATORS, Move, move_text
    from .perft import perft
    from .pickling import pickle_by_fields
    from .picture import changes, letters, svg_diagram, xml_text
    from .position import IllegalMoveError, Piece, Position, parse_fen
    from .search import (
        MAX_DEPTH,
        Found,
        Prober,
        Search,
        Weights,
        evaluate,
        minimax,
        search,
        weights_for,
    )
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
        same_board,
        variant_for_game_type,
    )

# Imported on first use (PEP 562): the command line needs the variants' names at start-up,
# not the move generator. Each public name and the module that defines it.
_HOMES = {
    **dict.fromkeys(("Board", "board_for", "square_name"), ".board"),
    **dict.fromkeys(("Diagnosis", "Fault", "diagnose"), ".diagnose"),
    "FenError": ".fen",
    "History": ".history",
    **dict.fromkeys(
        (
            "EndgameTables",
            "Material",
            "Probe",
            "TableStats",
            "build_tables",
            "materials_up_to",
            "positions_to_build",
        ),
        ".endgame",
    ),
    **dict.fromkeys(("MoveLookup", "Played", "Written"), ".lookup"),
    **dict.fromkeys(("CAPTURE_SEPARATORS", "Move", "move_text"), ".movegen"),
    "COMPILED": ".build",
    "perft": ".perft",
    "pickle_by_fields": ".pickling",
    **dict.fromkeys(("changes", "letters", "svg_diagram", "xml_text"), ".picture"),
    **dict.fromkeys(("IllegalMoveError", "Piece", "Position", "parse_fen"), ".position"),
    **dict.fromkeys(
        (
            "MAX_DEPTH",
            "Found",
            "Prober",
            "Search",
            "Weights",
            "evaluate",
            "minimax",
            "search",
            "weights_for",
        ),
        ".search",
    ),
}

#: The public functions named as the module that defines them.
_SAME_NAMES = frozenset(("diagnose", "perft", "search"))


def __getattr__(name: str) -> Any:
    """The public names, imported when first asked for (then kept as plain attributes)."""
    home = _HOMES.get(name)
    if home is None:
        if name not in __all__:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        home = ".variants"
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """This package's module type: the functions ``diagnose`` and ``perft`` keep their names.

    Importing a submodule binds it on its package (``pdn.engine.diagnose = <module>``); with
    names imported on first use, whichever came first would win, so importing the module
    ``.diagnose`` could hide the function. The submodule stays in ``sys.modules``.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SAME_NAMES and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__all__ = [
    "BRAZILIAN",
    "CANADIAN",
    "CAPTURE_SEPARATORS",
    "COMPILED",
    "CZECH",
    "ENGLISH",
    "FRISIAN",
    "INTERNATIONAL",
    "ITALIAN",
    "MAX_DEPTH",
    "POOL",
    "RUSSIAN",
    "SPANISH",
    "THAI",
    "TURKISH",
    "VARIANTS",
    "Board",
    "Color",
    "Diagnosis",
    "EndgameTables",
    "Fault",
    "FenError",
    "Found",
    "History",
    "IllegalMoveError",
    "Material",
    "Move",
    "MoveLookup",
    "Piece",
    "Played",
    "Position",
    "Probe",
    "Prober",
    "Search",
    "TableStats",
    "Variant",
    "Weights",
    "Written",
    "board_for",
    "build_tables",
    "changes",
    "diagnose",
    "evaluate",
    "get_variant",
    "letters",
    "materials_up_to",
    "minimax",
    "move_text",
    "parse_fen",
    "perft",
    "pickle_by_fields",
    "positions_to_build",
    "same_board",
    "search",
    "square_name",
    "svg_diagram",
    "variant_for_game_type",
    "weights_for",
    "xml_text",
]
