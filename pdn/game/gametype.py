"""The ``GameType`` tag, and which variant a game is when that tag is missing.

``[GameType "T[,S,W,H,Nk[,I]]"]`` (PDN 3.0): T the type number, S the colour that moves first,
W and H the board size, N the notation letter (``A`` alphanumeric, ``N`` numeric, ``S`` SAN) with
the corner digit of square 1 seen from the first player, I the invert flag.  A short value such as
``"20"`` stands for the full value in the standard's table.

>>> gt = parse_game_type("21")
>>> (gt.number, gt.start, gt.width, gt.height, gt.notation, gt.corner, gt.invert, gt.expanded)
(21, 'B', 8, 8, 'N', 1, False, True)
>>> variant_name(21)
'english'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from pdn.engine import VARIANTS, Color, Variant, get_variant

__all__ = [
    "FULL_VALUES",
    "VARIANT_NAMES",
    "GameType",
    "GameTypeError",
    "detect_variant",
    "fen_evidence",
    "first_mover",
    "full_value",
    "game_type_of",
    "moves_evidence",
    "parse_game_type",
    "variant_from_evidence",
    "variant_name",
]


def full_value(variant: Variant) -> str:
    """The full ``GameType`` value of a variant's rules, made from its :class:`~pdn.engine.Variant`
    (the one home of its number, first mover, board, notation and numbering).

    The notation digit is the corner of square 1 (or a1) seen from the first mover: pdn's
    numbers start top-left seen from White (bottom-right in Spanish), a1 is bottom-left; seen
    from Black each corner is the opposite one. The invert flag is 1 where the bottom-left
    square is not a playing square (the ``mirrored`` boards of Italian and Spanish).

    >>> from pdn.engine import ENGLISH, INTERNATIONAL, RUSSIAN, SPANISH
    >>> [full_value(v) for v in (ENGLISH, INTERNATIONAL, RUSSIAN, SPANISH)]
    ['21,B,8,8,N1,0', '20,W,10,10,N2,0', '25,W,8,8,A0,0', '24,W,8,8,N1,1']
    """
    if variant.notation == "algebraic":
        letter, corner = "A", 0  # a1 bottom-left, seen from White
    else:
        letter, corner = "N", 1 if variant.numbering == "bottom-right" else 2
    if variant.first_mover is Color.BLACK:
        corner = 3 - corner  # bottom-left <-> top-right, bottom-right <-> top-left
    invert = 1 if variant.layout == "mirrored" else 0
    return (
        f"{variant.game_type},{variant.first_mover.letter},{variant.width},{variant.height},"
        f"{letter}{corner},{invert}"
    )


#: The rows of the standard's table for draughts that pdn has no rules for: name, full value.
#: Every other row is made from the engine's variants (:func:`full_value`).
_OTHER_ROWS: dict[int, tuple[str, str]] = {
    28: ("portuguese", "28,W,8,8,N1,1"),
    41: ("spantsiretti", "41,W,10,8,A0,0"),
}

#: Full GameType values of the PDN 3.0 table (current master of the standard), by type number:
#: those of the engine's variants and :data:`_OTHER_ROWS`.  Type 23 has several rule sets; the
#: bare ``"23"`` means American pool checkers. Thai draughts is ``"31,W,..."``: the standard's
#: table writes ``"31,B,..."``, the federation's rules let White begin (``docs/rules.md``).
FULL_VALUES: dict[int, str] = dict(
    sorted(
        [(v.game_type, full_value(v)) for v in VARIANTS.values()]
        + [(number, full) for number, (_, full) in _OTHER_ROWS.items()]
    )
)

#: GameType number -> variant name (the keys of the engine's variant registry, and the names of
#: the draughts rows of the standard's table that pdn has no rules for).
VARIANT_NAMES: dict[int, str] = dict(
    sorted(
        [(v.game_type, v.name) for v in VARIANTS.values()]
        + [(number, name) for number, (name, _) in _OTHER_ROWS.items()]
    )
)


_FULL_RE = re.compile(
    r"\s*(\d+)\s*(?:,\s*([WBwb])\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([ANSans])\s*([0-3])?\s*"
    r"(?:,\s*([01])\s*)?)?\s*"
)


# The readable start of a GameType value that is not well formed: its number, and its colour
# when that is a field of its own.
_LEAD_RE = re.compile(r"\s*(\d+)(?:\s*,\s*([WBwb])\s*(?:,|$))?")


class GameTypeError(ValueError):
    """A ``GameType`` value that cannot be read at all (no type number, or one out of range)."""


#: More significant digits than this make a GameType number (or board size) out of range. It
#: is checked before ``int()``, which refuses digit runs longer than Python's int-string limit.
MAX_DIGITS = 9


def _shown(text: str, limit: int = 24) -> str:
    """``text`` for a message, cut short when it is long (a message must stay one line)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _small_int(digits: str, what: str, text: str) -> int:
    """``int(digits)``, or :class:`GameTypeError` when it has more than :data:`MAX_DIGITS`
    significant digits."""
    significant = digits.lstrip("0")
    if len(significant) > MAX_DIGITS:
        raise GameTypeError(
            f"GameType {_shown(text.strip())!r}: the {what} {_shown(significant)} is out of range"
        )
    return int(significant or "0")


