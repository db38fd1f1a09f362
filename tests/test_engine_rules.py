"""Each rule of each variant on a hand-made position, plus every row of rule_test_positions.csv."""

from __future__ import annotations

import csv

import pytest
from shared_paths import REFERENCE_DATA, needs_shared

from pdn.engine import (
    BRAZILIAN,
    CANADIAN,
    ENGLISH,
    INTERNATIONAL,
    POOL,
    RUSSIAN,
    Color,
    Move,
    Piece,
    Position,
    Variant,
    perft,
)


def moves(fen: str, variant: Variant = ENGLISH, *, full: bool = True) -> set[str]:
    pos = Position.from_fen(fen, variant)
    return {m.notation(full=full) for m in pos.legal_moves()}


# --------------------------------------------------------------------- rule_test_positions.csv

# description, fen, short moves, full-path moves, perft 1-4 (duplicates counted)
RULE_ROWS = [
    (
        "start",
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "10-14 10-15 11-15 11-16 12-16 9-13 9-14",
        "10-14 10-15 11-15 11-16 12-16 9-13 9-14",
        (7, 49, 302, 1469),
    ),
    ("compulsory capture", "W:W26,31:B22", "26x17", "26x17", (1, 0, 0, 0)),
    ("multi-jump must be completed", "W:W26:B22,14", "26x10", "26x17x10", (1, 0, 0, 0)),
    ("crowning ends the move", "W:W11:B6,7", "11x2", "11x2", (1, 2, 4, 8)),
    ("men never capture backwards", "W:W18:B22,23", "18-14 18-15", "18-14 18-15", (2, 8, 16, 56)),
    ("English king captures backwards", "W:WK14:B18", "14x23", "14x23", (1, 0, 0, 0)),
    (
        "free choice between captures",
        "W:W22,31:B27,18,11",
        "22x8 31x24",
        "22x15x8 31x24",
        (2, 2, 6, 15),
    ),
    (
        "king 4-piece circular capture",
        "W:WK2,17,19,21,24,25,26,27,29,30,31,32:B1,4,5,6,7,8,10,12,14,15",
        "2x2 2x2",
        "2x11x18x9x2 2x9x18x11x2",
        (2, 12, 56, 328),
    ),
    ("English king moves one square only", "W:WK29:B4", "29-25", "29-25", (1, 1, 4, 8)),
    (
        "short notation 27x11 is ambiguous",
        "W:W27:B15,16,23,24",
        "27x11 27x11",
        "27x18x11 27x20x11",
        (2, 8, 16, 52),
    ),
    ("no legal move = loss", "B:W9,14:B5", "", "", (0, 0, 0, 0)),
]

RANDOM178 = "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24"
RANDOM178_PERFT = [14, 55, 1168, 5432, 87195, 629010, 9041010, 86724219, 1216917193]
WOLDOUBY = "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"
WOLDOUBY_PERFT = [6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050, 377436, 1910989]

REFERENCE = REFERENCE_DATA / "rule_test_positions.csv"


@pytest.mark.parametrize(("description", "fen", "short", "full", "counts"), RULE_ROWS)
def test_rule_positions(
    description: str, fen: str, short: str, full: str, counts: tuple[int, ...]
) -> None:
    pos = Position.from_fen(fen, ENGLISH)
    legal = pos.legal_moves()
    assert sorted(m.notation() for m in legal) == sorted(short.split()), description
    assert sorted(m.notation(full=True) for m in legal) == sorted(full.split()), description
    assert [perft(pos, d) for d in range(1, 5)] == list(counts), description


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        pytest.param(RANDOM178, RANDOM178_PERFT, id="random178"),
        pytest.param(WOLDOUBY, WOLDOUBY_PERFT, id="woldouby"),
    ],
)
def test_published_10x10_positions(fen: str, expected: list[int]) -> None:
    pos = Position.from_fen(fen, INTERNATIONAL)
    for depth, count in enumerate(expected[:5], start=1):
        assert perft(pos, depth, merge_duplicates=True) == count


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fen", "expected", "deepest"),
    [
        pytest.param(RANDOM178, RANDOM178_PERFT, 7, id="random178"),
        pytest.param(WOLDOUBY, WOLDOUBY_PERFT, 12, id="woldouby"),
    ],
)
def test_published_10x10_positions_deep(fen: str, expected: list[int], deepest: int) -> None:
    pos = Position.from_fen(fen, INTERNATIONAL)
    for depth in range(6, deepest + 1):
        assert perft(pos, depth, merge_duplicates=True) == expected[depth - 1]


