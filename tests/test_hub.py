"""The Hub protocol (issue 24): pdn's engine answers as Scan's protocol says, and pydraughts'
HubEngine, an independent client, plays a whole International game with it."""

from __future__ import annotations

import io
import os
import queue
import random
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pdn.engine import INTERNATIONAL, MAX_DEPTH, VARIANTS, Move, Position
from pdn.study.play.hub import (
    HubClient,
    HubEngine,
    HubError,
    hub_move,
    hub_position,
    parse_hub_move,
    parse_hub_position,
)

START = "W" + "b" * 20 + "e" * 10 + "w" * 20


def answers(*lines: str, **level: object) -> list[str]:
    out = io.StringIO()
    engine = HubEngine(out, **level)  # type: ignore[arg-type]
    for line in lines:
        engine.handle(line)
        engine.wait()  # one line answered in full before the next, as a script would
    return out.getvalue().splitlines()


def test_the_handshake_names_the_engine_and_its_variants() -> None:
    said = answers("hub", "init", "ping")
    assert said[0].startswith("id name=pdn ")
    assert said[1].startswith('param name=variant value=normal type=enum values="normal ')
    assert said[2:] == ["wait", "ready", "pong"]


def test_go_answers_a_legal_move_with_info() -> None:
    said = answers("init", f"pos pos={START}", "level depth=3", "go think")
    infos = [line for line in said if line.startswith("info ")]
    assert [line.split()[1] for line in infos] == ["depth=1", "depth=2", "depth=3"]
    done = said[-1]
    assert done.startswith("done move=")
    move = done.split()[1].removeprefix("move=")
    start = Position.start(INTERNATIONAL)
    assert parse_hub_move(move, start) in start.legal_moves()


def test_positions_after_moves_and_other_variants() -> None:
    english = VARIANTS["english"]
    start = Position.start(english)
    said = answers(
        "init",
        "set-param name=variant value=english",
        f'pos pos={hub_position(start)} moves="11-15 23-19"',
        "level depth=2",
        "go think",
    )
    move = said[-1].split()[1].removeprefix("move=")
    after = start.play(parse_hub_move("11-15", start))
    after = after.play(parse_hub_move("23-19", after))
    assert parse_hub_move(move, after) in after.legal_moves()


@pytest.mark.parametrize(
    "line",
    [
        "pos pos=Wxyz",
        "pos pos=" + START + ' moves="32-22"',
        "set-param name=variant value=chess",
        "go think",
        "frobnicate",
    ],
)
def test_a_bad_line_is_answered_with_an_error_and_the_engine_goes_on(line: str) -> None:
    said = answers(line, "ping")
    assert said[0].startswith('error message="') and said[1] == "pong"


def test_a_game_with_no_move_left_is_done_without_a_move() -> None:
    lost = hub_position(Position.from_fen("W:W:B1", INTERNATIONAL))
    assert answers(f"pos pos={lost}", "level depth=2", "go think")[-1] == "done"


def test_positions_and_moves_round_trip_in_every_variant() -> None:
    rng = random.Random(24)
    for variant in VARIANTS.values():
        position = Position.start(variant)
        for _ in range(40):
            assert (
                parse_hub_position(hub_position(position), variant)
                == position.with_turn(position.turn)
                or parse_hub_position(hub_position(position), variant).fen() == position.fen()
            )
            moves = position.legal_moves(merge_duplicates=True)
            if not moves:
                break
            for move in moves:
                assert parse_hub_move(hub_move(move, variant), position).captures == move.captures
            position = position.play(rng.choice(moves))
    with pytest.raises(HubError):
        parse_hub_move("32-99", Position.start(INTERNATIONAL))


