"""The :class:`Position`: pieces on bitboards, the side to move, and what can be done from it.

>>> from pdn.engine import ENGLISH
>>> pos = Position.start(ENGLISH)
>>> [m.notation() for m in pos.legal_moves()][:3]
['9-13', '9-14', '10-14']
>>> pos.play(pos.legal_moves()[0]).fen()[:12]
'W:W21,22,23,'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .board import board_for
from .fen import FenError, format_fen, parse_fen_data
from .movegen import Move, rules_for
from .native import COMPILED, new_move, twin
from .pickling import pickle_by_fields
from .variants import Color, Variant

__all__ = ["FenError", "IllegalMoveError", "Piece", "Position", "parse_fen"]


@dataclass(frozen=True, slots=True)
class Piece:
    """What stands on a square: a man or a king of one colour."""

    color: Color
    king: bool = False

    @property
    def name(self) -> str:
        """``"Black man"``, ``"White king"``..."""
        return f"{self.color.label} {'king' if self.king else 'man'}"


pickle_by_fields(Piece)


#: What separates the squares of a move's text: ``-`` for a quiet move, ``x`` or ``:`` for a
#: capture (the full PDN notation, glued forms included, is ``pdn.text.notation``'s).
_SEPARATORS = re.compile(r"\s*[-xX:]\s*")
_CAPTURE_SIGN = re.compile(r"[xX:]")


class IllegalMoveError(ValueError):
    """A move's text given to :meth:`Position.play` that names no legal move there."""

    def __init__(self, message: str, position: Position) -> None:
        super().__init__(message)
        #: The position the move was tried on.
        self.position = position


