"""JSON export is lossless: the whole move tree survives a trip through JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pdn
from pdn.rules.validation import validate
from pdn.writing.export import csv_rows, fen_lines
from pdn.writing.jsonio import game_from_dict, game_to_dict

RICH = """[Event "Rich"]
[Unknown "kept"]
{ before the first move }
1. 11-15 {good} $1 23-19! (1... 22-18 2. 15x22 (2. 9-13?? {missed}) 25x18) 2. 8-11 %escape
22-17 ; a line comment
3. 9-13 /FEN "W:W27:B15,16,24"/ 27x20x11 *
"""


def test_rich_game_survives_json() -> None:
    game = pdn.parse_game(RICH)
    report = validate(game)
    data = json.loads(json.dumps(game_to_dict(game, report)))
    assert game_from_dict(data) == game
    first = data["moves"][0]
    assert first["comments_after"] == [{"text": "good", "kind": "brace"}]
    assert first["nags"] == [1]
    alternatives = data["moves"][1]["variations"]
    assert [m["move"] for m in alternatives[0]] == ["22-18", "15x22", "25x18"]
    assert alternatives[0][1]["variations"][0][0]["strength"] == "??"
    assert data["problems"][0]["code"] == "missed-capture"


def test_json_of_every_example_round_trips() -> None:
    for path in sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.pdn")):
        for game in pdn.read_games(path):
            assert game_from_dict(game_to_dict(game, validate(game))) == game, path


def test_csv_and_fen_follow_the_mainline() -> None:
    game = pdn.parse_game("1. 11-15 (1. 9-13) 23-19 *")
    report = validate(game)
    rows = list(csv_rows(game, report, 1))
    assert [row[3] for row in rows] == ["11-15", "23-19"]
    assert len(fen_lines(report)) == 3


SAMPLE_FILES = sorted((Path(__file__).parent / "fixtures").rglob("*.pdn")) + sorted(
    (Path(__file__).parent.parent / "examples").glob("*.pdn")
)


def test_json_text_is_the_records_on_the_sample() -> None:
    # game_json writes the moves of a plain line straight as text: the same text as
    # dumps(game_to_dict(...)), with a report, without one, and under rules with no replay.
    from pdn.rules.replays import Replays
    from pdn.writing.jsonio import _plain_line, dumps, game_json

    games = plain = 0
    for path in SAMPLE_FILES:
        replays = Replays()
        for game in pdn.read_games(path):
            report = replays.of(game, path.name)
            for given in (report, None, validate(game, "russian")):
                assert game_json(game, given) == dumps(game_to_dict(game, given)), path.name
            games += 1
            plain += _plain_line(game) is not None
    assert 0.5 * games < plain < games  # the straight way carries the load, not all of it


def test_json_text_of_a_game_stopped_by_an_illegal_move() -> None:
    from pdn.writing.jsonio import dumps, game_json

    # 15-19 cannot be carried out (19 is taken): a step without a move or a position after
    # it, and no step for the move after it.
    game = pdn.parse_game('{before} [Event "x"]\n1. 11-15 23-19 2. 15-19 24-20 *')
    report = validate(game)
    text = game_json(game, report)
    assert text == dumps(game_to_dict(game, report))
    moves = json.loads(text)["moves"]
    assert [("ply" in move, "from" in move, "fen" in move) for move in moves] == [
        (True, True, True),
        (True, True, True),
        (True, False, False),
        (False, False, False),
    ]
