"""Czech draughts (GameType 29): flying kings, men forward only, a king must capture first.

pydraughts has no Czech rules, so every rule that differs from its neighbours (English: same men;
Russian: same kings) has a hand-made position here (FENs in algebraic squares, as Czech records
are written). docs/rules.md gives the rules and their source.
"""

from __future__ import annotations

import pytest
from shared_paths import WIEGERW_GAMES, needs_shared

from pdn.engine import (
    ENGLISH,
    RUSSIAN,
    Color,
    Fault,
    Piece,
    Position,
    Variant,
    board_for,
    diagnose,
    get_variant,
    perft,
    variant_for_game_type,
)

CZECH = get_variant("czech")
CORPUS = WIEGERW_GAMES / "fail"


def moves(fen: str, variant: Variant = CZECH) -> set[str]:
    board = board_for(variant)
    out = set()
    for m in Position.from_fen(fen, variant).legal_moves():
        sep = "x" if m.captures else "-"
        out.add(sep.join(board.algebraic(s) for s in m.path))
    return out


def squares(*names: str) -> tuple[int, ...]:
    board = board_for(CZECH)
    found = [board.square_of(n) for n in names]
    assert None not in found
    return tuple(s for s in found if s is not None)


def test_registry_board_and_start() -> None:
    assert variant_for_game_type(29) is CZECH and get_variant("ceska dama") is CZECH
    assert CZECH.first_mover is Color.WHITE and CZECH.notation == "algebraic"
    # The dark corner on each player's left (a1 dark), as in Russian.
    assert board_for(CZECH) is board_for(RUSSIAN)
    assert Position.start(CZECH).fen() == Position.start(RUSSIAN).fen()


def test_men_move_and_capture_forward_only() -> None:
    assert moves("W:Wf2:Bb2") == {"f2-e3", "f2-g3"}
    # c3 with a black man behind it on b2 and a1 empty: no backward capture (Russian has one).
    assert moves("W:Wc3:Bb2") == {"c3-b4", "c3-d4"}
    assert moves("W:Wc3:Bb2", RUSSIAN) == {"c3xa1"}


def test_kings_fly_and_land_anywhere_behind() -> None:
    assert moves("W:WKa1:Bd4") == {"a1xe5", "a1xf6", "a1xg7", "a1xh8"}


def test_king_must_land_where_it_can_go_on() -> None:
    # After d4 only e5 lets the king take f6 (on to g7 or h8); stopping on f6.. is not allowed.
    assert moves("W:WKa1:Bd4,f6,b6") == {"a1xe5xg7", "a1xe5xh8"}


def test_no_majority_rule_between_men() -> None:
    # c3 may take one piece (b4) or two (d4, f6): both are legal.
    assert moves("W:Wc3:Bb4,d4,f6") == {"c3xa5", "c3xe5xg7"}


def test_a_king_capture_comes_before_a_man_capture() -> None:
    # The man on e3 could take two (f4, f6); the king on b8 can take one (f4): the king must.
    assert moves("W:We3,Kb8:Bf4,f6,a7") == {"b8xg3", "b8xh2"}
    # Russian (no king rule) leaves the man's capture too.
    russian = Position.from_fen("W:We3,Kb8:Bf4,f6,a7", RUSSIAN)
    assert any(not m.king for m in russian.legal_moves())


def test_a_man_crowned_by_a_capture_stops_there() -> None:
    pos = Position.from_fen("W:Wd6:Be7,g7", CZECH)
    [move] = pos.legal_moves()
    assert board_for(CZECH).algebraic(move.end) == "f8" and move.crowns
    assert pos.play(move).piece_at(move.end) == Piece(Color.WHITE, king=True)
    # In Russian it goes on as a king over g7.
    assert moves("W:Wd6:Be7,g7", RUSSIAN) == {"d6xf8xh6"}


def test_merged_moves_for_a_king_going_on_straight() -> None:
    # After c3 the king may stop on d4 or e5 and still take f6 straight on: four paths, two
    # resulting positions (g7 or h8).
    pos = Position.from_fen("W:WKa1:Bc3,f6", CZECH)
    assert moves("W:WKa1:Bc3,f6") == {"a1xd4xg7", "a1xd4xh8", "a1xe5xg7", "a1xe5xh8"}
    assert perft(pos, 1) == 4 and perft(pos, 1, merge_duplicates=True) == 2
    # One path each, stopping just behind c3 (d4 = 18), as PDN writes it; g7 = 8, h8 = 4.
    assert {m.notation(full=True) for m in pos.legal_moves(merge_duplicates=True)} == {
        "29x18x4",
        "29x18x8",
    }


def test_diagnose_man_capture_when_a_king_can_capture() -> None:
    pos = Position.from_fen("W:We3,Kb8:Bf4,f6,a7", CZECH)
    d = diagnose(pos, squares("e3", "g5", "e7"), True)
    assert d.fault is Fault.ILLEGAL_MOVE
    assert "capturing with a king" in d.message and "b8xg3" in d.message
    assert d.applied is not None  # it can be carried out, so a replay can go on


def test_diagnose_capture_after_crowning() -> None:
    pos = Position.from_fen("W:Wd6:Be7,g7", CZECH)
    d = diagnose(pos, squares("d6", "f8", "h6"), True)
    assert d.fault is Fault.CAPTURE_AFTER_CROWNING


@needs_shared(CORPUS)
def test_czech_tournament_records_replay() -> None:
    pdn = pytest.importorskip("pdn")
    from pdn import validate

    count = 0
    for name in ("mrdrcd07.pdn", "mrdrcd08.pdn"):
        for game in pdn.read_games(CORPUS / name):
            report = validate(game, CZECH)
            assert report.status == "ok", (name, game.index, report.problems[:1])
            count += 1
    assert count == 112


def test_start_equals_english_until_kings() -> None:
    assert perft(Position.start(CZECH), 6) == perft(Position.start(ENGLISH), 6)