@needs_shared(REFERENCE)
def test_rule_rows_agree_with_reference_csv() -> None:
    with REFERENCE.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    english = [r for r in rows if not r["description"].startswith("International")]
    assert [r["fen"] for r in english] == [row[1] for row in RULE_ROWS]
    for row, mine in zip(english, RULE_ROWS, strict=True):
        assert row["legal_moves_short"].split() == mine[2].split()
        assert row["legal_moves_full_path"].split() == mine[3].split()
        assert tuple(int(x) for x in row["perft_1_to_4"].split()) == mine[4]
    tenxten = [r for r in rows if r["description"].startswith("International")]
    assert [r["fen"] for r in tenxten] == [RANDOM178, WOLDOUBY]
    assert tenxten[0]["perft_1_to_4"].split()[:4] == [str(n) for n in RANDOM178_PERFT[:4]]
    assert tenxten[1]["perft_1_to_4"].split()[:4] == [str(n) for n in WOLDOUBY_PERFT[:4]]


# --------------------------------------------------------------------- English rules


def test_men_move_forward_only() -> None:
    # Black moves towards the high numbers, White towards the low ones.
    assert moves("B:W32:B18") == {"18-22", "18-23"}
    assert moves("W:W18:B1") == {"18-14", "18-15"}


def test_edge_man_has_one_move() -> None:
    assert moves("B:W32:B12") == {"12-16"}
    assert moves("W:W21:B1") == {"21-17"}


def test_capture_is_compulsory_everywhere_on_the_board() -> None:
    # The man on 30 could move quietly, but the man on 26 has a jump, so only the jump is legal.
    assert moves("W:W26,30:B22") == {"26x17"}


def test_multi_jump_must_go_on() -> None:
    # 26x17 alone is not a move: from 17 the man must go on over 14 to 10.
    assert moves("W:W26:B22,14,15") == {"26x17x10"}


def test_branching_multi_jump_offers_every_complete_route() -> None:
    # 30 jumps 26 to 23; from there it may take 18 (to 14) or 19 (to 16): two complete moves.
    assert moves("W:W30:B26,18,19") == {"30x23x14", "30x23x16"}
    assert moves("W:W30:B26,18,19", full=False) == {"30x14", "30x16"}


def test_a_piece_is_jumped_only_once() -> None:
    # The king on 18 takes 15 and lands on 11; jumping 15 again back to 18 is not allowed.
    pos = Position.from_fen("W:WK18:B15", ENGLISH)
    [move] = pos.legal_moves()
    assert move.path == (18, 11)
    assert move.captures == (15,)


def test_crowning_by_capture_ends_the_move_and_crowns() -> None:
    pos = Position.from_fen("W:W11:B6,7", ENGLISH)
    [move] = pos.legal_moves()
    assert move.path == (11, 2) and move.crowns and not move.king
    after = pos.play(move)
    assert after.piece_at(2) == Piece(Color.WHITE, king=True)
    assert after.piece_at(7) is None and after.piece_at(6) == Piece(Color.BLACK)


def test_crowning_by_plain_move() -> None:
    pos = Position.from_fen("W:W6:B20", ENGLISH)
    assert {m.notation() for m in pos.legal_moves()} == {"6-1", "6-2"}
    for m in pos.legal_moves():
        assert m.crowns
        assert pos.play(m).piece_at(m.end) == Piece(Color.WHITE, king=True)
    black = Position.from_fen("B:W1:B27", ENGLISH)
    for m in black.legal_moves():
        assert m.crowns and black.play(m).piece_at(m.end) == Piece(Color.BLACK, king=True)


def test_english_king_steps_in_all_four_directions_but_not_further() -> None:
    assert moves("W:WK18:B1") == {"18-14", "18-15", "18-22", "18-23"}
    assert moves("B:W1:BK18") == {"18-14", "18-15", "18-22", "18-23"}


