"""PDN FEN text to bitboards and back (the :class:`~engine.position.Position` methods wrap this).

Accepted on input (all seen in real files):

* ``B:W21,22,23:B1,2,3`` in any order of sections and squares; ``K`` before a king (``k`` too);
* PDN 3.0 ranges ``W31-50`` (a ``K`` before a range makes every piece of it a king, with a note);
* a trailing ``.`` (and spaces), leading zeros (``W06``), spaces around squares;
* ``?`` as side to move: taken as the variant's first mover, with a note;
* colour repeated inside a section (``BK14`` in the Black section), or a piece of the other colour
  given with its own letter in a section (``W:W5,BK14:B1``): the letter on the piece wins;
* an empty side (``B:W:B1``), even an empty board (``W::.``);
* lidraughts' extra fields ``:H0:F1`` (ignored);
* algebraic squares (``W:Wa1,c1:Bb8``) on any board, and numeric squares for algebraic 8x8
  variants (English numbering seen from White, 1=b8 ... 32=g1, as Russian files write them).

A man standing on its own crowning row is accepted as written (problem diagrams and 11-man
setups sometimes show one by mistake, and the position is still playable: the man simply has no
move forward); it is reported in the notes so a caller can warn.

Anything else raises :class:`FenError` with a sentence saying what is wrong.
"""

from __future__ import annotations

import re

from .board import board_for
from .variants import Color, Variant


class FenError(ValueError):
    """A FEN string that cannot be read; ``str(error)`` is a sentence for a person."""


#: turn, black bits, white bits, king bits, notes
FenData = tuple[Color, int, int, int, tuple[str, ...]]

_RANGE = re.compile(r"^(\d+)\s*-\s*(\d+)$")
_NUMBER = re.compile(r"^\d+$")
_ALGEBRAIC = re.compile(r"^[a-zA-Z]\d+$")


def parse_fen_data(text: str, variant: Variant) -> FenData:
    """Parse ``text`` for ``variant`` into ``(turn, black, white, kings, notes)`` bitboards."""
    board = board_for(variant)
    notes: list[str] = []
    body = text.strip()
    if len(body) >= 2 and body[0] == body[-1] == '"':
        body = body[1:-1].strip()
    while body.endswith("."):
        body = body[:-1].rstrip()
    if not body:
        raise FenError("the FEN is empty")
    fields = body.split(":")
    side = fields[0].strip().upper()
    if side == "W":
        turn = Color.WHITE
    elif side == "B":
        turn = Color.BLACK
    elif side == "?":
        turn = variant.first_mover
        notes.append(
            f"the side to move is '?' (unknown); {turn.label}, who moves first in "
            f"{variant.title}, is assumed"
        )
    elif not side:
        raise FenError("the FEN does not say whose turn it is (it should start with W: or B:)")
    else:
        raise FenError(
            f"the side to move {fields[0].strip()!r} is not W, B or ?; a FEN starts like 'W:'"
        )

    owner: dict[int, tuple[Color, bool]] = {}
    seen_sections: set[str] = set()
    for raw_field in fields[1:]:
        section = raw_field.strip()
        if not section:
            continue
        head = section[0].upper()
        rest = section[1:]
        if head in "HF" and (not rest.strip() or rest.strip().isdigit()):
            continue  # lidraughts half-move clock / move number
        if head not in "WB":
            raise FenError(
                f"the FEN section {section!r} does not start with W or B (the colour of its pieces)"
            )
        if head in seen_sections:
            colour_name = "White" if head == "W" else "Black"
            raise FenError(f"the FEN has two {colour_name} sections")
        seen_sections.add(head)
        colour = Color.WHITE if head == "W" else Color.BLACK
        for raw_token in rest.split(","):
            token = raw_token.strip()
            if not token:
                continue
            _read_token(token, colour, variant, owner, notes)

    black = white = kings = 0
    for square, (colour, king) in owner.items():
        bit = board.bit[square]
        if colour is Color.BLACK:
            black |= bit
        else:
            white |= bit
        if king:
            kings |= bit
        elif bit & (board.bottom_row if colour is Color.BLACK else board.top_row):
            name = _name(square, variant)
            notes.append(f"the {colour.label} man on {name} stands on its crowning row")
    return turn, black, white, kings, tuple(notes)


def _name(square: int, variant: Variant) -> str:
    if variant.notation == "algebraic":
        return board_for(variant).algebraic(square)
    return str(square)