@dataclass(frozen=True, slots=True)
class GameType:
    """A parsed ``GameType`` value.

    Fields that the value does not give (and the table cannot supply) are ``None``.
    ``expanded`` is true when the value was the short form and the rest came from the table;
    ``text`` is the value as written; ``well_formed`` is false when only the type number could
    be read from it.  ``start`` is ``"W"`` or ``"B"``: the colour that moves
    first; ``corner`` is where square 1 (or a1) lies seen from that player: 0 bottom-left,
    1 bottom-right, 2 top-left, 3 top-right; ``invert`` true means the bottom-left square is not
    a playing square.
    """

    number: int
    start: str | None
    width: int | None
    height: int | None
    notation: str | None
    corner: int | None
    invert: bool | None
    text: str
    expanded: bool = False
    well_formed: bool = True

    @property
    def variant(self) -> str | None:
        """The variant name for this type number, or ``None`` for types that are not draughts."""
        return VARIANT_NAMES.get(self.number)

    def full(self) -> str:
        """The value in full form (``"20,W,10,10,N2,0"``), as far as it is known."""
        parts = [str(self.number)]
        if self.start and self.width is not None and self.height is not None and self.notation:
            parts += [self.start, str(self.width), str(self.height)]
            parts.append(self.notation + ("" if self.corner is None else str(self.corner)))
            if self.invert is not None:
                parts.append("1" if self.invert else "0")
        return ",".join(parts)


def parse_game_type(text: str) -> GameType:
    """Read a ``GameType`` value, expanding the short form from the standard's table.

    Liberal: spaces and lower case are accepted, a missing corner digit or invert flag is left
    ``None``.  Raises :class:`GameTypeError` when not even the type number can be read, or when
    a number has more than :data:`MAX_DIGITS` digits (it is out of range, not a huge type).

    >>> parse_game_type("20,W,10,10,N1,0").corner
    1
    """
    match = _FULL_RE.fullmatch(text)
    if match is None:
        lead = _LEAD_RE.match(text)
        if lead is None:
            raise GameTypeError(f"GameType {text!r} has no type number")
        # A readable number followed by something odd ("20,W,0,0,N,0" is fine, "20;x" is not):
        # keep the number so that the variant is still known, and a start colour that can be
        # read ("20,B"), so that the game is replayed from it.
        colour = lead.group(2)
        return GameType(
            _small_int(lead.group(1), "type number", text),
            None if colour is None else colour.upper(),
            None,
            None,
            None,
            None,
            None,
            text,
            well_formed=False,
        )
    number = _small_int(match.group(1), "type number", text)
    if match.group(2) is None:
        full = FULL_VALUES.get(number)
        if full is None:
            return GameType(number, None, None, None, None, None, None, text)
        expanded = parse_game_type(full)
        return GameType(
            number,
            expanded.start,
            expanded.width,
            expanded.height,
            expanded.notation,
            expanded.corner,
            expanded.invert,
            text,
            expanded=True,
        )
    corner = match.group(6)
    invert = match.group(7)
    return GameType(
        number,
        match.group(2).upper(),
        _small_int(match.group(3), "board width", text),
        _small_int(match.group(4), "board height", text),
        match.group(5).upper(),
        None if corner is None else int(corner),
        None if invert is None else invert == "1",
        text,
    )


def game_type_of(text: str | None) -> GameType | None:
    """The parsed ``GameType`` tag value, or ``None`` when there is none or it cannot be read
    (the reader reports that; the squares then decide the variant).

    >>> game_type_of("25").number, game_type_of("draughts"), game_type_of(None)
    (25, None, None)
    """
    if text is None:
        return None
    try:
        return parse_game_type(text)
    except GameTypeError:
        return None


def variant_name(number: int) -> str | None:
    """The variant name for a GameType number (``21`` -> ``"english"``), or ``None``."""
    return VARIANT_NAMES.get(number)


