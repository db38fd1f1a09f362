"""Which build of pdn runs: :data:`COMPILED`, the one flag every module reads.

Alone in a module of its own, so that asking it (the reader's node loop does, on every file)
loads nothing of the move generator.
"""

from __future__ import annotations

__all__ = ["COMPILED"]

#: Whether the engine runs as code compiled by mypyc (pdn's accelerated build, which compiles
#: every module of its list together, this one among them: a compiled module's file is not a
#: ``.py``), or as source.
COMPILED: bool = not __file__.endswith(".py")
