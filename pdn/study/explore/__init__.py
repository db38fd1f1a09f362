"""The opening explorer: the tree of positions of a collection, its lines, and its
rendering. Part of the study layer.

Its public modules are named in ``__all__`` (imported when asked for, so that
importing the package costs nothing); the others are internal (``docs/api.md``).
"""

__all__ = ["lines", "render", "tree"]
