"""Tournament reports built from game tags: standings, crosstables, rounds, colours, ballots.

Only the tags are read (``Event``, ``Site``, ``Date``, ``Round``, ``Black``, ``White``,
``Result``, ``GameType`` and, when present, ``Opening``); the moves are never looked at, so a
report can be made from a file whose moves do not replay.

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

Ordering of the standings (documented tie-breaks):

1. points, highest first;
2. Sonneborn-Berger, highest first, computed from the crosstable as the sum over opponents of
   (points scored against that opponent x that opponent's total points), both in the chosen
   points scheme;
3. wins, most first;
4. name, alphabetically ignoring case (then exactly, so the order is always the same).

Players equal on points, Sonneborn-Berger and wins share a rank (shown as ``2=``).

>>> recs = [record_from_tags({"Event": "Club", "Round": "1", "Black": "Ann", "White": "Bo",
...                           "Result": "1-0"})]
>>> [(row.player, row.points) for row in build_reports(recs)[0].standings]
[('Ann', 1.0), ('Bo', 0.0)]
"""

from __future__ import annotations

import html
import itertools
import math
import pickle
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol

from . import gametype
from .names import Aliases, differences, similar_names
from .results import CANONICAL, scores
from .results import parse_result as parse_outcome
from .safe_text import csv_chunks, one_line, printable

