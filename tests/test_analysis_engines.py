"""``pdn analyse --engine`` (issue 34): an outside engine speaking the Hub protocol values the
moves, and the same verdict function judges them; an engine that crashes, hangs or answers an
illegal move is stopped with the game and the ply said, the games before written; a verdict
that the last depth alone claims is ``unclear``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.engine import ENGLISH, Position
from pdn.study.play.analysis import judge
from pdn.study.play.evaluators import Valued

ROOT = Path(__file__).resolve().parents[1]
OCA = ROOT / "tests/fixtures/corpus/mzuluaga__checkers/OCA_2.0.bytes-11154752-11170515.pdn"
HUB = f"{sys.executable} -m pdn engine --hub"

#: A fake Hub engine: pdn's own at depth 2, but at the go command numbered FAIL it does what
#: MODE says (crash: exit; illegal: a move no position allows; hang: sleep), and with SCORES
#: (a dict, last move played -> (score at depth 1, score at depth 2)) it answers those scores.
FAKE = """
import sys, time
from pdn.study.play.hub import HubEngine, hub_move, _arguments
MODE, FAIL, SCORES = {mode!r}, {fail!r}, {scores!r}
engine = HubEngine(sys.stdout, depth=2)
gos = 0
last = ""
for line in sys.stdin:
    if line.startswith("pos"):
        last = (_arguments(line.partition(" ")[2]).get("moves", "").split() or [""])[-1]
    if line.startswith("go"):
        gos += 1
        if gos == FAIL and MODE == "crash":
            sys.exit(3)
        if gos == FAIL and MODE == "illegal":
            print("done move=1-2", flush=True)
            continue
        if gos == FAIL and MODE == "hang":
            time.sleep(60)
        if SCORES is not None:
            shallow, deep = SCORES.get(last, (0.0, 0.0))
            print(f"info depth=1 score={{shallow:.2f}}", flush=True)
            print(f"info depth=2 score={{deep:.2f}}", flush=True)
            move = engine.position.legal_moves()[0]
            print(f"done move={{hub_move(move, engine.position.variant)}}", flush=True)
            continue
    if not engine.handle(line):
        break
    engine.wait()
