"""The conditions of ``pdn select`` as written: dates, ``--where`` comparisons, results,
material, patterns of squares and lines of moves, each read into a record (``ValueError`` when
it cannot be read), with the tests on tag values that need no game.

>>> parse_where("WhiteRating>=1950").holds("2010"), date_span("1990.??.??")[1]
(True, (1990, 12, 31))
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from pdn.engine import Color, Variant, board_for
from pdn.game.model import Tags
from pdn.reading.reader import parse_game
from pdn.text.results import Outcome, parse_result

#: A date as ``(year, month, day)``.
DatePart = tuple[int, int, int]

# ------------------------------------------------------------------------------------ dates

_DATE = re.compile(r"\s*([0-9?]{4})(?:[.\-/]([0-9?]{1,2}))?(?:[.\-/]([0-9?]{1,2}))?\s*")


def _span_of(text: str, low: int, high: int) -> tuple[int, int] | None:
    """The values a date part may stand for: ``??`` is any, ``1?`` is 10-19 (clipped)."""
    if not text or set(text) == {"?"}:
        return low, high
    first = int(text.replace("?", "0"))
    last = int(text.replace("?", "9"))
    if last < low or first > high:
        return None
    return max(first, low), min(last, high)


def date_span(text: str | None) -> tuple[DatePart, DatePart] | None:
    """The first and last day a PDN date may stand for; ``None`` when its year is unknown or
    it cannot be read.

    ``?`` parts widen the span: ``1990.??.??`` is all of 1990, ``19??`` the century's years.
    Dots, hyphens (OCA's ``1990-??-??``) and slashes separate the parts.

    >>> date_span("1990.??.??"), date_span("1990-06-1?"), date_span("????.??.??")
    (((1990, 1, 1), (1990, 12, 31)), ((1990, 6, 10), (1990, 6, 19)), None)
    """
    if text is None:
        return None
    match = _DATE.fullmatch(text)
    if match is None or "?" in match.group(1)[:2]:
        return None
    years = _span_of(match.group(1), 0, 9999)
    months = _span_of(match.group(2) or "", 1, 12)
    days = _span_of(match.group(3) or "", 1, 31)
    if years is None or months is None or days is None:
        return None
    return (years[0], months[0], days[0]), (years[1], months[1], days[1])


def parse_date_bound(text: str, *, upper: bool) -> DatePart:
    """A ``--date-from`` (``upper=False``) or ``--date-to`` bound: a partial date stands for
    its first day, or its last day for an upper bound. ``ValueError`` if it cannot be read.

    >>> parse_date_bound("1990", upper=False), parse_date_bound("1990.06", upper=True)
    ((1990, 1, 1), (1990, 6, 31))
    """
    span = date_span(text)
    if span is None:
        raise ValueError(f"{text!r} is not a date (YYYY, YYYY.MM or YYYY.MM.DD, ? allowed)")
    return span[1] if upper else span[0]


# ------------------------------------------------------------------------- tag comparisons

_WHERE = re.compile(r"\s*([A-Za-z0-9_]+)\s*(<=|>=|!=|==|=|<|>)\s*(.*?)\s*", re.DOTALL)
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_DATE_LIKE = re.compile(r"[0-9?]{4}[.\-/][0-9?]{1,2}(?:[.\-/][0-9?]{1,2})?")


def _is_date_tag(name: str) -> bool:
    return name.casefold().endswith("date")  # Date, EventDate, and the like


@dataclass(frozen=True, slots=True)
class Comparison:
    """``--where``: a tag compared with a value, as numbers, as PDN dates or as text.

    ``kind`` is ``"number"`` when the value is a number (and the tag is not a date tag),
    ``"date"`` for a tag whose name ends in ``Date`` or a value written as a date, else
    ``"text"`` (compared case-insensitively). A date with ``?`` parts stands for every day it
    could be, and meets the comparison when one of them does (as ``--date-from`` does):
    ``Date>=1990.06`` keeps ``1990.??.??``; ``!=`` is exactly the opposite of ``=``. A tag
    that is missing, or that cannot be read the way ``kind`` asks (a rating ``?`` against a
    number, a date of unknown year), meets no comparison, ``!=`` included.

    >>> rated = parse_where("WhiteRating>=1950")
    >>> rated.holds("2010"), rated.holds("1800"), rated.holds("?"), rated.holds(None)
    (True, False, False, False)
    >>> dated = parse_where("Date<1990")
    >>> dated.holds("1989.12.31"), dated.holds("19??.??.??"), dated.holds("1990.??.??")
    (True, True, False)
    """

    name: str
    op: str
    value: str
    kind: Literal["number", "date", "text"]

    def holds(self, text: str | None) -> bool:
        """Whether a tag value (``None``: the tag is missing) meets the comparison."""
        if text is None:
            return False
        if self.kind == "number":
            if _NUMBER.fullmatch(text.strip()) is None:
                return False
            return _ordered(self.op, float(text), float(self.value))
        if self.kind == "date":
            span = date_span(text)
            bound = date_span(self.value)
            if span is None or bound is None:
                return False
            return _dates_hold(self.op, span, bound)
        return _ordered(self.op, text.strip().casefold(), self.value.casefold())

    def holds_in(self, tags: Tags) -> bool:
        """Whether one of the values of this tag (its name in any case) meets it."""
        folded = self.name.casefold()
        return any(self.holds(value) for name, value in tags.items() if name.casefold() == folded)


def _ordered(op: str, have: float | str, want: float | str) -> bool:
    if op == "=":
        return have == want
    if op == "!=":
        return have != want
    if op == "<":
        return have < want  # type: ignore[operator]
    if op == "<=":
        return have <= want  # type: ignore[operator]
    if op == ">":
        return have > want  # type: ignore[operator]
    return have >= want  # type: ignore[operator]


def _dates_hold(op: str, span: tuple[DatePart, DatePart], bound: tuple[DatePart, DatePart]) -> bool:
    # Some day the game's date may stand for against some day of the bound's span.
    first, last = span
    low, high = bound
    overlap = first <= high and low <= last
    if op == "=":
        return overlap
    if op == "!=":
        return not overlap
    if op == "<":
        return first < low
    if op == "<=":
        return first <= high
    if op == ">":
        return last > high
    return last >= low


def parse_where(text: str) -> Comparison:
    """``--where NAME OP VALUE`` with OP one of ``= != < <= > >=`` (``==`` is ``=``); the
    value may be quoted. ``ValueError`` when it cannot be read.

    >>> parse_where('Event = "Open 2004"')
    Comparison(name='Event', op='=', value='Open 2004', kind='text')
    >>> parse_where("EventDate>=1990").kind
    'date'
    """
    match = _WHERE.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not NAME OP VALUE (OP one of = != < <= > >=)")
    name, op, value = match.groups()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    elif value[:1] in ("<", ">", "=", "!"):
        raise ValueError(f"{text!r}: {op}{value[0]} is no operator (quote a value starting so)")
    if not value:
        raise ValueError(f"{text!r}: no value to compare {name} with")
    op = "=" if op == "==" else op
    if _is_date_tag(name) or _DATE_LIKE.fullmatch(value):
        if date_span(value) is None:
            raise ValueError(f"{text!r}: {value!r} is not a date (YYYY, YYYY.MM or YYYY.MM.DD)")
        return Comparison(name, op, value, "date")
    if _NUMBER.fullmatch(value):
        return Comparison(name, op, value, "number")
    return Comparison(name, op, value, "text")


# ---------------------------------------------------------------------------------- results

_RESULT_WORDS = {
    "draw": Outcome.DRAW,
    "*": Outcome.UNKNOWN,
    "unknown": Outcome.UNKNOWN,
    "first-wins": Outcome.FIRST_WINS,
    "second-wins": Outcome.SECOND_WINS,
    "both-lose": Outcome.BOTH_LOSE,
}


def parse_results(texts: Iterable[str]) -> frozenset[Outcome]:
    """The outcomes ``--result`` values stand for: a result of either family (``1-0`` and
    ``2-0`` both mean the first mover won), ``draw``, ``unknown`` (or ``*``), ``first-wins``,
    ``second-wins``, ``both-lose``. ``ValueError`` for anything else.

    >>> sorted(o.value for o in parse_results(["2-0", "draw"]))
    ['draw', 'first-wins']
    """
    outcomes = set()
    for text in texts:
        word = _RESULT_WORDS.get(text.strip().lower())
        outcome = word if word is not None else parse_result(text)
        if outcome is Outcome.UNKNOWN and word is None:
            raise ValueError(f"{text!r} is not a result (1-0, 0-1, 2-0, 1-1, draw, unknown...)")
        outcomes.add(outcome)
    return frozenset(outcomes)


# --------------------------------------------------------------------------------- material

_SIDE = re.compile(r"([BW]?)((?:[0-9]+[MK]?)+)", re.IGNORECASE)
_COUNT = re.compile(r"([0-9]+)([MK]?)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Material:
    """Piece counts one side must have: ``total`` alone, or exact ``men`` and ``kings``."""

    men: int | None = None
    kings: int | None = None
    total: int | None = None

    def fits(self, men: int, kings: int) -> bool:
        """Whether a side with these men and kings has this material."""
        if self.total is not None:
            return men + kings == self.total
        return men == (self.men or 0) and kings == (self.kings or 0)


def _parse_side(text: str) -> tuple[str, Material]:
    match = _SIDE.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{text!r}: a side is counts such as 3K, 2M1K or 5")
    men = kings = total = None
    for number, kind in _COUNT.findall(match.group(2)):
        if kind.upper() == "K":
            kings = (kings or 0) + int(number)
        elif kind.upper() == "M":
            men = (men or 0) + int(number)
        else:
            total = (total or 0) + int(number)
    if total is not None and (men is not None or kings is not None):
        raise ValueError(f"{text!r}: give a total (5) or men and kings (2M3K), not both")
    return match.group(1).upper(), Material(men, kings, total)


def parse_material(text: str) -> tuple[Material, Material, bool]:
    """``--material``: ``FIRST:SECOND`` (first mover first, as results are read), or with
    colours ``W3K:B2K`` in any order. Returns (first or Black, second or White, by colour).

    ``3K`` is three kings and no men, ``2M1K`` two men and a king, ``5`` five pieces of
    any kind.

    >>> parse_material("3K:2K")
    (Material(men=None, kings=3, total=None), Material(men=None, kings=2, total=None), False)
    >>> parse_material("W1K:B2M")[0]
    Material(men=2, kings=None, total=None)
    """
    parts = text.split(":")
    if len(parts) != 2:
        raise ValueError(f"{text!r}: material is two sides, FIRST:SECOND (e.g. 3K:2K)")
    (one_colour, one), (two_colour, two) = (_parse_side(part) for part in parts)
    if bool(one_colour) != bool(two_colour) or (one_colour and one_colour == two_colour):
        raise ValueError(f"{text!r}: name both colours (W3K:B2K) or neither (3K:2K)")
    if not one_colour:
        return one, two, False
    return (one, two, True) if one_colour == "B" else (two, one, True)


# --------------------------------------------------------------------------------- patterns


@dataclass(frozen=True, slots=True)
class Pattern:
    """Squares that must hold given pieces (a partial FEN), and optionally the side to move."""

    turn: Color | None
    pieces: tuple[tuple[int, Color, bool], ...]  # (square, colour, king)

    def masks(self, variant: Variant) -> tuple[int, int, int, int]:
        """Bitboards of the men and kings required, Black's then White's."""
        bits = board_for(variant).bit
        masks = [0, 0, 0, 0]
        for square, colour, king in self.pieces:
            masks[int(colour) * 2 + king] |= bits[square]
        return masks[0], masks[1], masks[2], masks[3]


_SQUARE_ITEM = re.compile(r"(K?)([0-9]+)(?:-([0-9]+))?", re.IGNORECASE)


def parse_pattern(text: str) -> Pattern:
    """``--fen-pattern``: ``TURN:W<squares>:B<squares>`` as in a FEN, where TURN may be ``?``
    (either side) and either colour may be left out; only the squares given must match.

    >>> p = parse_pattern("?:W18,K22:B15")
    >>> p.turn, [(s, c.letter, k) for s, c, k in p.pieces]
    (None, [(18, 'W', False), (22, 'W', True), (15, 'B', False)])
    """
    parts = [part.strip() for part in text.strip().split(":")]
    if not parts or parts[0].upper() not in ("B", "W", "?"):
        raise ValueError(f"{text!r}: a pattern starts with the side to move (B, W or ?)")
    turn = {"B": Color.BLACK, "W": Color.WHITE}.get(parts[0].upper())
    pieces: list[tuple[int, Color, bool]] = []
    for part in parts[1:]:
        if not part or part[0].upper() not in "BW":
            raise ValueError(f"{text!r}: {part!r} must start with W or B")
        colour = Color.WHITE if part[0].upper() == "W" else Color.BLACK
        for item in filter(None, (i.strip() for i in part[1:].split(","))):
            match = _SQUARE_ITEM.fullmatch(item)
            if match is None:
                raise ValueError(f"{text!r}: {item!r} is not a square, K square or range")
            first = int(match.group(2))
            last = int(match.group(3) or first)
            if first < 1 or last < first:
                raise ValueError(f"{text!r}: {item!r} is no square or range of squares")
            pieces.extend((s, colour, bool(match.group(1))) for s in range(first, last + 1))
    return Pattern(turn, tuple(pieces))


def parse_line(text: str) -> tuple[str, ...]:
    """``--moves``: the mainline moves of a line of play written as PDN movetext (move
    numbers, comments and a terminator allowed, any notation the reader takes).
    ``ValueError`` when it holds no move, a setup command or a reading error.

    >>> parse_line("1. 11-15 23-19 2. 8-11 22-17")
    ('11-15', '23-19', '8-11', '22-17')
    """
    game = parse_game(text)
    errors = [p for p in game.errors if p.severity == "error"]
    if errors:
        raise ValueError(f"{text!r}: {errors[0].message}")
    if any(node.setup is not None for node in game.mainline()):
        raise ValueError(f"{text!r}: a line of moves cannot hold a setup command")
    moves = tuple(game.mainline_moves())
    if not moves:
        raise ValueError(f"{text!r} holds no move")
    return moves


# ------------------------------------------------------------------------------ game numbers


@dataclass(frozen=True, slots=True)
class Numbers:
    """``--games``: the numbers of the games to keep, as sorted, disjoint ranges."""

    spans: tuple[tuple[int, int], ...]

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and any(low <= number <= high for low, high in self.spans)

    @property
    def last(self) -> int:
        """The highest number kept: no later game can be."""
        return self.spans[-1][1]


def parse_numbers(text: str) -> Numbers:
    """``--games 5,10-20``: numbers and ranges of numbers from 1, in any order (``10-`` is
    10 on). ``ValueError`` when it cannot be read.

    >>> picked = parse_numbers("10-12, 5")
    >>> picked.spans, 11 in picked, 9 in picked, picked.last
    (((5, 5), (10, 12)), True, False, 12)
    """
    spans: list[tuple[int, int]] = []
    for item in (part.strip() for part in text.split(",")):
        low, dash, high = item.partition("-")
        if not low.strip().isdigit() or (high.strip() and not high.strip().isdigit()):
            raise ValueError(f"{text!r}: {item!r} is not a number or a range such as 10-20")
        first = int(low)
        last = int(high) if high.strip() else (2**63 if dash else first)
        if first < 1 or last < first:
            raise ValueError(f"{text!r}: {item!r} is no range of game numbers (from 1)")
        spans.append((first, last))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for first, last in spans:
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return Numbers(tuple(merged))
