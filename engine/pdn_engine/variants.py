"""The colours and the rule sets (variants) the engine knows.

A :class:`Variant` is a plain description of the rules; the move generator reads its flags, so a
new variant that only recombines existing rules (board size, flying kings, majority capture...)
needs a new record here and nothing else.

>>> get_variant("checkers") is ENGLISH
True
>>> RUSSIAN.flying_kings, ENGLISH.first_mover.name
(True, 'BLACK')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .pickling import pickle_by_fields


class Color(enum.IntEnum):
    """A side. The numeric values index per-side tables inside the engine."""

    BLACK = 0
    WHITE = 1

    @property
    def opponent(self) -> Color:
        """The other side.

        >>> Color.BLACK.opponent
        <Color.WHITE: 1>
        """
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """``"B"`` or ``"W"``, as in FEN."""
        return "B" if self is Color.BLACK else "W"

    @property
    def label(self) -> str:
        """``"Black"`` or ``"White"``, for messages."""
        return "Black" if self is Color.BLACK else "White"


@dataclass(frozen=True, slots=True)
class Variant:
    """A rule set. Every flag is read by the move generator; see the module docstring.

    ``crown_mid_capture``: a man that lands on its crowning row during a capture becomes a king at
    once and goes on capturing as a king (Russian). When it is false the man either cannot go on at
    all (men that capture forward only: English, where crowning ends the move) or goes on as a man
    and is crowned only if the move ends on the crowning row (International, Brazilian, Pool).

    The fields with defaults were added for the variants of issue 9 (docs/rules.md has the rules
    and sources); the defaults are what the first six variants do:

    * ``layout``: the board's squares (see :mod:`engine.board`): ``"diagonal"`` (dark squares, a1
      dark), ``"mirrored"`` (dark squares, h1 dark: Italian and Spanish) or ``"orthogonal"`` (all
      64 squares, pieces move along rows and columns: Turkish).
    * ``men_capture_kings``: false in Italian, where a man may not jump a king.
    * ``capture_priority``: rules, in order, that choose among the captures left after the
      majority rule (when ``majority_capture``): ``"king"`` (capture with a king rather than a
      man), ``"most-kings"`` (take the most kings), ``"earliest-king"`` (meet a king first),
      ``"value"`` (Frisian: the highest value, a king worth a little less than two men).
    * ``pieces_removed_at_once``: a jumped piece leaves the board as it is jumped, so its square is
      free for the rest of the capture (Turkish, Thai); otherwise it stays until the move ends.
    * ``king_stops_behind``: a flying king's capture lands on the square just behind the piece.
    * ``king_move_limit``: a player who also has men may move the same king at most this many
      times in a row without capturing (Frisian: 3); 0 for no limit. Positions then carry
      ``Position.king_moves``.
    * ``line_captures``: pieces also capture along rows and columns of the dark squares, over
      the next square of the line (two columns or two rows away): Frisian.
    * ``king_may_reverse``: between two captures a king may turn back along the line it came
      (Thai, where the jumped piece is already gone); elsewhere that is never a capture (the piece
      blocks) or is forbidden (Turkish's 180-degree rule).
    * ``men_move_sideways``: men move and capture sideways as well as forward (Turkish).
    * ``men_rows`` / ``empty_back_rows``: the starting rows of men per side (0: the usual
      ``height // 2 - 1``) and how many rows behind them stay empty (Turkish: 2 and 1).
    * ``numbering``: ``"top-left"`` (square 1 top-left seen from White) or ``"bottom-right"``
      (square 1 bottom-right, White's side: Spanish); see :mod:`engine.board`.
    """

    name: str
    title: str
    game_type: int
    width: int
    height: int
    first_mover: Color
    notation: str
    men_capture_backward: bool
    flying_kings: bool
    majority_capture: bool
    crown_mid_capture: bool
    capture_separator: str
    result_family: str
    aliases: tuple[str, ...] = ()
    layout: str = "diagonal"
    men_capture_kings: bool = True
    capture_priority: tuple[str, ...] = ()
    pieces_removed_at_once: bool = False
    king_stops_behind: bool = False
    men_move_sideways: bool = False
    men_rows: int = 0
    empty_back_rows: int = 0
    numbering: str = "top-left"
    king_may_reverse: bool = False
    line_captures: bool = False
    king_move_limit: int = 0

    # The generated hash would hash all 26 fields on every rules_for/board_for lookup (a replay
    # makes several per ply); names are unique, and equal variants have equal names.
    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def squares(self) -> int:
        """Number of playing squares (32 on 8x8, 50 on 10x10, 64 on the Turkish board)."""
        if self.layout == "orthogonal":
            return self.width * self.height
        return self.width * self.height // 2

    @property
    def start_rows(self) -> int:
        """Rows of men each side starts with (3 on 8x8, 4 on 10x10, 5 on 12x12, 2 in Thai)."""
        return self.men_rows or self.height // 2 - 1

    @property
    def crowning_ends_move(self) -> bool:
        """True when a man that reaches the crowning row by a capture must stop there.

        That is the case when men cannot capture backward (so a crowned man has nothing left to
        jump as a man) and the variant does not let it go on as a king. Turkish men capture
        sideways, so one may go on along the last row (as a man, crowned when the move ends).
        """
        return not (self.crown_mid_capture or self.men_capture_backward or self.men_move_sideways)

    @property
    def men_jump_forward_only(self) -> bool:
        """True when men capture only forward, along the diagonals: then a man's capture from
        one square to another is the only capture sequence between them (every other sequence
        of a man lands further on).
        """
        return not (self.men_capture_backward or self.men_move_sideways or self.line_captures)


pickle_by_fields(Variant)

# The records are annotated, not inferred: the accelerated build type-checks modules that use
# them at import (pdn.rules.draws' table) before it would have inferred them ("Cannot determine
# type").
ENGLISH: Variant = Variant(
    name="english",
    title="English draughts / American checkers",
    game_type=21,
    width=8,
    height=8,
    first_mover=Color.BLACK,
    notation="numeric",
    men_capture_backward=False,
    flying_kings=False,
    majority_capture=False,
    crown_mid_capture=False,
    capture_separator="x",
    result_family="default",
    aliases=("checkers", "american", "draughts", "english-draughts", "american-checkers"),
)

RUSSIAN: Variant = Variant(
    name="russian",
    title="Russian draughts",
    game_type=25,
    width=8,
    height=8,
    first_mover=Color.WHITE,
    notation="algebraic",
    men_capture_backward=True,
    flying_kings=True,
    majority_capture=False,
    crown_mid_capture=True,
    capture_separator=":",
    result_family="default",
    aliases=("shashki", "russian-draughts"),
)

BRAZILIAN: Variant = Variant(
    name="brazilian",
    title="Brazilian draughts",
    game_type=26,
    width=8,
    height=8,
    first_mover=Color.WHITE,
    notation="algebraic",
    men_capture_backward=True,
    flying_kings=True,
    majority_capture=True,
    crown_mid_capture=False,
    capture_separator="x",
    result_family="default",
    aliases=("brazilian-draughts",),
)

POOL: Variant = Variant(
    name="pool",
    title="American pool checkers",
    game_type=23,
    width=8,
    height=8,
    first_mover=Color.BLACK,
    notation="numeric",
    men_capture_backward=True,
    flying_kings=True,
    majority_capture=False,
    crown_mid_capture=False,
    capture_separator="x",
    result_family="default",
    aliases=("american-pool", "pool-checkers"),
)

INTERNATIONAL: Variant = Variant(
    name="international",
    title="International draughts",
    game_type=20,
    width=10,
    height=10,
    first_mover=Color.WHITE,
    notation="numeric",
    men_capture_backward=True,
    flying_kings=True,
    majority_capture=True,
    crown_mid_capture=False,
    capture_separator="x",
    result_family="international",
    aliases=("10x10", "polish", "international-draughts", "dammen"),
)

CANADIAN: Variant = Variant(
    name="canadian",
    title="Canadian draughts",
    game_type=27,
    width=12,
    height=12,
    first_mover=Color.WHITE,
    notation="numeric",
    men_capture_backward=True,
    flying_kings=True,
    majority_capture=True,
    crown_mid_capture=False,
    capture_separator="x",
    result_family="international",
    aliases=("12x12", "canadian-draughts"),
)

ITALIAN: Variant = Variant(
    name="italian",
    title="Italian draughts",
    game_type=22,
    width=8,
    height=8,
    first_mover=Color.WHITE,
    notation="numeric",
    men_capture_backward=False,
    flying_kings=False,
    majority_capture=True,
    crown_mid_capture=False,
    capture_separator="x",
    result_family="default",
    aliases=("dama", "dama-italiana", "italian-draughts"),
    layout="mirrored",
    men_capture_kings=False,
    capture_priority=("king", "most-kings", "earliest-king"),
)

CZECH: Variant = Variant(
    name="czech",
    title="Czech draughts",
    game_type=29,
    width=8,
    height=8,
    first_mover=Color.WHITE,
    notation="algebraic",
    men_capture_backward=False,
    flying_kings=True,
    majority_capture=False,
    crown_mid_capture=False,
    capture_separator="x",
    result_family="default",
    aliases=("ceska-dama", "czech-draughts"),
    capture_priority=("king",),
)

TURKISH: Variant = Variant(
    name="turkish",
    title="Turkish draughts",
    game_type=30,
    width=8,
    height=8,
    first_mover=Color.WHITE,
    notation="algebraic",
    men_capture_backward=False,
    flying_kings=True,
    majority_capture=True,
    crown_mid_capture=False,
    capture_separator="x",
    result_family="default",
    aliases=("dama-turkish", "turkish-draughts", "turk-damasi"),
    layout="orthogonal",
    pieces_removed_at_once=True,
    men_move_sideways=True,
    men_rows=2,
    empty_back_rows=1,
)

SPANISH: Variant = Variant(
    name="spanish",
    title="Spanish draughts",
    game_type=24,
    width=8,
    height=8,
    first_mover=Color.WHITE,
    notation="numeric",
    men_capture_backward=False,
    flying_kings=True,
    majority_capture=True,
    crown_mid_capture=False,
    capture_separator="x",
    result_family="default",
    aliases=("damas", "damas-espanolas", "spanish-draughts"),
    layout="mirrored",
    capture_priority=("most-kings",),
    numbering="bottom-right",
)

THAI: Variant = Variant(
    name="thai",
    title="Thai draughts",
    game_type=31,
    width=8,
    height=8,
    first_mover=Color.WHITE,
    notation="numeric",
    men_capture_backward=False,
    flying_kings=True,
    majority_capture=False,
    crown_mid_capture=False,
    capture_separator="x",
    result_family="default",
    aliases=("mak-hot", "makhos", "thai-draughts", "thai-checkers"),
    pieces_removed_at_once=True,
    king_stops_behind=True,
    king_may_reverse=True,
    men_rows=2,
)

FRISIAN: Variant = Variant(
    name="frisian",
    title="Frisian draughts",
    game_type=40,
    width=10,
    height=10,
    first_mover=Color.WHITE,
    notation="numeric",
    men_capture_backward=True,
    flying_kings=True,
    majority_capture=False,
    crown_mid_capture=False,
    capture_separator="x",
    result_family="international",
    aliases=("fries-dammen", "frysk-damjen", "frisian-draughts", "frysk"),
    capture_priority=("value", "king"),
    line_captures=True,
    king_move_limit=3,
)

#: Every variant by its name.
VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        ENGLISH,
        RUSSIAN,
        BRAZILIAN,
        POOL,
        INTERNATIONAL,
        CANADIAN,
        ITALIAN,
        CZECH,
        TURKISH,
        SPANISH,
        THAI,
        FRISIAN,
    )
}

_BY_ALIAS: dict[str, Variant] = {
    alias: v for v in VARIANTS.values() for alias in (v.name, *v.aliases)
}


def get_variant(name: str) -> Variant:
    """The variant called ``name`` or one of its aliases (case and ``_``/space insensitive).

    >>> get_variant("International").squares
    50

    Raises ``KeyError`` for an unknown name.
    """
    key = "-".join(name.strip().lower().replace("_", " ").split())
    try:
        return _BY_ALIAS[key]
    except KeyError:
        raise KeyError(f"unknown variant {name!r}") from None


def same_board(one: Variant, other: Variant) -> bool:
    """Whether two variants play on the same board: the same size and the same squares (the
    dark ones, whichever corner is dark, or all of them as in Turkish), so that the squares of a
    record cannot tell them apart.

    >>> same_board(RUSSIAN, ENGLISH), same_board(TURKISH, ENGLISH), same_board(ENGLISH, ENGLISH)
    (True, False, True)
    """
    return (one.width, one.height, one.squares) == (other.width, other.height, other.squares)


def variant_for_game_type(number: int) -> Variant | None:
    """The variant with PDN GameType ``number``, or ``None`` when the engine does not know it.

    >>> variant_for_game_type(25) is RUSSIAN
    True
    """
    for variant in VARIANTS.values():
        if variant.game_type == number:
            return variant
    return None
