"""Studying collections: the opening explorer, novelties, tournament reports, and
engines (search, Hub, matches, analysis, endgame tables). Imports collections and below.

Its public modules are named in ``__all__`` (imported when asked for, so that
importing the package costs nothing); the others are internal (``docs/api.md``).
"""

__all__ = ["explore", "novelty", "play", "tournament"]
