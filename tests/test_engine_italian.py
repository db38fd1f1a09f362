"""Italian draughts (GameType 22): board, numbering and every rule that differs from English.

The rules are those of the Federazione Italiana Dama (docs/rules.md). pydraughts 0.6.7 agrees on
every position checked (tests/test_engine_oracle.py); the positions here are hand-made, one per
rule, each also checked against pydraughts when it is installed.
"""

from __future__ import annotations

import pytest
from shared_paths import WIEGERW_GAMES, needs_shared
from variant_cases import draughts

from pdn.engine import (
    ENGLISH,
    Color,
    Fault,
    Piece,
    Position,
    board_for,
    diagnose,
    get_variant,
    variant_for_game_type,
)

ITALIAN = get_variant("italian")
CORPUS = WIEGERW_GAMES


def moves(fen: str) -> set[str]:
    return {m.notation(full=True) for m in Position.from_fen(fen, ITALIAN).legal_moves()}


def check(fen: str, expected: set[str]) -> None:
    """Our legal moves are ``expected``, and so are pydraughts' when it is installed."""
    assert moves(fen) == expected
    if draughts is not None:
        board = draughts.Board(variant="italian", fen=fen)
        sep = {True: "x", False: "-"}
        theirs = {sep[bool(m.captures)].join(map(str, m.steps_move)) for m in board.legal_moves()}
        assert theirs == expected


# --------------------------------------------------------------------- board and start


def test_registry_and_game_type() -> None:
    assert variant_for_game_type(22) is ITALIAN
    assert get_variant("dama italiana") is ITALIAN
    assert ITALIAN.first_mover is Color.WHITE and ITALIAN.game_type == 22


def test_fid_board_orientation_and_numbering() -> None:
    # FID art. 2.3-2.4: the bottom-right square (h1) is dark; 1 is the top-left dark square (a8),
    # numbers run left to right, row by row, to 32 in the bottom-right corner.
    board = board_for(ITALIAN)
    assert [board.algebraic(s) for s in (1, 4, 5, 8, 21, 29, 32)] == [
        "a8",
        "g8",
        "b7",
        "h7",
        "b3",
        "b1",
        "h1",
    ]
    assert board.square_at(7, 7) == 32 and board.square_at(0, 7) is None  # h1 dark, a1 light
    # The long diagonal runs from 1 (a8) to 32 (h1), the other way round from English's.
    assert board.between(1, 32) == (5, 10, 14, 19, 23, 28)
    assert board_for(ENGLISH).between(1, 32) == ()