__all__ = [
    "BLACK",
    "CROSSTABLE_MAX_PLAYERS",
    "CSV_TABLES",
    "DEFAULT_POINTS",
    "FORMATS",
    "HTML_TITLE",
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
    "build_reports",
    "first_mover_colour",
    "game_record",
    "games_to_records",
    "iter_reports",
    "parse_points",
    "parse_result",
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

BLACK = "Black"
WHITE = "White"

#: Points for a win, a draw and a loss.
DEFAULT_POINTS: tuple[float, float, float] = (1.0, 0.5, 0.0)

#: Output formats understood by :func:`render`.
FORMATS: tuple[str, ...] = ("text", "markdown", "csv", "json", "html")

#: Above this many players in an event the crosstable is not laid out as a grid in text,
#: Markdown and HTML (it would have players x players cells: 4 million for 2,000 players) nor
#: as grids in JSON; a line says so, and CSV (``--table crosstable``) and JSON list the pairs.
CROSSTABLE_MAX_PLAYERS = 60

#: Tables :func:`render_csv` can write (one table per CSV document keeps it machine-readable).
CSV_TABLES: tuple[str, ...] = ("standings", "crosstable", "games", "openings")

UNKNOWN = "?"
_DASH = " \u2013 "  # en dash between the two players of a game

_NO_RESULT = frozenset({"", "*", "?"})
_VALID_SCORES = frozenset({(1.0, 0.0), (0.0, 1.0), (0.5, 0.5), (0.0, 0.0)})
_SCHEME_INDEX = {1.0: 0, 0.5: 1, 0.0: 2}  # game score -> position in the points scheme


class TagSource(Protocol):
    """Anything with ``get(name, default)`` (a ``dict``, a ``Mapping``, ``pdn.model.Tags``)."""

    def get(self, key: str, default: str, /) -> str | None:
        """Return the tag's value, or ``default`` when the tag is absent."""
        ...


class GameLike(Protocol):
    """What :func:`games_to_records` needs of a game: its tags and detected variant name."""

    @property
    def tags(self) -> TagSource:
        """The game's tag pairs."""
        ...

    @property
    def variant(self) -> str | None:
        """The detected variant name (``"english"``, ``"russian"``...) or ``None``."""
        ...


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as a report sees it.

    ``first_score`` and ``second_score`` are on the 1 / 0.5 / 0 scale whatever the result
    family (``2-0`` gives ``1.0, 0.0``); both are ``None`` when the game is unplayed or its
    result unknown. ``result`` is the Result tag as written (without surrounding spaces).
    ``index`` is the 1-based number of the game in its input (in its file, for ``pdn report``),
    when known.
    """

    event: str
    site: str
    date: str
    round: str
    first: str
    second: str
    result: str
    first_score: float | None
    second_score: float | None
    opening: str | None = None
    first_colour: str = BLACK
    index: int | None = None

    def __post_init__(self) -> None:
        if self.first_colour not in (BLACK, WHITE):
            raise ValueError(f"first_colour must be {BLACK!r} or {WHITE!r}")
        scores = (self.first_score, self.second_score)
        if scores != (None, None) and scores not in _VALID_SCORES:
            raise ValueError(f"scores {scores} are not a win, a draw, a loss or a double loss")

    @property
    def second_colour(self) -> str:
        """The colour of the second mover."""
        return WHITE if self.first_colour == BLACK else BLACK

    @property
    def scored(self) -> bool:
        """Whether the game counts in the standings (a known result between two players)."""
        return self.first_score is not None and self.first != self.second

    def describe(self) -> str:
        """``"first mover \u2013 second mover: result"`` (an en dash), unknown results as ``?``.

        >>> GameRecord("E", "", "", "1", "Ann", "Bo", "1-0", 1.0, 0.0).describe()
        'Ann \u2013 Bo: 1-0'
        """
        return f"{self.first}{_DASH}{self.second}: {self.result or UNKNOWN}"

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict form for JSON."""
        return {
            "index": self.index,
            "event": self.event,
            "site": self.site,
            "date": self.date,
            "round": self.round,
            "first_colour": self.first_colour,
            "first": self.first,
            "second": self.second,
            "result": self.result,
            "first_score": self.first_score,
            "second_score": self.second_score,
            "scored": self.scored,
            "opening": self.opening,
        }


def parse_result(text: str | None) -> tuple[float, float] | None:
    """(first mover's score, second mover's score) on a 1 / 0.5 / 0 scale, or ``None``.

    Both result families are understood, spaces are ignored and ``½`` is read as ``1/2``.
    ``0-0`` is a double loss. Unplayed (``*``), unknown (``?``, empty) and unrecognised
    results give ``None``.

    >>> parse_result(" 2-0 "), parse_result("½-½"), parse_result("1-1"), parse_result("*")
    ((1.0, 0.0), (0.5, 0.5), (0.5, 0.5), None)
    """
    return scores(parse_outcome(text))


def first_mover_colour(variant: str | None = None, game_type: str | None = None) -> str:
    """``"Black"`` or ``"White"``: the colour that moves first.

    ``variant`` may be a colour (``"Black"``, ``"W"``...) or a variant name: ``english``,
    ``checkers`` and ``pool`` start with Black, every other variant with White. The ``GameType``
    tag value's second field (``B``/``W``, as in ``"21,B,8,8,N1,0"``) wins when present; without
    a variant its number decides (21 and 23 start with Black, the others with White). With
    neither, English checkers is assumed: Black. :func:`pdn.gametype.first_mover` decides.

    >>> first_mover_colour("russian"), first_mover_colour(None, "20"), first_mover_colour()
    ('White', 'White', 'Black')
    """
    written = gametype.game_type_of(game_type)
    if variant is not None and variant.strip():
        key = variant.strip().lower()
        if key in ("black", "b"):
            return BLACK
        if key in ("white", "w"):
            return WHITE
    elif written is None:
        # No type number at all: English checkers; one too long to read: an unknown type.
        unread = game_type is not None and re.match(r"\s*\d", game_type) is not None
        variant = "" if unread else "english"
    return BLACK if gametype.first_mover(variant, written) == "B" else WHITE


def _tag(tags: TagSource, name: str) -> str:
    value = tags.get(name, "")
    return "" if value is None else str(value).strip()


def _known(value: str) -> str | None:
    return value if value and value != UNKNOWN else None


def record_from_tags(
    tags: TagSource,
    *,
    first_mover: str | None = None,
    opening: str | None = None,
    index: int | None = None,
) -> GameRecord:
    """Build a :class:`GameRecord` from a game's tags.

    ``first_mover`` is ``"Black"``, ``"White"`` or a variant name (see
    :func:`first_mover_colour`); when ``None`` the ``GameType`` tag decides, and without one
    Black moves first. ``opening`` is a label such as ``"ACF 38"``; when ``None`` the
    ``Opening`` tag is used if it has a value. Names and other values lose surrounding
    spaces; a missing Event, Round or player name becomes ``"?"``.

    >>> r = record_from_tags({"White": "Vos", "Black": "Kok", "Result": "2-0"},
    ...                      first_mover="international")
    >>> r.first, r.second, r.first_score
    ('Vos', 'Kok', 1.0)
    """
    colour = first_mover_colour(first_mover, _tag(tags, "GameType"))
    second_colour = WHITE if colour == BLACK else BLACK
    result = _tag(tags, "Result")
    scores = parse_result(result)
    if opening is None:
        opening = _known(_tag(tags, "Opening"))
    return GameRecord(
        event=_tag(tags, "Event") or UNKNOWN,
        site=_tag(tags, "Site"),
        date=_tag(tags, "Date"),
        round=_tag(tags, "Round") or UNKNOWN,
        first=_tag(tags, colour) or UNKNOWN,
        second=_tag(tags, second_colour) or UNKNOWN,
        result=result,
        first_score=None if scores is None else scores[0],
        second_score=None if scores is None else scores[1],
        opening=opening,
        first_colour=colour,
        index=index,
    )


def _aligned(openings: Sequence[str | None] | None, count: int) -> Sequence[str | None]:
    if openings is None:
        return [None] * count
    if len(openings) != count:
        raise ValueError(f"{len(openings)} opening labels given for {count} games")
    return openings


def games_to_records(
    games: Iterable[GameLike],
    variant: str | None = None,
    *,
    openings: Sequence[str | None] | None = None,
) -> list[GameRecord]:
    """Records for games read from files (objects with ``.tags`` and ``.variant``).

    ``variant`` overrides every game's own ``.variant``; when both are ``None`` the game's
    ``GameType`` tag decides who moved first (see :func:`first_mover_colour`). ``openings``,
    if given, holds one label (or ``None``) per game, in the same order. ``index`` on each
    record is the game's 1-based position in ``games``.

    >>> from types import SimpleNamespace as G
    >>> rec = games_to_records([G(tags={"Black": "Kok", "White": "Vos", "Result": "0-2"},
    ...                           variant="russian")])[0]
    >>> rec.first, rec.second, rec.second_score
    ('Vos', 'Kok', 1.0)
    """
    items = list(games)
    labels = _aligned(openings, len(items))
    return [
        game_record(game, variant, opening=label, index=number)
        for number, (game, label) in enumerate(zip(items, labels, strict=True), start=1)
    ]


def game_record(
    game: GameLike,
    variant: str | None = None,
    *,
    opening: str | None = None,
    index: int | None = None,
) -> GameRecord:
    """The record of one game read from a file; ``variant`` overrides the game's own
    ``.variant`` for who moved first (see :func:`games_to_records`)."""
    return record_from_tags(
        game.tags, first_mover=variant or game.variant, opening=opening, index=index
    )


def parse_points(text: str) -> tuple[float, float, float]:
    """A points scheme written as ``"win,draw,loss"`` (commas, slashes or spaces).

    >>> parse_points("2,1,0")
    (2.0, 1.0, 0.0)
    """
    parts = [part for part in re.split(r"[\s,/;]+", text.strip()) if part]
    try:
        return _points_scheme([float(part) for part in parts])
    except ValueError:
        raise ValueError(
            f"points must be three numbers for a win, a draw and a loss, like 2,1,0: {text!r}"
        ) from None


def _points_scheme(points: Sequence[float]) -> tuple[float, float, float]:
    values = [float(value) for value in points]
    if len(values) != 3 or not all(math.isfinite(value) for value in values):
        raise ValueError(f"points must be three finite numbers (win, draw, loss): {points!r}")
    return values[0], values[1], values[2]


# --------------------------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line in the standings; ``games`` counts scored games only."""

    rank: int
    player: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    sonneborn_berger: float
    unscored: int
    buchholz: float = 0.0
    median_buchholz: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict form for JSON."""
        return {
            "buchholz": self.buchholz,
            "median_buchholz": self.median_buchholz,
            "rank": self.rank,
            "player": self.player,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "points": self.points,
            "sonneborn_berger": self.sonneborn_berger,
            "unscored": self.unscored,
        }


@dataclass(frozen=True, slots=True)
class Crosstable:
    """Points each player scored against each other, players in standings order.

    Only the pairs that met are stored: ``pairs[(i, j)]`` is ``(score, games)``, what
    ``players[i]`` scored against ``players[j]`` over their scored games and how many there
    were. So the table costs memory in proportion to the games, not to the square of the
    players (an open event with 2,000 players would otherwise need millions of empty cells).
    A row's scores add up to the player's points.
    """

    players: tuple[str, ...]
    # Not hashed (a mapping cannot be): reports stay hashable, by their other fields.
    pairs: Mapping[tuple[int, int], tuple[float, int]] = field(hash=False)
    _position: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_position", {p: i for i, p in enumerate(self.players)})

    @property
    def folded(self) -> bool:
        """Whether there are too many players (:data:`CROSSTABLE_MAX_PLAYERS`) to lay the table
        out as a grid; reports then list it only as pairs."""
        return len(self.players) > CROSSTABLE_MAX_PLAYERS

    @property
    def scores(self) -> tuple[tuple[float | None, ...], ...]:
        """The full grid of scores (``None`` on the diagonal and where the players never met).
        Its size is the square of the players: meant for small events."""
        count = len(self.players)
        return tuple(tuple(self.score_at(i, j) for j in range(count)) for i in range(count))

    @property
    def games(self) -> tuple[tuple[int, ...], ...]:
        """The full grid of game counts (0 where the players never met); see :attr:`scores`."""
        count = len(self.players)
        return tuple(
            tuple(self.pairs.get((i, j), (0.0, 0))[1] for j in range(count)) for i in range(count)
        )

    def score_at(self, row: int, column: int) -> float | None:
        """What player ``row`` scored against player ``column`` (``None`` if they never met)."""
        pair = self.pairs.get((row, column))
        return None if pair is None else pair[0]

    def score(self, player: str, opponent: str) -> float | None:
        """What ``player`` scored against ``opponent`` (``None`` if they never met)."""
        return self.score_at(self._position[player], self._position[opponent])

    def cell(self, row: int, column: int) -> str:
        """The cell as shown: ``"X"`` on the diagonal, empty where the players never met, and
        ``"1.5 (2)"`` where the score sums several games (how many in brackets)."""
        if row == column:
            return "X"
        pair = self.pairs.get((row, column))
        if pair is None:
            return ""
        score, games = pair
        return _num(score) if games == 1 else f"{_num(score)} ({games})"

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict form for JSON: ``players``, ``pairs`` (one entry per pair that met),
        and the ``scores`` and ``games`` grids unless the table is :attr:`folded`."""
        out: dict[str, Any] = {
            "players": list(self.players),
            "pairs": [
                {
                    "player": self.players[i],
                    "opponent": self.players[j],
                    "games": games,
                    "score": score,
                }
                for (i, j), (score, games) in sorted(self.pairs.items())
            ],
        }
        if self.folded:
            out["folded"] = True
        else:
            out["scores"] = [list(row) for row in self.scores]
            out["games"] = [list(row) for row in self.games]
        return out


@dataclass(frozen=True, slots=True)
class RoundGames:
    """The games of one round, in input order."""

    round: str
    games: tuple[GameRecord, ...]

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict form for JSON."""
        return {"round": self.round, "games": [game.to_dict() for game in self.games]}


@dataclass(frozen=True, slots=True)
class ColourBalance:
    """How often a player moved first and second (every listed game counts)."""

    player: str
    first: int
    second: int

    @property
    def difference(self) -> int:
        """Games as first mover minus games as second mover."""
        return self.first - self.second

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict form for JSON."""
        return {"player": self.player, "first": self.first, "second": self.second}


@dataclass(frozen=True, slots=True)
class OpeningStats:
    """How often an opening (ballot) was played in an event and how it went."""

    opening: str
    games: int
    first_wins: int
    draws: int
    second_wins: int
    double_losses: int
    unscored: int

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict form for JSON."""
        return {
            "opening": self.opening,
            "games": self.games,
            "first_wins": self.first_wins,
            "draws": self.draws,
            "second_wins": self.second_wins,
            "double_losses": self.double_losses,
            "unscored": self.unscored,
        }


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One game of a player in a round: the opponent, the player's colour, the player's score
    (1 / 0.5 / 0, ``None`` unscored) and the points it gave in the event's scheme."""

    round: str
    opponent: str
    colour: str
    score: float | None
    points: float | None

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict form for JSON."""
        return {
            "round": self.round,
            "opponent": self.opponent,
            "colour": self.colour,
            "score": self.score,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class PlayerRounds:
    """A player's games round by round (several in a round are kept, in input order)."""

    player: str
    games: tuple[RoundEntry, ...]

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict form for JSON."""
        return {"player": self.player, "games": [game.to_dict() for game in self.games]}


@dataclass(frozen=True, slots=True)
class EventReport:
    """Everything reported for one event.

    ``first_colours`` lists the first-mover colours seen in the event (normally one).
    ``unscored`` holds the games that are listed but not scored (unplayed, unknown or
    unrecognised result, or the same name on both sides). ``name_variants`` groups player
    names that differ only in case or spacing; they are still counted as different players.
    ``notes`` says all this in sentences.
    """

    event: str
    sites: tuple[str, ...]
    dates: tuple[str, str] | None
    points_scheme: tuple[float, float, float]
    first_colours: tuple[str, ...]
    games: tuple[GameRecord, ...]
    standings: tuple[StandingRow, ...]
    crosstable: Crosstable
    rounds: tuple[RoundGames, ...]
    colour_balance: tuple[ColourBalance, ...]
    openings: tuple[OpeningStats, ...]
    unscored: tuple[GameRecord, ...]
    name_variants: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...]
    swiss: bool = False
    player_rounds: tuple[PlayerRounds, ...] = ()

    def standing(self, player: str) -> StandingRow:
        """The standings row of ``player`` (``KeyError`` if the player is not in the event)."""
        for row in self.standings:
            if row.player == player:
                return row
        raise KeyError(player)

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict form (lists, dicts, strings, numbers, ``None``) for JSON;
        ``player_rounds`` is empty when the crosstable is :attr:`Crosstable.folded`."""
        win, draw, loss = self.points_scheme
        return {
            "event": self.event,
            "sites": list(self.sites),
            "dates": None
            if self.dates is None
            else {"first": self.dates[0], "last": self.dates[1]},
            "points": {"win": win, "draw": draw, "loss": loss},
            "first_colours": list(self.first_colours),
            "games": len(self.games),
            "scored": len(self.games) - len(self.unscored),
            "unscored": len(self.unscored),
            "standings": [row.to_dict() for row in self.standings],
            "crosstable": self.crosstable.to_dict(),
            "rounds": [rnd.to_dict() for rnd in self.rounds],
            "colour_balance": [entry.to_dict() for entry in self.colour_balance],
            "openings": [entry.to_dict() for entry in self.openings],
            "name_variants": [list(group) for group in self.name_variants],
            "notes": list(self.notes),
            "swiss": self.swiss,
            # Like the crosstable's grids, left out of a very large event (the games by round
            # hold the same facts): 2,000 players would add a megabyte.
            "player_rounds": []
            if self.crosstable.folded
            else [entry.to_dict() for entry in self.player_rounds],
        }


def round_sort_key(name: str) -> tuple[Any, ...]:
    """Sort key for Round values: ``"2"`` < ``"10"``, ``"1.2"`` < ``"1.10"``, text last.

    >>> sorted(["10", "2", "1.10", "x", "1.2", "?", "1"], key=round_sort_key)
    ['1', '1.2', '1.10', '2', '10', 'x', '?']
    """
    name = name.strip()
    parts = name.split(".")
    if all(part.isdecimal() for part in parts):
        return (0, tuple(_digits_key(part) for part in parts))
    # Unknown rounds go after every named one, so they never sit between real rounds.
    return (2 if name in ("", UNKNOWN, "-") else 1, name.casefold(), name)


def _digits_key(digits: str) -> tuple[int, str]:
    """Orders digit strings as the numbers they write, without ``int()`` (which refuses runs
    beyond Python's 4,300-digit limit): fewer significant digits first, then digit by digit.
    Unicode digits (``"٣"``) are mapped to ASCII so that they compare like their values."""
    significant = digits.lstrip("0") or "0"
    if not significant.isascii():
        significant = "".join(str(unicodedata.decimal(ch)) for ch in significant)
    return (len(significant), significant)


def _natural_key(text: str) -> tuple[tuple[int, tuple[int, str], str], ...]:
    # "ACF 4" before "ACF 38": runs of digits compare as numbers.
    return tuple(
        (0, _digits_key(part), "") if part.isdecimal() else (1, (0, ""), part.casefold())
        for part in re.split(r"(\d+)", text)
        if part
    )


@dataclass(slots=True)
class _Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    unscored: int = 0
    as_first: int = 0
    as_second: int = 0
    against: dict[str, float] = field(default_factory=dict)
    met: dict[str, int] = field(default_factory=dict)
    # One entry per scored game (an opponent met twice is there twice): for Buchholz.
    opponents: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _OpeningTally:
    games: int = 0
    first_wins: int = 0
    draws: int = 0
    second_wins: int = 0
    double_losses: int = 0
    unscored: int = 0


def build_reports(
    records: Iterable[GameRecord],
    points: Sequence[float] | None = DEFAULT_POINTS,
    *,
    openings: Sequence[str | None] | None = None,
    aliases: Aliases | None = None,
    event: str | None = None,
) -> list[EventReport]:
    """One :class:`EventReport` per Event, in the order events are first seen.

    ``points`` is (win, draw, loss), e.g. ``(2, 1, 0)``; ``None`` takes it from how each
    event's results are written (:func:`points_of_results`: 2-1-0 for ``2-0``/``1-1``).
    ``openings``, if given, holds one label (or ``None``) per record; a label replaces the
    record's own ``opening``. ``aliases`` renames players and events first (so that two
    spellings count as one); ``event`` is a regular expression: only the events whose name it
    matches (anywhere, ``re.search``) are reported (``ValueError`` if it is not one).
    :func:`iter_reports` gives the same reports one at a time, in constant memory.

    >>> recs = [record_from_tags({"Event": "E", "Black": "A", "White": "B", "Result": "1-0"})]
    >>> build_reports(recs, (2, 1, 0))[0].standing("A").points
    2.0
    """
    return list(iter_reports(records, points, openings=openings, aliases=aliases, event=event))


def iter_reports(
    records: Iterable[GameRecord],
    points: Sequence[float] | None = DEFAULT_POINTS,
    *,
    openings: Sequence[str | None] | None = None,
    aliases: Aliases | None = None,
    event: str | None = None,
) -> Iterator[EventReport]:
    """:func:`build_reports` one event at a time, for collections of any size.

    The records are read to the end first (an event's games may be anywhere in the input),
    kept on disk rather than in memory (:class:`EventStore`); then each event is built, handed
    over and dropped. Arguments are checked at the call, before any record is read.
    """
    scheme = None if points is None else _points_scheme(points)
    try:
        wanted = None if event is None else re.compile(event)
    except re.error as exc:
        raise ValueError(f"not a regular expression: {event!r}: {exc}") from None
    labelled: Iterable[tuple[GameRecord, str | None]]
    if openings is None:
        labelled = ((game, None) for game in records)
    else:
        if not isinstance(records, Sequence):
            records = list(records)
        labelled = zip(records, _aligned(openings, len(records)), strict=True)

    def reports() -> Iterator[EventReport]:
        with EventStore() as store:
            for game, label in labelled:
                if label is not None:
                    game = replace(game, opening=label)
                if aliases is not None:
                    game = _renamed(game, aliases)
                name = game.event.strip() or UNKNOWN
                if wanted is None or wanted.search(name):
                    store.add(name, game)
            for name, group in store.events():
                yield _build_event(
                    name, group, points_of_results(group) if scheme is None else scheme
                )

    return reports()


class EventStore:
    """Game records grouped by event without holding them in memory.

    They go into a private temporary SQLite database (``sqlite3.connect("")``: a bounded
    page cache, spilled to a file that SQLite removes when it is closed), so that a report
    over an archive of a million games holds one event at a time. Each record's fields are kept
    pickled, so it comes back exactly as it went in (a lone surrogate in a name, which SQLite's
    UTF-8 text refuses, included). A context manager.

    >>> with EventStore() as store:
    ...     store.add("B", record_from_tags({"Black": "x", "White": "y"}))
    ...     store.add("A", record_from_tags({"Black": "y", "White": "x"}))
    ...     store.add("B", record_from_tags({"Black": "z", "White": "x"}))
    ...     [(name, [r.first for r in group]) for name, group in store.events()]
    [('B', ['x', 'z']), ('A', ['y'])]
    """

    _FIELDS = tuple(f.name for f in fields(GameRecord))
    #: Records sent to the database at once: one statement per batch, not per game.
    _BATCH = 512

    def __init__(self) -> None:
        import sqlite3

        self._db = sqlite3.connect("")
        self._db.execute("CREATE TABLE games (event_id INTEGER, record BLOB)")
        self._ids: dict[str, int] = {}  # event name -> id, in the order first seen
        self._pending: list[tuple[int, bytes]] = []

    def add(self, event: str, record: GameRecord) -> None:
        """Keep ``record`` under ``event`` (its games stay in the order they were added)."""
        number = self._ids.setdefault(event, len(self._ids))
        values = tuple(getattr(record, name) for name in self._FIELDS)
        self._pending.append((number, pickle.dumps(values, pickle.HIGHEST_PROTOCOL)))
        if len(self._pending) >= self._BATCH:
            self._flush()

    def events(self) -> Iterator[tuple[str, list[GameRecord]]]:
        """Each event, in the order first seen, with its records."""
        self._flush()
        self._db.execute("CREATE INDEX IF NOT EXISTS by_event ON games (event_id)")
        select = "SELECT record FROM games WHERE event_id = ? ORDER BY rowid"
        for name, number in self._ids.items():
            rows = self._db.execute(select, (number,))
            yield name, [GameRecord(*pickle.loads(data)) for (data,) in rows]

    def close(self) -> None:
        """Drop the database (and its file)."""
        self._db.close()

    def _flush(self) -> None:
        if self._pending:
            self._db.executemany("INSERT INTO games VALUES (?, ?)", self._pending)
            self._pending.clear()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _renamed(game: GameRecord, aliases: Aliases) -> GameRecord:
    first = aliases.lookup(game.first_colour, game.first)
    second = aliases.lookup(game.second_colour, game.second)
    event = aliases.lookup("Event", game.event)
    if first is None and second is None and event is None:
        return game
    return replace(
        game, first=first or game.first, second=second or game.second, event=event or game.event
    )


_FAMILIES = {
    family: frozenset(text for text in texts.values() if text not in ("*", "0-0"))
    for family, texts in CANONICAL.items()
}


def points_of_results(games: Iterable[GameRecord]) -> tuple[float, float, float]:
    """The points scheme the results are written in: 2-1-0 when every known result is of
    the ``2-0 / 1-1 / 0-2`` family, else 1-0.5-0 (:data:`DEFAULT_POINTS`).

    >>> points_of_results([record_from_tags({"Black": "A", "White": "B", "Result": "1-1"})])
    (2.0, 1.0, 0.0)
    """
    written = {"".join(game.result.split()) for game in games}
    if written & _FAMILIES["international"] and not written & _FAMILIES["default"]:
        return (2.0, 1.0, 0.0)
    return DEFAULT_POINTS


def _unscored_reason(game: GameRecord) -> str:
    if game.first == game.second:
        return "the same player on both sides"
    if game.result in _NO_RESULT:
        return "unplayed or unknown result"
    return "unrecognised result"


def _tally_games(
    games: Sequence[GameRecord], scheme: tuple[float, float, float]
) -> dict[str, _Tally]:
    tallies: dict[str, _Tally] = {}
    for game in games:
        tallies.setdefault(game.first, _Tally()).as_first += 1
        tallies.setdefault(game.second, _Tally()).as_second += 1
        if not game.scored:
            for name in dict.fromkeys((game.first, game.second)):
                tallies[name].unscored += 1
            continue
        sides = (
            (game.first, game.second, game.first_score),
            (game.second, game.first, game.second_score),
        )
        for player, opponent, score in sides:
            assert score is not None  # a scored game has both scores
            outcome = _SCHEME_INDEX[score]
            tally = tallies[player]
            tally.games += 1
            tally.wins += outcome == 0
            tally.draws += outcome == 1
            tally.losses += outcome == 2
            tally.points += scheme[outcome]
            tally.against[opponent] = tally.against.get(opponent, 0.0) + scheme[outcome]
            tally.met[opponent] = tally.met.get(opponent, 0) + 1
            tally.opponents.append(opponent)
    return tallies


def _standings(tallies: dict[str, _Tally]) -> tuple[StandingRow, ...]:
    # Rounded so that float noise from schemes like 3,1,0.3 cannot break a real tie.
    def sb_of(player: str) -> float:
        against = tallies[player].against
        return round(sum(score * tallies[opp].points for opp, score in against.items()), 9)

    sbs = {player: sb_of(player) for player in tallies}
    order = sorted(
        tallies,
        key=lambda p: (
            -round(tallies[p].points, 9),
            -sbs[p],
            -tallies[p].wins,
            p.casefold(),
            p,
        ),
    )
    rows: list[StandingRow] = []
    previous: tuple[float, float, int] | None = None
    for position, player in enumerate(order, start=1):
        tally = tallies[player]
        merit = (round(tally.points, 9), sbs[player], tally.wins)
        rank = rows[-1].rank if merit == previous else position
        previous = merit
        rows.append(
            StandingRow(
                rank=rank,
                player=player,
                games=tally.games,
                wins=tally.wins,
                draws=tally.draws,
                losses=tally.losses,
                points=round(tally.points, 9),
                sonneborn_berger=sbs[player],
                unscored=tally.unscored,
                buchholz=_buchholz(tallies, player),
                median_buchholz=_buchholz(tallies, player, median=True),
            )
        )
    return tuple(rows)


def _buchholz(tallies: dict[str, _Tally], player: str, *, median: bool = False) -> float:
    """The sum of the points of the opponents of each scored game (an opponent met twice
    counts twice); the median Buchholz leaves out the highest and the lowest of them, when
    there are at least three games."""
    values = sorted(tallies[opponent].points for opponent in tallies[player].opponents)
    if median and len(values) >= 3:
        values = values[1:-1]
    return round(sum(values), 9)


def _is_swiss(players: Sequence[str], tallies: dict[str, _Tally]) -> bool:
    """Whether some two players never met: a Swiss (or a round robin not finished), where
    Buchholz and the table of each player's rounds say what the crosstable cannot."""
    return len(players) > 2 and any(
        len([o for o in tallies[p].met if o != p]) < len(players) - 1 for p in players
    )


def _player_rounds(
    players: Sequence[str], games: Sequence[GameRecord], scheme: tuple[float, float, float]
) -> tuple[PlayerRounds, ...]:
    entries: dict[str, list[RoundEntry]] = {player: [] for player in players}
    for game in sorted(games, key=lambda g: round_sort_key(g.round)):
        sides = (
            (game.first, game.second, game.first_colour, game.first_score),
            (game.second, game.first, game.second_colour, game.second_score),
        )
        for player, opponent, colour, score in sides:
            if player not in entries:
                continue
            points = None if score is None or not game.scored else scheme[_SCHEME_INDEX[score]]
            entries[player].append(
                RoundEntry(game.round, opponent, colour, score if game.scored else None, points)
            )
    return tuple(PlayerRounds(player, tuple(entries[player])) for player in players)


def _crosstable(players: Sequence[str], tallies: dict[str, _Tally]) -> Crosstable:
    position = {player: i for i, player in enumerate(players)}
    pairs = {
        (i, position[opponent]): (round(tallies[player].against[opponent], 9), met)
        for i, player in enumerate(players)
        for opponent, met in tallies[player].met.items()
        if opponent != player
    }
    return Crosstable(players=tuple(players), pairs=pairs)


def _rounds(games: Sequence[GameRecord]) -> tuple[RoundGames, ...]:
    grouped: dict[str, list[GameRecord]] = {}
    for game in games:
        grouped.setdefault(game.round, []).append(game)
    return tuple(
        RoundGames(name, tuple(grouped[name])) for name in sorted(grouped, key=round_sort_key)
    )


def _openings(games: Sequence[GameRecord]) -> tuple[OpeningStats, ...]:
    tallies: dict[str, _OpeningTally] = {}
    for game in games:
        if not game.opening:
            continue
        tally = tallies.setdefault(game.opening, _OpeningTally())
        tally.games += 1
        if not game.scored:
            tally.unscored += 1
        elif game.first_score == 1.0:
            tally.first_wins += 1
        elif game.second_score == 1.0:
            tally.second_wins += 1
        elif game.first_score == 0.5:
            tally.draws += 1
        else:
            tally.double_losses += 1
    order = sorted(tallies, key=lambda label: (-tallies[label].games, _natural_key(label)))
    return tuple(
        OpeningStats(
            opening=label,
            games=tallies[label].games,
            first_wins=tallies[label].first_wins,
            draws=tallies[label].draws,
            second_wins=tallies[label].second_wins,
            double_losses=tallies[label].double_losses,
            unscored=tallies[label].unscored,
        )
        for label in order
    )


def _name_variants(players: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    return tuple(group.names for group in similar_names(players))


def _why(names: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(why for name in names[1:] for why in differences(name, names[0])))


def _quoted(names: Iterable[str]) -> str:
    return ", ".join(f'"{name}"' for name in names)


def _build_event(
    event: str, games: Sequence[GameRecord], scheme: tuple[float, float, float]
) -> EventReport:
    tallies = _tally_games(games, scheme)
    standings = _standings(tallies)
    players = [row.player for row in standings]
    swiss = _is_swiss(players, tallies)
    # A table of rounds needs rounds: files without Round tags put every game in "?".
    rounds_known = len({game.round for game in games if game.round != UNKNOWN}) > 1
    unscored = tuple(game for game in games if not game.scored)
    variants = _name_variants(tallies)
    first_colours = tuple(dict.fromkeys(game.first_colour for game in games))
    dates = sorted({game.date for game in games if game.date.strip("?.")})

    notes: list[str] = [
        f"players who look like the same person ({', '.join(_why(group))}) are counted as "
        f"different players: {_quoted(group)} (pdn fix --suggest-names writes an alias list)"
        for group in variants
    ]
    without_players = [g for g in games if g.first == UNKNOWN and g.second == UNKNOWN]
    if without_players:
        where = ", ".join(dict.fromkeys(g.round for g in without_players))
        notes.append(
            f"{len(without_players)} game(s) carry no players (no Black or White name), "
            f"round(s) {where}"
        )
    nameless = sum(UNKNOWN in (game.first, game.second) for game in games) - len(without_players)
    if nameless:
        notes.append(f'{nameless} game(s) with a player name missing, shown as "{UNKNOWN}"')
    if len(first_colours) > 1:
        notes.append(f"games with different first movers: {', '.join(first_colours)}")
    for game in unscored:
        shown = f'"{game.result}"' if game.result else "none"
        notes.append(
            f"round {game.round}: {game.first}{_DASH}{game.second}: {_unscored_reason(game)}"
            f" (result {shown}), not scored"
        )

    return EventReport(
        event=event,
        sites=tuple(dict.fromkeys(game.site for game in games if _known(game.site))),
        dates=(dates[0], dates[-1]) if dates else None,
        points_scheme=scheme,
        first_colours=first_colours,
        games=tuple(games),
        standings=standings,
        crosstable=_crosstable(players, tallies),
        rounds=_rounds(games),
        colour_balance=tuple(
            ColourBalance(player, tallies[player].as_first, tallies[player].as_second)
            for player in players
        ),
        openings=_openings(games),
        unscored=unscored,
        name_variants=variants,
        notes=tuple(notes),
        swiss=swiss,
        player_rounds=_player_rounds(players, games, scheme) if swiss and rounds_known else (),
    )


# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------


def _num(value: float) -> str:
    # Plain decimals everywhere ("2.5", "2", "0.75"), never "2.0" or "1½".
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _rank_labels(rows: Sequence[StandingRow]) -> list[str]:
    counts = Counter(row.rank for row in rows)
    return [f"{row.rank}=" if counts[row.rank] > 1 else str(row.rank) for row in rows]


def _mover(report: EventReport, which: str) -> str:
    """``"first mover (Black)"``; the colour is left out when an event mixes first movers."""
    if len(report.first_colours) != 1:
        return f"{which} mover"
    colour = report.first_colours[0]
    if which == "second":
        colour = WHITE if colour == BLACK else BLACK
    return f"{which} mover ({colour})"


def _summary(report: EventReport) -> list[tuple[str, str]]:
    win, draw, loss = report.points_scheme
    lines: list[tuple[str, str]] = []
    if report.sites:
        lines.append(("Site" if len(report.sites) == 1 else "Sites", "; ".join(report.sites)))
    if report.dates is not None:
        first, last = report.dates
        lines.append(("Date", first if first == last else f"{first}{_DASH}{last}"))
    scored = len(report.games) - len(report.unscored)
    lines.append(
        ("Games", f"{len(report.games)} (scored {scored}, unplayed/unknown {len(report.unscored)})")
    )
    lines.append(("Points", f"win {_num(win)}, draw {_num(draw)}, loss {_num(loss)}"))
    lines.append(("First mover", ", ".join(report.first_colours) or UNKNOWN))
    return lines


# A table is (headers, rows, right-aligned flags); every format lays the same tables out.
_Table = tuple[list[str], list[list[str]], list[bool]]


def _standings_table(report: EventReport) -> _Table:
    headers = ["#", "Player", "Games", "W", "D", "L", "Points", "SB"]
    right = [True, False, True, True, True, True, True, True]
    if report.swiss:
        headers += ["Buch", "MBuch"]
        right += [True, True]
    with_unscored = bool(report.unscored)
    if with_unscored:
        headers.append("Unscored")
        right.append(True)
    rows = []
    for label, row in zip(_rank_labels(report.standings), report.standings, strict=True):
        cells = [
            label,
            row.player,
            str(row.games),
            str(row.wins),
            str(row.draws),
            str(row.losses),
            _num(row.points),
            _num(row.sonneborn_berger),
        ]
        if report.swiss:
            cells += [_num(row.buchholz), _num(row.median_buchholz)]
        if with_unscored:
            cells.append(str(row.unscored))
        rows.append(cells)
    return headers, rows, right


def _crosstable_table(report: EventReport) -> _Table:
    table = report.crosstable
    count = len(table.players)
    headers = ["#", "Player", *(str(n) for n in range(1, count + 1)), "Points"]
    right = [True, False, *([True] * count), True]
    rows = [
        [
            str(i + 1),
            player,
            *(table.cell(i, j) for j in range(count)),
            _num(report.standings[i].points),
        ]
        for i, player in enumerate(table.players)
    ]
    return headers, rows, right


#: How a player's result in a game is shown in the table of rounds: win, draw, loss, both
#: lost, unscored.
_ROUND_MARKS = {1.0: "+", 0.5: "=", 0.0: "-"}


def _player_rounds_table(report: EventReport) -> _Table:
    """Per player, a column per round: ``"3W+"`` is a win with White against player 3 (their
    place in the standings); several games in one round are written side by side."""
    number = {row.player: str(i) for i, row in enumerate(report.standings, start=1)}
    rounds = [rnd.round for rnd in report.rounds]
    headers = ["#", "Player", *(f"R{name}" for name in rounds), "Points"]
    right = [True, False, *([False] * len(rounds)), True]
    rows = []
    for i, (entry, row) in enumerate(zip(report.player_rounds, report.standings, strict=True)):
        cells: dict[str, list[str]] = {name: [] for name in rounds}
        for game in entry.games:
            mark = "*" if game.score is None else _ROUND_MARKS[game.score]
            opponent = number.get(game.opponent, UNKNOWN)
            cells[game.round].append(f"{opponent}{game.colour[0]}{mark}")
        rows.append(
            [str(i + 1), row.player, *(" ".join(cells[name]) for name in rounds), _num(row.points)]
        )
    return headers, rows, right


def _rounds_table(report: EventReport) -> _Table:
    first, second = _mover(report, "first"), _mover(report, "second")
    headers = ["Round", first[0].upper() + first[1:], second[0].upper() + second[1:], "Result"]
    with_openings = any(game.opening for game in report.games)
    if with_openings:
        headers.append("Opening")
    rows = []
    for rnd in report.rounds:
        for game in rnd.games:
            cells = [rnd.round, game.first, game.second, game.result or UNKNOWN]
            if with_openings:
                cells.append(game.opening or "")
            rows.append(cells)
    return headers, rows, [False] * len(headers)


def _colours_table(report: EventReport) -> _Table:
    headers = ["Player", f"As {_mover(report, 'first')}", f"As {_mover(report, 'second')}"]
    headers.append("Difference")
    rows = [
        [
            entry.player,
            str(entry.first),
            str(entry.second),
            f"{entry.difference:+d}" if entry.difference else "0",
        ]
        for entry in report.colour_balance
    ]
    return headers, rows, [False, True, True, True]


def _openings_table(report: EventReport) -> _Table:
    columns: list[tuple[str, Callable[[OpeningStats], int]]] = [
        ("Games", lambda s: s.games),
        ("1st wins", lambda s: s.first_wins),
        ("Draws", lambda s: s.draws),
        ("2nd wins", lambda s: s.second_wins),
    ]
    # Rare columns appear only when they hold something, to keep the table narrow.
    if any(s.double_losses for s in report.openings):
        columns.append(("Double losses", lambda s: s.double_losses))
    if any(s.unscored for s in report.openings):
        columns.append(("Unscored", lambda s: s.unscored))
    headers = ["Opening", *(name for name, _ in columns)]
    rows = [[s.opening, *(str(get(s)) for _, get in columns)] for s in report.openings]
    return headers, rows, [False, *([True] * len(columns))]


def _crosstable_note(report: EventReport) -> str:
    count = len(report.crosstable.players)
    return (
        f"not shown: {count:,} players are too many for a grid (more than "
        f"{CROSSTABLE_MAX_PLAYERS}); --format csv --table crosstable lists every pair that met"
    )


def _sections(report: EventReport) -> list[tuple[str, _Table | str]]:
    """The report's tables in order; a section that is a string is a sentence instead of a
    table (a crosstable too large to show)."""
    crosstable = _crosstable_note(report) if report.crosstable.folded else _crosstable_table(report)
    sections: list[tuple[str, _Table | str]] = [
        ("Standings", _standings_table(report)),
        ("Crosstable", crosstable),
    ]
    if report.player_rounds:
        sections.append(("Rounds per player", _player_rounds_table(report)))
    sections += [
        ("Results by round", _rounds_table(report)),
        ("Colour balance", _colours_table(report)),
    ]
    if report.openings:
        sections.append(("Ballots played", _openings_table(report)))
    return sections


def _one_line(text: str) -> str:
    # Tag values can hold tabs or newlines, which would break a table's layout, and terminal
    # controls, which must be shown rather than obeyed.
    return one_line(text)


def _text_table(table: _Table, indent: str = "  ", width: int | None = None) -> list[str]:
    """The table aligned; with ``width``, a table wider than that is folded: its columns
    after the first two (``#`` and the player) are cut into parts that fit, each part shown
    under those two again, and player names too long even for that are shortened with ``~``."""
    headers, rows, right = table
    rows = [[_one_line(cell) for cell in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]

    def total(columns: Sequence[int]) -> int:
        return len(indent) + sum(widths[c] for c in columns) + 2 * (len(columns) - 1)

    parts = [list(range(len(headers)))]
    if width is not None and total(parts[0]) > width and len(headers) > 3:
        fixed = [0, 1]
        room = width - total(fixed) - 2
        widest = max(widths[2:])
        if room < widest:  # even one more column does not fit: shorten the names
            widths[1] = max(4, widths[1] - (widest - room))
            rows = [[*row[:1], _shorten(row[1], widths[1]), *row[2:]] for row in rows]
            headers = [*headers[:1], _shorten(headers[1], widths[1]), *headers[2:]]
        parts = []
        current: list[int] = []
        for column in range(2, len(headers)):
            if current and total([*fixed, *current, column]) > width:
                parts.append([*fixed, *current])
                current = []
            current.append(column)
        parts.append([*fixed, *current])

    def line(cells: Sequence[str], columns: Sequence[int]) -> str:
        padded = (
            cells[c].rjust(widths[c]) if right[c] else cells[c].ljust(widths[c]) for c in columns
        )
        return (indent + "  ".join(padded)).rstrip()

    out: list[str] = []
    for number, columns in enumerate(parts):
        if number:
            out.append("")
        out += [line(headers, columns), line(["-" * w for w in widths], columns)]
        out += [line(row, columns) for row in rows]
    return out


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "~"


def render_text(reports: Iterable[EventReport], width: int | None = None) -> str:
    """Aligned plain-text tables for a terminal, one block per event; tables wider than
    ``width`` characters (when given) are folded (see the crosstable of a large event)."""
    return "".join(_text_chunks(reports, width))


def _text_chunks(reports: Iterable[EventReport], width: int | None) -> Iterator[str]:
    # Blocks three newlines apart, and a last newline when there was any.
    separator = ""
    for report in reports:
        title = _one_line(report.event)
        lines = [title, "=" * len(title)]
        label_width = max(len(label) for label, _ in _summary(report))
        lines += [
            f"{label + ':':<{label_width + 1}} {_one_line(value)}"
            for label, value in _summary(report)
        ]
        for heading, table in _sections(report):
            lines += ["", heading]
            if isinstance(table, str):
                lines.append(f"  {table}")
            elif heading == "Results by round":
                # The round list reads better as "first - second: result" lines than as a table.
                for rnd in report.rounds:
                    lines.append(f"  Round {_one_line(rnd.round)}")
                    for game in rnd.games:
                        opening = f"  [{game.opening}]" if game.opening else ""
                        lines.append(f"    {_one_line(game.describe())}{_one_line(opening)}")
            else:
                lines += _text_table(table, width=width)
                if heading == "Rounds per player":
                    lines.append(
                        "  (3W+: against number 3, with White, won; = drawn, - lost, * unscored)"
                    )
        if report.notes:
            lines += ["", "Notes"]
            lines += [f"  - {_one_line(note)}" for note in report.notes]
        yield separator + "\n".join(lines)
        separator = "\n\n\n"
    if separator:
        yield "\n"


# Characters that could start markup, an HTML tag or entity, or a new table cell, wherever
# they stand; characters special only at the start of a line cannot occur there.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&#])")


def _md(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", _one_line(text))


def render_markdown(reports: Iterable[EventReport], warnings: Sequence[str] = ()) -> str:
    """GitHub-flavoured Markdown: a section per event with pipe tables, after a ``Warnings``
    section when there are ``warnings`` (see :func:`render_chunks`).

    Every value from a file is backslash-escaped, so names cannot add markup or break a table.
    """
    return "".join(_markdown_chunks(reports, warnings))


def _first_read(reports: Iterable[EventReport]) -> Iterator[EventReport]:
    """``reports`` with the first one already built: :func:`iter_reports` reads every record
    before it gives one, so what the reading says (the warnings) is known after this."""
    events = iter(reports)
    first = next(events, None)
    return events if first is None else itertools.chain([first], events)


def _markdown_chunks(reports: Iterable[EventReport], warnings: Sequence[str] = ()) -> Iterator[str]:
    reports = _first_read(reports)
    separator = ""  # each event's lines end with an empty one; events join with a newline
    if warnings:
        out = ["## Warnings", ""] + [f"- {_md(warning)}" for warning in warnings] + [""]
        yield "\n".join(out)
        separator = "\n"
    for report in reports:
        out = [f"## {_md(report.event)}", ""]
        out += [f"- **{label}:** {_md(value)}" for label, value in _summary(report)]
        for heading, table in _sections(report):
            out += ["", f"### {heading}", ""]
            if isinstance(table, str):
                out.append(_md(table[0].upper() + table[1:] + "."))
                continue
            headers, rows, right = table
            out.append("| " + " | ".join(headers) + " |")
            out.append("|" + "|".join("---:" if r else ":---" for r in right) + "|")
            out += ["| " + " | ".join(_md(cell) for cell in row) + " |" for row in rows]
        if report.notes:
            out += ["", "### Notes", ""]
            out += [f"- {_md(note)}" for note in report.notes]
        out.append("")
        yield separator + "\n".join(out)
        separator = "\n"


_CSV_HEADERS: dict[str, list[str]] = {
    "standings": [
        "event", "rank", "player", "games", "wins", "draws", "losses", "points",
        "sonneborn_berger", "unscored", "as_first", "as_second", "buchholz", "median_buchholz",
    ],
    "crosstable": ["event", "player", "opponent", "games", "score"],
    "games": [
        "event", "round", "site", "date", "first_colour", "first", "second", "result",
        "first_score", "second_score", "scored", "opening", "index",
    ],
    "openings": [
        "event", "opening", "games", "first_wins", "draws", "second_wins", "double_losses",
        "unscored",
    ],
}  # fmt: skip


def _optional_num(value: float | None) -> str:
    return "" if value is None else _num(value)


def _csv_rows(report: EventReport, table: str) -> list[list[Any]]:
    event = report.event
    if table == "standings":
        balance = {entry.player: entry for entry in report.colour_balance}
        return [
            [
                *(event, r.rank, r.player, r.games, r.wins, r.draws, r.losses),
                *(_num(r.points), _num(r.sonneborn_berger), r.unscored),
                *(balance[r.player].first, balance[r.player].second),
                *(_num(r.buchholz), _num(r.median_buchholz)),
            ]
            for r in report.standings
        ]
    if table == "crosstable":
        cross = report.crosstable
        return [
            [event, cross.players[i], cross.players[j], games, _num(score)]
            for (i, j), (score, games) in sorted(cross.pairs.items())
        ]
    if table == "games":
        return [
            [
                *(event, g.round, g.site, g.date, g.first_colour, g.first, g.second, g.result),
                *(_optional_num(g.first_score), _optional_num(g.second_score), int(g.scored)),
                *(g.opening or "", "" if g.index is None else g.index),
            ]
            for rnd in report.rounds
            for g in rnd.games
        ]
    return [
        [
            *(event, s.opening, s.games, s.first_wins, s.draws, s.second_wins),
            *(s.double_losses, s.unscored),
        ]
        for s in report.openings
    ]


def render_csv(reports: Iterable[EventReport], table: str = "standings") -> str:
    """One CSV table for all events, with an ``event`` column first.

    ``table`` is one of :data:`CSV_TABLES`: ``standings`` (with colour balance),
    ``crosstable`` (one row per pair of players that met), ``games`` (by round) or
    ``openings``. Lines end with ``\\n``; numbers are plain decimals. Text cells pass
    through :func:`pdn.safe_text.csv_cell`: controls are shown escaped, and a cell that a
    spreadsheet would run as a formula (``=...``, ``+...``, ``-...``, ``@...``) gets a ``'``
    in front; plain numbers such as ``-1`` are left alone.

    >>> render_csv([], "crosstable")
    'event,player,opponent,games,score\\n'
    """
    return "".join(_csv_chunks(reports, table))


def _csv_chunks(reports: Iterable[EventReport], table: str) -> Iterator[str]:
    if table not in _CSV_HEADERS:
        raise ValueError(f"unknown CSV table {table!r}; choose one of {', '.join(CSV_TABLES)}")
    rows = (row for report in reports for row in _csv_rows(report, table))
    return csv_chunks(_CSV_HEADERS[table], rows)


def render_json(reports: Iterable[EventReport]) -> str:
    """``{"events": [...]}`` with each report's :meth:`EventReport.to_dict`, indented."""
    return "".join(_json_chunks(reports))


def _json_chunks(reports: Iterable[EventReport]) -> Iterator[str]:
    from .jsonio import dumps_listing

    return dumps_listing("events", (report.to_dict() for report in reports))


_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f2f2f2; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.self { background: #ddd; text-align: center; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dt { font-weight: bold; } dd { margin: 0; } .notes li, .warnings li { color: #8a4b00; }
""".strip()


def _h(value: object) -> str:
    # Controls are not valid HTML text, and the page may well be read with cat.
    return html.escape(printable(str(value)), quote=True)


def _html_table(table: _Table, diagonal: bool = False) -> list[str]:
    headers, rows, right = table
    out = [
        "<table>",
        "<thead><tr>" + "".join(f"<th>{_h(h)}</th>" for h in headers) + "</tr></thead>",
    ]
    out.append("<tbody>")
    for i, row in enumerate(rows):
        cells = []
        for j, (cell, is_right) in enumerate(zip(row, right, strict=True)):
            # Crosstable data columns start after "#" and "Player": column j - 2 is player j - 2.
            css = "self" if diagonal and j - 2 == i else "num" if is_right else ""
            attr = f' class="{css}"' if css else ""
            cells.append(f"<td{attr}>{_h(cell)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out += ["</tbody>", "</table>"]
    return out


#: The title of an HTML report unless one is given.
HTML_TITLE = "Tournament report"


def render_html(
    reports: Iterable[EventReport], title: str = HTML_TITLE, warnings: Sequence[str] = ()
) -> str:
    """One self-contained HTML page (inline CSS, no scripts, nothing fetched), with the
    ``warnings`` (see :func:`render_chunks`) at the top when there are any.

    Every value taken from a file is passed through :func:`html.escape`.
    """
    return "".join(_html_chunks(reports, title, warnings))


def _html_chunks(
    reports: Iterable[EventReport], title: str, warnings: Sequence[str] = ()
) -> Iterator[str]:
    reports = _first_read(reports)
    head = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        # Belt and braces: even if something slipped through, the page may load nothing.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">",
        f"<title>{_h(title)}</title>",
        f"<style>\n{_CSS}\n</style>",
        "</head>",
        "<body>",
        f"<h1>{_h(title)}</h1>",
    ]
    if warnings:
        head += ['<section class="warnings">', "<h2>Warnings</h2>", "<ul>"]
        head += [f"<li>{_h(warning)}</li>" for warning in warnings]
        head += ["</ul>", "</section>"]
    yield "\n".join(head)
    for report in reports:
        out = ["", "<section>", f"<h2>{_h(report.event)}</h2>", "<dl>"]
        out += [f"<dt>{_h(label)}</dt><dd>{_h(value)}</dd>" for label, value in _summary(report)]
        out.append("</dl>")
        for heading, table in _sections(report):
            out.append(f"<h3>{_h(heading)}</h3>")
            if isinstance(table, str):
                out.append(f"<p>{_h(table[0].upper() + table[1:])}.</p>")
            else:
                out += _html_table(table, diagonal=heading == "Crosstable")
        if report.notes:
            out += ["<h3>Notes</h3>", '<ul class="notes">']
            out += [f"<li>{_h(note)}</li>" for note in report.notes]
            out.append("</ul>")
        out.append("</section>")
        yield "\n".join(out)
    yield "\n</body>\n</html>\n"


def render(
    reports: Iterable[EventReport],
    fmt: str = "text",
    *,
    table: str = "standings",
    width: int | None = None,
    warnings: Sequence[str] = (),
) -> str:
    """Render in one of :data:`FORMATS` (``md`` is accepted for ``markdown``).

    ``table`` only matters for ``csv`` (see :func:`render_csv`); the other formats hold all
    the tables. ``warnings``: see :func:`render_chunks`.

    >>> render([], "json")
    '{\\n  "events": []\\n}'
    """
    return "".join(render_chunks(reports, fmt, table=table, width=width, warnings=warnings))


def render_chunks(
    reports: Iterable[EventReport],
    fmt: str = "text",
    *,
    table: str = "standings",
    width: int | None = None,
    warnings: Sequence[str] = (),
) -> Iterator[str]:
    """:func:`render` as pieces of text, one event at a time (with :func:`iter_reports`, a
    report of any size is written in constant memory). The format and table are checked at
    the call.

    ``warnings`` are sentences that HTML and Markdown pages state at their top (a published
    page must say what a terminal said on standard error: repeated games counted, inputs
    that are not PDN). They are read once the first event is built, that is once every
    record is read, so a list that the reading of the records fills is complete by then.
    Text, CSV and JSON leave them to the caller (the CLI says them on standard error).

    >>> "".join(render_chunks([], "csv", table="crosstable"))
    'event,player,opponent,games,score\\n'
    """
    name = {"md": "markdown", "txt": "text", "htm": "html"}.get(fmt.lower(), fmt.lower())
    if name == "csv":
        return _csv_chunks(reports, table)
    if name == "text":
        return _text_chunks(reports, width)
    if name == "markdown":
        return _markdown_chunks(reports, warnings)
    if name == "json":
        return _json_chunks(reports)
    if name == "html":
        return _html_chunks(reports, HTML_TITLE, warnings)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
