"""What one game adds to the opening explorer's tree: the positions its mainline reached
(:class:`Reached`, the legal beginning of its replay), each named by one integer
(:func:`position_key`: variant, side to move, men and kings, Frisian's king-move runs), and
the moves between them, with its result, date and players (:class:`Line`, made by
:func:`line_of`). Small records, sent back by workers and added up by
:class:`pdn.study.explore.tree.Tree`.

>>> import pdn
>>> line = line_of(pdn.validate(pdn.parse_game("1. 11-15 23-19 2. 8-11 *")), depth=2)
>>> len(line.keys), key_position(line.keys[0]) == pdn.engine.Position.start(pdn.engine.ENGLISH)
(3, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdn.engine import VARIANTS, Color, Position, Variant
from pdn.engine import board_for as _board_for
from pdn.game.gametype import first_colour
from pdn.game.steps import Step
from pdn.text.results import Outcome, parse_result

from ..counts import DRAW, LOSS, UNKNOWN, WIN

if TYPE_CHECKING:
    from pdn.game.model import Game
    from pdn.rules.validation import Report

#: How many plies from its start each game adds by default (``--depth``).
DEFAULT_DEPTH = 30

#: The variants in a fixed order: a position key carries its variant's place in it.
VARIANT_ORDER: tuple[str, ...] = tuple(sorted(VARIANTS))
_VARIANT_INDEX: dict[str, int] = {name: i for i, name in enumerate(VARIANT_ORDER)}
#: The low bits of a position key that hold its variant; the next one is the side to move.
VARIANT_BITS = 4
assert len(VARIANT_ORDER) < 1 << VARIANT_BITS

# A game's result as the colours see it: the winner's colour, or one of these.
_DRAWN, _NOBODY, _BOTH_LOSE = 2, 3, 4

_DATE_RE = re.compile(r"\s*(\d{4})(?:[./-](\d{1,2}|\?\?)(?:[./-](\d{1,2}|\?\?))?)?")


# ----------------------------------------------------------------------------- keys


def _width(variant: Variant) -> int:
    return _board_for(variant).mask.bit_length()


def _run_widths(variant: Variant) -> tuple[int, int]:
    """The bits of a king-move run's square and count (both 0 without a king-move limit)."""
    if not variant.king_move_limit:
        return 0, 0
    return variant.squares.bit_length(), variant.king_move_limit.bit_length()


_WIDTHS: dict[str, tuple[int, int, int]] = {}


def _widths(variant: Variant) -> tuple[int, int, int]:
    widths = _WIDTHS.get(variant.name)
    if widths is None:
        widths = _WIDTHS[variant.name] = (_width(variant), *_run_widths(variant))
    return widths


def _runs(position: Position, square_bits: int, count_bits: int) -> int:
    """Frisian's king-move runs as one number, each side's reduced to what its legal moves
    can still depend on: a count above the limit is the limit, and a run whose king is gone
    (taken) or whose side has no man left (the limit binds only a player with men, and men
    never come back) is no run, as its next move would make it one anew."""
    board = _board_for(position.variant)
    limit = position.variant.king_move_limit
    number = 0
    for side, pieces in enumerate((position.black, position.white)):
        square, count = position.king_moves[2 * side : 2 * side + 2]
        if (
            not count
            or not 1 <= square <= board.squares
            or not board.bit[square] & pieces & position.kings
            or not pieces & ~position.kings
        ):
            square = count = 0
        number = (number << square_bits | square) << count_bits | min(count, limit)
    return number


def position_key(position: Position) -> int:
    """One integer naming ``position``: its variant, side to move, men and kings, and
    Frisian's king-move runs (:attr:`Position.king_moves`, which decide whether a king may
    move again): everything the legal moves from it depend on, and nothing else.

    >>> from pdn.engine import ENGLISH
    >>> key = position_key(Position.start(ENGLISH))
    >>> key_position(key) == Position.start(ENGLISH)
    True
    """
    variant = position.variant
    width, square_bits, count_bits = _widths(variant)
    packed = (position.kings << width | position.white) << width | position.black
    if square_bits:
        run_bits = 2 * (square_bits + count_bits)
        packed = packed << run_bits | _runs(position, square_bits, count_bits)
    packed = packed << 1 | int(position.turn)
    return packed << VARIANT_BITS | _VARIANT_INDEX[variant.name]


def key_position(key: int) -> Position:
    """The position :func:`position_key` named (its king-move runs as the key holds them)."""
    variant = VARIANTS[VARIANT_ORDER[key & ((1 << VARIANT_BITS) - 1)]]
    width, square_bits, count_bits = _widths(variant)
    packed = key >> VARIANT_BITS
    mask = (1 << width) - 1
    turn = Color(packed & 1)
    packed >>= 1
    runs: tuple[int, int, int, int] = (0, 0, 0, 0)
    if square_bits:
        count_mask, square_mask = (1 << count_bits) - 1, (1 << square_bits) - 1
        white_count = packed & count_mask
        packed >>= count_bits
        white_square = packed & square_mask
        packed >>= square_bits
        black_count = packed & count_mask
        packed >>= count_bits
        black_square = packed & square_mask
        packed >>= square_bits
        runs = (black_square, black_count, white_square, white_count)
    black, white, kings = packed & mask, packed >> width & mask, packed >> 2 * width
    return Position(variant, turn, black, white, kings, runs)


