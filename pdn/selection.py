"""Picking games out of collections: criteria on tags, moves, positions and verdicts.

A :class:`Selection` holds the conditions; :func:`select_games` streams the games of some files
that meet all of them (or none of them, with ``invert``), in order, each with its text exactly as
read. The work done per game is only what the conditions need, cheapest first:

* tags (players, event, dates, result, GameType) are read without parsing the movetext
  (:class:`~pdn.visitor.HeadersOnly`);
* the move count, a missing Result tag or GameType need the game parsed, not replayed;
* positions (``fen``, ``fen_pattern``, ``ballot``, ``material``, ``moves``) and the
  validation verdict (``clean``, ``broken``, ``cut_at_error``) read the game's replay under the
  rules ``pdn validate`` chooses (:class:`pdn.replays.Replays`: the GameType, else the guess,
  retried when it fails, the earlier games of the file breaking a tie), so that a position
  ``pdn convert`` writes is found, and a game ``pdn validate`` calls clean is kept by ``clean``.

Games are written as read: the text of a selected game is the reader's
:class:`~pdn.cutting.RawGame` text, so nothing is reformatted or lost.

>>> import io
>>> text = '[Black "Ann"][White "Bob"][Result "1-0"]\\n1. 11-15 23-19 1-0\\n\\n'
>>> text += '[Black "Cy"][White "Ann"][Result "2-0"]\\n1. 9-13 22-18 2-0\\n'
>>> chosen = Selection(black=re.compile("ann", re.I), results=parse_results(["1-0"]))
>>> [picked.line for picked in select_games([io.StringIO(text)], chosen)]
[1]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pdn.engine import Color, FenError, Position, Variant, board_for

from .batch import Input, display_name, is_json, iter_games
from .cutting import RawGame
from .gametype import GameType, first_colour, game_type_of, variant_name
from .model import Game, Tags
from .openings import Opening, classify
from .parsing import accept_raw
from .problems import Problem
from .reader import parse_game, parse_raw, split_games
from .replays import Replays
from .results import Outcome, parse_result
from .validation import ERROR_STATUSES, Report, validate
from .visitor import HeadersOnly
from .writer import write_game

__all__ = [
    "AsRead",
    "Comparison",
    "DatePart",
    "Material",
    "OnProblem",
    "Pattern",
    "Picked",
    "Selection",
    "cut_at_error",
    "date_span",
    "games_as_read",
    "line_position",
    "opening_of",
    "parse_date_bound",
    "parse_line",
    "parse_material",
    "parse_pattern",
    "parse_results",
    "parse_where",
    "select_games",
]

Verdict = Literal["clean", "broken"]


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


# --------------------------------------------------------------------------------- replay


def _positions(report: Report) -> Iterator[Position]:
    """The start position, then the position after each mainline ply or setup, as the replay
    reached them (what ``pdn convert --to fen`` and ``--to csv`` write)."""
    if report.start is None:
        return
    yield report.start
    for step in report.mainline_steps():
        if step.after is None:
            return
        yield step.after


#: The plies replayed first where the rules are certain (then four times as many, and so on).
_FIRST_PLIES = 8


class _Mainline:
    """The mainline positions of a game's replay, as far as a condition reads them: from its
    whole replay, or where its rules are certain (no retry can change them) from replays of
    ever longer beginnings of the game, which reach the same positions."""

    __slots__ = ("_game", "_replays", "report")

    def __init__(
        self, report: Report, game: Game | None = None, replays: Replays | None = None
    ) -> None:
        self.report = report  # the whole replay, or that of the first plies (game given)
        self._game = game
        self._replays = replays

    def positions(self) -> Iterator[Position]:
        """The start, then the position after each mainline ply or setup."""
        report, plies, done = self.report, _FIRST_PLIES, 0
        game, replays = self._game, self._replays
        total = len(game.mainline_moves()) if game is not None else 0
        while True:
            new = 0
            for index, position in enumerate(_positions(report)):
                if index >= done:
                    new += 1
                    yield position
            done += new
            if game is None or replays is None or new == 0 or plies >= total:
                return
            plies *= 4
            report = replays.first_plies(game, plies)


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


def line_position(start: Position, moves: Sequence[str]) -> Position | None:
    """The position after playing ``moves`` from ``start`` (replayed by
    :func:`~pdn.validation.validate` under ``start``'s rules); ``None`` if one is not legal.

    >>> from pdn.engine import ENGLISH, Position
    >>> line_position(Position.start(ENGLISH), ["11-15", "23-19"]).fen()[:2]
    'B:'
    >>> line_position(Position.start(ENGLISH), ["11-15", "11-15"]) is None
    True
    """
    line = parse_game(f'[FEN "{start.fen()}"]\n{" ".join(moves)} *')
    report = validate(line, start.variant)
    if not report.complete or any(p.severity == "error" for p in report.all_problems):
        return None
    return report.final


def opening_of(game: Game, report: Report | None = None) -> Opening:
    """The game's ACF ballot (or other opening kind), from its replay ``report`` (validated
    here when not given): :func:`pdn.openings.classify`.

    >>> import pdn
    >>> opening_of(pdn.parse_game("1. 11-15 22-17 2. 9-14 *")).label
    'ACF 38: 9-14 22-17 11-15 (transposed)'
    """
    return classify(game, report)


def _counts(position: Position) -> tuple[int, int, int, int]:
    """Men and pieces of Black, then of White: none of them ever grows during a game."""
    black_men = (position.black & ~position.kings).bit_count()
    white_men = (position.white & ~position.kings).bit_count()
    return black_men, position.black.bit_count(), white_men, position.white.bit_count()


def _reachable(position: Position, need: tuple[int, int, int, int]) -> bool:
    return all(have >= want for have, want in zip(_counts(position), need, strict=True))


# ------------------------------------------------------------------------------- selection


@dataclass(slots=True)
class Selection:
    """The conditions a game must meet (all of them; ``invert`` keeps those that do not).

    Regular expressions are searched anywhere in the value (``re.search``); compile them as
    you like (the command line makes them case-insensitive). A condition left ``None`` (or
    empty) is not checked.
    """

    tags: list[tuple[str, re.Pattern[str]]] = field(default_factory=list)
    where: list[Comparison] = field(default_factory=list)
    where_any: bool = False  # one --where is enough (they are ORed), not all of them
    player: re.Pattern[str] | None = None
    black: re.Pattern[str] | None = None
    white: re.Pattern[str] | None = None
    event: re.Pattern[str] | None = None
    date_from: DatePart | None = None
    date_to: DatePart | None = None
    results: frozenset[Outcome] | None = None
    variant: str | None = None
    min_plies: int | None = None
    max_plies: int | None = None
    ballot: int | None = None
    fen: str | None = None
    fen_pattern: Pattern | None = None
    material: tuple[Material, Material, bool] | None = None
    material_at_any: tuple[Material, Material, bool] | None = None
    moves: tuple[str, ...] | None = None  # a line of play (parse_line); positions compared
    mark: bool = False  # a comment at the ply where each position condition was met
    verdict: Verdict | None = None
    invert: bool = False
    first: int | None = None
    cut_at_error: bool = False
    _targets: dict[str, Position | None] = field(default_factory=dict, repr=False)
    _lines: dict[tuple[str, str], Position | None] = field(default_factory=dict, repr=False)
    #: The replays of the games, under the rules pdn validate chooses (see pdn.replays.Replays).
    _replays: Replays = field(default_factory=Replays, repr=False)

    def has_tag_conditions(self) -> bool:
        """Whether a condition reads tags (players, event, dates, result, variant)."""
        return (
            bool(self.tags)
            or bool(self.where)
            or any(
                c is not None
                for c in (
                    self.player,
                    self.black,
                    self.white,
                    self.event,
                    self.date_from,
                    self.date_to,
                    self.results,
                    self.variant,
                )
            )
        )

    def needs_game(self) -> bool:
        """Whether a condition looks past the tags (then every game is parsed)."""
        return (
            self.min_plies is not None
            or self.max_plies is not None
            or self.needs_positions()
            or self.verdict is not None
            or self.cut_at_error
        )

    def may_parse(self) -> bool:
        """Whether some game may be parsed: a condition past the tags, or one on the result
        or the variant, which a game without the tag answers from its moves."""
        return self.needs_game() or self.results is not None or self.variant is not None

    def replays_games(self) -> bool:
        """Whether a condition replays games (positions, the verdict, the cut at an error)."""
        return self.needs_positions() or self.verdict is not None or self.cut_at_error

    def replay(self, game: Game, file: str | None = None) -> Report:
        """The replay of ``game``, the next game of ``file``, as ``pdn validate`` replays it
        (the games of each file come here in order, or to :meth:`skip`); without ``file``,
        a game on its own, with no earlier games to go by."""
        if file is None:
            return validate(game)
        return self._replays.of(game, file)

    def skip(self, game: RawGame | Game, file: str) -> None:
        """Note a game of ``file`` that was not replayed (for the later games' rules)."""
        self._replays.skip(game, file)

    def needs_positions(self) -> bool:
        """Whether a condition replays moves."""
        return any(
            c is not None
            for c in (
                self.ballot,
                self.fen,
                self.fen_pattern,
                self.material,
                self.material_at_any,
                self.moves,
            )
        )

    # --- by tags -------------------------------------------------------------------------

    def tags_match(self, tags: Tags) -> bool | None:
        """The verdict of the tag conditions; ``None`` when one needs the game (no Result or
        GameType tag to decide by)."""
        if self.tags:
            pairs = [(name.casefold(), value) for name, value in tags.items()]
            for wanted, regex in self.tags:
                folded = wanted.casefold()  # `--tag event=...` means the Event tag
                if not any(regex.search(value) for name, value in pairs if name == folded):
                    return False
        if self.where:
            held = (comparison.holds_in(tags) for comparison in self.where)
            if not (any(held) if self.where_any else all(held)):
                return False
        black, white = tags.get("Black") or "", tags.get("White") or ""
        if self.player is not None and not (self.player.search(black) or self.player.search(white)):
            return False
        if self.black is not None and not self.black.search(black):
            return False
        if self.white is not None and not self.white.search(white):
            return False
        if self.event is not None and not self.event.search(tags.get("Event") or ""):
            return False
        if (self.date_from or self.date_to) and not self._date_fits(tags.get("Date")):
            return False
        undecided = False
        if self.results is not None:
            result = tags.get("Result")
            if result is None:
                undecided = True
            elif parse_result(result) not in self.results:
                return False
        if self.variant is not None:
            game_type = game_type_of(tags.get("GameType"))
            if game_type is None:
                undecided = True
            elif variant_name(game_type.number) != self.variant:
                return False
        return None if undecided else True

    def _date_fits(self, text: str | None) -> bool:
        span = date_span(text)
        if span is None:
            return False
        first, last = span
        if self.date_from is not None and last < self.date_from:
            return False
        return not (self.date_to is not None and first > self.date_to)

    # --- by the game ---------------------------------------------------------------------

    def game_matches(self, game: Game, file: str | None = None) -> bool:
        """The conditions that need the parsed game, its replay or its verdict (the tag
        conditions are :meth:`tags_match`'s); ``game`` is the next game of ``file`` (see
        :meth:`replay`)."""
        if self.results is not None and parse_result(game.result) not in self.results:
            return False
        if self.variant is not None and game.variant != self.variant:
            return False
        if self.min_plies is not None or self.max_plies is not None:
            plies = len(game.mainline_moves())
            if self.min_plies is not None and plies < self.min_plies:
                return False
            if self.max_plies is not None and plies > self.max_plies:
                return False
        if self.ballot is not None and not self._ballot_fits(game, file):
            return False
        if self.marks(game, file) is None:
            return False
        if self.verdict is not None:
            status = self.replay(game, file).status
            if self.verdict == "broken" and status not in ERROR_STATUSES:
                return False
            if self.verdict == "clean" and status != "ok":
                return False
        return True

    def _ballot_fits(self, game: Game, file: str | None) -> bool:
        # The first three plies are enough where no retry can change the rules.
        replays = self._replays
        certain = replays.certain(game)
        report = replays.first_plies(game, 3) if certain else self.replay(game, file)
        opening = opening_of(game, report)
        return opening.kind == "ballot" and opening.number == self.ballot

    def _target(self, variant: Variant) -> Position | None:
        if variant.name not in self._targets:
            try:
                assert self.fen is not None
                self._targets[variant.name] = Position.from_fen(self.fen, variant)
            except FenError:
                self._targets[variant.name] = None
        return self._targets[variant.name]

    def marks(self, game: Game, file: str | None = None) -> dict[int, list[str]] | None:
        """Where the conditions on positions (``moves``, ``fen``, ``fen_pattern``,
        ``material``, ``material_at_any``) are met in the replay of ``game`` (the next game
        of ``file``, see :meth:`replay`): the index of the position (0 the start, then after
        each mainline move or setup) and the options met there; ``None`` when one of them is
        not met."""
        found: dict[int, list[str]] = {}
        checks: list[tuple[str, Callable[[_Mainline], int | None]]] = []
        if self.moves is not None:
            checks.append(("--moves", self._line_at))
        if self.fen is not None:
            checks.append(("--fen", self._fen_at))
        if self.fen_pattern is not None:
            pattern = self.fen_pattern
            checks.append(("--fen-pattern", lambda g: self._pattern_at(g, pattern)))
        if self.material_at_any is not None:
            spec = self.material_at_any
            checks.append(("--material-at-any", lambda g: _material_at(g, spec, anywhere=True)))
        if self.material is not None:
            final = self.material
            checks.append(("--material", lambda g: _material_at(g, final, anywhere=False)))
        if not checks:
            return found
        replays = self._replays
        # --material reads the final position: the whole replay, whatever the rules.
        if replays.certain(game) and self.material is None:
            line = _Mainline(replays.first_plies(game, _FIRST_PLIES), game, replays)
        else:
            line = _Mainline(self.replay(game, file))
        for option, check in checks:
            ply = check(line)
            if ply is None:
                return None
            found.setdefault(ply, []).append(option)
        return found

    def _line_at(self, line: _Mainline) -> int | None:
        assert self.moves is not None
        variant, start = line.report.variant, line.report.start
        if variant is None or start is None:
            return None
        where = (variant.name, start.fen())
        if where not in self._lines:
            self._lines[where] = line_position(start, self.moves)
        target = self._lines[where]
        if target is None:
            return None
        # Positions after as many plies as the line has: a transposition reaches the same one.
        ply = len(self.moves)
        for index, position in enumerate(line.positions()):
            if index == ply:
                return ply if position.key() == target.key() else None
        return None

    def _fen_at(self, line: _Mainline) -> int | None:
        variant = line.report.variant
        target = None if variant is None else self._target(variant)
        if target is None:
            return None
        key = target.key()
        need = _counts(target)
        for ply, position in enumerate(line.positions()):
            if position.key() == key:
                return ply
            if not _reachable(position, need):
                return None
        return None

    def _pattern_at(self, line: _Mainline, pattern: Pattern) -> int | None:
        variant = line.report.variant
        if variant is None:
            return None
        try:
            black_men, black_kings, white_men, white_kings = pattern.masks(variant)
        except IndexError:
            return None  # a square this board does not have
        need = (
            black_men.bit_count(),
            (black_men | black_kings).bit_count(),
            white_men.bit_count(),
            (white_men | white_kings).bit_count(),
        )
        for ply, p in enumerate(line.positions()):
            if (
                (pattern.turn is None or p.turn is pattern.turn)
                and p.black & ~p.kings & black_men == black_men
                and p.black & p.kings & black_kings == black_kings
                and p.white & ~p.kings & white_men == white_men
                and p.white & p.kings & white_kings == white_kings
            ):
                return ply
            if not _reachable(p, need):
                return None
        return None


def _by_colour(
    spec: tuple[Material, Material, bool], variant: Variant, game_type: GameType | None
) -> tuple[Material, Material]:
    """The material Black's side and White's side must have."""
    first, second, by_colour = spec
    if not by_colour and first_colour(variant, game_type) is Color.WHITE:
        return second, first
    return first, second


def _has(position: Position, black: Material, white: Material) -> bool:
    black_men, black_pieces, white_men, white_pieces = _counts(position)
    return black.fits(black_men, black_pieces - black_men) and white.fits(
        white_men, white_pieces - white_men
    )


def _least(material: Material) -> tuple[int, int]:
    """The fewest men and pieces a side may have and still come to ``material``."""
    if material.total is not None:
        return 0, material.total
    men = material.men or 0
    return men, men + (material.kings or 0)


def _material_at(
    line: _Mainline, spec: tuple[Material, Material, bool], *, anywhere: bool
) -> int | None:
    """The first position with this material (``anywhere``), or the final one if it has it."""
    last: tuple[int, Position] | None = None
    need: tuple[int, int, int, int] | None = None
    for ply, position in enumerate(line.positions()):
        if need is None:
            black, white = _by_colour(spec, position.variant, line.report.game.game_type)
            need = (*_least(black), *_least(white))
        if anywhere:
            if _has(position, black, white):
                return ply
            if not _reachable(position, need):
                return None  # men and pieces never grow back
        last = ply, position
    if anywhere or last is None:
        return None
    return last[0] if _has(last[1], black, white) else None


# ----------------------------------------------------------------------------- streaming


@dataclass(slots=True)
class Picked:
    """A selected game: where it comes from and its text to write (as read, or cut)."""

    file: str
    index: int
    line: int
    text: str
    cut: bool = False  # written up to its first error, the rest in a comment
    marked: bool = False  # a comment added where the conditions on positions were met


def cut_at_error(raw: RawGame, game: Game, report: Report | None = None) -> str | None:
    """The game's text up to its first mainline error (an illegal move or a reading error
    in the movetext), the rest kept word for word in ``;`` comment lines, then the game's
    terminator; ``None`` when the mainline has no error in the movetext. ``report`` is the
    game's replay (validated here when not given).

    Line comments are used because the rest may hold ``}``, which would end a ``{`` comment.
    """
    if report is None:
        report = validate(game)
    places = [
        (p.line, p.column, p.code, p.message)
        for p in [*game.errors, *report.problems]
        if p.severity == "error" and not p.variation and p.line is not None
    ]
    if not places:
        return None
    line, column, code, message = min(places, key=lambda place: (place[0], place[1] or 1))
    at = _offset(raw, line, column or 1)
    body = raw.body_at if raw.body_at >= 0 else len(raw.text)
    if at is None or at < body:
        return None
    # The move number written before the move goes with it, into the comment.
    number = _MOVE_NUMBER.search(raw.text, body, at)
    cut = number.start() if number is not None else at
    head = raw.text[:cut].rstrip()
    rest = raw.text[cut:].rstrip("\n").split("\n")
    notes = [f"; pdn: cut at {line}:{column or 1}, {code}: {' '.join(message.split())}"]
    notes += [f"; {part}" if part else ";" for part in rest]
    return "\n".join([head, *notes, game.terminator or "*"]) + "\n"


_MOVE_NUMBER = re.compile(r"[0-9]+\s*\.+\s*$")


def _offset(raw: RawGame, line: int, column: int) -> int | None:
    """Where an absolute (line, column) falls in ``raw.text``."""
    if line < raw.line:
        return None
    at = 0
    for _ in range(line - raw.line):
        at = raw.text.find("\n", at) + 1
        if at == 0:
            return None
    at += column - (raw.column if line == raw.line else 1)
    return at if 0 <= at <= len(raw.text) else None


def _mark_text(options: list[str]) -> str:
    return "select: " + ", ".join(options)


def _marked_raw(raw: RawGame, game: Game, marks: dict[int, list[str]]) -> str | None:
    """The text as read with a ``{select: ...}`` comment after each marked move (before the
    first move for the start position); ``None`` when a place cannot be found in the text."""
    nodes = [None, *game.mainline()]
    places: list[tuple[int, str]] = []
    for ply, options in marks.items():
        comment = "{" + _mark_text(options) + "}"
        node = nodes[ply] if ply < len(nodes) else None
        if ply == 0:
            if raw.body_at < 0:
                return None
            places.append((raw.body_at, comment + " "))
            continue
        if node is None or node.line is None or node.column is None:
            return None
        at = _offset(raw, node.line, node.column)
        written = node.move if node.move is not None else None
        if at is None or written is None or not raw.text.startswith(written, at):
            return None  # a setup command, or a move written unlike its text
        at += len(written)
        if node.strength and raw.text.startswith(node.strength, at):
            at += len(node.strength)  # the mark stays glued to its move
        places.append((at, " " + comment))
    text = raw.text
    for at, insert in sorted(places, reverse=True):
        text = text[:at] + insert + text[at:]
    return text


def _marked_game(game: Game, marks: dict[int, list[str]]) -> Game:
    """A copy of ``game`` with a comment after each marked mainline node."""
    import copy

    from .model import Comment

    marked = copy.deepcopy(game)
    nodes = [marked.root, *marked.mainline()]
    for ply, options in marks.items():
        if ply < len(nodes):
            nodes[ply].comments_after.append(Comment(_mark_text(options)))
    return marked


def _with_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


#: What a source gives per game: its text as read (PDN) or its model (a JSON record).
AsRead = tuple[RawGame | None, Game | None]
#: Told (file name, problem) when a source is not PDN at all.
OnProblem = Callable[[str, Problem], None]


def games_as_read(
    source: Input,
    on_problem: OnProblem | None = None,
    *,
    scan: bool = True,
    encoding: str | None = None,
) -> Iterator[AsRead]:
    """Each game of a source as read, cheaply: ``(raw, None)`` for PDN (cut, not parsed),
    ``(None, game)`` for a JSON record. A source that is not text at all gives no game, and
    ``on_problem`` hears why. ``scan=False`` skips the file's scan for the board its games
    agree on (:mod:`pdn.detection`), for callers that never parse a game. ``encoding`` forces
    the codec of PDN bytes (else it is detected)."""
    if is_json(source):
        for game in iter_games(source):
            # JSON that is not game records (a validate report...) is told as binary PDN is.
            unreadable = next((p for p in game.errors if p.code == "not-pdn"), None)
            if unreadable is not None:
                if on_problem is not None:
                    on_problem(display_name(source), unreadable)
                continue
            yield None, game
        return
    for raw in split_games(source, scan=scan, encoding=encoding):
        if raw.problem is not None:
            if on_problem is not None:
                on_problem(display_name(source), raw.problem)
            continue
        yield raw, None


def select_games(
    sources: Iterable[Input],
    selection: Selection,
    *,
    on_problem: OnProblem | None = None,
    encoding: str | None = None,
) -> Iterator[Picked]:
    """The games of ``sources`` that meet ``selection``, streaming, in input order.

    Only what the conditions need is done per game (see the module docstring). JSON inputs
    are written back as PDN; PDN games are written as read, unless ``cut_at_error`` cuts
    them. ``encoding``: see :func:`games_as_read`.
    """
    chosen = 0
    for source in sources:
        name = display_name(source)
        scan = selection.may_parse()
        replays = selection.replays_games()
        for raw, parsed in games_as_read(source, on_problem, scan=scan, encoding=encoding):
            if selection.first is not None and chosen >= selection.first:
                return
            replayed = selection._replays.replayed
            game = parsed
            decided: bool | None = None
            if raw is not None:
                decided = (
                    selection.tags_match(accept_raw(raw, HeadersOnly()))
                    if selection.has_tag_conditions()
                    else True
                )
                if decided is True and selection.needs_game():
                    decided = None
            if decided is None:
                if game is None:
                    assert raw is not None
                    game = parse_raw(raw)
                decided = selection.tags_match(game.tags) is not False and (
                    selection.game_matches(game, name)
                )
            picked = None if decided == selection.invert else _picked(name, raw, game, selection)
            if replays and selection._replays.replayed == replayed:
                # Not replayed: its verdict may still count for a later game's rules.
                item = game if game is not None else raw
                assert item is not None
                selection.skip(item, name)
            if picked is not None:
                chosen += 1
                yield picked


def _picked(name: str, raw: RawGame | None, game: Game | None, selection: Selection) -> Picked:
    if selection.mark:
        game = game or parse_raw(raw) if raw is not None else game
        assert game is not None
        marks = selection.marks(game, name)
        if marks:
            text = None if raw is None else _marked_raw(raw, game, marks)
            if text is None:
                text = write_game(_marked_game(game, marks))
            line, index = (game.line, game.index) if raw is None else (raw.line, raw.index)
            return Picked(name, index, line, _with_newline(text), marked=True)
    if raw is None:
        assert game is not None
        return Picked(name, game.index, game.line, _with_newline(write_game(game)))
    if selection.cut_at_error:
        game = game or parse_raw(raw)
        cut = cut_at_error(raw, game, selection.replay(game, name))
        if cut is not None:
            return Picked(name, raw.index, raw.line, cut, cut=True)
    return Picked(name, raw.index, raw.line, _with_newline(raw.text))
