"""FEN reading and writing, board geometry and square maps, the variant registry."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn.engine import (
    CANADIAN,
    ENGLISH,
    INTERNATIONAL,
    POOL,
    RUSSIAN,
    VARIANTS,
    Color,
    FenError,
    Piece,
    Position,
    board_for,
    get_variant,
    parse_fen,
    variant_for_game_type,
)
from pdn_engine.fen import format_fen

DATA = Path(__file__).resolve().parents[1] / "engine" / "pdn_engine" / "data"
START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


# --------------------------------------------------------------------- FEN in


@pytest.mark.parametrize(
    "text",
    [
        START,
        "B:W21-32:B1-12",
        "B:B1-12:W21-32",  # sections in either order
        "B:W32,31,30,29,28,27,26,25,24,23,22,21:B12,11,10,9,8,7,6,5,4,3,2,1",  # unordered
        "B:W21-32:B1-12.",  # trailing dot
        "B:W21-32:B1-12. ",  # trailing dot and space
        " B:W21-32:B01,02,03,04,05,06,07,08,09,10,11,12",  # leading zeros
        "B:W21-32:B1-12:H0:F1",  # lidraughts extra fields
        "b:W21-32:B1-12",  # lower-case side to move
        "B:W21, 22, 23, 24, 25-32:B1-12",  # spaces after commas
        "B:W21-32:B1-12,",  # trailing comma
    ],
)
def test_fen_spellings_of_the_english_start(text: str) -> None:
    assert Position.from_fen(text, ENGLISH) == Position.start(ENGLISH)


def test_fen_out_is_the_plain_pdn_form() -> None:
    assert Position.start(ENGLISH).fen() == START
    pos = Position.from_fen("W:WK10,18:B5,K22", ENGLISH)
    assert pos.fen() == "W:WK10,18:B5,K22"


def test_kings_and_colour_letters_inside_sections() -> None:
    pos = Position.from_fen("W:W13,11,10,6:BK14,3,1.", ENGLISH)  # real file (bridges.pdn)
    assert pos.turn is Color.WHITE
    assert pos.piece_at(14) == Piece(Color.BLACK, king=True)
    assert pos.piece_at(3) == Piece(Color.BLACK)
    mixed = Position.from_fen("W:W5,BK14:B1", ENGLISH)
    assert mixed.piece_at(14) == Piece(Color.BLACK, king=True)
    assert mixed.piece_at(5) == Piece(Color.WHITE)


def test_question_mark_side_is_the_first_mover_with_a_note() -> None:
    pos, notes = parse_fen("?:W29,13,11:B22,4,2", ENGLISH)
    assert pos.turn is Color.BLACK and notes and "'?'" in notes[0]
    russian, notes = parse_fen("?:W29:B4", RUSSIAN)
    assert russian.turn is Color.WHITE and notes


def test_empty_sides_and_empty_board() -> None:
    pos = Position.from_fen("B:W:B1", ENGLISH)
    assert pos.white == 0 and pos.piece_at(1) == Piece(Color.BLACK)
    assert pos.fen() == "B:W:B1"
    empty = Position.from_fen("W::.", ENGLISH)  # seen in a real file
    assert empty.pieces() == {} and empty.is_game_over()


def test_king_range_is_all_kings_with_a_note() -> None:
    pos, notes = parse_fen("W:WK29-32:B1", ENGLISH)
    assert all(pos.piece_at(s) == Piece(Color.WHITE, king=True) for s in range(29, 33))
    assert any("every piece" in n for n in notes)


def test_man_on_its_crowning_row_is_kept_with_a_note() -> None:
    pos, notes = parse_fen("B:W2:B30", ENGLISH)
    assert pos.piece_at(2) == Piece(Color.WHITE, king=False)
    assert pos.piece_at(30) == Piece(Color.BLACK, king=False)
    assert len(notes) == 2 and "crowning row" in notes[0]
    # Such a man simply has no move forward.
    assert pos.legal_moves() == []


def test_algebraic_squares() -> None:
    pos = Position.from_fen("W:Wa1,c1:Bb8", RUSSIAN)
    assert pos.piece_at(29) == Piece(Color.WHITE) and pos.piece_at(30) == Piece(Color.WHITE)
    assert pos.piece_at(1) == Piece(Color.BLACK)
    assert pos.fen(algebraic=True) == "W:Wa1,c1:Bb8"
    assert pos.fen() == "W:W29,30:B1"
    # Kings with algebraic squares; the k-file of the 12x12 board (k11) is not a king mark.
    assert Position.from_fen("W:WKa1:Bh8", RUSSIAN).piece_at(29) == Piece(Color.WHITE, king=True)
    big = Position.from_fen("W:Wk11:B1", CANADIAN)
    assert big.piece_at(board_for(CANADIAN).square_of("k11") or 0) == Piece(Color.WHITE)


def test_numeric_squares_in_russian_use_the_english_numbering_seen_from_white() -> None:
    # Russian files give FEN squares as numbers: 1=b8 ... 29=a1, 32=g1.
    pos = Position.from_fen("W:W29,30,31,32,25,26,27,28,21,23,24,13:B16,9,11,12,5-8,1-4.", RUSSIAN)
    board = board_for(RUSSIAN)
    assert pos.piece_at(board.square_of("a1") or 0) == Piece(Color.WHITE)
    assert pos.piece_at(board.square_of("a5") or 0) == Piece(Color.WHITE)  # 13
    assert pos.piece_at(board.square_of("g5") or 0) == Piece(Color.BLACK)  # 16


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("X:W21:B1", "is not W, B or ?"),
        (":W21:B1", "whose turn"),
        ("B:W33:B1", "square 33"),
        ("B:W0:B1", "out of range"),
        ("B:W21,21:B1", "given twice"),
        ("B:W21:B21", "given twice"),
        ("B:W21-33:B1", "out of range"),
        ("B:W12-5:B1", "runs backwards"),
        ("B:W21:B1:Q3", "does not start with W or B"),
        ("B:W21:W22", "two White sections"),
        ("B:W2x:B1", "is not a square"),
        ("B:Wb7:B1", "not a playing square"),
    ],
)
def test_fen_errors_say_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(FenError) as caught:
        Position.from_fen(text, ENGLISH)
    assert fragment in str(caught.value)


def test_fen_error_is_a_value_error() -> None:
    assert issubclass(FenError, ValueError)


def test_international_ranges() -> None:
    pos = Position.from_fen("W:W31-50:B1-20", INTERNATIONAL)
    assert pos == Position.start(INTERNATIONAL)
    with pytest.raises(FenError, match="1-50"):
        Position.from_fen("W:W51:B1", INTERNATIONAL)


# --------------------------------------------------------------------- board


@pytest.mark.parametrize(
    ("width", "name"), [(8, "square_map_8x8.csv"), (10, "square_map_10x10.csv")]
)
def test_board_names_match_the_shipped_square_maps(width: int, name: str) -> None:
    board = board_for(width, width)
    with (DATA / name).open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == board.squares
    for row in rows:
        square = int(row["numeric_square"])
        assert board.algebraic(square) == row["algebraic_white_at_bottom"]
        assert board.square_of(row["algebraic_white_at_bottom"]) == square


def test_board_geometry_8x8() -> None:
    board = board_for(ENGLISH)
    assert board is board_for(8, 8) is board_for(RUSSIAN)
    assert board.squares == 32
    assert board.algebraic(1) == "b8" and board.algebraic(4) == "h8"
    assert board.algebraic(5) == "a7" and board.algebraic(29) == "a1"
    assert board.square_of("c3") == 22 and board.square_of("C3") == 22
    assert board.square_of("a2") is None and board.square_of("z9") is None
    assert board.coordinates(1) == (1, 0)
    assert board.square_at(1, 0) == 1 and board.square_at(0, 0) is None
    assert board.square_at(8, 0) is None
    # The long diagonal 4-8-11-15-18-22-25-29 (h8-a1).
    assert board.between(4, 29) == (8, 11, 15, 18, 22, 25)
    assert board.direction(29, 4) == (1, 7)
    assert board.direction(11, 14) is None
    assert board.neighbour(1, 2) == 5 and board.neighbour(1, 0) is None
    with pytest.raises(ValueError):
        board.algebraic(33)


def test_board_geometry_10x10_and_12x12() -> None:
    board = board_for(INTERNATIONAL)
    assert board.squares == 50
    assert board.algebraic(1) == "b10" and board.algebraic(46) == "a1"
    assert board.algebraic(50) == "i1" and board.algebraic(5) == "j10"
    big = board_for(CANADIAN)
    assert big.squares == 72 and big.algebraic(1) == "b12" and big.algebraic(67) == "a1"


def test_padded_layout_keeps_neighbours_at_constant_offsets() -> None:
    for size in (8, 10, 12):
        board = board_for(size, size)
        for square in range(1, board.squares + 1):
            p = board.index[square]
            for direction, offset in enumerate(board.offsets):
                q = board.step_table[p][direction]
                assert q == -1 or q == p + offset


# --------------------------------------------------------------------- variants


def test_variant_registry() -> None:
    assert {"english", "russian", "brazilian", "pool", "international", "canadian"} <= set(VARIANTS)
    assert get_variant("English") is ENGLISH
    assert get_variant("american checkers") is ENGLISH
    assert get_variant("American_Pool") is POOL
    with pytest.raises(KeyError):
        get_variant("losing-checkers")
    assert variant_for_game_type(20) is INTERNATIONAL
    assert variant_for_game_type(21) is ENGLISH
    assert variant_for_game_type(99) is None


def test_variant_flags() -> None:
    assert ENGLISH.first_mover is Color.BLACK and RUSSIAN.first_mover is Color.WHITE
    assert ENGLISH.crowning_ends_move and not RUSSIAN.crowning_ends_move
    assert not INTERNATIONAL.crowning_ends_move
    assert RUSSIAN.capture_separator == ":" and ENGLISH.capture_separator == "x"
    assert INTERNATIONAL.result_family == "international"
    assert (ENGLISH.start_rows, INTERNATIONAL.start_rows, CANADIAN.start_rows) == (3, 4, 5)
    assert Color.BLACK.opponent is Color.WHITE and Color.WHITE.letter == "W"
    assert Color.BLACK.label == "Black"


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 2**32),
    algebraic=st.booleans(),
)
def test_fen_out_lists_each_side_by_square_number(name: str, seed: int, algebraic: bool) -> None:
    # format_fen walks the bits and remembers sections (it writes a FEN per ply of a replay):
    # what it writes must be the plain reading of the board, square by square.
    rng = random.Random(seed)
    variant = get_variant(name)
    board = board_for(variant)
    black = white = kings = 0
    for square in rng.sample(range(1, board.squares + 1), rng.randint(0, board.squares)):
        if rng.random() < 0.5:
            black |= board.bit[square]
        else:
            white |= board.bit[square]
        if rng.random() < 0.3:
            kings |= board.bit[square]
    turn = rng.choice([Color.BLACK, Color.WHITE])

    def section(letter: str, pieces: int) -> str:
        names = [
            ("K" if board.bit[s] & kings else "") + (board.algebraic(s) if algebraic else str(s))
            for s in range(1, board.squares + 1)
            if board.bit[s] & pieces
        ]
        return letter + ",".join(names)

    expected = f"{turn.letter}:{section('W', white)}:{section('B', black)}"
    assert format_fen(variant, turn, black, white, kings, algebraic=algebraic) == expected
