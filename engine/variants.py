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

    @property
    def squares(self) -> int:
        """Number of playing squares (32 on 8x8, 50 on 10x10)."""
        return self.width * self.height // 2

    @property
    def start_rows(self) -> int:
        """Rows of men each side starts with (3 on 8x8, 4 on 10x10, 5 on 12x12)."""
        return self.height // 2 - 1

    @property
    def crowning_ends_move(self) -> bool:
        """True when a man that reaches the crowning row by a capture must stop there.

        That is the case when men cannot capture backward (so a crowned man has nothing left to
        jump as a man) and the variant does not let it go on as a king.
        """
        return not self.crown_mid_capture and not self.men_capture_backward


ENGLISH = Variant(
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

RUSSIAN = Variant(
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

BRAZILIAN = Variant(
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

POOL = Variant(
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

INTERNATIONAL = Variant(
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

CANADIAN = Variant(
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

#: Every variant by its name.
VARIANTS: dict[str, Variant] = {
    v.name: v for v in (ENGLISH, RUSSIAN, BRAZILIAN, POOL, INTERNATIONAL, CANADIAN)
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


def variant_for_game_type(number: int) -> Variant | None:
    """The variant with PDN GameType ``number``, or ``None`` when the engine does not know it.

    >>> variant_for_game_type(25) is RUSSIAN
    True
    """
    for variant in VARIANTS.values():
        if variant.game_type == number:
            return variant
    return None
