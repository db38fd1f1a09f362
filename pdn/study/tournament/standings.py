"""An event's standings from its records: tallies, the tie-breaks (:mod:`.tiebreaks`), the
crosstable, rounds, colours, ballots and notes, in an :class:`EventReport`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pdn.text.names import differences, similar_names
from pdn.text.results import CANONICAL

from .delft import MARGIN, delft_note, delft_scores
from .records import (
    _DASH,
    _NO_RESULT,
    DEFAULT_POINTS,
    UNKNOWN,
    GameRecord,
    _known,
    _natural_key,
    round_sort_key,
)
from .tiebreaks import DEFAULT_TIEBREAKS, TIEBREAKS

#: Above this many players in an event the crosstable is not laid out as a grid in text,
#: Markdown and HTML (it would have players x players cells: 4 million for 2,000 players) nor
#: as grids in JSON; a line says so, and CSV (``--table crosstable``) and JSON list the pairs.
CROSSTABLE_MAX_PLAYERS = 60

_SCHEME_INDEX = {1.0: 0, 0.5: 1, 0.0: 2}  # game score -> position in the points scheme


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
    truncated_solkoff: float = 0.0
    #: Delft scoring's points (:mod:`pdn.study.tournament.delft`), where the tie-break is chosen.
    delft: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict form for JSON (``delft`` where it was chosen)."""
        out: dict[str, Any] = {
            "buchholz": self.buchholz,
            "median_buchholz": self.median_buchholz,
            "truncated_solkoff": self.truncated_solkoff,
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
        if self.delft is not None:
            out["delft"] = self.delft
        return out


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
    #: The tie-breaks that order players equal on points, in order (:mod:`.tiebreaks`).
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS

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
            "tiebreaks": list(self.tiebreaks),
            # Like the crosstable's grids, left out of a very large event (the games by round
            # hold the same facts): 2,000 players would add a megabyte.
            "player_rounds": []
            if self.crosstable.folded
            else [entry.to_dict() for entry in self.player_rounds],
        }


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
    delft: int = 0


@dataclass(slots=True)
class _OpeningTally:
    games: int = 0
    first_wins: int = 0
    draws: int = 0
    second_wins: int = 0
    double_losses: int = 0
    unscored: int = 0


_FAMILIES = {
    family: frozenset(text for text in texts.values() if text not in ("*", "0-0"))
    for family, texts in CANONICAL.items()
}


def points_of_results(games: Iterable[GameRecord]) -> tuple[float, float, float]:
    """The points scheme the results are written in: 2-1-0 when every known result is of
    the ``2-0 / 1-1 / 0-2`` family, else 1-0.5-0 (:data:`DEFAULT_POINTS`).

    >>> from pdn.study.tournament.records import record_from_tags
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
        delft = delft_scores(game) or (0, 0)
        sides = (
            (game.first, game.second, game.first_score, delft[0]),
            (game.second, game.first, game.second_score, delft[1]),
        )
        for player, opponent, score, delft_points in sides:
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
            tally.delft += delft_points
    return tallies


def _standings(
    tallies: dict[str, _Tally], tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS
) -> tuple[StandingRow, ...]:
    # Rounded so that float noise from schemes like 3,1,0.3 cannot break a real tie.
    def sb_of(player: str) -> float:
        against = tallies[player].against
        return round(sum(score * tallies[opp].points for opp, score in against.items()), 9)

    delft = "delft" in tiebreaks

    unranked = [
        StandingRow(
            rank=0,
            player=player,
            games=tally.games,
            wins=tally.wins,
            draws=tally.draws,
            losses=tally.losses,
            points=round(tally.points, 9),
            sonneborn_berger=sb_of(player),
            unscored=tally.unscored,
            buchholz=_buchholz(tallies, player),
            median_buchholz=_buchholz(tallies, player, cut=(1, 1), least=3),
            truncated_solkoff=_buchholz(tallies, player, cut=(1, 0), least=2),
            delft=tally.delft if delft else None,
        )
        for player, tally in tallies.items()
    ]
    fields = [TIEBREAKS[name].field for name in tiebreaks]

    def merit(row: StandingRow) -> tuple[float, ...]:
        return (row.points, *(float(getattr(row, name)) for name in fields))

    ordered = sorted(
        unranked,
        key=lambda row: (tuple(-v for v in merit(row)), row.player.casefold(), row.player),
    )
    rows: list[StandingRow] = []
    previous: tuple[float, ...] | None = None
    for position, row in enumerate(ordered, start=1):
        rank = rows[-1].rank if merit(row) == previous else position
        previous = merit(row)
        rows.append(replace(row, rank=rank))
    return tuple(rows)


def _buchholz(
    tallies: dict[str, _Tally], player: str, *, cut: tuple[int, int] = (0, 0), least: int = 0
) -> float:
    """The sum of the points of the opponents of each scored game (an opponent met twice
    counts twice); with ``cut=(low, high)``, the ``low`` lowest and ``high`` highest of them
    left out when there are at least ``least`` games (median Buchholz: ``(1, 1)``, 3;
    truncated Solkoff: ``(1, 0)``, 2)."""
    values = sorted(tallies[opponent].points for opponent in tallies[player].opponents)
    low, high = cut
    if (low or high) and len(values) >= least:
        values = values[low : len(values) - high]
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
    event: str,
    games: Sequence[GameRecord],
    scheme: tuple[float, float, float],
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> EventReport:
    tallies = _tally_games(games, scheme)
    standings = _standings(tallies, tiebreaks)
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
    if "delft" in tiebreaks:
        notes.append(
            "Delft points: 4-0 a win, 2-2 a draw, 3-1 a draw with "
            f"{MARGIN} pieces or more ahead in the final position of its replayed moves "
            "(a man counts 1, a king 2)"
        )
        notes += [note for note in map(delft_note, games) if note is not None]
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
        tiebreaks=tuple(tiebreaks),
    )


def _num(value: float) -> str:
    # Plain decimals everywhere ("2.5", "2", "0.75"), never "2.0" or "1½".
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text