"""


def fake(tmp_path: Path, mode: str = "", fail: int = 0, scores: object = None) -> str:
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE.format(mode=mode, fail=fail, scores=scores))
    return f"{sys.executable} {script}"


def small_game(tmp_path: Path, plies: int = 16) -> Path:
    """The first moves of a real game (OCA 2.0, in tests/fixtures)."""
    game = next(iter(pdn.read_games(str(OCA))))
    path = tmp_path / "small.pdn"
    path.write_text(" ".join(game.mainline_moves()[:plies]) + " *\n")
    return path


def run_json(*args: str) -> tuple[int, dict[str, object], str]:
    result = CliRunner().invoke(main, ["analyse", "--format", "json", "-q", *args])
    data = json.loads(result.stdout) if result.stdout.strip() else {}
    return result.exit_code, data, result.stderr


def verdicts(data: dict[str, object]) -> list[list[tuple[int, list[str], int, int]]]:
    games = data["games"]
    assert isinstance(games, list)
    return [
        [(p["ply"], p["verdicts"], p["before"], p["after"]) for p in game["plies"]]
        for game in games
    ]


def test_pdn_through_the_hub_gives_the_labels_of_pdns_own_search(tmp_path: Path) -> None:
    path = small_game(tmp_path)
    code, own, _ = run_json("--depth", "6", str(path))
    assert code == 0
    code, hub, err = run_json("--depth", "6", "--engine", HUB, str(path))
    assert code == 0, err
    # The same values at every ply (so the same verdicts), ply by ply.
    assert verdicts(hub) == verdicts(own)
    assert any(v for _, v, _, _ in verdicts(own)[0])  # something is judged
    game = hub["games"][0]  # type: ignore[index]
    assert game["engine"]["name"].startswith("pdn ")
    assert game["engine"]["variant"] == "english"
    # The engine and its settings in the Annotator tag of the PDN output.
    result = CliRunner().invoke(main, ["analyse", "-q", "--depth", "2", "--engine", HUB, str(path)])
    assert result.exit_code == 0, result.output
    tag = pdn.parse_game(result.stdout).tags["Annotator"]
    assert tag.startswith("pdn analyse, pdn ") and "variant=english" in tag
    assert tag.endswith(", depth 2")


TWO_GAMES = '[Event "one"]\n1. 11-15 *\n\n[Event "two"]\n1. 11-15 22-18 2. 8-11 *\n'


def two_games(tmp_path: Path) -> Path:
    path = tmp_path / "two.pdn"
    path.write_text(TWO_GAMES)
    return path


def test_an_engine_that_crashes_is_said_with_the_ply_and_earlier_games_kept(
    tmp_path: Path,
) -> None:
    # Game one: 7 moves searched; the 10th search is in game two, ply 1.
    path, out = two_games(tmp_path), tmp_path / "out.pdn"
    result = CliRunner().invoke(
        main,
        ["analyse", "-q", "--depth", "3", "--engine", fake(tmp_path, "crash", 10),
         str(path), "-o", str(out)],
    )  # fmt: skip
    assert result.exit_code == 1
    assert "game 2 (line 4), ply 1 (11-15)" in result.stderr
    assert "stopped" in result.stderr and "Traceback" not in result.output
    games = list(pdn.read_games(str(out)))
    assert [g.tags["Event"] for g in games] == ["one"]
    assert games[0].tags["Annotator"].startswith("pdn analyse, pdn ")


def test_an_engine_that_answers_an_illegal_move_is_said(tmp_path: Path) -> None:
    path = two_games(tmp_path)
    code, data, err = run_json("--depth", "3", "--engine", fake(tmp_path, "illegal", 10), str(path))
    assert code == 1
    assert "game 2 (line 4), ply 1 (11-15)" in err and "'1-2', not a legal move" in err
    assert [g["tags"][0][1] for g in data["games"]] == ["one"]  # type: ignore[index]


@pytest.mark.stress  # waits out the timeout: seconds
def test_an_engine_that_hangs_is_stopped_after_the_timeout(tmp_path: Path) -> None:
    path = two_games(tmp_path)
    engine = fake(tmp_path, "hang", 3)
    code, data, err = run_json("--depth", "3", "--timeout", "5", "--engine", engine, str(path))
    assert code == 1
    assert "game 1 (line 1), ply 1 (11-15)" in err
    assert "did not answer within 5 s (--timeout)" in err
    assert data["games"] == []


def test_a_loss_seen_only_at_the_last_depth_is_unclear(tmp_path: Path) -> None:
    # After 11-15 the fake engine says White is 2 men up at depth 2, level at depth 1: the
    # blunder appears only at the last depth, so it is not said.
    path = tmp_path / "one.pdn"
    path.write_text("1. 11-15 *\n")
    late = fake(tmp_path, scores={"11-15": (0.0, 2.0)})
    code, data, err = run_json("--depth", "3", "--engine", late, str(path))
    assert code == 0, err
    (ply,) = data["games"][0]["plies"]  # type: ignore[index]
    assert ply["verdicts"] == ["unclear"] and ply["unclear"] == ["blunder"]
    assert ply["after"] == -200 and ply["previous"] == {"before": 0, "after": 0}
    result = CliRunner().invoke(
        main, ["analyse", "-q", "--depth", "3", "--engine", late, str(path)]
    )
    (move,) = pdn.parse_game(result.stdout).root.mainline()
    assert move.nags == [] and move.comments_after == []  # no NAG, no comment
    # Seen at both depths, it is a blunder.
    held = fake(tmp_path, scores={"11-15": (2.0, 2.0)})
    code, data, err = run_json("--depth", "3", "--engine", held, str(path))
    (ply,) = data["games"][0]["plies"]  # type: ignore[index]
    assert ply["verdicts"] == ["blunder"] and ply["unclear"] == []


def test_the_verdict_function_keeps_a_proven_loss_and_a_loss_held_at_two_depths() -> None:
    start = Position.start(ENGLISH)
    a, b = start.legal_moves()[:2]
    best = Valued(a, 10, (a,), 10)
    late = Valued(b, -150, (b,), 5)  # a blunder at the last depth only
    assert judge(0, False, [best, late], late) == ((), ("blunder",))
    weaker = Valued(b, -150, (b,), -40)  # a mistake the depth before
    assert judge(0, False, [best, weaker], weaker) == (("mistake",), ("blunder",))
    lost = Valued(b, -(1_000_000 - 5), (b,), 0)  # a forced loss found: proven
    assert judge(0, False, [best, lost], lost) == (("blunder",), ())


def test_an_engine_named_in_the_users_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "config" / "pdn"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text(f'[engines]\nmine = "{HUB} --depth 3"\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    path = tmp_path / "one.pdn"
    path.write_text("1. 11-15 *\n")
    code, data, err = run_json("--depth", "2", "--engine", "mine", str(path))
    assert code == 0, err
    assert data["games"][0]["engine"]["name"].startswith("pdn ")  # type: ignore[index]
    # A bad config file is said, not a traceback.
    (folder / "config.toml").write_text("[engines\n")
    code, _, err = run_json("--engine", "mine", str(path))
    assert code == 1 and "config.toml" in err and "Traceback" not in err
