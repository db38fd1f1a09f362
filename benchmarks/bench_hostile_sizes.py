"""Time and peak memory of the CLI on hostile input shapes (issue 22).

    python benchmarks/bench_hostile_sizes.py [--mb 200] [--games 20000] [--command validate]

Writes, in a temporary folder: one line of junk words of ``--mb`` megabytes (a file the reader
once cut into games of a megabyte, each with 10,000 junk problems: still running after 10
minutes at 846 MB), one line of ``--games`` games (a machine export, once read as one game),
and a game with a comment of ``--mb`` megabytes between two short games.  Each is given to
``pdn COMMAND`` in a fresh process; the wall time and the peak resident memory the kernel
reports for it (``_support.run_measured``) are printed, with the games and problems it
reports.  The memory must not grow with ``--mb``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

from _support import run_measured

CHUNK = 1 << 20


def junk_line(out: IO[str], size: int) -> None:
    """One line of junk words, ``size`` characters."""
    words = "lorem ipsum dolor sit amet consectetur adipiscing elit " * (CHUNK // 56)
    written = 0
    while written < size:
        piece = words[: size - written]
        out.write(piece)
        written += len(piece)


def games_line(out: IO[str], count: int) -> None:
    """``count`` games on one line, as some machine exports write them."""
    for i in range(count):
        out.write(f'[Event "Machine export game {i:05d}"][Result "1-0"] ')
        out.write("1. 11-15 23-19 2. 8-11 22-17 1-0 ")


def long_comment(out: IO[str], size: int) -> None:
    """A short game, a game with a comment of ``size`` characters, a short game."""
    out.write('[Event "before"]\n1. 11-15 23-19 *\n\n[Event "long"]\n1. 11-15 {')
    line = "a very long note on this move, written again and again\n"
    written = 0
    while written < size:
        out.write(line)
        written += len(line)
    out.write('} 23-19 *\n\n[Event "after"]\n1. 9-13 22-18 *\n')


def run(command: str, path: Path) -> None:
    # Run beside the input, not in the checkout: ``-m`` would import ./pdn before PYTHONPATH's.
    proc = run_measured(
        [sys.executable, "-m", "pdn", command, str(path)], capture=True, cwd=path.parent
    )
    elapsed, peak = proc.wall, proc.peak_kb
    err = proc.stderr.decode("utf-8", "replace")
    summary = [
        line
        for line in proc.stdout.decode("utf-8", "replace").splitlines()
        if line.startswith(("by code:", "1 games", "3 games")) or " games: " in line
    ]
    size = path.stat().st_size / 1e6
    print(
        f"{path.name}: {size:.1f} MB, pdn {command}: {elapsed:.1f} s, peak RSS {peak / 1024:.0f} MB"
    )
    print(f"  exit {proc.returncode}; " + " | ".join(summary[-2:]))
    if "Traceback" in err:
        print(err)


def main() -> None:
    """Write the inputs and measure ``pdn COMMAND`` on each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=200.0, help="size of the big inputs")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--command", default="validate")
    args = parser.parse_args()
    size = int(args.mb * 1e6)
    makers: list[tuple[str, Callable[[IO[str]], None]]] = [
        ("one-line-games.pdn", lambda out: games_line(out, args.games)),
        ("junk-line.pdn", lambda out: junk_line(out, size)),
        ("long-comment.pdn", lambda out: long_comment(out, size)),
    ]
    with tempfile.TemporaryDirectory() as folder:
        for name, make in makers:
            path = Path(folder) / name
            with path.open("w", encoding="utf-8") as out:
                make(out)
            run(args.command, path)
            path.unlink()


if __name__ == "__main__":
    main()
