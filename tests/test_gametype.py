"""GameType parsing and variant detection."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdn import parse_game
from pdn.game.gametype import (
    FULL_VALUES,
    VARIANT_NAMES,
    GameType,
    GameTypeError,
    detect_variant,
    fen_evidence,
    first_mover,
    moves_evidence,
    parse_game_type,
    variant_from_evidence,
    variant_name,
)


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("20", (20, "W", 10, 10, "N", 2, False, True)),
        ("21", (21, "B", 8, 8, "N", 1, False, True)),
        ("22", (22, "W", 8, 8, "N", 2, True, True)),
        ("25", (25, "W", 8, 8, "A", 0, False, True)),
        ("27", (27, "W", 12, 12, "N", 2, False, True)),
        # The standard's table writes "31,B,...": pdn's row is its Thai rules' (White starts).
        ("31", (31, "W", 8, 8, "N", 2, False, True)),
        ("41", (41, "W", 10, 8, "A", 0, False, True)),
        ("20,W,10,10,N1,0", (20, "W", 10, 10, "N", 1, False, False)),
        ("23,W,8,8,A0,0", (23, "W", 8, 8, "A", 0, False, False)),
        (" 23 , b , 8 , 8 , a1 , 1 ", (23, "B", 8, 8, "A", 1, True, False)),
        ("29,W,8,8,A0", (29, "W", 8, 8, "A", 0, None, False)),
        ("20,W,0,0,N,0", (20, "W", 0, 0, "N", None, False, False)),
        ("0,W,8,8,S0", (0, "W", 8, 8, "S", 0, None, False)),
        ("50", (50, None, None, None, None, None, None, False)),
    ],
)
def test_parse_game_type(text: str, fields: tuple[object, ...]) -> None:
    gt = parse_game_type(text)
    assert (
        gt.number,
        gt.start,
        gt.width,
        gt.height,
        gt.notation,
        gt.corner,
        gt.invert,
        gt.expanded,
    ) == fields
    assert gt.text == text


def test_every_table_row_expands_to_itself() -> None:
    for number, full in FULL_VALUES.items():
        short = parse_game_type(str(number))
        assert short.full() == full
        assert parse_game_type(full).full() == full
        assert short.variant == VARIANT_NAMES[number] == variant_name(number)


def test_unreadable_game_types() -> None:
    with pytest.raises(GameTypeError):
        parse_game_type("International")
    with pytest.raises(GameTypeError):
        parse_game_type("")
    odd = parse_game_type("20;W")
    assert (odd.number, odd.start) == (20, None)
    short = parse_game_type(" 20 , b")  # not the standard's form, but its colour is readable
    assert (short.number, short.start, short.width, short.well_formed) == (20, "B", None, False)
    assert parse_game_type("20,Bx").start is None


def test_variant_names() -> None:
    assert [variant_name(n) for n in (20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 40, 41)] == [
        "international",
        "english",
        "italian",
        "pool",
        "spanish",
        "russian",
        "brazilian",
        "canadian",
        "portuguese",
        "czech",
        "turkish",
        "thai",
        "frisian",
        "spantsiretti",
    ]
    assert variant_name(0) is None and variant_name(99) is None


def test_first_mover() -> None:
    assert first_mover("english") == "B"
    assert first_mover("international") == "W"
    # The engine's rules decide, not the short form of the standard's table ("31,B,..."):
    # Thai draughts' rule texts let White begin (docs/rules.md), and the engine does.
    assert first_mover("thai") == "W"
    assert first_mover("thai", parse_game_type("31")) == "W"
    assert first_mover(None) == "W"
    assert first_mover("english", parse_game_type("21,W,8,8,N1,0")) == "W"


def test_evidence() -> None:
    # Up to 32 the exact square does not matter to detection: 32 stands for "32 or lower".
    assert moves_evidence(["11-15", "24-20", "26x17x10x1"]) == (False, 32)
    assert moves_evidence(["33-28", "47x 9"]) == (False, 47)
    assert moves_evidence(["3328", "1-5"]) == (False, 33)
    assert moves_evidence([]) == (False, 0)
    assert moves_evidence(["c3-d4"]) == (True, 0)
    assert moves_evidence(["3228"]) == (False, 32)
    assert fen_evidence("W:W31-50:B1-20") == (False, 50)
    assert fen_evidence("B:WK4,30:B27,22.") == (False, 30)
    assert fen_evidence("W:Wa1,c3:Bh8") == (True, 0)
    assert fen_evidence("W:W31,32:B1,2:H0:F1") == (False, 32)
    assert fen_evidence("?:W29,13,11:BK22,4,2") == (False, 29)


# Move-like texts: squares, separators, spaces, dots and letters in any order, so that squares
# meet the separators of their neighbours when texts are joined.
_MOVE_TEXTS = st.lists(
    st.from_regex(re.compile(r"[0-9xX:. a-l-]{1,9}"), fullmatch=True), max_size=6
)


@given(_MOVE_TEXTS)
def test_evidence_of_texts_is_that_of_the_joined_text(texts: list[str]) -> None:
    # Each text's evidence is remembered on its own; together they must say what the texts
    # joined by spaces say, the way the evidence was first defined.
    from pdn.game.gametype import _joined_evidence

    assert moves_evidence(texts) == _joined_evidence(" ".join(texts))
    assert moves_evidence(iter(texts)) == moves_evidence(tuple(texts))


def test_variant_from_evidence() -> None:
    assert variant_from_evidence(True, 50) == "russian"
    assert variant_from_evidence(False, 32) == "english"
    assert variant_from_evidence(False, 33) == "international"
    assert variant_from_evidence(False, 72) == "canadian"
    assert variant_from_evidence(False, 0) is None


def test_detect_variant() -> None:
    gt = parse_game_type("40")
    assert detect_variant(gt, ["11-15"], []) == ("frisian", "gametype")
    assert detect_variant(None, ["11-15"], []) == ("english", "squares")
    assert detect_variant(None, ["11-15"], ["W:W45:B5"]) == ("international", "squares")
    assert detect_variant(None, [], ["W:W45:B5"]) == ("international", "fen")
    assert detect_variant(None, [], []) == ("english", "default")
    assert detect_variant(GameType(0, "W", 8, 8, "S", 0, None, "0"), [], []) == (None, "gametype")


@pytest.mark.parametrize(
    ("text", "variant", "source"),
    [
        ('[GameType "25"]\n1. 11-15 *', "russian", "gametype"),
        ("1. 11-15 24-20 *", "english", "squares"),
        ("1. 32-28 19-23 *", "english", "squares"),
        ("1. 33-28 19-23 *", "international", "squares"),
        ("1. c3-d4 f6-g5 *", "russian", "squares"),
        ('[FEN "W:W31-50:B1-20"]\n*', "international", "fen"),
        ('[FEN "W:W31-50:B1-20"]\n1. 11-15 *', "international", "squares"),
        ('[FEN "W:W29,30:B1,2."]\n1. c3-d4 *', "russian", "squares"),
        ('/FEN "W:W45:B5"/ 1. 11-15 *', "international", "squares"),
        ('[Event "x"]', "english", "default"),
        ('[GameType "0,W,8,8,S0"]\n*', None, "gametype"),
    ],
)
def test_the_reader_records_the_variant(text: str, variant: str | None, source: str) -> None:
    game = parse_game(text)
    assert (game.variant, game.variant_source) == (variant, source)


def test_the_reader_records_the_game_type() -> None:
    game = parse_game('[GameType "20,W,10,10,N1,0"]\n*')
    assert game.game_type is not None and game.game_type.corner == 1
    game = parse_game('[GameType "International"]\n1. 33-28 *')
    assert game.game_type is None
    assert [p.code for p in game.errors] == ["bad-gametype"]
    assert (game.variant, game.variant_source) == ("international", "squares")


def test_the_evidence_of_a_set_of_move_texts_is_the_same_in_every_run() -> None:
    # Texts with a space or an end separator are read joined, where a neighbour's separator
    # can pair with a square ("12 33" then "-28"): a set (the reader's distinct texts) is
    # joined in sorted order, not in the order of its hashes, which change from run to run.
    texts = {"12 33", "-28", "9-14", "22 -18"}
    assert moves_evidence(texts) == moves_evidence(sorted(texts))
    code = (
        "from pdn.game.gametype import moves_evidence; "
        "print(moves_evidence({'12 33', '-28', '9-14', '22 -18'}))"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(6)
    }
    assert len(seen) == 1, seen
