"""The endgame tables at work (issue 34): the search takes their values, ``pdn analyse`` says
what they prove, ``pdn show --eval`` prints their verdict, ``pdn match`` adjudicates by them.
The 2- and 3-piece English tables are built once for the module (seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdn.engine import ENGLISH, EndgameTables, Position, Search, build_tables, materials_up_to
from pdn.study.play.endgame import prober

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


# ----------------------------------------------------------------------------- pdn analyse

#: Two kings against one, Black to move and winning: 18-14 hangs a king (a draw), 30-25
#: keeps the win in 23 plies.
THROWN = """[Event "thrown"]
[Result "1/2-1/2"]
[FEN "B:WK10:BK18,K30"]

1. 18-14 10x17 1/2-1/2
"""
#: The same, played well, and given as a draw: the tables say Black wins.
CONTRADICTED = """[Event "contradicted"]
[Result "1/2-1/2"]
[FEN "B:WK10:BK18,K30"]

1. 30-25 10-6 1/2-1/2
"""
#: Two kings each: 24x15 leads into a won ending of the tables, 5x14 into a drawn one.
MISSED = """[Event "missed"]
[Result "1/2-1/2"]
[FEN "B:WK19,K9:BK5,K24"]

1. 5x14 1/2-1/2
"""


def _analyse(tmp_path: Path, text: str, *options: str) -> str:
    from click.testing import CliRunner

    from pdn.cli import main

    source = tmp_path / "game.pdn"
    source.write_text(text)
    result = CliRunner().invoke(main, ["analyse", "--depth", "4", "-q", str(source), *options])
    assert result.exit_code == 0, result.output
    return result.output


def test_analyse_says_a_win_thrown_away(tmp_path: Path, english3: Path):
    out = _analyse(tmp_path, THROWN, "--tables", str(english3))
    assert "1. 18-14 $4" in out
    assert "throws away a win: draw; best: 30-25 win in 23 (endgame tables)" in out
    assert "1 win thrown away" in out
    # Without the tables none of it is said.
    assert "throws away" not in _analyse(tmp_path, THROWN, "--no-tables")


def test_analyse_says_the_result_contradicts_the_tables(tmp_path: Path, english3: Path):
    out = _analyse(tmp_path, CONTRADICTED, "--tables", str(english3))
    said = (
        "{the result 1/2-1/2 contradicts the tables: "
        "the position after ply 2 is a win for Black in 21 plies}"
    )
    assert said in " ".join(out.split())
    assert "contradicts" not in _analyse(tmp_path, CONTRADICTED, "--no-tables")
    # A game whose result the tables hold true is not flagged.
    assert "contradicts" not in _analyse(tmp_path, THROWN, "--tables", str(english3))


def test_analyse_says_a_win_missed(tmp_path: Path, english3: Path):
    out = _analyse(tmp_path, MISSED, "--tables", str(english3))
    assert "misses a win: draw; best: 24x15 win in 9 (endgame tables)" in out


def test_the_tables_verdicts_stand_at_any_depth(tmp_path: Path, english3: Path):
    import json

    for depth in ("2", "5"):
        out = _analyse(
            tmp_path, THROWN, "--tables", str(english3), "--format", "json", "--depth", depth
        )
        ply = json.loads(out)["games"][0]["plies"][0]
        assert "throws away a win" in ply["verdicts"] and "unclear" not in ply["verdicts"]
        assert ply["table"] == {
            "verdict": "throws away a win",
            "after": "draw",
            "best": "30-25",
            "best_value": "win in 23",
        }
    out = _analyse(tmp_path, CONTRADICTED, "--tables", str(english3), "--format", "json")
    assert json.loads(out)["games"][0]["contradiction"].startswith("the result 1/2-1/2")


def test_an_analysis_with_the_tables_analysed_again_carries_one(tmp_path: Path, english3: Path):
    once = _analyse(tmp_path, THROWN + "\n" + CONTRADICTED, "--tables", str(english3))
    twice = _analyse(tmp_path, once, "--tables", str(english3))
    assert twice == once


# ----------------------------------------------------------------------------- pdn show --eval


def _show(*args: str) -> str:
    from click.testing import CliRunner

    from pdn.cli import main

    result = CliRunner().invoke(main, ["show", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_show_eval_gives_the_value_the_best_moves_and_the_tables(english3: Path):
    out = _show("--fen", "B:WK10:BK18,K30", "--eval", "--depth", "4", "--tables", str(english3))
    assert "Black to move: win in 23 at depth 4" in out
    assert "best moves: 30-25 win in 23, 30-26 win in 23," in out
    assert "tables: Black to move wins in 23 plies; best moves: 30-25, 30-26" in out


def test_show_eval_says_when_no_table_holds_the_material(english3: Path, tmp_path: Path):
    out = _show("--fen", "B:W21-32:B1-12", "--eval", "--depth", "2", "--tables", str(english3))
    assert "Black to move: " in out and "at depth 2" in out
    assert "tables: no table for this material\n" in out
    out = _show("--fen", "B:WK10:BK18,K30", "--eval", "--depth", "4", "--tables", str(tmp_path))
    assert "Black to move: +1.54 at depth 4" in out  # the search alone
    assert "tables: no table for this material (none built:" in out


def test_show_eval_is_for_a_text_board():
    from click.testing import CliRunner

    from pdn.cli import main

    result = CliRunner().invoke(main, ["show", "--fen", "B:WK10:BK18,K30", "--eval", "--svg"])
    assert result.exit_code == 2 and "--eval goes with a text board" in result.output
    result = CliRunner().invoke(main, ["show", "--fen", "B:WK10:BK18,K30", "--depth", "3"])
    assert result.exit_code == 2


# ----------------------------------------------------------------------------- pdn match

#: Openings a match plays from: the first in the tables at once (Black wins), the second
#: after White's forced capture (two kings against one: White wins).
TABLE_OPENINGS = """[FEN "B:WK10:BK18,K30"]
*

