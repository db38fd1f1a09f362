"""PDN text to games: the grammar, cutting a file into games, the parser and the
builders. Imports game and text.

Its public modules are named in ``__all__`` (imported when asked for, so that
importing the package costs nothing); the others are internal (``docs/api.md``).
"""

__all__ = ["builder", "cutting", "parsing", "reader", "recording"]
