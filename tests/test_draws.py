"""Each federation's draw rules, on positions built for each rule (issue 9)."""

from __future__ import annotations

import pytest

import pdn
from pdn.engine import Position, get_variant
from pdn.notation import move_text
from pdn.validation import validate


def quiet_line(variant: str, fen: str, plies: int, *, avoid_repetition: bool = True) -> str:
    """``plies`` king moves from ``fen``: no capture, no man move, none leaving a capture to
    the other side, and (by default) no position twice, so only the rule under test fires.
    The choice is deterministic: the first king move, in the engine's order, that fits."""
    rules = get_variant(variant)
    position = Position.from_fen(fen, rules)
    seen = {position}
    texts = []
    for _ in range(plies):
        for move in position.legal_moves():
            after = position.play(move)
            if move.is_capture or move.is_man_move or after.has_capture():
                continue
            if avoid_repetition and after in seen:
                continue
            break
        else:
            raise AssertionError(f"no quiet king move left after {len(texts)} plies")
        texts.append(move_text(move, rules))
        seen.add(after)
        position = after
    return " ".join(texts)


def draws(game_type: int, fen: str, moves: str) -> list[tuple[str, int | None, str]]:
    report = validate(pdn.parse_game(f'[GameType "{game_type}"]\n[FEN "{fen}"]\n{moves} *'))
    assert report.status == "ok", report.problems
    return [(p.code, p.ply, p.message) for p in report.problems if p.code.startswith("draw")]


def test_fmjd_five_move_rule_two_kings_against_one() -> None:
    fen = "W:WK46,K47:BK4"
    found = draws(20, fen, quiet_line("international", fen, 12))
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 10)]
    assert "FMJD 5-move rule" in found[0][2] and "is drawn from ply 10" in found[0][2]


def test_fmjd_sixteen_move_rule_three_kings_against_one() -> None:
    fen = "W:WK46,K47,K50:BK3"
    found = draws(20, fen, quiet_line("international", fen, 34))
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 32)]
    assert "16-move rule" in found[0][2]


def test_fmjd_twenty_five_move_rule_with_men_on_the_board() -> None:
    # Men that never move, kings that do: after 25 moves each the game is drawn.
    fen = "W:WK47,K48,36:BK3,K4,15"
    found = draws(20, fen, quiet_line("international", fen, 52))
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 50)]
    assert "FMJD 25-move rule" in found[0][2]


def test_fmjd_repetition_is_a_draw_not_a_claim() -> None:
    moves = " ".join(["50-45 1-6 45-50 6-1"] * 3)
    found = draws(20, "W:WK50,K49,48:BK1,K2,3", moves)
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 8)]
    assert "repetition rule" in found[0][2] and "occurred 3 times" in found[0][2]


def test_russian_fifteen_moves_of_kings_when_both_sides_have_kings() -> None:
    fen = "W:WKc1,Ke1,a3:BKf8,Kh8,h6"
    found = draws(25, fen, quiet_line("russian", fen, 32))
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 30)]
    assert "FShR 15-move rule" in found[0][2]


def test_russian_three_kings_against_a_lone_king() -> None:
    fen = "W:WKb2,Kc1,Ke1:BKh6"
    found = draws(25, fen, quiet_line("russian", fen, 31))
    # The king-only count and the ending count both reach 15 moves each at ply 30.
    assert sorted(ply for _, ply, _ in found) == [30, 30]
    assert any("three kings or more against a lone king" in m for _, _, m in found)


def test_czech_fifteen_moves_without_man_move_or_capture_is_a_claim() -> None:
    fen = "W:WKa1,Kc1:BKh8,Kf8"
    found = draws(29, fen, quiet_line("czech", fen, 31))
    assert [(code, ply) for code, ply, _ in found] == [("draw-claimable", 30)]
    assert "can be claimed from ply 30" in found[0][2]


@pytest.mark.parametrize("game_type", [22, 26, 30, 31, 40])
def test_variants_without_watched_draw_rules_say_nothing(game_type: int) -> None:
    rules = get_variant(pdn.gametype.variant_name(game_type) or "")
    position = Position.start(rules)
    text = move_text(position.legal_moves()[0], rules)
    report = validate(pdn.parse_game(f'[GameType "{game_type}"]\n1. {text} *'))
    assert not [p for p in report.problems if p.code.startswith("draw")]