@pytest.fixture()
def engine_program(tmp_path: Path) -> Path:
    # pydraughts resolves the program's path (symbolic links too) and runs it through a shell:
    # a script of its own keeps this interpreter and its packages.
    script = tmp_path / "pdn-hub"
    script.write_text(
        f'#!/bin/sh\nexec "{sys.executable}" -m pdn engine --hub "$@"\n', encoding="utf-8"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


@pytest.mark.oracle
def test_pydraughts_plays_a_whole_international_game_with_it(engine_program: Path) -> None:
    draughts = pytest.importorskip("draughts")
    from draughts.engine import Limit
    from draughts.engines.hub import HubEngine as PeerClient

    client = PeerClient([str(engine_program)], cwd=str(engine_program.parent))
    try:
        client.init()
        board = draughts.Board("standard")
        ours = Position.start(INTERNATIONAL)
        plies = 0
        while not board.is_over() and plies < 400:
            result = client.play(board, Limit(depth=2), ponder=False)
            peer_legal = {m.hub_move for m in board.legal_moves()}
            assert result.move.hub_move in peer_legal
            move = parse_hub_move(result.move.hub_move, ours)
            assert move in ours.legal_moves()
            board.push(result.move)
            ours = ours.play(move)
            plies += 1
        assert board.is_over(), f"no end after {plies} plies"
        assert plies > 20  # a game, not a few moves
        assert ours.fen() == Position.from_fen(board.fen, INTERNATIONAL).fen()
    finally:
        client.quit()
        client.kill_process()


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["english", "russian", "brazilian"])
def test_pydraughts_plays_8x8_games_with_it(engine_program: Path, name: str) -> None:
    # pydraughts is the reference client on 8x8 (docs/hub.md): its positions, its move
    # numbers; every move the engine answers is legal for both and pdn's board follows its.
    draughts = pytest.importorskip("draughts")
    from draughts.engine import Limit
    from draughts.engines.hub import HubEngine as PeerClient

    variant = VARIANTS[name]
    client = PeerClient([str(engine_program)], cwd=str(engine_program.parent))
    try:
        client.init()
        client.setoption("variant", name)
        board = draughts.Board(name)
        ours = Position.start(variant)
        for _ in range(8):
            result = client.play(board, Limit(depth=1), ponder=False)
            assert result.move.hub_move in {m.hub_move for m in board.legal_moves()}
            move = parse_hub_move(result.move.hub_move, ours)
            assert move in ours.legal_moves()
            board.push(result.move)
            ours = ours.play(move)
            assert hub_position(ours) == board._game.get_fen()
    finally:
        client.quit()
        client.kill_process()


@pytest.mark.parametrize(
    ("name", "position", "first_moves"),
    [
        # English: Black, the first mover, is "W" on the high numbers (the board turned
        # round); its moves in English numbers.
        ("english", "W" + "b" * 12 + "e" * 8 + "w" * 12, {"9-13", "11-15", "12-16"}),
        # Russian: White at the bottom as in pdn, moves numbered from a1 (a3-b4 = 9-13).
        ("russian", "W" + "b" * 12 + "e" * 8 + "w" * 12, {"9-13", "10-13", "12-16"}),
    ],
)
def test_8x8_positions_and_moves_are_pydraughts(
    name: str, position: str, first_moves: set[str]
) -> None:
    said = answers(
        "init",
        f"set-param name=variant value={name}",
        f"pos pos={position}",
        "level depth=1",
        "go think",
    )
    start = Position.start(VARIANTS[name])
    assert parse_hub_position(position, VARIANTS[name]).fen() == start.fen()
    assert {hub_move(m, VARIANTS[name]) for m in start.legal_moves()} >= first_moves
    move = said[-1].split()[1].removeprefix("move=")
    assert parse_hub_move(move, start) in start.legal_moves()


def test_our_client_plays_our_engine() -> None:
    command = [sys.executable, "-m", "pdn", "engine", "--hub", "--depth", "2"]
    env_ok = os.environ.get("PATH")  # (the engine inherits this process's environment)
    assert env_ok is not None
    with HubClient(command) as client:
        assert client.name.startswith("pdn") and "english" in client.variants
        client.set_variant(VARIANTS["english"])
        start = Position.start(VARIANTS["english"])
        reply = client.go(start, [], depth=2)
        assert parse_hub_move(reply, start) in start.legal_moves()


# ---------------------------------------------------------------------- searching beside the reader


class Program:
    """``pdn engine --hub`` as a GUI runs it: lines written to it while it searches, its
    answers read by a thread of their own (a line not come after ``PATIENCE`` seconds fails
    the test rather than hanging it: a guard, not what is asserted)."""

    PATIENCE = 120

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pdn", "engine", "--hub"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix: str) -> list[str]:
        """The lines read up to the first that starts with ``prefix`` (it included)."""
        said: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=self.PATIENCE)
            except queue.Empty:
                pytest.fail(f"no {prefix!r} line; the engine said {said}")
            if line is None:
                return said
            said.append(line)
            if line.startswith(prefix):
                return said

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@pytest.fixture()
def program() -> Iterator[Program]:
    running = Program()
    yield running
    running.close()