# ----------------------------------------------------------------------------- dates


def _date_number(text: str | None) -> int:
    """A Date tag as YYYYMMDD (an unknown month or day 0), 0 when it has no year."""
    match = _DATE_RE.match(text or "")
    if match is None:
        return 0
    year, month, day = match.groups()
    number = int(year) * 10000
    if month and month != "??":
        number += min(int(month), 99) * 100
        if day and day != "??":
            number += min(int(day), 99)
    return number


def date_text(number: int) -> str | None:
    """A date number back as a PDN date (``None`` for 0): ``19900600`` is ``1990.06.??``."""
    if not number:
        return None
    year, month, day = number // 10000, number // 100 % 100, number % 100
    return f"{year:04d}.{month:02d}.{day:02d}".replace(".00", ".??")


# ----------------------------------------------------------------------------- lines


@dataclass(frozen=True, slots=True)
class Line:
    """What one game adds to a tree: its variant, the keys of the positions its mainline
    reached legally within the depth (the start first; each once, in the order first
    reached), the moves between them as pairs of indices into ``keys``, its result as the
    colours see it, its date and players, why it stopped before the depth, if it did
    (``"illegal"``: a move that is not legal; ``"setup"``: a setup command), and where its
    rules came from (the replay's ``rules_source``: a GameType, or a guess)."""

    variant: str
    keys: tuple[int, ...]
    moves: tuple[tuple[int, int], ...]
    result: int
    date: int
    players: tuple[str, str]
    stopped: str | None = None
    rules: str = "gametype"


def _result_of(game: Game, variant: Variant) -> int:
    outcome = parse_result(game.result)
    if outcome is Outcome.DRAW:
        return _DRAWN
    if outcome is Outcome.BOTH_LOSE:
        return _BOTH_LOSE
    if outcome is Outcome.UNKNOWN:
        return _NOBODY
    first = first_colour(variant, game.game_type)
    return int(first if outcome is Outcome.FIRST_WINS else first.opponent)


class Reached:
    """The legal beginning of a replay's mainline, step by step (:meth:`steps`), as the
    explorer counts it: it stops at the first move that is not legal (``stopped`` is then
    ``"illegal"``) or setup command (``"setup"``), and after ``depth`` plies (``0``: none).

    >>> import pdn
    >>> reached = Reached(pdn.validate(pdn.parse_game("1. 11-15 23-19 2. 15-11 *")))
    >>> [step.node.move for step in reached.steps()], reached.stopped
    (['11-15', '23-19'], 'illegal')
    """

    __slots__ = ("depth", "report", "stopped")

    def __init__(self, report: Report, depth: int = 0) -> None:
        self.report = report
        self.depth = depth
        self.stopped: str | None = None

    def steps(self) -> Iterator[Step]:
        """The legal steps, in order (``stopped`` says why they end, once they have)."""
        depth = self.depth
        for ply, step in enumerate(self.report.mainline_steps(), 1):
            if depth and ply > depth:
                return
            if step.node.setup is not None:
                self.stopped = "setup"
                return
            if step.move is None or step.after is None:
                self.stopped = "illegal"
                return
            yield step


def line_of(report: Report, depth: int = DEFAULT_DEPTH, game: Game | None = None) -> Line | None:
    """What the game of ``report`` (its replay; ``game`` when the replay is of a copy cut
    short) adds to a tree built ``depth`` plies deep (``0``: whole games); ``None`` when its
    start could not be set up.

    >>> import pdn
    >>> line = line_of(pdn.validate(pdn.parse_game("1. 11-15 23-19 2. 8-11 *")), depth=2)
    >>> len(line.keys), line.moves, line.stopped
    (3, ((0, 1), (1, 2)), None)
    """
    variant, start = report.variant, report.start
    if variant is None or start is None:
        return None
    game = report.game if game is None else game
    index: dict[int, int] = {position_key(start): 0}
    moves: dict[tuple[int, int], None] = {}
    previous = 0
    reached = Reached(report, depth)
    for step in reached.steps():
        assert step.after is not None
        current = index.setdefault(position_key(step.after), len(index))
        moves[(previous, current)] = None
        previous = current
    tags = game.tags
    players = (tags.get("Black") or "", tags.get("White") or "")
    return Line(
        variant.name,
        tuple(index),
        tuple(moves),
        _result_of(game, variant),
        _date_number(tags.get("Date")),
        players,
        reached.stopped,
        report.rules_source,
    )


def result_column(result: int, turn: int) -> int:
    """The column of the counts (:mod:`pdn.study.counts`) a :class:`Line`'s ``result``
    adds to at a position where ``turn`` (a key's turn bit) is to move."""
    if result == _DRAWN:
        return DRAW
    if result == _NOBODY:
        return UNKNOWN
    if result == _BOTH_LOSE:
        return LOSS
    return WIN if result == turn else LOSS
