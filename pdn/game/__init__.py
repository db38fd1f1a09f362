"""The game model read from PDN: tags, moves, comments, variations; the visitor that
walks it; game types. Imports text and the engine.

Its public modules are named in ``__all__`` (imported when asked for, so that
importing the package costs nothing); the others are internal (``docs/api.md``).
"""

__all__ = ["excerpts", "gametype", "model", "visitor"]
