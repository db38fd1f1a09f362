"""Text and files at the lowest level: bytes to text, the facts PDN text names
(problems, results, square notation, player names) and safe output. Imports only the engine.

Its public modules are named in ``__all__`` (imported when asked for, so that
importing the package costs nothing); the others are internal (``docs/api.md``).
"""

__all__ = ["names", "notation", "problems", "results"]
