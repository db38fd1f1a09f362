"""Start-up time of the command line: ``pdn --help`` and ``pdn validate small.pdn``.

Run from the repository root (pdn installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_startup.py            # 15 runs of each, best and median
    python benchmarks/bench_startup.py --runs 30

Each figure is the wall time of a fresh interpreter, from spawning to exit, next to
``python -c pass`` measured in the same run (the interpreter's own floor on this machine), so
the ratio means something on a shared machine whose absolute times are noise. The target of
issue 12 is 150 ms for both commands. ``--importtime`` also lists the slowest imports of
``pdn validate`` (``python -X importtime``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _support import machine_load, run_measured

SMALL = '[Event "start-up"]\n[Result "*"]\n1. 11-15 23-19 2. 8-11 22-17 *\n'


def timed(command: list[str], runs: int, cwd: str) -> tuple[list[float], list[float]]:
    """Wall times and CPU times (user + system) of ``runs`` runs of ``command``, in seconds.

    CPU time is what a loaded machine distorts least: waiting for a core is not counted.
    """
    walls, cpus = [], []
    for _ in range(runs):
        # Run elsewhere than the checkout: ``python -m pdn`` would import ./pdn, not the install.
        run = run_measured(command, cwd=cwd)
        walls.append(run.wall)
        cpus.append(run.cpu)
    return walls, cpus


def slowest_imports(command: list[str], cwd: str, count: int = 12) -> list[str]:
    """The ``count`` imports with the largest cumulative time (``-X importtime``)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *command[1:]],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line[len("import time:") :].split("|")
        rows.append((int(cumulative), name.rstrip()))
    return [f"{us / 1000:8.1f} ms  {name}" for us, name in sorted(rows, reverse=True)[:count]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    print(machine_load())
    with tempfile.TemporaryDirectory() as folder:
        small = Path(folder) / "small.pdn"
        small.write_text(SMALL, encoding="utf-8")
        python = sys.executable
        commands = {
            "python -c pass": [python, "-c", "pass"],
            "pdn --help": [python, "-m", "pdn", "--help"],
            "pdn validate small.pdn": [python, "-m", "pdn", "validate", str(small)],
        }
        timed(commands["pdn validate small.pdn"], 1, folder)  # fills the grammar cache once
        floor = 0.0
        for label, command in commands.items():
            walls, cpus = timed(command, args.runs, folder)
            best, median = min(walls), statistics.median(walls)
            floor = floor or best
            print(
                f"  {label:24} wall best {best * 1000:5.0f} ms, median {median * 1000:5.0f} ms;"
                f" CPU best {min(cpus) * 1000:5.0f} ms  ({best / floor:.1f}x the interpreter)"
            )
        if args.importtime:
            print("slowest imports of pdn validate (cumulative):")
            for row in slowest_imports(commands["pdn validate small.pdn"], folder):
                print("  " + row)


if __name__ == "__main__":
    main()
