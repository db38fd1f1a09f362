"""Tournament reports built from game tags: standings, crosstables, rounds, colours, ballots.

Only the tags are read (``Event``, ``Site``, ``Date``, ``Round``, ``Black``, ``White``,
``Result``, ``GameType`` and, when present, ``Opening``), so a report can be made from a file
whose moves do not replay; the moves are looked at only for what the tags cannot say (who
moved first when no tag says it, the ballot, and with the ``delft`` tie-break a drawn game's
final position: :mod:`pdn.study.tournament.delft`).

The steps are kept apart so each can be used (and tested) on its own:

1. :func:`record_from_tags` / :func:`games_to_records` turn tags into :class:`GameRecord` s,
   naming the players as *first mover* and *second mover*. Which colour moves first depends on
   the variant (:func:`first_mover_colour`): Black in English checkers and American pool, White
   in International, Russian and most others. A result's first number is always the first
   mover's score, so ``1-0`` is a win for Black in English checkers and for White in Russian.
2. :func:`build_reports` groups the records by event and computes an :class:`EventReport` for
   each: standings, crosstable, results by round, colour balance, ballots and notes.
3. ``render_text`` / ``render_markdown`` / ``render_csv`` / ``render_json`` / ``render_html``
   (or :func:`render`) turn the reports into a string.

Ordering of the standings: points, highest first, then each tie-break in the order chosen
(:mod:`pdn.study.tournament.tiebreaks`; by default Sonneborn-Berger, then wins), then the name,
alphabetically ignoring case (then exactly, so the order is always the same). Every report
says its order (``Ranking:``).

Players equal on points and on every tie-break share a rank (shown as ``2=``).

>>> recs = [record_from_tags({"Event": "Club", "Round": "1", "Black": "Ann", "White": "Bo",
...                           "Result": "1-0"})]
>>> [(row.player, row.points) for row in build_reports(recs)[0].standings]
[('Ann', 1.0), ('Bo', 0.0)]
"""

from .records import (
    BLACK,
    DEFAULT_POINTS,
    WHITE,
    GameLike,
    GameRecord,
    TagSource,
    first_mover_colour,
    game_record,
    games_to_records,
    parse_points,
    parse_result,
    record_from_tags,
    round_sort_key,
)
from .render import (
    CSV_TABLES,
    FORMATS,
    HTML_TITLE,
    render,
    render_chunks,
    render_csv,
    render_html,
    render_json,
    render_markdown,
    render_text,
)
from .standings import (
    CROSSTABLE_MAX_PLAYERS,
    ColourBalance,
    Crosstable,
    EventReport,
    OpeningStats,
    RoundGames,
    StandingRow,
    points_of_results,
)
from .store import EventStore, build_reports, iter_reports
from .tiebreaks import DEFAULT_TIEBREAKS, TIEBREAKS, Tiebreak, order_text, parse_tiebreaks

__all__ = [
    "BLACK",
    "CROSSTABLE_MAX_PLAYERS",
    "CSV_TABLES",
    "DEFAULT_POINTS",
    "DEFAULT_TIEBREAKS",
    "FORMATS",
    "HTML_TITLE",
    "TIEBREAKS",
    "WHITE",
    "ColourBalance",
    "Crosstable",
    "EventReport",
    "EventStore",
    "GameLike",
    "GameRecord",
    "OpeningStats",
    "RoundGames",
    "StandingRow",
    "TagSource",
    "Tiebreak",
    "build_reports",
    "first_mover_colour",
    "game_record",
    "games_to_records",
    "iter_reports",
    "order_text",
    "parse_points",
    "parse_result",
    "parse_tiebreaks",
    "points_of_results",
    "record_from_tags",
    "render",
    "render_chunks",
    "render_csv",
    "render_html",
    "render_json",
    "render_markdown",
    "render_text",
    "round_sort_key",
]
