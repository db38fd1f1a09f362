"""Each game record of pdn's JSON becomes exactly one game of the PDN that ``pdn convert``
writes from it, whatever field it lacks (issue 33, section 6: records left without their
tags or moves merged with a neighbour, or vanished, so 2 games read back as 1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pdn.cli import main
from pdn.collections.inputs import iter_games

THREE = (
    '[Event "first"]\n[Result "1-0"]\n\n1. 11-15 24-20 1-0\n\n'
    '[Event "second"]\n[Result "*"]\n\n{before} 1. 9-13 (1. 10-14) 22-18 *\n\n'
    '[Event "third"]\n\n1. 12-16 21-17\n'
)

#: The fields of a game record that hold the game (docs/json.md); the others are the replay's.
GAME_FIELDS = ("tags", "comments_before_tags", "comments", "moves", "terminator")


def _records(tmp_path: Path) -> list[dict[str, Any]]:
    source = tmp_path / "three.pdn"
    source.write_text(THREE)
    result = CliRunner().invoke(main, ["convert", "--to", "ndjson", str(source)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def _cases() -> list[tuple[int, tuple[str, ...]]]:
    every = [(field,) for field in GAME_FIELDS] + [GAME_FIELDS, ("tags", "moves")]
    return [(at, fields) for at in range(3) for fields in every]


@pytest.mark.parametrize(
    ("at", "fields"), _cases(), ids=[f"{at}-{'+'.join(f)}" for at, f in _cases()]
)
def test_a_record_without_a_field_is_still_one_game_in_pdn(
    tmp_path: Path, at: int, fields: tuple[str, ...]
) -> None:
    records = _records(tmp_path)
    for field in fields:
        records[at].pop(field, None)
    mutant = tmp_path / "mutant.ndjson"
    mutant.write_text("".join(json.dumps(record) + "\n" for record in records))
    assert len(list(iter_games(str(mutant)))) == 3
    out = tmp_path / "out.pdn"
    result = CliRunner().invoke(main, ["convert", str(mutant), "-o", str(out)])
    assert result.exit_code == 0, result.output
    back = list(iter_games(str(out)))
    assert len(back) == 3, out.read_text()
    events = [game.tags.get("Event") for game in back]
    expected = ["first", "second", "third"]
    if "tags" in fields:
        expected[at] = None  # type: ignore[call-overload]
    assert events == expected, out.read_text()


def test_a_refused_record_is_still_written_as_nothing(tmp_path: Path) -> None:
    # A record pdn cannot read is no game: its message goes to standard error, and the
    # games around it are written as they are.
    records = _records(tmp_path)
    records[1]["moves"] = 7
    mutant = tmp_path / "mutant.ndjson"
    mutant.write_text("".join(json.dumps(record) + "\n" for record in records))
    out = tmp_path / "out.pdn"
    result = CliRunner().invoke(main, ["convert", str(mutant), "-o", str(out)])
    assert "moves must be a list" in result.output
    back = list(iter_games(str(out)))
    assert [game.tags.get("Event") for game in back] == ["first", "third"], out.read_text()
