"""The endgame tables at work (issue 34): the search takes their values, ``pdn analyse`` says
what they prove, ``pdn show --eval`` prints their verdict, ``pdn match`` adjudicates by them.
The 2- and 3-piece English tables are built once for the module (seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdn.engine import ENGLISH, EndgameTables, Position, Search, build_tables, materials_up_to
from pdn.play.endgame import prober

#: Two White kings against one, White to move: a win in 31 plies by the tables.
KINGS_WIN = "W:WK1,K5:BK32"


@pytest.fixture(scope="module")
def english3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("endgame")
    build_tables(ENGLISH, materials_up_to(3), folder)
    return folder


def test_the_search_takes_the_tables_value(english3: Path):
    position = Position.from_fen(KINGS_WIN, ENGLISH)
    tables = EndgameTables(english3, ENGLISH)
    probe = tables.probe(position)
    assert probe is not None and probe.result == "win"
    found = Search(prober=prober(ENGLISH, english3)).run(position, depth=3)
    assert found.win_in == probe.distance  # exact, far past the depth searched
    assert found.best in [move for move, _ in tables.best_moves(position)]
    # Without the tables, three plies see no win.
    assert Search().run(position, depth=3).win_in is None


def test_the_tables_are_asked_inside_the_search(english3: Path):
    # Four kings: no table holds the position, but the capture leads into one (two kings
    # against one), whose value the search takes at once.
    position = Position.from_fen("W:WK18,K30:BK15,K1", ENGLISH)
    probe = prober(ENGLISH, english3)
    assert probe is not None and probe(position) is None
    after = probe(position.play(position.legal_moves()[0]))
    assert after is not None and after.result == "loss" and after.distance is not None
    found = Search(prober=probe).run(position, depth=2)
    assert found.win_in == after.distance + 1
    assert Search().run(position, depth=2).win_in is None


def test_no_tables_no_prober(tmp_path: Path):
    assert prober(ENGLISH, tmp_path) is None
    (tmp_path / "english").mkdir()
    assert prober(ENGLISH, tmp_path) is None


def test_a_position_of_many_pieces_is_no_tables_at_once(english3: Path):
    # Ranking 24 pieces would build every combination of their squares (minutes, gigabytes).
    tables = EndgameTables(english3, ENGLISH)
    assert tables.probe(Position.start(ENGLISH)) is None
    assert tables.most == 3
