"""Whole collections: inputs, the process pool, verdicts, fixing, in-place rewrites,
selection, duplicates and splitting. Imports writing and below.

Its public modules are named in ``__all__`` (imported when asked for, so that
importing the package costs nothing); the others are internal (``docs/api.md``).
"""

__all__ = ["batch", "duplicates", "fixing", "inplace", "selection", "splitting"]
