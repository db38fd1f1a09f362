"""What a browser shows: the game viewer and the explorer page, with their scripts and
styles. Imports every layer below the command line.

Its public modules are named in ``__all__`` (imported when asked for, so that
importing the package costs nothing); the others are internal (``docs/api.md``).
"""

__all__ = ["explorer_page", "viewer"]