def test_king_circle_is_two_paths_one_result() -> None:
    fen = "W:WK2,17,19,21,24,25,26,27,29,30,31,32:B1,4,5,6,7,8,10,12,14,15"
    pos = Position.from_fen(fen, ENGLISH)
    a, b = pos.legal_moves()
    assert pos.play(a) == pos.play(b)
    assert a.king and a.start == a.end == 2
    merged = pos.legal_moves(merge_duplicates=True)
    assert len(merged) == 1


def test_blocked_side_has_no_move() -> None:
    pos = Position.from_fen("B:W9,14:B5", ENGLISH)
    assert pos.legal_moves() == []
    assert pos.is_game_over()
    assert not Position.start(ENGLISH).is_game_over()


def test_has_capture_agrees_with_generation() -> None:
    assert Position.from_fen("W:W26,31:B22", ENGLISH).has_capture()
    assert not Position.start(ENGLISH).has_capture()


# --------------------------------------------------------------------- flying-king variants


def test_russian_men_capture_backward() -> None:
    assert moves("W:W18:B22", RUSSIAN) == {"18x25"}
    assert moves("W:W18:B22", ENGLISH) == {"18-14", "18-15"}


def test_russian_king_flies() -> None:
    assert moves("W:WK29:B4", RUSSIAN) == {"29-25", "29-22", "29-18", "29-15", "29-11", "29-8"}


def test_russian_king_may_land_anywhere_behind_the_piece() -> None:
    assert moves("W:WK29:B18", RUSSIAN) == {"29x15", "29x11", "29x8", "29x4"}


def test_russian_king_must_land_where_it_can_go_on() -> None:
    # After taking d4 (18) only f6 (11) lets the king take e7 (7), so it must land there.
    assert moves("W:WK29:B18,7", RUSSIAN) == {"29x11x2"}


def test_russian_man_crowned_mid_capture_goes_on_as_king() -> None:
    pos = Position.from_fen("W:W11:B6,7", RUSSIAN)
    legal = pos.legal_moves()
    # It lands on d8 (2), is crowned, and as a flying king takes c7 (6), landing on b6 or a5.
    assert {m.notation(full=True) for m in legal} == {"11x2x9", "11x2x13"}
    for m in legal:
        assert m.crowns
        assert pos.play(m).piece_at(m.end) == Piece(Color.WHITE, king=True)


def test_pool_man_passing_the_last_row_stays_a_man() -> None:
    pos = Position.from_fen("W:W11:B6,7", POOL)
    [move] = pos.legal_moves()
    # Jumps back down as a man (men capture backward in pool) and is not crowned on b6.
    assert move.notation(full=True) == "11x2x9"
    assert not move.crowns
    assert pos.play(move).piece_at(9) == Piece(Color.WHITE, king=False)


def test_jumped_pieces_stay_on_the_board_until_the_move_ends() -> None:
    # The king on d8 can go round e7, e5, c5, c7 back to d8; if e7 were lifted at once it could
    # go on through e7's square to take g5. It may not: the most it can take is four.
    pos = Position.from_fen("W:WK2:B6,7,14,15,16", RUSSIAN)
    legal = pos.legal_moves()
    assert max(len(m.captures) for m in legal) == 4
    assert {m.notation(full=True) for m in legal if len(m.captures) == 4} == {
        "2x9x18x11x2",
        "2x9x18x11x20",
        "2x11x18x9x2",
    }


def test_majority_capture_is_compulsory_in_brazilian_but_not_in_russian() -> None:
    fen = "W:WK2:B6,7,14,15,16"
    assert {len(m.captures) for m in Position.from_fen(fen, BRAZILIAN).legal_moves()} == {4}
    assert {len(m.captures) for m in Position.from_fen(fen, RUSSIAN).legal_moves()} == {2, 3, 4}


def test_international_majority_counts_kings_and_men_alike() -> None:
    # From d4 (32): over the king on e5 (28) to f6 and on over g7 (19) to h8 (14), or over c5
    # (27) to b6 and on over c7 (17) to d8 (12). Two pieces each way: both are legal.
    both = Position.from_fen("W:W32:BK28,19,27,17", INTERNATIONAL)
    assert {m.notation(full=True) for m in both.legal_moves()} == {"32x23x14", "32x21x12"}
    # Without g7 the king route takes one piece only, and the majority rule forbids it.
    one = Position.from_fen("W:W32:BK28,27,17", INTERNATIONAL)
    assert {m.notation(full=True) for m in one.legal_moves()} == {"32x21x12"}


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        (RUSSIAN, {"22x13", "22x15x6"}),
        (POOL, {"22x13", "22x15x6"}),
        (ENGLISH, {"22x13", "22x15x6"}),
        (BRAZILIAN, {"22x15x6"}),
    ],
)
def test_free_choice_versus_majority_on_8x8(variant: Variant, expected: set[str]) -> None:
    assert moves("W:W22:B18,10,17", variant) == expected