def _done_move(line: str) -> Move:
    assert line.startswith("done move="), line
    start = Position.start(INTERNATIONAL)
    return parse_hub_move(line.split()[1].removeprefix("move="), start)


def test_stop_answers_a_search_in_progress_at_once(program: Program) -> None:
    # A search to the deepest level never ends on its own: only stop can answer it.
    program.send("hub", "init", f"pos pos={START}", f"level depth={MAX_DEPTH}", "go think")
    first = program.until("info ")[-1]
    assert first.startswith("info depth=1 ")
    program.send("ping")  # answered while it searches
    assert program.until("pong")[-1] == "pong"
    program.send("stop")
    said = program.until("done")
    assert _done_move(said[-1]) in Position.start(INTERNATIONAL).legal_moves()
    depths = [int(line.split()[1].removeprefix("depth=")) for line in said if "depth=" in line]
    assert all(depth < MAX_DEPTH for depth in depths)
    # The engine goes on: a stopped search leaves it ready for the next.
    program.send("level depth=2", "go think")
    said = program.until("done")
    assert [line.split()[1] for line in said if line.startswith("info ")] == [
        "depth=1",
        "depth=2",
    ]
    _done_move(said[-1])
    program.send("quit")
    assert program.process.wait(timeout=Program.PATIENCE) == 0


def test_quit_during_a_search_ends_the_engine_without_an_answer(program: Program) -> None:
    program.send("init", f"pos pos={START}", f"level depth={MAX_DEPTH}", "go think")
    program.until("info ")
    program.send("quit")
    rest = program.until("done")  # up to the end of its output: no done comes
    assert not [line for line in rest if line.startswith("done")]
    assert program.process.wait(timeout=Program.PATIENCE) == 0


def test_a_command_that_changes_the_search_waits_for_stop(program: Program) -> None:
    program.send("init", f"pos pos={START}", f"level depth={MAX_DEPTH}", "go think")
    program.until("info ")
    program.send("pos pos=start")
    assert program.until("error ")[-1] == (
        "error message=\"'pos' while searching: send stop first\""
    )
    program.send("stop")
    _done_move(program.until("done")[-1])


@pytest.mark.parametrize(
    "level",
    [
        "depth=inf",
        "depth=65",
        "depth=0",
        "depth=2.5",
        "nodes=0",
        "nodes=-3",
        "move-time=nan",
        "move-time=0",
        "time=inf",
        "depth=deep",
    ],
)
def test_a_level_that_would_never_end_is_refused(level: str) -> None:
    said = answers("init", f"pos pos={START}", f"level {level}", "ping")
    assert said[1].startswith('error message="level ') and said[-1] == "pong"


# ---------------------------------------------------------------------- linear in the line's length


def _lines_run(work: Callable[[], object]) -> int:
    """How many lines of Python run while ``work`` runs (an operation count, as in
    tests/test_shapes_linear.py)."""
    count = 0

    def tracer(frame: Any, event: str, arg: object) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        work()
    finally:
        sys.settrace(None)
    return count


#: Two kings going back and forth on a 10x10 board: legal moves for as long as wanted.
_KINGS = "WB" + "e" * 44 + "W" + "e" * 4
_CYCLE = ("46-5", "1-6", "5-46", "6-1")


def test_a_long_pos_line_is_read_in_linear_work() -> None:
    counts = []
    for size in (300, 1200):
        moves = " ".join(_CYCLE[ply % 4] for ply in range(size))
        engine = HubEngine(io.StringIO())
        line = f'pos pos={_KINGS} moves="{moves}"'
        counts.append(_lines_run(lambda e=engine, t=line: e.handle(t)))
        assert engine.out.getvalue() == ""  # read, every move legal
        assert engine.position is not None and engine.history.quiet == size
    assert counts[1] < 7 * counts[0], counts


def test_a_megabyte_argument_is_not_read_character_by_character() -> None:
    # A parser walking the line in Python (shlex) ran ~10 lines a character, and copied the
    # value at each: a 1 MB line went unanswered for minutes. Now a few lines an argument.
    out = io.StringIO()
    engine = HubEngine(out)
    line = "pos pos=" + "e" * 1_000_000 + ' moves="1-2"'
    assert _lines_run(lambda: engine.handle(line)) < 1000
    assert out.getvalue().startswith('error message="')
