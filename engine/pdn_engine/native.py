"""The accelerated build's flag and the engine's code that differs between the two builds.

:data:`COMPILED` (from :mod:`pdn_engine.build`) tells whether the engine runs as code compiled
by mypyc (pdn's accelerated build; see ``docs/design.md``, "The accelerated build") or as
source. The only code that takes a different way in each build
is here: the fast constructors of the two records a replay makes on every ply,
:func:`new_move` and :func:`next_position`. Compiled, their slots are stored directly (a native
store, which the frozen dataclass's own ``__init__`` would make through ``object.__setattr__``,
five times slower); as source, through the slots' own setters (``__init__`` is twice as slow).
"""

from __future__ import annotations

from .build import COMPILED
from .movegen import Move
from .variants import Color, Variant

__all__ = ["COMPILED", "new_move", "next_position"]


_new = object.__new__
_TURNS = (Color.WHITE, Color.BLACK)  # the opponent of side 0 (Black), of side 1 (White)
# The slots' own setters, for the pure build.
_SET_MOVE = (
    ()
    if COMPILED
    else tuple(getattr(Move, name).__set__ for name in ("path", "captures", "king", "crowns"))
)


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
    move: Move = _new(Move)
    set_path, set_captures, set_king, set_crowns = _SET_MOVE
    set_path(move, path)
    set_captures(move, captures)
    set_king(move, king)
    set_crowns(move, crowns)
    return move


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
    position: Position = _new(Position)
    set_variant, set_turn, set_black, set_white, set_kings, set_king_moves = _SET_POSITION
    set_variant(position, variant)
    set_turn(position, _TURNS[mover])
    set_black(position, black)
    set_white(position, white)
    set_kings(position, kings)
    set_king_moves(position, king_moves)
    return position


# Position's methods make positions and moves with the functions above, so the two modules
# import each other; each does it below what the other needs of it (here: the functions;
# there: the class), so that either may be imported first.
from .position import Position  # noqa: E402

_SET_POSITION = (
    ()
    if COMPILED
    else tuple(
        getattr(Position, name).__set__
        for name in ("variant", "turn", "black", "white", "kings", "king_moves")
    )
)
