"""The opening explorer's cost: ``pdn explore`` beside ``pdn validate`` and a regex, and its
memory as the distinct positions of the input grow (issue 23).

Run from the repository root (``pip install -e ".[dask,bench]"``)::

    python benchmarks/bench_explore.py                    # OCA 2.0; 1x 2x 5x 10x; 3 repeats
    python benchmarks/bench_explore.py --scales 1 10 --repeat 1 --no-dask

Part one, OCA 2.0 to depth 30: each command in a process of its own, measured by the kernel
(``_support.measured``: user + system CPU, peak resident memory), the least CPU of
``--repeat`` runs, beside ``pdn validate`` of the same file and the regex baseline of
``_support`` over the same bytes; and, for scale, what a plain explorer on pydraughts
(replay, a dictionary of FENs) costs per game on a sample. Part two: random legal games
(``tests/explorer_inputs.py``), about as many distinct positions per "1x" as OCA 2.0 has to
depth 30, cached in a temporary folder; copies of one file would add no position. At each
scale, ``pdn explore -j 1`` (the tree spills to SQLite past ``pdn.study.explore.tree.SPILL``
entries), then ``pdn.dask.explorer_tree`` on the same files in a process of its own (dask's
``--scheduler``, pieces of 4 MB). Timings belong here, never in the tests.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

from _support import OCA, ROOT, baseline, installed_pdn, machine_load, measured, require

sys.path.insert(0, str(ROOT / "tests"))

# tests/explorer_inputs.py, shared with the tests
from explorer_inputs import random_file

#: Random games per file: about OCA 2.0's 241,000 distinct positions to depth 30 per file.
CHUNK = 9_600
CACHE = Path(tempfile.gettempdir()) / "pdn-bench-explore"

DASK = """
import sys, dask
from pdn import dask as pdn_dask
with dask.config.set(scheduler=sys.argv[1]):
    tree = pdn_dask.explorer_tree(sys.argv[2:], piece_bytes=4 << 20)
print(tree.games)
"""


def best(command: list[str], repeat: int) -> tuple[float, float, int]:
    """The least CPU and wall time, and the largest peak memory (kB), of ``repeat`` runs."""
    runs = [measured(command) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs)


def row(name: str, cpu: float, wall: float, peak: int, note: str = "") -> None:
    print(
        f"  {name:30s} {cpu:7.2f} s CPU {wall:7.2f} s wall {peak / 1024:7.0f} MB  {note}",
        flush=True,
    )


def peer_seconds_per_game(path: Path, games: int, depth: int) -> float | None:
    """CPU seconds per game of a plain explorer on pydraughts: each game replayed to ``depth``
    plies, every FEN counted in a dictionary (no results, no dates, no move records)."""
    try:
        from draughts import Board, Move
    except ImportError:
        return None
    import pdn

    sample = [g.mainline_moves()[:depth] for g in islice(pdn.read_games(path), games)]
    counts: dict[str, int] = {}
    start = time.process_time()
    for moves in sample:
        board = Board("english")
        try:
            for text in moves:
                board.push(Move(board, pdn_move=text))
                fen = str(board.fen)
                counts[fen] = counts.get(fen, 0) + 1
        except (KeyError, ValueError):
            continue
    return (time.process_time() - start) / len(sample)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(OCA))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scales", type=int, nargs="*", default=[1, 2, 5, 10])
    parser.add_argument("--scheduler", default="processes", help="dask's (processes, sync...)")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--peer-games", type=int, default=100)
    args = parser.parse_args()
    source = Path(args.file)
    require(source)
    pdn = installed_pdn()
    from pdn.study.explore.tree import SPILL

    print(f"{machine_load()}; SPILL {SPILL:,}")
    print(f"\n{source.name}, depth 30, least CPU of {args.repeat}")
    base = min(baseline(source) for _ in range(args.repeat))
    print(f"  {'regex baseline':30s} {base:7.2f} s CPU", flush=True)
    explore = [pdn, "explore", "-q", "--depth", "30", str(source)]
    validate = [pdn, "validate", "-q", str(source)]
    figures = {
        "explore -j 1": best([*explore, "-j", "1"], args.repeat),
        "explore (default jobs)": best(explore, args.repeat),
        "validate -j 1": best([*validate, "-j", "1"], args.repeat),
        "validate (default jobs)": best(validate, args.repeat),
    }
    for name, (cpu, wall, peak) in figures.items():
        row(name, cpu, wall, peak, f"{cpu / base:5.1f}x the regex")
    ratio = figures["explore -j 1"][0] / figures["validate -j 1"][0]
    print(f"  explore / validate (-j 1, CPU): {ratio:.2f}x")
    walls = figures["explore (default jobs)"][1] / figures["validate (default jobs)"][1]
    print(f"  explore / validate (default jobs, wall): {walls:.2f}x")
    peer = peer_seconds_per_game(source, args.peer_games, 30)
    if peer is not None:
        ours = figures["explore -j 1"][0] / 22_621 if "OCA_2.0" in source.name else None
        note = f" ({peer / ours:.0f}x pdn explore -j 1's)" if ours else ""
        print(f"  pydraughts, dict of FENs: {peer * 1e3:.1f} ms CPU per game{note}")

    CACHE.mkdir(exist_ok=True)
    print(f"\nrandom games, {CHUNK:,} per file (cached in {CACHE}), depth 30")
    for scale in args.scales:
        files = [str(random_file(CACHE, CHUNK, plies=30, seed=seed)) for seed in range(scale)]
        cpu, wall, peak = measured([pdn, "explore", "-q", "-j", "1", *files])
        row(f"{scale:2d}x explore -j 1", cpu, wall, peak)
        if not args.no_dask:
            command = [sys.executable, "-c", DASK, args.scheduler, *files]
            cpu, wall, peak = measured(command)
            row(f"{scale:2d}x dask ({args.scheduler})", cpu, wall, peak, "(client and workers)")


if __name__ == "__main__":
    main()
