"""The rules engine, by its public path: ``pdn.engine`` holds the public names of
:mod:`pdn_engine` (variants, positions, legal moves, perft, diagnosis), which knows nothing of
PDN text.

The engine is a package of its own (``engine/pdn_engine`` in a checkout), so that it installs
and imports the same way from a wheel and from a clone; this module only names it under
``pdn``. Its names are looked up on first use, as the engine's own are (the command line needs
the variants at start-up, not the move generator).

>>> from pdn.engine import ENGLISH, Position, perft
>>> perft(Position.start(ENGLISH), 4)
1469
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pdn_engine
from pdn_engine import __all__ as __all__

if TYPE_CHECKING:
    from pdn_engine import *  # noqa: F403


def __getattr__(name: str) -> Any:
    """A public name of the engine, looked up when first asked for (then kept here)."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(pdn_engine, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
