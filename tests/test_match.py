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
from pdn.study.play.clock import Clock, TimeControl
from pdn.study.play.elo import elo_difference
from pdn.study.play.hub import HubClient
from pdn.study.play.match import Ballot, Engine, ballots_of, engine_command, play_game
from pdn.text.results import Outcome

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


# --- issue 34: failures, time, hostile names, openings, resume, Elo ------------------------

FAKE = """\
import sys, time
mode = {mode!r}
log = {log!r}
with open(log, "a") as f:
    f.write("start\\n")
for line in sys.stdin:
    with open(log, "a") as f:
        f.write(line)
    word = line.split()[0] if line.split() else ""
    if word == "hub":
        print("id name=fake", flush=True)
        print("param name=variant type=enum values=english", flush=True)
        print("wait", flush=True)
    elif word == "init":
        print("ready", flush=True)
    elif word == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "error":
            print('error message="out of memory"', flush=True)
        if mode == "garbage":
            print('done move="9-13', flush=True)
        if mode == "hang":
            time.sleep(600)
    elif word == "quit":
        break
"""


def fake_engine(tmp_path: Path, mode: str) -> tuple[str, Path]:
    """A command line running a fake Hub engine that fails as ``mode`` says, and its log."""
    log = tmp_path / f"{mode}.log"
    script = tmp_path / f"{mode}.py"
    script.write_text(FAKE.format(mode=mode, log=str(log)), encoding="utf-8")
    return f"{sys.executable} {script}", log


OURS_TEXT = "pdn engine --hub --depth 1"


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("crash", "the engine 'fake' stopped (exit status 3)"),
        ("error", """the engine 'fake' said 'error message="out of memory"'"""),
        ("garbage", """the engine 'fake' sent 'done move="9-13', not a Hub line"""),
    ],
)
def test_a_failing_engine_forfeits_and_the_match_goes_on(
    tmp_path: Path, mode: str, said: str
) -> None:
    command, log = fake_engine(tmp_path, mode)
    out = tmp_path / "m.pdn"
    result = CliRunner().invoke(
        main,
        ["match", command, OURS_TEXT, "--ballots", "start", "--games", "2", "-o", str(out)],
    )
    assert result.exit_code == 0, result.output
    games = list(pdn.read_games(out))
    assert [g.tags["Round"] for g in games] == ["1", "2"]
    # English: Black moves first; the fake has Black in round 1, White in round 2.
    assert games[0].tags["Result"] == "0-1" and games[1].tags["Result"] == "1-0"
    for game, ply in zip(games, (1, 2), strict=True):
        assert game.tags["Termination"].startswith(f"fake forfeits at ply {ply}: ")
    assert "pdn match: round 1: fake forfeits at ply 1" in result.stderr
    assert f"pdn match: round 2: fake forfeits at ply 2: {said}\n" in result.stderr
    assert games[0].tags["Termination"] == f"fake forfeits at ply 1: {said}"
    # Started again for the second game, not after the last one.
    assert log.read_text(encoding="utf-8").count("start\n") == 2


@pytest.mark.parametrize("limit", [["--time", "0.2", "--margin", "0.1"], ["--timeout", "0.3"]])
def test_an_engine_over_its_time_loses_on_time(tmp_path: Path, limit: list[str]) -> None:
    command, _ = fake_engine(tmp_path, "hang")
    out = tmp_path / "m.pdn"
    result = CliRunner().invoke(
        main,
        ["match", command, OURS_TEXT, "--ballots", "start", "--games", "1", "-o", str(out), *limit],
    )
    assert result.exit_code == 0, result.output
    (game,) = pdn.read_games(out)
    assert game.tags["Result"] == "0-1"
    assert game.tags["Termination"].startswith("fake lost on time at ply 1")


HOSTILE = """\
import sys
sys.path.insert(0, {root!r})
from pdn.study.play.hub import HubEngine

class Out:
    def write(self, text):
        sys.stdout.write(text.replace("id name=pdn", {line!r}))
    def flush(self):
        sys.stdout.flush()

HubEngine(Out(), depth=1).serve(sys.stdin)
"""


