"""JSON export is lossless: the whole move tree survives a trip through JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pdn
from pdn.export import csv_rows, fen_lines
from pdn.jsonio import game_from_dict, game_to_dict
from pdn.validation import validate

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
