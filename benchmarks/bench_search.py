"""The search's speed beside the move generator's: nodes per second of ``pdn.engine.search``
and leaves per second of ``perft``, in the same process, per variant family (issue 24).

Run from the repository root (the installed pdn; ``PYTHONPATH=DIR`` measures the build in DIR,
such as the accelerated one made by ``PDN_COMPILE=1 pip install --target DIR .``)::

    python benchmarks/bench_search.py
    python benchmarks/bench_search.py --depth 7 --positions 4
    python benchmarks/bench_search.py --compiled DIR      # and the build in DIR, same run

A node of the search is a position it visits (each with its move generation, ordering and,
at the horizon, an evaluation); a perft leaf is counted in bulk at depth 1, so perft's rate
is an upper bound that the search cannot reach. The ratio says what the search costs over the
bare generator. Positions: the start and middle-game positions from seeded random games.
Timings belong here, never in the tests.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time

from _support import site_env

VARIANTS = ("english", "international", "russian", "italian", "turkish", "frisian")

_MEASURE = r"""
import json, random, sys, time
from pdn.engine import COMPILED, VARIANTS, Position, Search, perft

depth, count, perft_depth = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rows = []
for name in sys.argv[4:]:
    variant = VARIANTS[name]
    rng = random.Random(name)
    positions = [Position.start(variant)]
    while len(positions) < count:
        position = Position.start(variant)
        for _ in range(rng.randint(10, 30)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        if position.legal_moves():
            positions.append(position)
    nodes = 0
    started = time.process_time()
    for position in positions:
        nodes += Search().run(position, depth=depth).nodes
    search_seconds = time.process_time() - started
    started = time.process_time()
    leaves = perft(Position.start(variant), perft_depth)
    perft_seconds = time.process_time() - started
    rows.append([name, nodes, search_seconds, leaves, perft_seconds])
print(json.dumps({"compiled": COMPILED, "rows": rows}))
"""


def measure(pythonpath: str | None, depth: int, count: int, perft_depth: int) -> dict[str, object]:
    """Run the measurement in a process of its own (``pythonpath``: the build to measure)."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(depth), str(count), str(perft_depth), *VARIANTS],
        env=site_env(pythonpath),
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6, help="search depth (default 6)")
    parser.add_argument("--positions", type=int, default=3, help="positions per variant")
    parser.add_argument("--perft", type=int, default=5, help="perft depth (default 5)")
    parser.add_argument("--compiled", default=None, help="also the build installed in DIR")
    args = parser.parse_args()
    builds = [("installed", None)]
    if args.compiled:
        builds.append(("compiled", args.compiled))
    started = time.time()
    for label, path in builds:
        found = measure(path, args.depth, args.positions, args.perft)
        kind = "accelerated" if found["compiled"] else "pure Python"
        print(f"{label} build ({kind}): search depth {args.depth}, perft {args.perft}")
        print(f"  {'variant':14} {'nodes':>9} {'nodes/s':>10} {'perft leaves/s':>15} {'ratio':>7}")
        rows = found["rows"]
        assert isinstance(rows, list)
        for name, nodes, search_s, leaves, perft_s in rows:
            nps = nodes / search_s if search_s else float("inf")
            lps = leaves / perft_s if perft_s else float("inf")
            print(f"  {name:14} {nodes:>9,} {nps:>10,.0f} {lps:>15,.0f} {lps / nps:>6.1f}x")
    print(f"({time.time() - started:.0f} s)")


if __name__ == "__main__":
    random.seed(0)
    main()
