"""The Elo difference a match's score says, with its 95% interval.

A score fraction ``p`` (wins and half the draws, over the games) is the logistic expectation
of a rating difference ``D``: ``p = 1 / (1 + 10 ** (-D / 400))``, so ``D = -400 log10(1/p -
1)``. The interval is the score's: ``p ± 1.96 s / sqrt(n)``, where ``s`` is the standard
deviation of the ``n`` game scores (1, 1/2, 0) about ``p``, each bound taken through the same
formula (as cutechess-cli and others report it). A score of all wins or all losses says no
finite difference: ``inf`` and ``-inf``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["EloDifference", "elo_difference", "elo_of_score"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def elo_of_score(p: float) -> float:
    """The rating difference whose logistic expectation is the score fraction ``p``.

    >>> round(elo_of_score(0.75), 1), elo_of_score(0.5), elo_of_score(1.0)
    (190.8, 0.0, inf)
    """
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1) + 0.0  # never -0.0


@dataclass(frozen=True, slots=True)
class EloDifference:
    """The difference of the first player over the second, and the bounds of its 95%
    interval, in Elo points, from ``games`` games."""

    games: int
    score: float
    elo: float
    low: float
    high: float

    def text(self) -> str:
        """The difference as one line says it: ``+147 (95%: -33 to +504) over 10 games``."""

        def points(value: float) -> str:
            return f"{value:+.0f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")

        return (
            f"{points(self.elo)} (95%: {points(self.low)} to {points(self.high)}) "
            f"over {self.games} games"
        )


def elo_difference(wins: int, draws: int, losses: int) -> EloDifference:
    """The Elo difference of a player who scored ``wins``, ``draws`` and ``losses`` against
    the other, with its 95% interval (the formula in the module's docstring).

    >>> elo_difference(6, 2, 2).text()
    '+147 (95%: -33 to +504) over 10 games'
    """
    games = wins + draws + losses
    if games == 0:
        raise ValueError("no games: no Elo difference")
    p = (wins + draws / 2) / games
    variance = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / games
    half = Z95 * math.sqrt(variance / games)
    return EloDifference(games, p, elo_of_score(p), elo_of_score(p - half), elo_of_score(p + half))
