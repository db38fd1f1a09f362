"""pdn match (issue 24): engines speaking the Hub protocol play the ballots, both colours per
ballot, and the records are valid PDN that pdn validate finds clean."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.engine import ENGLISH, INTERNATIONAL, Position
from pdn.hub import HubClient
from pdn.match import Ballot, Engine, ballots_of, engine_command, play_game
from pdn.results import Outcome

OURS = [sys.executable, "-m", "pdn", "engine", "--hub", "--depth", "1"]


def test_the_decks() -> None:
    three = ballots_of("english-3move")
    assert len(three) == 156 and len({b.name for b in three}) == 156
    for ballot in three:
        position = ballot.start
        for move in ballot.moves:
            assert move in position.legal_moves()
            position = position.play(move)
    assert len(ballots_of("english-11man")) == 2400
    (start,) = ballots_of("start", INTERNATIONAL)
    assert start.start == Position.start(INTERNATIONAL) and start.moves == ()
    with pytest.raises(ValueError):
        ballots_of("chess")


def test_a_match_of_the_engine_against_itself_is_clean_pdn(tmp_path: Path) -> None:
    out = tmp_path / "match.pdn"
    result = CliRunner().invoke(
        main,
        [
            "match",
            "pdn engine --hub --depth 1",
            "pdn engine --hub --depth 2",
            "--games",
            "4",
            "--max-plies",
            "120",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Standings" in result.output
    games = list(pdn.read_games(out))
    assert len(games) == 4
    for number, game in enumerate(games, 1):
        report = pdn.validate(game)
        assert report.status == "ok", [p.message for p in report.all_problems]
        tags = game.tags
        assert tags["Round"] == str(number)
        assert tags["Opening"].startswith("ACF ")
        assert tags["Termination"]
        assert int(tags["PlyCount"]) == len(game.mainline_moves())
        assert tags["Result"] == game.result
    # Each ballot twice, the colours swapped.
    assert games[0].tags["Opening"] == games[1].tags["Opening"]
    assert (games[0].tags["Black"], games[0].tags["White"]) == (
        games[1].tags["White"],
        games[1].tags["Black"],
    )
    validated = CliRunner().invoke(main, ["validate", str(out)])
    assert validated.exit_code == 0 and "4 games: 4 clean" in validated.output


@pytest.fixture()
def bad_engine(tmp_path: Path) -> list[str]:
    # A Hub engine that answers every go with a move that is not legal.
    script = tmp_path / "bad.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    word = line.split()[0] if line.split() else ''\n"
        "    if word == 'hub':\n"
        "        print('id name=bad', flush=True)\n"
        "        print('param name=variant type=enum values=english', flush=True)\n"
        "        print('wait', flush=True)\n"
        "    elif word == 'init':\n"
        "        print('ready', flush=True)\n"
        "    elif word == 'go':\n"
        "        print('done move=1-2', flush=True)\n"
        "    elif word == 'quit':\n"
        "        break\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return [sys.executable, str(script)]


def test_an_illegal_move_loses(bad_engine: list[str]) -> None:
    ballot = ballots_of("start", ENGLISH)[0]
    with HubClient(bad_engine) as bad, HubClient(OURS) as ours:
        bad.set_variant(ENGLISH)
        ours.set_variant(ENGLISH)
        played = play_game(ballot, Engine("bad", bad), Engine("pdn", ours))
    assert played.outcome is Outcome.SECOND_WINS  # Black (bad) moves first in English
    assert "not a legal move" in played.termination and played.moves == ()


def test_a_draw_rule_ends_the_game() -> None:
    # Two lone kings: they can only go round, and the third occurrence comes.
    ballot = Ballot("kings", Position.from_fen("B:WK32:BK1", ENGLISH))
    with HubClient(OURS) as one, HubClient(OURS) as two:
        one.set_variant(ENGLISH)
        two.set_variant(ENGLISH)
        played = play_game(ballot, Engine("a", one), Engine("b", two), max_plies=200)
    assert played.outcome is Outcome.DRAW
    assert played.termination.startswith("adjudicated a draw: ")
    assert "after 200 plies" not in played.termination  # a rule, not the ply limit


def test_engine_commands() -> None:
    assert engine_command("pdn engine --hub")[0] == sys.executable
    assert engine_command("/usr/bin/scan hub") == ["/usr/bin/scan", "hub"]