def test_a_hostile_engine_name_stays_one_tag_value(tmp_path: Path) -> None:
    name = 'Evil"] [Result "1-0"]'
    script = tmp_path / "evil.py"
    root = str(Path(pdn.__file__).resolve().parents[1])
    line = "id name='" + name + "'"
    script.write_text(HOSTILE.format(root=root, line=line), encoding="utf-8")
    # Both engines say the same name: the labels as typed name them, newline and all.
    one = f'{sys.executable} {script} "a\n[Result \\"1-0\\"]"'
    two = f"{sys.executable} {script}"
    out = tmp_path / "m.pdn"
    result = CliRunner().invoke(
        main, ["match", one, two, "--games", "2", "--max-plies", "8", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    # One Result line a game, however the engines are named.
    assert sum(line.startswith("[Result ") for line in text.splitlines()) == 2
    games = list(pdn.read_games(out))
    assert [g.tags["Result"] for g in games] == ["1/2-1/2", "1/2-1/2"]
    assert games[0].tags["Black"] == one.replace("\n", " ")
    assert games[0].tags["White"] == two
    validated = CliRunner().invoke(main, ["validate", str(out)])
    assert "2 games: 2 clean" in validated.output


@pytest.mark.parametrize("engine", ['"x', "", "   "])
def test_an_engine_command_that_names_no_program_is_a_usage_error(engine: str) -> None:
    result = CliRunner().invoke(main, ["match", engine, OURS_TEXT])
    assert result.exit_code == 2
    assert "engine" in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_clock_is_sent_as_the_hub_level_and_written_in_the_tags(tmp_path: Path) -> None:
    command, log = fake_engine(tmp_path, "garbage")
    out = tmp_path / "m.pdn"
    result = CliRunner().invoke(
        main,
        [
            "match",
            command,
            OURS_TEXT,
            "--ballots",
            "start",
            "--games",
            "1",
            "--time",
            "40/120",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "level moves=40 time=120.000\n" in log.read_text(encoding="utf-8")
    (game,) = pdn.read_games(out)
    assert game.tags["TimeControl"] == "40/120"


def test_our_engine_plays_under_a_fischer_clock(tmp_path: Path) -> None:
    out = tmp_path / "m.pdn"
    result = CliRunner().invoke(
        main,
        [
            "match",
            "pdn engine --hub",
            "pdn engine --hub",
            "--ballots",
            "start",
            "--games",
            "2",
            "--time",
            "20+0.2",
            "--max-plies",
            "6",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    games = list(pdn.read_games(out))
    assert [g.tags["Termination"] for g in games] == ["adjudicated a draw after 6 plies"] * 2
    assert games[0].tags["TimeControl"] == "20+0.2"


def test_a_bad_time_control_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["match", OURS_TEXT, OURS_TEXT, "--time", "fast"])
    assert result.exit_code == 2 and "not a time control" in result.output


def test_the_clock() -> None:
    clock = Clock(TimeControl.parse("1+0.5"), margin=0.25)
    assert clock.level() == "time=1.000 inc=0.5" and clock.deadline() == 1.75
    assert clock.spend(1.4)  # 1 + 0.5 - 1.4 = 0.1 left
    assert not clock.spend(0.9)  # 0.1 + 0.5 - 0.9 = -0.3, past the margin
    periods = Clock(TimeControl.parse("2/10"))
    assert periods.spend(1) and periods.level() == "moves=1 time=9.000"
    assert periods.spend(1) and periods.level() == "moves=2 time=18.000"
    for bad in ("0", "0/10", "10+", "1:00", "inf"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)


OPENINGS = """\
[Event "a position"]
[Opening "kings"]
[FEN "W:W18,K32:B14,K1"]

*

[Event "a line"]

1. 11-15 23-19 *
"""


def test_openings_from_a_pdn_file_each_with_both_colours(tmp_path: Path) -> None:
    openings = tmp_path / "openings.pdn"
    openings.write_text(OPENINGS, encoding="utf-8")
    out = tmp_path / "m.pdn"
    result = CliRunner().invoke(
        main,
        [
            "match",
            OURS_TEXT,
            "pdn engine --hub --depth 2",
            "--openings",
            str(openings),
            "--max-plies",
            "6",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    games = list(pdn.read_games(out))
    assert [g.tags["Opening"] for g in games] == ["kings", "kings"] + ["openings.pdn #2"] * 2
    assert games[0].tags["FEN"] == games[1].tags["FEN"]
    assert "FEN" not in games[2].tags
    assert str(games[2].mainline_moves()[0]).startswith("11-15")
    for a, b in ((games[0], games[1]), (games[2], games[3])):
        assert (a.tags["Black"], a.tags["White"]) == (b.tags["White"], b.tags["Black"])
    for game in games:
        assert pdn.validate(game).status == "ok"


def test_a_bad_openings_file_is_a_usage_error(tmp_path: Path) -> None:
    openings = tmp_path / "openings.pdn"
    openings.write_text("1. 11-15 11-15 *\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["match", OURS_TEXT, OURS_TEXT, "--openings", str(openings)])
    assert result.exit_code == 2 and "openings.pdn, game 1" in result.output


def test_resume_plays_only_the_missing_rounds(tmp_path: Path) -> None:
    out = tmp_path / "m.pdn"
    args = ["match", OURS_TEXT, "pdn engine --hub --depth 2", "--games", "4"]
    args += ["--max-plies", "10", "-o", str(out)]
    assert CliRunner().invoke(main, args).exit_code == 0
    whole = out.read_text(encoding="utf-8")
    games = whole.split("\n\n[Event")
    assert len(games) == 4
    # Interrupted in the third game's write: two games and a piece of the third.
    cut = "\n\n[Event".join(games[:2]) + "\n\n[Event" + games[2][:120]
    out.write_text(cut, encoding="utf-8")
    resumed = CliRunner().invoke(main, [*args, "--resume"])
    assert resumed.exit_code == 0, resumed.output
    again = list(pdn.read_games(out))
    assert [g.tags["Round"] for g in again] == ["1", "2", "3", "4"]
    assert out.read_text(encoding="utf-8").startswith("\n\n[Event".join(games[:2]))
    assert "Games:       4" in resumed.output
    # Another match's file is not resumed as this one.
    other = CliRunner().invoke(main, [*args[:-2], "--seed", "7", "-o", str(out), "--resume"])
    assert other.exit_code == 1 and "resume with the same openings" in other.output


def test_the_elo_difference_against_a_hand_computed_value() -> None:
    # 6 wins, 2 draws, 2 losses: p = 0.7, D = -400 log10(1/0.7 - 1) = 147.19; the game
    # scores' deviation is sqrt(1.6/10) = 0.4, so p ± 1.96 * 0.4 / sqrt(10) = 0.7 ± 0.2479,
    # and the bounds -400 log10(1/0.4521 - 1) = -33.4 and -400 log10(1/0.9479 - 1) = 504.0.
    found = elo_difference(6, 2, 2)
    assert found.score == pytest.approx(0.7)
    assert found.elo == pytest.approx(147.19, abs=0.01)
    assert found.low == pytest.approx(-33.4, abs=0.1)
    assert found.high == pytest.approx(504.0, abs=0.1)
    assert elo_difference(3, 0, 0).elo == float("inf")
    with pytest.raises(ValueError):
        elo_difference(0, 0, 0)


def test_the_standings_say_the_elo_difference(tmp_path: Path) -> None:
    command, _ = fake_engine(tmp_path, "error")
    result = CliRunner().invoke(
        main, ["match", command, OURS_TEXT, "--ballots", "start", "--games", "2"]
    )
    assert result.exit_code == 0
    # pdn won both games by forfeit: no finite difference.
    assert "Elo difference, pdn" in result.stderr and "over fake: +inf" in result.stderr
