"""Endgame tables: the time and memory of a build from nothing, and what the tables hold.

Run from the repository root (nice: a build keeps a core busy for minutes)::

    nice -n 10 python benchmarks/bench_endgame.py                      # English 2-4, Intl 2-3
    nice -n 10 python benchmarks/bench_endgame.py english:5 international:4

Each build runs in a fresh interpreter into a scratch folder (nothing kept), and prints the
CPU time, the wall time, the peak resident memory of that process, the number of tables and of
positions, and the positions by value for the side to move (wins, draws, losses), with the
longest distance to the end in plies.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile

from _support import ROOT

ONE = """
import json, resource, sys, time
from pdn.engine import build_tables, get_variant, materials_up_to
variant, pieces, folder = get_variant(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
cpu, wall = time.process_time(), time.perf_counter()
stats = build_tables(variant, materials_up_to(pieces), folder)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({
    "cpu": cpu, "wall": wall, "peak_mb": peak, "tables": len(stats),
    "positions": sum(s.positions for s in stats), "wins": sum(s.wins for s in stats),
    "draws": sum(s.draws for s in stats), "losses": sum(s.losses for s in stats),
    "longest": max(s.longest for s in stats),
}))
"""

DEFAULT = ("english:2", "english:3", "english:4", "international:2", "international:3")


def main(runs: list[str]) -> None:
    """Build each ``variant:pieces`` of ``runs`` and print a row for it."""
    print(
        f"{'build':<17}{'tables':>7}{'positions':>12}{'wins':>12}{'draws':>11}{'losses':>12}"
        f"{'longest':>8}{'cpu s':>9}{'wall s':>9}{'peak MB':>9}"
    )
    for run in runs:
        variant, _, pieces = run.partition(":")
        with tempfile.TemporaryDirectory() as folder:
            out = subprocess.run(
                [sys.executable, "-c", ONE, variant, pieces, folder],
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
            )
        row = json.loads(out.stdout)
        print(
            f"{run:<17}{row['tables']:>7}{row['positions']:>12,}{row['wins']:>12,}"
            f"{row['draws']:>11,}{row['losses']:>12,}{row['longest']:>8}{row['cpu']:>9.1f}"
            f"{row['wall']:>9.1f}{row['peak_mb']:>9.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:] or list(DEFAULT))
