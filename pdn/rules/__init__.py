"""Replaying a game under its rules: the replay, its record (Report), the choice of
rules, draw rules and openings. Imports reading and below.

Its public modules are named in ``__all__`` (imported when asked for, so that
importing the package costs nothing); the others are internal (``docs/api.md``).
"""

__all__ = ["draws", "openings", "replays", "validation"]