def first_mover(variant: str | None, game_type: GameType | None = None) -> str:
    """``"W"`` or ``"B"``: the colour that moves first, as a GameType value writes it in full,
    else as the rules of ``variant`` (a name or alias) say, else those of the GameType's number.

    The engine's :class:`~pdn.engine.Variant` is the one source of a variant's first mover:
    English checkers and American pool start with Black, the others with White (Thai draughts
    too, although the standard's table writes ``"31,B,..."``: see ``docs/rules.md``). Unknown
    variants and types are taken to start with White. This is the function every part of pdn
    asks (replay, headings, reports, the writer's move numbers).

    >>> written = parse_game_type("20,B,10,10,N2")
    >>> first_mover("english"), first_mover("thai"), first_mover("international", written)
    ('B', 'W', 'B')
    >>> first_mover(None, parse_game_type("21")), first_mover("russian", parse_game_type("21"))
    ('B', 'W')
    """
    if game_type is not None and game_type.start and not game_type.expanded:
        return game_type.start
    if not variant and game_type is not None:
        variant = VARIANT_NAMES.get(game_type.number)
    try:
        rules = get_variant(variant or "")
    except KeyError:
        return "W"
    return rules.first_mover.letter


def first_colour(variant: Variant, game_type: GameType | None = None) -> Color:
    """The side that moves first in a game of ``variant`` whose GameType is ``game_type``: the
    colour :func:`first_mover` says, as the engine's :class:`~pdn.engine.Color`.

    >>> from pdn.engine import INTERNATIONAL
    >>> black = parse_game_type("20,B")
    >>> first_colour(INTERNATIONAL).label, first_colour(INTERNATIONAL, black).label
    ('White', 'Black')
    """
    return Color.BLACK if first_mover(variant.name, game_type) == "B" else Color.WHITE


# Evidence from the moves and the FEN ------------------------------------------------------

_ALGEBRAIC_RE = re.compile(r"(?<![A-Za-z])[a-lA-L](?:1[0-2]|[1-9])(?![0-9])")
# A numeric square next to a move separator (so move numbers "33." are not counted).
_SQUARE_RE = re.compile(r"(?<![0-9])([0-9]{1,2})(?=\s*[-xX:])|[-xX:]\s*([0-9]{1,2})(?![0-9.])")
_FEN_SQUARE_RE = re.compile(r"(?<![A-Za-z0-9])[Kk]?([0-9]{1,3}|[a-lA-L](?:1[0-2]|[1-9]))")


# A numeric square above 32 next to a separator, or in a move written without one ("3328"); it
# starts with a character class so that the regex engine skips text quickly.
_HIGH_SQUARE_RE = re.compile(
    r"(?:3[3-9]|[4-9][0-9])(?<![0-9]..)(?=\s*[-xX:])|[-xX:]\s*(?:3[3-9]|[4-9][0-9])(?![0-9.])"
    r"|(?<![0-9.])(?:[0-9]{2}(?:3[3-9]|[4-9][0-9])|(?:3[3-9]|[4-9][0-9])[0-9]{2})(?![0-9.])"
)
_GLUED_RE = re.compile(r"(?<![0-9.])([0-9]{2})([0-9]{2})(?![0-9.])")


# The evidence of the moves is that of their texts joined by spaces, which each text gives on
# its own when no square of it can pair with a separator of its neighbour: no white space in
# it, no separator at either end.  Most moves are such texts, the same few hundred in a whole
# file, so what each says is worked out once.
_ALONE = re.compile(r"[^-xX:\s](?:\S*[^-xX:\s])?")
_Evidence = tuple[bool, bool, bool, int]
_TEXT_EVIDENCE: dict[str, _Evidence] = {}
# The texts among them with numeric squares, none above 32, and no algebraic one.
_LOW_TEXTS: set[str] = set()
_TEXTS_KNOWN = 1 << 14


