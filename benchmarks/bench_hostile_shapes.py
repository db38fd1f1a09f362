"""Hostile input shapes (issue 22, item 3) at the issue's sizes: the time and peak memory of
each command, run in a fresh process.

Run from the repository root::

    python benchmarks/bench_hostile_shapes.py                     # every case below
    python benchmarks/bench_hostile_shapes.py --case view:10000 --case split:4000
    python benchmarks/bench_hostile_shapes.py --tree /path/to/other/checkout   # "before"

The cases (``NAME:N``):

* ``view:N`` -- ``pdn view`` on one game whose variations nest ``N`` deep, each the alternative
  to the second move of the one around it, whose second move is illegal;
* ``replayed:N`` -- ``pdn view`` on variations nested ``N`` deep that the replay enters level
  after level (two kings shuffle), an illegal move in each: a problem per level (not in the
  default list: the validator's problems spell their whole path, see the report);
* ``open:N`` -- ``pdn validate`` of one game whose movetext opens ``N`` variations and closes
  none (``1. 11-15 ( ( ( ... *``): the reader closes each, with an error;
* ``writer:N`` -- ``pdn convert`` (faithful PDN) of variations nested ``N`` deep, so that the
  movetext ends in ``N`` glued ``)``;
* ``split:N`` -- ``pdn split --by event`` of ``N`` games whose events differ only past the
  100 bytes a file name keeps, so that every name shares one stem;
* ``names:N`` -- the naming of ``split`` alone (:class:`pdn.collections.splitting.Names`) for those
``N``
  events, without the files (``split`` also syncs each file it writes to disk, which costs
  more than the names on a busy disk);
* ``openings:K`` -- ``pdn openings`` (the default text table) of the OCA 2.0 file given ``K``
  times.

Each case prints its wall time and the peak resident memory of its process (``ru_maxrss``).
A case that runs past ``--timeout`` is stopped and shown as such.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _support import OCA, own_peak_kb, site_env

DEFAULT = [
    "view:10000",
    "view:20000",
    "view:40000",
    "open:10000",
    "open:20000",
    "open:40000",
    "writer:40000",
    "writer:100000",
    "split:16000",
    "names:16000",
    "openings:1",
    "openings:16",
]
_CYCLE = ["29-25", "4-8", "25-29", "8-4"]


def _nested(n: int, closes: str) -> str:
    return "1. 11-15 23-19 " + "(23-18 11-20 " * n + closes * n + " *\n"


def _replayed(n: int) -> str:
    levels = "".join(f"({_CYCLE[(k + 1) % 4]} 1-2 " for k in range(n))
    return f'[GameType "21"]\n[FEN "W:WK29:BK4"]\n\n1. 29-25 4-8 {levels}{") " * n}*\n'


def _stem_games(n: int) -> str:
    stem = "Open " + "x" * 100
    return "".join(
        f'[Event "{stem} {i}"]\n[Black "a"]\n[White "b"]\n\n1. 11-15 23-19 *\n\n' for i in range(n)
    )


def _command(case: str, folder: Path) -> list[str]:
    """Write the input of ``case`` into ``folder``; return the ``pdn`` arguments to run."""
    name, _, size = case.partition(":")
    n = int(size)
    source = folder / "input.pdn"
    if name == "view":
        source.write_text(_nested(n, ") "), encoding="utf-8")
        return ["view", str(source), "-o", str(folder / "page.html")]
    if name == "replayed":
        source.write_text(_replayed(n), encoding="utf-8")
        return ["view", str(source), "-o", str(folder / "page.html")]
    if name == "open":
        source.write_text('[Event "n"]\n1. 11-15 ' + "( " * n + "*\n", encoding="utf-8")
        return ["validate", str(source)]
    if name == "writer":
        source.write_text(_nested(n, ")"), encoding="utf-8")
        return ["convert", str(source), "-o", str(folder / "out.pdn")]
    if name == "split":
        source.write_text(_stem_games(n), encoding="utf-8")
        return ["split", "--by", "event", "-o", str(folder / "split"), str(source)]
    if name == "names":
        return ["--names", str(n), str(folder)]
    if name == "openings":
        return ["openings", *[str(OCA.resolve())] * n, "-o", str(folder / "openings.txt")]
    raise SystemExit(f"unknown case {case!r}")


def _child(arguments: list[str]) -> None:
    """Run ``pdn ARGUMENTS`` in this process and print its time and peak memory as JSON."""
    from pdn.cli import main
    from pdn.collections.splitting import Names

    start = time.perf_counter()
    code = 0
    try:
        if arguments[0] == "--names":
            names = Names(Path(arguments[2]))
            stem = "Open " + "x" * 100
            for i in range(int(arguments[1])):
                names.name(f"{stem} {i}")
        else:
            main(arguments, standalone_mode=False)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except Exception as exc:  # a benchmark reports what failed, it does not stop
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"[:200]}))
        return
    seconds = time.perf_counter() - start
    peak = own_peak_kb() / 1024
    print(json.dumps({"seconds": seconds, "peak_mb": peak, "code": code}))


def main() -> None:
    """Run each case in a fresh process and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="NAME:N (repeat); default: all")
    parser.add_argument("--tree", type=Path, help="Run the pdn of this checkout instead.")
    parser.add_argument("--timeout", type=float, default=600, help="Seconds per case.")
    parser.add_argument("--child", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        _child(args.child)
        return
    env = site_env(None if args.tree is None else args.tree.resolve())
    print(f"{'case':<16} {'seconds':>9} {'peak MB':>8}  note")
    for case in args.case or DEFAULT:
        with tempfile.TemporaryDirectory(prefix="bench-hostile-") as scratch:
            command = _command(case, Path(scratch))
            started = time.perf_counter()
            try:
                done = subprocess.run(
                    [sys.executable, __file__, "--child", *command],
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=args.timeout,
                )
            except subprocess.TimeoutExpired:
                print(f"{case:<16} {'>' + format(args.timeout, '.0f'):>9} {'':>8}  stopped")
                continue
            lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
            figures = json.loads(lines[-1]) if lines else {}
            if "seconds" not in figures:
                wall = time.perf_counter() - started
                last = (done.stderr.strip().splitlines() or ["no output"])[-1]
                note = figures.get("error") or last
                print(f"{case:<16} {wall:>9.1f} {'':>8}  failed: {note[:100]}")
                continue
            note = "" if figures["code"] == 0 else f"exit {figures['code']}"
            print(f"{case:<16} {figures['seconds']:>9.1f} {figures['peak_mb']:>8.0f}  {note}")


if __name__ == "__main__":
    main()