[FEN "W:WK18,K30:BK15,K1"]
*
"""


def _match(tmp_path: Path, *options: str) -> list:
    import sys

    from click.testing import CliRunner

    import pdn
    from pdn.cli import main

    openings = tmp_path / "openings.pdn"
    openings.write_text(TABLE_OPENINGS)
    out = tmp_path / "m.pdn"
    ours = f"{sys.executable} -m pdn engine --hub --depth 1"
    args = ["match", ours, ours, "--openings", str(openings), "--max-plies", "6"]
    result = CliRunner().invoke(main, [*args, "-o", str(out), *options])
    assert result.exit_code == 0, result.output
    return list(pdn.read_games(out))


def test_match_adjudicates_by_the_tables(tmp_path: Path, english3: Path):
    games = _match(tmp_path, "--tables", str(english3))
    said = [(g.tags["Result"], g.tags["PlyCount"], g.tags["Termination"]) for g in games]
    assert (
        said
        == [
            (
                "1-0",
                "0",
                "adjudicated by the endgame tables at ply 0: Black to move wins in 23 plies",
            ),
        ]
        * 2
        + [
            (
                "0-1",
                "1",
                "adjudicated by the endgame tables at ply 1: Black to move loses in 28 plies",
            ),
        ]
        * 2
    )
    # Without them the games are played on, to the ply limit or a draw rule.
    for game in _match(tmp_path, "--no-tables"):
        assert "endgame tables" not in game.tags["Termination"]


def test_match_takes_engines_named_in_the_users_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    import sys

    from click.testing import CliRunner

    import pdn
    from pdn.cli import main

    folder = tmp_path / "config" / "pdn"
    folder.mkdir(parents=True)
    ours = f"{sys.executable} -m pdn engine --hub"
    (folder / "config.toml").write_text(
        f'[engines]\nquick = "{ours} --depth 1"\ndeeper = "{ours} --depth 2"\n'
    )
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    out = tmp_path / "m.pdn"
    args = ["match", "quick", "deeper", "--max-plies", "4", "-o", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    games = list(pdn.read_games(out))
    assert {g.tags["Black"] for g in games} == {"quick", "deeper"}  # both named by the user
    # A config that cannot be read is said, not a traceback.
    (folder / "config.toml").write_text("[engines\n")
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "config.toml" in result.output
