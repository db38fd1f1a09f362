"""Start-up time of the command line: ``pdn --help`` and ``pdn validate small.pdn``.

Run from the repository root (pdn installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_startup.py            # 15 runs of each, best and median
    python benchmarks/bench_startup.py --runs 30

Each figure is the wall time of a fresh interpreter, from spawning to exit, next to
``python -c pass`` measured in the same run (the interpreter's own floor on this machine):
what pdn adds is the difference, which the script prints with the target of issue 26 (over a
bare ``python -c pass``, at most +60 ms for ``pdn --help`` and +100 ms for ``pdn validate`` of
one small game, pure build) and whether it is met: by the best wall times and by the best CPU
times (which waiting for a core does not inflate), the larger difference of the two counting.

The commands run in a scratch folder (``python -m pdn`` there imports the installed pdn, not a
checkout's), without ``PYTHONDONTWRITEBYTECODE``: with it every import would compile its source,
so a first run writes Python's compiled files and fills the grammar's cache, then the runs are
timed. ``--importtime`` also lists the slowest imports of ``pdn validate``
(``python -X importtime``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _support import machine_load, run_measured

SMALL = '[Event "start-up"]\n[Result "*"]\n1. 11-15 23-19 2. 8-11 22-17 *\n'

#: What issue 26 allows each command over ``python -c pass``, in seconds.
TARGETS = {"pdn --help": 0.060, "pdn validate small.pdn": 0.100}


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
    # (See the module docstring: a start-up that compiles every module measures the compiler.)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
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
        for command in commands.values():  # compiled files written, the grammar's cache filled
            timed(command, 1, folder)
        floor_wall = floor_cpu = 0.0
        for label, command in commands.items():
            walls, cpus = timed(command, args.runs, folder)
            best, median, cpu = min(walls), statistics.median(walls), min(cpus)
            line = (
                f"  {label:24} wall best {best * 1000:5.0f} ms, median {median * 1000:5.0f} ms;"
                f" CPU best {cpu * 1000:5.0f} ms"
            )
            if label not in TARGETS:
                floor_wall, floor_cpu = best, cpu
                print(line)
                continue
            wall_added, cpu_added, target = best - floor_wall, cpu - floor_cpu, TARGETS[label]
            # The larger of the two: on a busy machine either can flatter the difference.
            verdict = "met" if max(wall_added, cpu_added) <= target else "NOT met"
            print(
                f"{line}  (+{wall_added * 1000:.0f} ms wall, +{cpu_added * 1000:.0f} ms CPU;"
                f" target +{target * 1000:.0f} ms: {verdict})"
            )
        if args.importtime:
            print("slowest imports of pdn validate (cumulative):")
            for row in slowest_imports(commands["pdn validate small.pdn"], folder):
                print("  " + row)


if __name__ == "__main__":
    main()
