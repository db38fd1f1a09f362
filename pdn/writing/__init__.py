"""Games to text: PDN, JSON, diagrams, exports, conversions and annotations.
Imports rules and below.

Its public modules are named in ``__all__`` (imported when asked for, so that
importing the package costs nothing); the others are internal (``docs/api.md``).
"""

__all__ = ["annotate", "convert", "diagram", "export", "jsonio", "stripping", "writer"]
