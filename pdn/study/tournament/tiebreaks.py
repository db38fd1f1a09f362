"""The tie-breaks that order players equal on points: what each one is, and the order chosen.

Standings are ordered by points, then by each tie-break in the order given (``pdn report
--tiebreaks``, ``iter_reports(tiebreaks=...)``), then by name (so the order is always the same);
players equal on points and on every tie-break share a rank. By default the order is points,
Sonneborn-Berger, wins. Every value is computed from the scored games of the event:

* ``sb``, Sonneborn-Berger: the sum over opponents of the points scored against that opponent
  times that opponent's total points (the usual tie-break of a round robin);
* ``buchholz`` (also called Solkoff): the sum of the points of the opponent of each game (an
  opponent met twice counts twice);
* ``median-buchholz``: Buchholz without the highest and the lowest of those points, when there
  are at least three games;
* ``truncated-solkoff``: Buchholz without the lowest of those points (its "cut 1"), when there
  are at least two games; FMJD Swiss events announce "Swiss system on truncated Solkoff" (e.g.
  the Rotterdam World Cup, ``docs/design.md`` cites it);
* ``wins``: the number of games won;
* ``delft``: the points of Delft scoring, as Dutch events use it (:mod:`pdn.study.tournament.delft`:
  4-0 a win, 2-2 a draw, 3-1 a draw with three pieces or more ahead in the final position, a
  king counting two); it needs each drawn game's final position, which ``pdn report`` replays,
  and the report says which draws scored 3-1 and which were scored 2-2 for want of one.

>>> parse_tiebreaks("SB, buchholz,wins")
('sb', 'buchholz', 'wins')
>>> order_text(DEFAULT_TIEBREAKS)
'points, Sonneborn-Berger, wins, name'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """One tie-break: its ``name`` (as ``--tiebreaks`` takes it), its ``title`` in sentences,
    the ``column`` a table shows it in, and the :class:`~pdn.study.tournament.StandingRow` ``field``
    that holds its value."""

    name: str
    title: str
    column: str
    field: str


#: Every tie-break, by name.
TIEBREAKS: dict[str, Tiebreak] = {
    tb.name: tb
    for tb in (
        Tiebreak("sb", "Sonneborn-Berger", "SB", "sonneborn_berger"),
        Tiebreak("buchholz", "Buchholz", "Buch", "buchholz"),
        Tiebreak("median-buchholz", "median Buchholz", "MBuch", "median_buchholz"),
        Tiebreak("truncated-solkoff", "truncated Solkoff", "TSolk", "truncated_solkoff"),
        Tiebreak("wins", "wins", "W", "wins"),
        Tiebreak("delft", "Delft points", "Delft", "delft"),
    )
}

#: Other names each tie-break goes by.
_ALIASES = {
    "sonneborn-berger": "sb",
    "solkoff": "buchholz",
    "median": "median-buchholz",
    "solkoff-cut1": "truncated-solkoff",
    "buchholz-cut1": "truncated-solkoff",
    "cut1": "truncated-solkoff",
    "delft-scoring": "delft",
    "volmac": "delft",
}

#: The order used when none is chosen.
DEFAULT_TIEBREAKS: tuple[str, ...] = ("sb", "wins")


def parse_tiebreaks(text: str) -> tuple[str, ...]:
    """The tie-breaks named in ``text`` (comma-separated, any case, aliases allowed), in
    order; ``ValueError`` names an unknown or repeated one.

    >>> parse_tiebreaks("Delft, sb")
    ('delft', 'sb')
    """
    known = ", ".join(TIEBREAKS)
    chosen: list[str] = []
    for word in text.split(","):
        name = word.strip().lower().replace("_", "-").replace(" ", "-")
        name = _ALIASES.get(name, name)
        if name not in TIEBREAKS:
            raise ValueError(f"unknown tie-break {word.strip()!r}: choose among {known}")
        if name in chosen:
            raise ValueError(f"tie-break {name!r} is named twice")
        chosen.append(name)
    return tuple(chosen)


def order_text(tiebreaks: Sequence[str]) -> str:
    """The order of the standings in words, first criterion first."""
    return ", ".join(["points", *(TIEBREAKS[name].title for name in tiebreaks), "name"])
