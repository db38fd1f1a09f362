"""Engines: pdn's own search and outside Hub programs through one seam, matches (clocks,
ratings), analysis of games and endgame tables. Part of the study layer.

Its public modules are named in ``__all__`` (imported when asked for).
"""

__all__ = [
    "analysis",
    "analysis_record",
    "appraisal",
    "endgame",
    "engines",
    "evaluators",
    "hub",
    "judgement",
    "match",
]
