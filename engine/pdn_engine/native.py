"""The accelerated build's flag and the way the engine makes its records fast in each build.

:data:`COMPILED` (from :mod:`pdn_engine.build`) tells whether the engine runs as code compiled
by mypyc (pdn's accelerated build; see ``docs/design.md``, "The accelerated build") or as
source. The code that takes a different way in each build is the fast constructors of the two
records a replay makes on every ply: :func:`new_move` here and
:func:`~pdn_engine.position.next_position` beside its class. Compiled, their slots are stored
directly (a native store, which the frozen dataclass's own ``__init__`` would make through
``object.__setattr__``, five times slower); as source, on a plain :func:`twin` of the record's
class, which then becomes the record (a class assignment, allowed between classes of the same
slots: 240 against 370 ns through the slots' own setters, and ``__init__`` is slower still).
"""

from __future__ import annotations

from typing import Any

from .build import COMPILED
from .movegen import Move

__all__ = ["COMPILED", "new_move", "twin"]


def twin(record: type) -> Any:
    """A plain class with the slots of a frozen record (pure build): an instance, its slots
    set by plain stores, then given the record's class, is the record made without its
    ``__init__`` (which stores each field through ``object.__setattr__``)."""
    twin = type(f"_{record.__name__}Twin", (), {"__slots__": vars(record)["__slots__"]})
    twin().__class__ = record  # TypeError here if the layouts ever stop matching
    return twin


_MOVE_TWIN: Any = None if COMPILED else twin(Move)


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