@dataclass(frozen=True, slots=True)
class Position:
    """A position: variant, side to move, and three bitboards in the board's padded layout.

    ``black``, ``white`` and ``kings`` are integers with bit ``board_for(variant).bit[square]`` set
    for each occupied square (``kings`` covers both colours). Positions are immutable, hashable and
    compare by content, so they can go into sets and dictionaries (see also :meth:`key`).
    """

    variant: Variant
    turn: Color
    black: int
    white: int
    kings: int = 0
    #: Frisian's king-move limit: (square, count) of the king each side has moved without
    #: capturing in its last moves, Black's first: ``(black square, n, white square, n)``.
    #: All zero elsewhere, and after any man move or capture of that side. Not part of a FEN.
    king_moves: tuple[int, int, int, int] = (0, 0, 0, 0)

    # The generated hash would hash every field of the Variant each time; the name is enough.
    # The turn goes in as a bool: an Enum member hashes through a Python-level __hash__, and a
    # replay hashes several positions per ply.
    def __hash__(self) -> int:
        return hash(
            (
                self.variant.name,
                self.turn is Color.WHITE,
                self.black,
                self.white,
                self.kings,
                self.king_moves,
            )
        )

    # ------------------------------------------------------------------------- construction

    @classmethod
    def start(cls, variant: Variant) -> Position:
        """The starting position of ``variant``, its first mover to move."""
        if cls is Position:
            return _start(variant)  # every game of an archive asks for it: made once
        return cls._laid_out(variant)

    @classmethod
    def _laid_out(cls, variant: Variant) -> Position:
        board = board_for(variant)
        rows = variant.start_rows
        skip = variant.empty_back_rows  # Turkish leaves each side's back row empty
        black = white = 0
        # By rows, not by numbers: Spanish numbers the board from White's side.
        for square in range(1, board.squares + 1):
            row = board.coordinates(square)[1]
            if skip <= row < skip + rows:
                black |= board.bit[square]
            elif board.height - skip - rows <= row < board.height - skip:
                white |= board.bit[square]
        return cls(variant, variant.first_mover, black, white, 0)

    @classmethod
    def from_fen(cls, fen: str, variant: Variant) -> Position:
        """Read a PDN FEN (see :mod:`engine.fen` for what is accepted); raises :class:`FenError`.

        >>> from pdn.engine import ENGLISH
        >>> Position.from_fen("W:W18,K22:B9-11.", ENGLISH).piece_at(22)
        Piece(color=<Color.WHITE: 1>, king=True)
        """
        return parse_fen(fen, variant)[0]

    @classmethod
    def from_pieces(cls, variant: Variant, turn: Color, pieces: Mapping[int, Piece]) -> Position:
        """A position from ``{square: Piece}``."""
        board = board_for(variant)
        black = white = kings = 0
        for square, piece in pieces.items():
            if not 1 <= square <= board.squares:
                raise ValueError(f"square {square} is not on the board")
            bit = board.bit[square]
            if piece.color is Color.BLACK:
                black |= bit
            else:
                white |= bit
            if piece.king:
                kings |= bit
        return cls(variant, turn, black, white, kings)

    # ------------------------------------------------------------------------- reading

    def fen(self, *, algebraic: bool = False) -> str:
        """PDN FEN, e.g. ``"B:W21,22,...:B1,2,..."``; squares ascending, ``K`` before kings.

        Numeric squares unless ``algebraic`` (``"W:Wa1,c1:Bb8"``).
        """
        return format_fen(
            self.variant, self.turn, self.black, self.white, self.kings, algebraic=algebraic
        )

    def piece_at(self, square: int) -> Piece | None:
        """The piece on a square (1-based), or ``None`` if it is empty."""
        board = board_for(self.variant)
        if not 1 <= square <= board.squares:
            raise ValueError(f"square {square} is not on the board")
        bit = board.bit[square]
        if bit & self.black:
            return Piece(Color.BLACK, bool(bit & self.kings))
        if bit & self.white:
            return Piece(Color.WHITE, bool(bit & self.kings))
        return None

    def pieces(self) -> dict[int, Piece]:
        """Every occupied square with its piece, in square order."""
        board = board_for(self.variant)
        out: dict[int, Piece] = {}
        for square in range(1, board.squares + 1):
            bit = board.bit[square]
            if bit & (self.black | self.white):
                color = Color.BLACK if bit & self.black else Color.WHITE
                out[square] = Piece(color, bool(bit & self.kings))
        return out

    def key(self) -> tuple[int, int, int, int]:
        """A cheap hashable key of the position (side to move included), for repetition counts."""
        return (int(self.turn), self.black, self.white, self.kings)

    def with_turn(self, turn: Color) -> Position:
        """The same pieces with ``turn`` to move."""
        return Position(self.variant, turn, self.black, self.white, self.kings, self.king_moves)

    def blocked_king(self) -> int | None:
        """The square of the king that may not make another non-capturing move, if any.

        Frisian: after three non-capturing moves in a row with the same king, a player who also
        has men must capture or move another piece.
        """
        limit = self.variant.king_move_limit
        if not limit:
            return None
        own, _ = self._own_opp()
        square, count = self.king_moves[2 * int(self.turn) : 2 * int(self.turn) + 2]
        if count < limit or not own & ~self.kings:
            return None
        return square

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r}, {self.variant.name.upper()})"

    def _repr_svg_(self) -> str:
        """The diagram Jupyter shows for a position (:func:`engine.picture.svg_diagram`)."""
        from .picture import svg_diagram  # lazily: the picture module needs Position's types

        return svg_diagram(self)

    def __str__(self) -> str:
        board = board_for(self.variant)
        lines = []
        for row in range(board.height):
            cells = []
            for column in range(board.width):
                square = board.square_at(column, row)
                if square is None:
                    cells.append(" ")
                    continue
                piece = self.piece_at(square)
                if piece is None:
                    cells.append(".")
                else:
                    letter = "b" if piece.color is Color.BLACK else "w"
                    cells.append(letter.upper() if piece.king else letter)
            lines.append(" ".join(cells))
        lines.append(f"{self.turn.label} to move")
        return "\n".join(lines)

    # ------------------------------------------------------------------------- moves

    def _own_opp(self) -> tuple[int, int]:
        if self.turn is Color.BLACK:
            return self.black, self.white
        return self.white, self.black

    def has_capture(self) -> bool:
        """Whether the side to move has a capture (and so must capture)."""
        own, opp = self._own_opp()
        return rules_for(self.variant).has_capture(own, opp, self.kings, int(self.turn))

    def legal_moves(
        self, *, merge_duplicates: bool = False, between: tuple[int, int] | None = None
    ) -> list[Move]:
        """Every legal move, one per path, sorted by path.

        ``between=(start, end)`` keeps only the moves from ``start`` to ``end``: what matching
        a written move needs, without building the others.

        Several paths can lead to the same position: a king's circular capture made either way
        round, or a flying king that goes on straight after a capture and may stop on any empty
        square before the next piece. ``merge_duplicates`` keeps one move per resulting position,
        the one PDN would write (for a straight run, the stop just behind the captured piece).
        """
        rules = rules_for(self.variant)
        board = rules.board
        side = int(self.turn)
        own, opp = self._own_opp()
        kings = self.kings
        number = board.square_of_index
        bits = rules.bits
        moves: list[Move] = []
        first, last = (
            (-1, -1) if between is None else (board.index[between[0]], board.index[between[1]])
        )
        if rules.has_capture(own, opp, kings, side):
            seen: set[tuple[int, int, tuple[int, ...], bool]] = set()
            raw = rules.captures(own, opp, kings, side, not merge_duplicates)
            for start, lands, caps, crowned in raw:
                if first >= 0 and (start != first or lands[-1] != last):
                    continue
                if merge_duplicates:
                    signature = (start, lands[-1], tuple(sorted(caps)), crowned)
                    if signature in seen:
                        continue
                    seen.add(signature)
                moves.append(
                    new_move(
                        (number[start], *(number[q] for q in lands)),
                        tuple(number[c] for c in caps),
                        bool(bits[start] & kings),
                        crowned and not bits[start] & kings,
                    )
                )
        else:
            crown = rules.crown[side]
            blocked = self.blocked_king() if self.variant.king_move_limit else None
            blocked_index = board.index[blocked] if blocked else -1
            for frm, to in rules.quiet(own, opp, kings, side):
                if frm == blocked_index or (first >= 0 and (frm != first or to != last)):
                    continue
                king = bool(bits[frm] & kings)
                moves.append(
                    new_move(
                        (number[frm], number[to]), (), king, not king and bool(bits[to] & crown)
                    )
                )
        moves.sort(key=lambda m: m.path)
        return moves

    def is_game_over(self) -> bool:
        """True when the side to move has no legal move (and so has lost)."""
        own, opp = self._own_opp()
        rules = rules_for(self.variant)
        side = int(self.turn)
        if rules.has_capture(own, opp, self.kings, side):
            return False
        if self.blocked_king() is not None:
            return not self.legal_moves()
        return rules.count_quiet(own, opp, self.kings, side) == 0

    def play(self, move: Move | str) -> Position:
        """The position after ``move``: one of :meth:`legal_moves`, or a move's text.

        A :class:`Move` is not checked against the rules, only that it starts on a piece of the
        side to move. A text (``"11-15"``, ``"9x18x27"``, ``"c3-d4"``) is matched to the legal
        moves by the rule :func:`engine.diagnose` applies; one that names no legal move raises
        :class:`IllegalMoveError`, which says why and names the legal moves.

        >>> from pdn.engine import ENGLISH
        >>> Position.start(ENGLISH).play("11-15").play("23-19").fen()[:14]
        'B:W19,21,22,24'
        >>> Position.start(ENGLISH).play("15-19")
        Traceback (most recent call last):
        ...
        pdn_engine.position.IllegalMoveError: 15-19 is not possible: there is no piece on 15; ...
        """
        if isinstance(move, str):
            return self._play_text(move)
        board = board_for(self.variant)
        own, _ = self._own_opp()
        start = move.path[0]
        if not 1 <= start <= board.squares or not board.bit[start] & own:
            raise ValueError(f"{move.notation()}: no {self.turn.label} piece on {start}")
        return self._apply(self.turn, move.path, move.captures)

    def _play_text(self, text: str) -> Position:
        from .diagnose import diagnose  # diagnose builds on Position

        board = board_for(self.variant)
        names = [name.strip() for name in _SEPARATORS.split(text.strip())]
        squares: list[int] = []
        for name in names:
            number = int(name) if name.isdigit() else board.square_of(name)
            if number is None or not 1 <= number <= board.squares:
                raise IllegalMoveError(
                    f"{text!r} is not a move on the {self.variant.title} board "
                    f"(squares 1-{board.squares}){self._legal_list()}",
                    self,
                )
            squares.append(number)
        found = diagnose(self, squares, _CAPTURE_SIGN.search(text) is not None)
        if found.move is None:
            raise IllegalMoveError(f"{found.message}{self._legal_list()}", self)
        return self.play(found.move)

    def _legal_list(self) -> str:
        moves = self.legal_moves(merge_duplicates=True)
        if not moves:
            return f"; {self.turn.label} has no legal move"
        return f"; legal moves: {', '.join(m.notation(full=True) for m in moves)}"

    def apply_unchecked(self, path: Sequence[int], captures: Iterable[int]) -> Position:
        """Carry out a move as written, legal or not: for replaying past an illegal move.

        The piece on ``path[0]`` (of either colour) goes to ``path[-1]``, the pieces of the other
        colour on ``captures`` are removed, and the turn passes to the mover's opponent. So when
        the side *not* to move made the move (an out-of-turn move), the side that should have
        moved is still to move afterwards. A man is crowned if it ends on its crowning row or, in
        variants where crowning happens mid-capture or ends the move, if it lands there on the way.
        Raises ``ValueError`` if ``path[0]`` is empty or a square is off the board.
        """
        board = board_for(self.variant)
        for square in (*path, *captures):
            if not 1 <= square <= board.squares:
                raise ValueError(f"square {square} is not on the board")
        bit = board.bit[path[0]]
        if bit & self.black:
            mover = Color.BLACK
        elif bit & self.white:
            mover = Color.WHITE
        else:
            raise ValueError(f"there is no piece on {path[0]}")
        return self._apply(mover, tuple(path), tuple(captures))

    def _apply(self, mover: Color, path: Sequence[int], captures: Iterable[int]) -> Position:
        variant = self.variant
        board = board_for(variant)
        bits = board.bit
        start, end = bits[path[0]], bits[path[-1]]
        black, white, kings = self.black, self.white, self.kings
        opponents = white if mover is Color.BLACK else black
        taken = 0
        for square in captures:
            taken |= bits[square] & opponents
        crown = board.bottom_row if mover is Color.BLACK else board.top_row
        king = bool(start & kings)
        crowned = False
        if not king:
            if end & crown:
                crowned = True
            elif variant.crown_mid_capture or variant.crowning_ends_move:
                crowned = any(bits[s] & crown for s in path[1:])
        moved = start ^ end
        kings &= ~taken
        if king:
            kings ^= moved
        elif crowned:
            kings |= end
        if mover is Color.BLACK:
            black ^= moved
            white &= ~taken
        else:
            white ^= moved
            black &= ~taken
        runs = self.king_moves
        if variant.king_move_limit:
            # The mover's count goes on only for another quiet move of the same king.
            at = 2 * int(mover)
            square, count = runs[at : at + 2]
            if king and not taken and len(path) == 2:
                run = (path[-1], count + 1 if square == path[0] else 1)
            else:
                run = (0, 0)
            runs = (*run, *runs[2:]) if at == 0 else (*runs[:2], *run)
        return next_position(variant, int(mover), black, white, kings, runs)