def test_international_man_passing_the_last_row_is_not_crowned() -> None:
    # 13 (f8) takes e9 (8) landing on d10 (2) and must go on backward over c9 (7) to b8 (11).
    [move] = Position.from_fen("W:W13:B8,7", INTERNATIONAL).legal_moves()
    assert move.notation(full=True) == "13x2x11"
    assert not move.crowns
    [ends_there] = Position.from_fen("W:W13:B8", INTERNATIONAL).legal_moves()
    assert ends_there.notation(full=True) == "13x2" and ends_there.crowns


def test_international_start_has_nine_moves() -> None:
    start = Position.start(INTERNATIONAL)
    assert start.turn is Color.WHITE
    assert len(start.legal_moves()) == 9
    assert {m.start for m in start.legal_moves()} == {31, 32, 33, 34, 35}


def test_canadian_board_and_start() -> None:
    start = Position.start(CANADIAN)
    assert len(start.pieces()) == 60
    assert {m.start for m in start.legal_moves()} == set(range(43, 49))


# --------------------------------------------------------------------- Move, play, apply


def test_move_notation() -> None:
    m = Move((9, 18, 27), (14, 23))
    assert m.notation() == "9x27"
    assert m.notation(full=True) == "9x18x27"
    assert m.notation(full=True, sep=":") == "9:18:27"
    assert Move((11, 15)).notation(full=True) == "11-15"
    assert str(Move((11, 15))) == "11-15"
    assert m.start == 9 and m.end == 27 and m.is_capture
    assert not Move((11, 15)).is_capture


def test_move_equality_ignores_informative_flags() -> None:
    assert Move((11, 15), (), king=True) == Move((11, 15))
    assert hash(Move((11, 15), (), crowns=True)) == hash(Move((11, 15)))


def test_man_move_flag_for_draw_counting() -> None:
    pos = Position.from_fen("W:WK18,30:B1", ENGLISH)
    kinds = {m.notation(): m.is_man_move for m in pos.legal_moves()}
    assert kinds["30-25"] is True and kinds["18-14"] is False


def test_play_rejects_a_move_of_the_wrong_side() -> None:
    with pytest.raises(ValueError):
        Position.start(ENGLISH).play(Move((22, 18)))


def test_play_equals_apply_unchecked_for_legal_moves() -> None:
    pos = Position.from_fen("W:W11:B6,7", RUSSIAN)
    for m in pos.legal_moves():
        assert pos.play(m) == pos.apply_unchecked(m.path, m.captures)


def test_apply_unchecked_passes_the_turn_to_the_movers_opponent() -> None:
    start = Position.start(ENGLISH)  # Black to move
    after = start.apply_unchecked((22, 18), ())
    assert after.turn is Color.BLACK
    assert after.piece_at(18) == Piece(Color.WHITE) and after.piece_at(22) is None
    with pytest.raises(ValueError):
        start.apply_unchecked((15, 19), ())


def test_position_is_hashable_and_compares_by_content() -> None:
    a = Position.from_fen("B:W21-32:B1-12", ENGLISH)
    b = Position.start(ENGLISH)
    assert a == b and hash(a) == hash(b) and a.key() == b.key()
    assert len({a, b}) == 1
    assert a.with_turn(Color.WHITE) != a
    assert Position.start(RUSSIAN) != Position.start(POOL)


def test_from_pieces_and_pieces_round_trip() -> None:
    pieces = {5: Piece(Color.BLACK), 22: Piece(Color.WHITE, king=True)}
    pos = Position.from_pieces(ENGLISH, Color.WHITE, pieces)
    assert pos.pieces() == pieces
    assert pos.fen() == "W:WK22:B5"
    assert "W" in str(pos) and "White to move" in str(pos)
