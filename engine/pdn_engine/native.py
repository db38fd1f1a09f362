"""The accelerated build's flag and the engine's code that differs between the two builds.

:data:`COMPILED` (from :mod:`pdn_engine.build`) tells whether the engine runs as code compiled
by mypyc (pdn's accelerated build; see ``docs/design.md``, "The accelerated build") or as
source. The only code that takes a different way in each build
is here: the fast constructors of the two records a replay makes on every ply,
:func:`new_move` and :func:`next_position`. Compiled, their slots are stored directly (a native
store, which the frozen dataclass's own ``__init__`` would make through ``object.__setattr__``,
five times slower); as source, on a plain twin of the record's class, which then becomes the
record (a class assignment, allowed between classes of the same slots: 240 against 370 ns
through the slots' own setters, and ``__init__`` is slower still).
"""

from __future__ import annotations

from typing import Any

from .build import COMPILED
from .movegen import Move
from .variants import Color, Variant

__all__ = ["COMPILED", "new_move", "next_position"]


_TURNS = (Color.WHITE, Color.BLACK)  # the opponent of side 0 (Black), of side 1 (White)


def _twin(record: type) -> Any:
    """A plain class with the slots of a frozen record (pure build): an instance, its slots
    set by plain stores, then given the record's class, is the record made without its
    ``__init__`` (which stores each field through ``object.__setattr__``)."""
    twin = type(f"_{record.__name__}Twin", (), {"__slots__": vars(record)["__slots__"]})
    twin().__class__ = record  # TypeError here if the layouts ever stop matching
    return twin


_MOVE_TWIN: Any = None if COMPILED else _twin(Move)


def new_move(path: tuple[int, ...], captures: tuple[int, ...], king: bool, crowns: bool) -> Move:
    """``Move(path, captures, king, crowns)``, made faster (for the replay's hot paths).

    >>> new_move((9, 18, 27), (14, 23), False, False) == Move((9, 18, 27), (14, 23))
    True
    """
    if COMPILED:
        made = Move.__new__(Move)
        made.path = path  # type: ignore[misc]  # a frozen record's fields, set once, here
        made.captures = captures  # type: ignore[misc]
        made.king = king  # type: ignore[misc]
        made.crowns = crowns  # type: ignore[misc]
        return made
    move: Any = _MOVE_TWIN()
    move.path = path
    move.captures = captures
    move.king = king
    move.crowns = crowns
    move.__class__ = Move
    made_move: Move = move
    return made_move


def next_position(
    variant: Variant,
    mover: int,
    black: int,
    white: int,
    kings: int,
    king_moves: tuple[int, int, int, int],
) -> Position:
    """The position after a move of ``mover`` (``0`` Black, ``1`` White), from its bitboards:
    the same :class:`~.position.Position` the constructor makes, made faster (for the replay's
    hot paths).
    """
    if COMPILED:
        made = Position.__new__(Position)
        made.variant = variant  # type: ignore[misc]  # a frozen record's fields, set once, here
        made.turn = _TURNS[mover]  # type: ignore[misc]
        made.black = black  # type: ignore[misc]
        made.white = white  # type: ignore[misc]
        made.kings = kings  # type: ignore[misc]
        made.king_moves = king_moves  # type: ignore[misc]
        return made
    position: Any = _POSITION_TWIN()
    position.variant = variant
    position.turn = _TURNS[mover]
    position.black = black
    position.white = white
    position.kings = kings
    position.king_moves = king_moves
    position.__class__ = Position
    made_position: Position = position
    return made_position


# Position's methods make positions and moves with the functions above, so the two modules
# import each other; each does it below what the other needs of it (here: the functions;
# there: the class), so that either may be imported first.
from .position import Position  # noqa: E402

_POSITION_TWIN: Any = None if COMPILED else _twin(Position)
