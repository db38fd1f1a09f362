"""The games of a report as records: each game's tags read as a :class:`GameRecord`, the
players named as first and second mover, and the points schemes and round names they are
counted and sorted by."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pdn.game import gametype
from pdn.text.results import parse_result as parse_outcome
from pdn.text.results import scores

BLACK = "Black"
WHITE = "White"

#: Points for a win, a draw and a loss.
DEFAULT_POINTS: tuple[float, float, float] = (1.0, 0.5, 0.0)

UNKNOWN = "?"
_DASH = " \u2013 "  # en dash between the two players of a game

_NO_RESULT = frozenset({"", "*", "?"})
_VALID_SCORES = frozenset({(1.0, 0.0), (0.0, 1.0), (0.5, 0.5), (0.0, 0.0)})


class TagSource(Protocol):
    """Anything with ``get(name, default)`` (a ``dict``, a ``Mapping``, ``pdn.game.model.Tags``)."""

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


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as a report sees it.

    ``first_score`` and ``second_score`` are on the 1 / 0.5 / 0 scale whatever the result
    family (``2-0`` gives ``1.0, 0.0``); both are ``None`` when the game is unplayed or its
    result unknown. ``result`` is the Result tag as written (without surrounding spaces).
    ``index`` is the 1-based number of the game in its input (in its file, for ``pdn report``),
    when known. ``material`` is the first and second mover's material (a man 1, a king 2) in
    the final position of the game's replayed main line, for Delft scoring
    (:mod:`pdn.study.tournament.delft`); ``None`` when it was not looked at, or is not known:
    ``material_unknown`` then says why.
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
    material: tuple[int, int] | None = None
    material_unknown: str = ""

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
        """A plain-dict form for JSON (``material`` only where it was looked at)."""
        out: dict[str, Any] = {
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
        if self.material is not None or self.material_unknown:
            out["material"] = None if self.material is None else list(self.material)
            out["material_unknown"] = self.material_unknown
        return out


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
    neither, English checkers is assumed: Black. :func:`pdn.game.gametype.first_mover` decides.

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