def test_start_position_and_first_moves() -> None:
    start = Position.start(ITALIAN)
    assert start.turn is Color.WHITE
    assert start.fen() == ("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
    # 21 (b3) has two moves and 24 (h3) on the edge one, the mirror image of English's 21 and 24.
    assert {m.notation() for m in start.legal_moves()} == {
        "21-17",
        "21-18",
        "22-18",
        "22-19",
        "23-19",
        "23-20",
        "24-20",
    }


# --------------------------------------------------------------------- moves


def test_men_move_and_capture_forward_only() -> None:
    # The black man behind on 26 (c2) with 29 (b1) empty cannot be taken backward.
    check("W:W22:B26", {"22-18", "22-19"})


def test_king_moves_one_square_in_four_directions() -> None:
    check("W:WK22:B1", {"22-18", "22-19", "22-26", "22-27"})


def test_a_man_cannot_capture_a_king() -> None:
    # d3 (22) faces the black king on c4 (18) and a man on e4 (19): only the man can be taken.
    check("W:W22:BK18,19", {"22x15"})
    # With the king alone, there is no capture at all: the man simply moves.
    check("W:W22:BK18", {"22-19"})
    # English men do take kings (there 22 is c3 and 18 is d4).
    assert [m.notation() for m in Position.from_fen("W:W22:BK18", ENGLISH).legal_moves()] == [
        "22x15"
    ]


def test_a_king_captures_kings_and_men() -> None:
    check("W:WK22:BK18", {"22x13"})
    check("W:WK22:B18", {"22x13"})


def test_crowning_by_capture_ends_the_move() -> None:
    pos = Position.from_fen("W:W10:B6,7", ITALIAN)
    [move] = pos.legal_moves()
    assert move.notation(full=True) == "10x3" and move.crowns
    assert pos.play(move).piece_at(3) == Piece(Color.WHITE, king=True)


# --------------------------------------------------------------------- capture priorities


def test_rule_1_take_the_most_pieces() -> None:
    # 22 (d3) can take 18 and 10 (22x13x6); 24 (h3) only 20. Two pieces beat one.
    check("W:W22,24:B18,10,20", {"22x13x6"})
    # Without the second piece both single captures are legal.
    check("W:W22,24:B18,20", {"22x13", "24x15"})


def test_rule_2_capture_with_a_king_rather_than_a_man() -> None:
    # The man on 23 can take 19 (to 14), the king on 30 can take 26 (to 21): one piece each.
    check("W:W23,K30:B19,26", {"30x21"})


def test_rule_3_take_the_most_kings() -> None:
    # The king on 22 can take the king on 18 or the man on 19: one piece either way.
    check("W:WK22:BK18,19", {"22x13"})
    # The king on f3 (23) takes 19 and then the king 10, the man 11 or the man 18: two pieces
    # every way, one route with a king.
    check("W:WK23:B19,18,K10,11", {"23x14x5"})


def test_rule_4_take_the_king_met_first() -> None:
    # Two kings each take two pieces, one of them a king: 16x23x32 takes the man 20 then the king
    # 28, 31x24x15 takes the king 28 first. The capture meeting the king first is compulsory.
    check("W:WK16,K31:B20,K22,K28", {"31x24x15"})


def test_after_the_four_rules_the_choice_is_free() -> None:
    # Two routes of the king, each taking a king first and then a man: either may be played.
    check(
        "B:WK3,K11,K12,20,24,K27,K28,30,K31:BK1,K4,5,K10,K14,15,18,K21,25,K32",
        {"14x7x16x23", "32x23x16x7"},
    )


# --------------------------------------------------------------------- diagnosis


def test_diagnose_man_capturing_a_king() -> None:
    pos = Position.from_fen("W:W22:BK18,19", ITALIAN)
    d = diagnose(pos, (22, 13), True)
    assert d.fault is Fault.ILLEGAL_MOVE
    assert "a man cannot capture a king" in d.message and "18 is a king" in d.message
    assert "22x15" in d.message  # the capture that was compulsory
    assert d.applied is not None and d.applied.piece_at(18) is None


def test_diagnose_names_the_priority_rule_broken() -> None:
    d = diagnose(Position.from_fen("W:W23,K30:B19,26", ITALIAN), (23, 14), True)
    assert d.fault is Fault.ILLEGAL_MOVE
    assert "capturing with a king" in d.message and "30x21" in d.message
    d = diagnose(Position.from_fen("W:WK22:BK18,19", ITALIAN), (22, 15), True)
    assert d.fault is Fault.ILLEGAL_MOVE and "the most kings" in d.message
    d = diagnose(Position.from_fen("W:WK16,K31:B20,K22,K28", ITALIAN), (16, 23, 32), True)
    assert d.fault is Fault.ILLEGAL_MOVE and "takes a king first" in d.message
    assert d.applied is not None
    d = diagnose(Position.from_fen("W:W22,24:B18,10,20", ITALIAN), (24, 15), True)
    assert d.fault is Fault.ILLEGAL_MOVE and "requires taking the most pieces" in d.message


def test_diagnose_legal_moves_still_match() -> None:
    pos = Position.from_fen("W:WK16,K31:B20,K22,K28", ITALIAN)
    d = diagnose(pos, (31, 15), True)
    assert d.ok and d.move is not None and d.move.captures == (28, 20)


# --------------------------------------------------------------------- perft and real games


@needs_shared(CORPUS)
def test_italian_championship_games_replay() -> None:
    pdn = pytest.importorskip("pdn")
    from pdn import validate

    path = CORPUS / "succeed" / "Campionato Assoluto 2005.pdn"
    statuses = []
    for game in pdn.read_games(path):
        report = validate(game, ITALIAN)
        statuses.append(report.status)
        if report.status != "ok":
            # The one record that fails writes a man's double capture 3x26 that two routes fit.
            assert [p.code for p in report.problems] == ["ambiguous-move"], game.index
    assert statuses.count("ok") == len(statuses) - 1 == 52
