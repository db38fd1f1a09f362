"""The progress bar (pdn.text.progress) and the default --jobs
(pdn.collections.batch.default_jobs)."""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn import read_games, write_game
from pdn.cli import main
from pdn.collections.batch import PARALLEL_BYTES, default_jobs, usable_cores
from pdn.text.progress import LARGE, Progress

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GAME = '[Event "bar {n}"]\n[Result "1-0"]\n\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17x10 1-0\n\n'


class Terminal(io.StringIO):
    """A stand-in for standard error on a terminal."""

    def isatty(self) -> bool:
        return True


def big_file(folder: Path, size: int) -> Path:
    path = folder / "big.pdn"
    with path.open("w", encoding="utf-8") as out:
        n = 0
        while out.tell() < size:
            n += 1
            out.write(GAME.format(n=n))
    return path


def test_the_bar_counts_bytes_and_the_games_read_are_the_same(tmp_path: Path) -> None:
    path = big_file(tmp_path, 200_000)
    screen = Terminal()
    with Progress([str(path)], stream=screen, large=100_000) as progress:
        assert progress.enabled and progress.total == path.stat().st_size
        through = [
            write_game(game)
            for source in progress.sources([str(path)])
            for game in read_games(source)
        ]
        drawn = screen.getvalue()
    erased = screen.getvalue()[len(drawn) :]
    assert through == [write_game(game) for game in read_games(path)]
    assert "%" in drawn and "B/s" in drawn  # percent of bytes, and a rate
    assert erased.startswith("\r") and erased.endswith("\r") and not erased.strip()  # erased


def test_no_bar_on_a_pipe_when_quiet_or_for_a_small_input(tmp_path: Path) -> None:
    path = str(big_file(tmp_path, 150_000))
    cases = [
        Progress([path], stream=io.StringIO(), large=100_000),  # not a terminal
        Progress([path], stream=Terminal(), quiet=True, large=100_000),
        Progress([path], stream=Terminal()),  # under the default LARGE
        Progress(["-"], stream=Terminal(), large=0),  # standard input only: nothing to measure
    ]
    assert LARGE > 150_000
    for progress in cases:
        with progress:
            assert not progress.enabled
            assert list(progress.sources([path])) == [path]  # passed on untouched
            assert list(progress.count(range(500))) == list(range(500))
        assert progress.stream.getvalue() == ""  # type: ignore[attr-defined]


def test_default_jobs_follow_the_input_size(tmp_path: Path) -> None:
    small = EXAMPLES / "illegal-moves.pdn"
    assert default_jobs([small], cores=8) == 1
    assert default_jobs([sys.stdin.buffer], cores=8) == 1
    big = tmp_path / "big.pdn"
    with big.open("wb") as out:
        out.truncate(PARALLEL_BYTES)  # sparse: only the size matters here
    assert default_jobs([big, small], cores=8) == 8
    assert default_jobs([str(big)]) == usable_cores()


def test_cli_shows_the_bar_on_a_terminal_only(tmp_path: Path) -> None:
    # Over the threshold in bytes, and quick to read: two games and blank space between them.
    path = tmp_path / "padded.pdn"
    path.write_text(GAME.format(n=1) + " " * LARGE + "\n" + GAME.format(n=2), encoding="utf-8")
    command = [sys.executable, "-m", "pdn", "convert", str(path)]
    piped = subprocess.run(command, capture_output=True, check=True, cwd=tmp_path)
    assert piped.stderr == b""  # a pipe: not a byte on standard error

    controller, terminal = pty.openpty()
    # A terminal of no width gets no bar at all (tqdm draws to the width): give it one.
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    try:
        done = subprocess.run(
            command, stdout=subprocess.PIPE, stderr=terminal, check=True, cwd=tmp_path
        )
    finally:
        os.close(terminal)
    shown = b""
    with contextlib.suppress(OSError):  # the terminal's other end is closed: all read
        while chunk := os.read(controller, 65536):
            shown += chunk
    os.close(controller)
    assert done.stdout == piped.stdout  # the output does not change
    assert b"%" in shown and b"B/s" in shown


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_output_is_the_same_with_any_jobs(jobs: str) -> None:
    runner = CliRunner()
    files = [str(EXAMPLES / "illegal-moves.pdn")] * 3
    default = runner.invoke(main, ["validate", *files])
    chosen = runner.invoke(main, ["validate", "--jobs", jobs, "--quiet", *files])
    assert chosen.output == default.output and chosen.exit_code == default.exit_code == 1