def moves_evidence(moves: Iterable[str]) -> tuple[bool, int]:
    """(any algebraic square, highest numeric square) over written moves.

    The highest square is exact when it is above 32; when every numeric square is 32 or lower
    it is given as 32 (all that detection needs to know, found without looking at each square).
    When any square is algebraic the moves are algebraic and no numeric square is given.

    >>> moves_evidence(["32-28", "19-23"]), moves_evidence(["c3:e5"]), moves_evidence(["3328"])
    ((False, 32), (True, 0), (False, 33))
    """
    texts = moves if isinstance(moves, (set, frozenset, list, tuple)) else list(moves)
    if not texts:
        return False, 0
    if _LOW_TEXTS.issuperset(texts):
        return False, 32  # the common case, an English game: one test in C
    known = _TEXT_EVIDENCE
    found: list[_Evidence | None] = list(map(known.get, texts))
    if None in found:
        for k, text in enumerate(texts):
            if found[k] is None:
                if _ALONE.fullmatch(text) is None:
                    # A set has no order of its own: sorted, the answer is the same each run.
                    ordered = sorted(texts) if isinstance(texts, (set, frozenset)) else texts
                    return _joined_evidence(" ".join(ordered))
                if len(known) >= _TEXTS_KNOWN:
                    known.clear()  # afresh rather than trimmed (see pdn.rules.fastpath)
                    _LOW_TEXTS.clear()
                found[k] = known[text] = evidence = _text_evidence(text)
                if evidence[:3] == (False, False, True):
                    _LOW_TEXTS.add(text)
    algebraic, high, numeric, highest = zip(*cast("list[_Evidence]", found), strict=True)
    if any(algebraic):
        return True, 0
    if not any(high):
        return False, 32 if any(numeric) else 0
    return False, max(highest)


def _text_evidence(text: str) -> _Evidence:
    """(any algebraic square, any square above 32, any numeric square, highest numeric
    square) of a text that :data:`_ALONE` matches, as its share of :func:`_joined_evidence`."""
    return (
        _ALGEBRAIC_RE.search(text) is not None,
        _HIGH_SQUARE_RE.search(text) is not None,
        _SQUARE_RE.search(text) is not None or _GLUED_RE.search(text) is not None,
        _highest_square(text),
    )


def _joined_evidence(text: str) -> tuple[bool, int]:
    """:func:`moves_evidence` of the moves joined by spaces in ``text``."""
    if _ALGEBRAIC_RE.search(text) is not None:
        return True, 0  # (the digits of algebraic squares are no numeric squares)
    if _HIGH_SQUARE_RE.search(text) is None:
        numeric = _SQUARE_RE.search(text) is not None or _GLUED_RE.search(text) is not None
        return False, 32 if numeric else 0
    return False, _highest_square(text)


def _highest_square(text: str) -> int:
    highest = max((int(left or right) for left, right in _SQUARE_RE.findall(text)), default=0)
    for left, right in _GLUED_RE.findall(text):
        highest = max(highest, int(left), int(right))
    return highest


def fen_evidence(fen: str) -> tuple[bool, int]:
    """(any algebraic square, highest numeric square) in a FEN such as ``"W:W31-50:B1-20"``."""
    algebraic = False
    highest = 0
    # Skip the side-to-move field and the lidraughts :H/:F counters.
    for section in fen.split(":")[1:]:
        section = section.strip()
        if not section or section[0] in "HFhf":
            continue
        body = section[1:] if section[0] in "WBwb" else section
        for square in _FEN_SQUARE_RE.findall(body):
            if square[0].isdigit():
                highest = max(highest, int(square))
            else:
                algebraic = True
    return algebraic, highest


def variant_from_evidence(algebraic: bool, highest: int) -> str | None:
    """The variant that the squares used point to, or ``None`` if there are no squares.

    This is a guess: algebraic squares are taken as Russian draughts (8x8, ``A0``, the most
    common alphanumeric variant; Brazilian, Czech and pool games look the same), numeric
    squares up to 32 as English checkers, up to 50 as international draughts, and higher ones as
    Canadian (12x12).
    """
    if algebraic:
        return "russian"
    if highest > 50:
        return "canadian"
    if highest > 32:
        return "international"
    if highest > 0:
        return "english"
    return None


def detect_variant(
    game_type: GameType | None,
    moves: Iterable[str],
    fens: list[str],
) -> tuple[str | None, str]:
    """``(variant, source)`` from GameType, else the squares of the moves and FENs.

    ``source`` is ``"gametype"``, ``"squares"`` (moves, possibly with FEN squares), ``"fen"``
    (no moves; the FEN alone) or ``"default"`` (nothing to go on: English checkers, the variant
    of the original PDN).  A GameType whose number is not a draughts variant gives ``None``.
    """
    if game_type is not None:
        return VARIANT_NAMES.get(game_type.number), "gametype"
    algebraic, highest = moves_evidence(moves)
    has_moves = algebraic or highest > 0
    for fen in fens:
        fen_algebraic, fen_highest = fen_evidence(fen)
        algebraic = algebraic or fen_algebraic
        highest = max(highest, fen_highest)
    guess = variant_from_evidence(algebraic, highest)
    if guess is None:
        return "english", "default"
    return guess, "squares" if has_moves else "fen"