def _read_token(
    token: str,
    colour: Color,
    variant: Variant,
    owner: dict[int, tuple[Color, bool]],
    notes: list[str],
) -> None:
    board = board_for(variant)
    body = token
    if len(body) > 1 and body[0] in "WB" and (body[1] in "Kk" or body[1].isdigit()):
        colour = Color.WHITE if body[0] == "W" else Color.BLACK
        body = body[1:]
    king = False
    # "K" always marks a king; a lower-case "k" does too unless it names a file (k12 on 12x12).
    if body[:1] == "K" or (body[:1] == "k" and board.square_of(body) is None):
        king = True
        body = body[1:].strip()
    squares: list[int]
    match = _RANGE.match(body)
    if match:
        low = _square_number(match.group(1), token, board.squares, variant)
        high = _square_number(match.group(2), token, board.squares, variant)
        if low > high:
            raise FenError(f"the range {body!r} in the FEN runs backwards")
        squares = list(range(low, high + 1))
        if king:
            notes.append(f"'K{body}' is read as: every piece on {low}-{high} is a king")
    elif _NUMBER.match(body):
        squares = [_square_number(body, token, board.squares, variant)]
    elif _ALGEBRAIC.match(body):
        found = board.square_of(body)
        if found is None:
            raise FenError(
                f"{body!r} in the FEN is not a playing square of the "
                f"{variant.width}x{variant.height} board"
            )
        squares = [found]
    else:
        raise FenError(f"{token!r} in the FEN is not a square (expected e.g. 14, K14, 1-12 or c3)")
    for square in squares:
        if square in owner:
            raise FenError(f"square {_name(square, variant)} is given twice in the FEN")
        owner[square] = (colour, king)


def _square_number(digits: str, token: str, squares: int, variant: Variant) -> int:
    # No board has a billion squares: a longer digit run is out of range without int(), which
    # refuses runs beyond Python's int-string limit (4,300 digits) with a ValueError.
    significant = digits.lstrip("0")
    number = int(significant or "0") if len(significant) <= 9 else None
    if number is None or not 1 <= number <= squares:
        shown = significant if len(significant) <= 12 else f"{significant[:12]}..."
        where = token if len(token) <= 24 else f"{token[:24]}..."
        raise FenError(
            f"square {shown or 0} (in {where!r}) is out of range: the {variant.title} board has "
            f"squares 1-{squares}"
        )
    return number


def format_fen(
    variant: Variant, turn: Color, black: int, white: int, kings: int, *, algebraic: bool = False
) -> str:
    """``"B:W21,22,...:B1,2,..."``: White's section first, squares ascending, ``K`` for kings."""
    names = _NAMES.get((variant.name, algebraic))
    if names is None or names.variant is not variant:
        names = _NAMES[variant.name, algebraic] = _Names(variant, algebraic)
    white_part = names.section(white, white & kings)
    black_part = names.section(black, black & kings)
    return f"{turn.letter}:W{white_part}:B{black_part}"


class _Names:
    """The square names of one board and notation, and the sections written lately.

    A replay writes a FEN per ply, and one side's pieces stay as they were while the other
    moves (and the openings of an archive repeat): sections are remembered, a bounded number.
    """

    __slots__ = ("ascending", "bytes", "crowned", "plain", "variant", "written")

    def __init__(self, variant: Variant, algebraic: bool) -> None:
        board = board_for(variant)
        size = len(board.square_of_index)
        #: Per padded index: (square, its name), and the same with "K".
        plain: list[tuple[int, str]] = [(0, "")] * size
        crowned: list[tuple[int, str]] = [(0, "")] * size
        for square in range(1, board.squares + 1):
            name = board.algebraic(square) if algebraic else str(square)
            plain[board.index[square]] = (square, name)
            crowned[board.index[square]] = (square, "K" + name)
        indices = [board.index[square] for square in range(1, board.squares + 1)]
        self.variant = variant
        self.plain, self.crowned = tuple(plain), tuple(crowned)
        self.ascending = indices == sorted(indices)  # False in Spanish, numbered from White
        self.written: dict[tuple[int, int], str] = {}
        #: Where bits run in square order: per byte of the bitboard, the names of each of its
        #: 256 values, joined (a side without kings is then a handful of lookups).
        self.bytes: tuple[tuple[str, ...], ...] = ()
        if self.ascending:
            self.bytes = tuple(
                tuple(
                    ",".join(
                        plain[8 * k + i][1]
                        for i in range(8)
                        if value >> i & 1 and 8 * k + i < size and plain[8 * k + i][0]
                    )
                    for value in range(256)
                )
                for k in range((size + 7) // 8)
            )

    def section(self, pieces: int, kings: int) -> str:
        """The squares of ``pieces`` (``kings`` among them with a ``K``), ascending."""
        key = (pieces, kings)
        text = self.written.get(key)
        if text is not None:
            return text
        if not kings and self.bytes:
            parts = []
            for names in self.bytes:
                if not pieces:
                    break
                if pieces & 255:
                    parts.append(names[pieces & 255])
                pieces >>= 8
            text = ",".join(parts)
        else:
            text = self._listed(pieces, kings)
        if len(self.written) >= _SECTIONS:
            self.written = {}  # started afresh: a rebinding, safe when threads share it
        self.written[key] = text
        return text

    def _listed(self, pieces: int, kings: int) -> str:
        items: list[tuple[int, str]] = []
        plain, crowned = self.plain, self.crowned
        while pieces:  # the occupied squares only, lowest bit first
            low = pieces & -pieces
            pieces ^= low
            index = low.bit_length() - 1
            items.append(crowned[index] if low & kings else plain[index])
        if not self.ascending:
            items.sort()
        return ",".join(name for _, name in items)


#: Sections remembered per board and notation.
_SECTIONS = 1 << 14
_NAMES: dict[tuple[str, bool], _Names] = {}
