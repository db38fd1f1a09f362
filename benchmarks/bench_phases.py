"""Where a command's time goes: each phase of the per-game pipeline, timed game by game.

Run from the repository root (pdn installed; ``PYTHONPATH=DIR`` measures the build in DIR)::

    python benchmarks/bench_phases.py                  # OCA 2.0
    python benchmarks/bench_phases.py FILE

The games stream as in the commands (one at a time, so the collector sees what it sees
there), and each phase's CPU time is summed: reading, the replay (``validate``), the JSON
record (``game_to_dict`` with the report), its text (``jsonio.dumps``), and the faithful PDN
text (``write_game``). ``validate`` is reading + replay, ``convert --to json`` all but the
last, ``convert`` reading + the last.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from _support import OCA, build_name, require

import pdn
from pdn.rules.validation import validate
from pdn.writing.jsonio import dumps, game_to_dict
from pdn.writing.writer import write_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(OCA))
    args = parser.parse_args()
    path = Path(args.file)
    require(path)
    clock = time.process_time
    spent = dict.fromkeys(("read", "replay", "json record", "json text", "pdn text"), 0.0)
    games = plies = size = 0
    stream = iter(pdn.read_games(path))
    while True:
        start = clock()
        game = next(stream, None)
        read = clock()
        spent["read"] += read - start
        if game is None:
            break
        report = validate(game)
        replayed = clock()
        record = game_to_dict(game, report)
        recorded = clock()
        size += len(dumps(record))
        dumped = clock()
        write_game(game)
        written = clock()
        spent["replay"] += replayed - read
        spent["json record"] += recorded - replayed
        spent["json text"] += dumped - recorded
        spent["pdn text"] += written - dumped
        games += 1
        plies += len(report.steps)
    print(
        f"{games:,} games, {plies:,} replayed plies, {size / 1e6:.0f} MB of JSON ({build_name()})"
    )
    for phase, seconds in spent.items():
        print(f"  {phase:12s} {seconds:6.2f} s CPU  {seconds / max(plies, 1) * 1e6:5.2f} us/ply")


if __name__ == "__main__":
    main()