pickle_by_fields(Position)


@functools.cache
def _start(variant: Variant) -> Position:
    return Position._laid_out(variant)


def parse_fen(text: str, variant: Variant) -> tuple[Position, tuple[str, ...]]:
    """Read a FEN and also return notes about what was assumed or is odd (empty if none).

    >>> from pdn.engine import ENGLISH
    >>> pos, notes = parse_fen("?:W29,13,11:B22,4,2", ENGLISH)
    >>> pos.turn.name, "assumed" in notes[0]
    ('BLACK', True)
    """
    turn, black, white, kings, notes = parse_fen_data(text, variant)
    return Position(variant, turn, black, white, kings), notes


_TURNS = (Color.WHITE, Color.BLACK)  # the opponent of side 0 (Black), of side 1 (White)
_POSITION_TWIN: Any = None if COMPILED else twin(Position)


def next_position(
    variant: Variant,
    mover: int,
    black: int,
    white: int,
    kings: int,
    king_moves: tuple[int, int, int, int],
) -> Position:
    """The position after a move of ``mover`` (``0`` Black, ``1`` White), from its bitboards:
    the same :class:`Position` the constructor makes, made faster for the replay's hot paths
    (the way differs in each build: :mod:`pdn_engine.native`).
    """
    if COMPILED:
        made = Position.__new__(Position)
        made.variant = variant  # type: ignore[misc]  # a frozen record's fields, set once, here
        made.turn = _TURNS[mover]  # type: ignore[misc]
        made.black = black  # type: ignore[misc]
        made.white = white  # type: ignore[misc]
        made.kings = kings  # type: ignore[misc]
        made.king_moves = king_moves  # type: ignore[misc]
        return made
    position: Any = _POSITION_TWIN()
    position.variant = variant
    position.turn = _TURNS[mover]
    position.black = black
    position.white = white
    position.kings = kings
    position.king_moves = king_moves
    position.__class__ = Position
    made_position: Position = position
    return made_position
