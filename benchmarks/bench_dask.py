"""pdn.dask's cost per game: validation of OCA 2.0 on a LocalCluster against one process.

Run from the repository root (``pip install -e ".[dask]"``)::

    python benchmarks/bench_dask.py                      # 2 worker processes, 4 MB pieces
    python benchmarks/bench_dask.py --workers 2 --piece-mb 1 FILE...

Three figures over the same games: ``validate_files`` on this process; ``pdn.dask.verdicts``
on the synchronous scheduler (the cost of the pieces and the bag, no cluster); and on a
``LocalCluster`` of ``--workers`` processes (one thread each). Per game, in CPU microseconds
for the first two and wall microseconds for the cluster, with the machine's load, since a
shared machine's absolute times are noise. The verdicts must be equal in all three.
"""

from __future__ import annotations

import argparse
import os
import time

from _support import OCA, machine_load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", default=[str(OCA)])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--piece-mb", type=float, default=4)
    args = parser.parse_args()
    import dask
    import distributed

    from pdn import dask as pdn_dask
    from pdn.collections.batch import validate_files

    piece_bytes = int(args.piece_mb * (1 << 20))
    print(machine_load())
    start = time.process_time()
    alone = [v.to_dict() for v in validate_files(args.files)]
    cpu = time.process_time() - start
    games = len(alone)
    print(
        f"  one process        {cpu:7.2f} s CPU   {cpu / games * 1e6:7.0f} us/game"
        f"  ({games:,} games)"
    )

    start = time.process_time()
    with dask.config.set(scheduler="synchronous"):
        synchronous = [
            v.to_dict() for v in pdn_dask.verdicts(args.files, piece_bytes=piece_bytes).compute()
        ]
    cpu = time.process_time() - start
    print(f"  dask synchronous   {cpu:7.2f} s CPU   {cpu / games * 1e6:7.0f} us/game")

    with (
        distributed.LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        client.run(lambda: None)  # the workers are up before the clock starts
        start = time.perf_counter()
        bag = pdn_dask.verdicts(args.files, piece_bytes=piece_bytes)
        clustered = [v.to_dict() for v in bag.compute()]
        wall = time.perf_counter() - start
    print(
        f"  LocalCluster x{args.workers}    {wall:7.2f} s wall  {wall / games * 1e6:7.0f} us/game"
        f"  ({bag.npartitions} partitions; load {os.getloadavg()[0]:.2f})"
    )
    print(f"  verdicts equal: {alone == synchronous == clustered}")


if __name__ == "__main__":
    main()
