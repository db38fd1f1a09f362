"""Digit runs longer than Python's int-string limit (4,300 digits) are out of range, not a crash."""

from __future__ import annotations

import pytest

from pdn import engine
from pdn.game.gametype import GameTypeError, parse_game_type
from pdn.study.tournament import (
    build_reports,
    first_mover_colour,
    record_from_tags,
    round_sort_key,
)

HUGE = "9" * 5000  # past sys.get_int_max_str_digits() (4,300 by default)


@pytest.mark.parametrize(
    "value", [HUGE, f"{HUGE},W,8,8,N1,0", f"20,W,{HUGE},10,N2,0", f"21,B,8,{HUGE},N1", f"{HUGE};x"]
)
def test_game_type_with_a_huge_number_is_out_of_range(value: str) -> None:
    with pytest.raises(GameTypeError, match="out of range") as caught:
        parse_game_type(value)
    assert len(str(caught.value)) < 200  # a message, not the number


def test_game_type_leading_zeros_still_read() -> None:
    assert parse_game_type("0" * 5000 + "21").number == 21


@pytest.mark.parametrize("fen", [f"B:W{HUGE}:B1", f"B:W1-{HUGE}:B1", f"W:WK{HUGE}:B2", "B:W0:B1"])
def test_fen_square_with_a_huge_number_is_out_of_range(fen: str) -> None:
    with pytest.raises(engine.FenError, match="out of range") as caught:
        engine.Position.from_fen(fen, engine.ENGLISH)
    assert len(str(caught.value)) < 200


def test_fen_leading_zeros_still_read() -> None:
    position = engine.Position.from_fen("B:W" + "0" * 5000 + "32:B1", engine.ENGLISH)
    assert position == engine.Position.from_fen("B:W32:B1", engine.ENGLISH)


def test_huge_round_sorts_after_smaller_rounds() -> None:
    rounds = ["10", HUGE, "2", "1." + HUGE, "1.2", "02"]
    assert sorted(rounds, key=round_sort_key) == ["1.2", "1." + HUGE, "2", "02", "10", HUGE]


def test_report_with_huge_round_and_opening_numbers() -> None:
    tags = [
        {"Event": "E", "Round": HUGE, "Black": "A", "White": "B", "Result": "1-0"},
        {"Event": "E", "Round": "2", "Black": "B", "White": "A", "Result": "0-1"},
        {"Event": "E", "Round": "3", "Black": "A", "White": "B", "Opening": f"ACF {HUGE}"},
        {"Event": "E", "Round": "4", "Black": "A", "White": "B", "Opening": "ACF 7"},
    ]
    report = build_reports([record_from_tags(t) for t in tags])[0]
    assert [r.round for r in report.rounds] == ["2", "3", "4", HUGE]
    assert [o.opening for o in report.openings] == ["ACF 7", f"ACF {HUGE}"]


def test_first_mover_of_a_huge_game_type_is_white_like_any_unknown_type() -> None:
    assert first_mover_colour(None, HUGE) == "White"
