"""Start-up time of the command line: ``pdn --help`` and ``pdn validate small.pdn``.

Run from the repository root (pdn installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_startup.py            # 15 runs of each, best and median
    python benchmarks/bench_startup.py --runs 30

Each figure is the wall and the CPU time of a fresh interpreter, from spawning to exit, next
to ``python -c pass`` measured in the same run (the interpreter's own floor on this machine):
what pdn adds is the difference, which the script prints with the target of issue 26 (over a
bare ``python -c pass``, at most +60 ms for ``pdn --help`` and +100 ms for ``pdn validate`` of
one small game, pure build) and whether it is met: by the best wall times and by the best CPU
times (which waiting for a core does not inflate), the larger difference of the two counting
(``Timing.added``). ``--compiled DIR`` measures the build in DIR too.

The commands run in a scratch folder (``python -m pdn`` there imports the installed pdn, not a
checkout's), without ``PYTHONDONTWRITEBYTECODE`` (``_support.site_env``): with it every import
would compile its source, so a first run writes Python's compiled files and fills the grammar's
cache, then the runs are timed, the commands taking turns. ``--importtime`` also lists the
slowest imports of ``pdn validate`` (``python -X importtime``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from _support import machine_load, run_measured, site_env

SMALL = '[Event "start-up"]\n[Result "*"]\n1. 11-15 23-19 2. 8-11 22-17 *\n'
#: The interpreter's floor, which the others are set beside.
FLOOR = "python -c pass"
#: What issue 26 allows each command over ``python -c pass``, in seconds (``Timing.added``).
TARGETS = {"pdn --help": 0.060, "pdn validate small.pdn": 0.100}


@dataclass(slots=True)
class Timing:
    """The runs of one command: wall and CPU (user + system) seconds of each."""

    walls: list[float]
    cpus: list[float]

    @property
    def best(self) -> float:
        """The least wall time: what the command takes when nothing else gets in its way."""
        return min(self.walls)

    @property
    def best_cpu(self) -> float:
        """The least CPU time."""
        return min(self.cpus)

    def added(self, floor: Timing) -> tuple[float, float]:
        """Seconds this command takes over ``floor``, least against least: (wall, CPU). The
        targets are judged on the larger: on a busy machine either can flatter the difference
        (the wall time counts the waits for a core, the CPU time does not; on an idle machine
        they agree within a millisecond or two)."""
        return self.best - floor.best, self.best_cpu - floor.best_cpu


def timed(command: list[str], runs: int, cwd: str | Path, site: Path | str | None = None) -> Timing:
    """Wall times and CPU times of ``runs`` runs of ``command``, importing pdn from ``site``.

    CPU time is what a loaded machine distorts least: waiting for a core is not counted.
    """
    walls, cpus = [], []
    for _ in range(runs):
        # Run elsewhere than the checkout: ``python -m pdn`` would import ./pdn, not the install.
        run = run_measured(command, site, cwd=cwd)
        walls.append(run.wall)
        cpus.append(run.cpu)
    return Timing(walls, cpus)


def startup_commands(folder: Path) -> dict[str, list[str]]:
    """The floor and the commands measured, by label; writes the small game into ``folder``."""
    small = folder / "small.pdn"
    small.write_text(SMALL, encoding="utf-8")
    python = sys.executable
    return {
        FLOOR: [python, "-c", "pass"],
        "pdn --help": [python, "-m", "pdn", "--help"],
        "pdn validate small.pdn": [python, "-m", "pdn", "validate", str(small)],
    }


def measure_startup(runs: int, folder: Path, site: Path | str | None = None) -> dict[str, Timing]:
    """Each of :func:`startup_commands` ``runs`` times, importing pdn from ``site``.

    A warm-up run of each comes first (it writes the ``.pyc`` files and fills the grammar's
    cache); then the commands take turns, so that a burst of load elsewhere falls on all of them.
    """
    commands = startup_commands(folder)
    timings = {label: timed(command, 1, folder, site) for label, command in commands.items()}
    for timing in timings.values():
        timing.walls.clear()
        timing.cpus.clear()
    for _ in range(runs):
        for label, command in commands.items():
            run = timed(command, 1, folder, site)
            timings[label].walls += run.walls
            timings[label].cpus += run.cpus
    return timings


def slowest_imports(command: list[str], cwd: str, count: int = 12) -> list[str]:
    """The ``count`` imports with the largest cumulative time (``-X importtime``)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *command[1:]],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env=site_env(None),
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
    parser.add_argument(
        "--compiled", type=Path, help="also measure the build installed in this folder"
    )
    args = parser.parse_args()
    print(machine_load())
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        builds: dict[str, Path | None] = {"installed build": None}
        if args.compiled is not None:
            builds[f"build in {args.compiled}"] = args.compiled
        for build, site in builds.items():
            print(build)
            timings = measure_startup(args.runs, folder, site)
            floor = timings[FLOOR]
            for label, timing in timings.items():
                best, median = timing.best, statistics.median(timing.walls)
                line = (
                    f"  {label:24} wall best {best * 1000:5.0f} ms, median {median * 1000:5.0f} ms;"
                    f" CPU best {timing.best_cpu * 1000:5.0f} ms"
                )
                if label not in TARGETS:
                    print(line)
                    continue
                wall_added, cpu_added = timing.added(floor)
                target = TARGETS[label]
                verdict = "met" if max(wall_added, cpu_added) <= target else "NOT met"
                print(
                    f"{line}  (+{wall_added * 1000:.0f} ms wall, +{cpu_added * 1000:.0f} ms CPU;"
                    f" target +{target * 1000:.0f} ms: {verdict})"
                )
        if args.importtime:
            print("slowest imports of pdn validate (cumulative):")
            command = startup_commands(folder)["pdn validate small.pdn"]
            for row in slowest_imports(command, str(folder)):
                print("  " + row)


if __name__ == "__main__":
    main()
