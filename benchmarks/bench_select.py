"""Selecting and deduplicating a large archive: counts and times on OCA 2.0.

    python benchmarks/bench_select.py [FILE] [--repeat N] [--check]

FILE defaults to the Open Checkers Archive (``../shared/corpus/mzuluaga__checkers/OCA_2.0.pdn``).
Printed, each time the best of ``--repeat`` runs:

* the floors: cutting the file into games (``pdn.split_games``) and parsing every game
  (``pdn.read_games``);
* ``select --fen`` for the position after ``11-15 23-19 8-11 22-17`` (Black to move; the FEN
  is written by the engine): how many games pass through it (and how many of them by another
  move order), and the time;
* ``select --player Tinsley``: tags only, the movetext never parsed;
* ``dedupe`` at each level: the repeats found and the time; and the bytes the
  :class:`pdn.collections.duplicates.Deduper` holds per distinct game (``tracemalloc``);
* the same two selections through the command line (``pdn select ... --count``), once.

With ``--check`` the ``--fen`` count is checked against full validation of every game (the
positions of its report's mainline up to its first illegal move): slow, about a minute.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from _support import OCA, best_of, require

import pdn
from pdn.collections.duplicates import LEVELS, Deduper, Place, dedupe_games
from pdn.collections.selection import Selection, select_games
from pdn.engine import ENGLISH, Position

LINE = "11-15 23-19 8-11 22-17"


def target_fen() -> str:
    """The FEN after LINE, from the engine."""
    position = Position.start(ENGLISH)
    for text in LINE.split():
        position = position.play(next(m for m in position.legal_moves() if m.notation() == text))
    return position.fen()


def bytes_per_key(games: int = 20000) -> float:
    """What a Deduper holds per distinct game, measured."""
    import hashlib

    keys = [hashlib.blake2b(str(i).encode(), digest_size=16).digest() for i in range(games)]
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    seen = Deduper()
    for number, key in enumerate(keys, start=1):
        seen.check(key, Place("OCA_2.0.pdn", number * 12, number))
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    # The digests were made beforehand (the reader's work): count them in, they are kept.
    return grown / games + sys.getsizeof(keys[0])


def full_validation_count(path: Path, fen: str) -> int:
    """Games whose validated mainline (up to its first illegal move) passes through ``fen``."""
    key = Position.from_fen(fen, ENGLISH).key()
    found = 0
    for game in pdn.read_games(path):
        report = pdn.validate(game)
        if report.start is None:
            continue
        seen = [report.start.key()]
        for step in report.mainline_steps():
            if step.move is None and step.node.setup is None:
                break
            if step.after is not None:
                seen.append(step.after.key())
        found += key in seen
    return found


def main() -> None:
    """Run the measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=OCA)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    path: Path = args.file
    require(path)
    source = str(path)
    fen = target_fen()
    print(f"file: {path.name}, {path.stat().st_size:,} bytes")

    seconds, games = best_of(args.repeat, lambda: sum(1 for _ in pdn.split_games(source)))
    print(f"cut into games (split_games):     {seconds:6.2f} s  {games:,} games")
    seconds, _ = best_of(1, lambda: sum(1 for _ in pdn.read_games(source)))
    print(f"parse every game (read_games):    {seconds:6.2f} s")

    by_fen = Selection(fen=fen)
    seconds, found = best_of(args.repeat, lambda: sum(1 for _ in select_games([source], by_fen)))
    print(f"select --fen (after {LINE}):")
    print(f"  {fen}")
    print(f"                                  {seconds:6.2f} s  {found:,} games")
    other = sum(
        " ".join(pdn.parse_game(p.text).mainline_moves()[:4]) != LINE
        for p in select_games([source], by_fen)
    )
    print(f"  of which {other:,} reach it by another move order")
    tinsley = Selection(player=re.compile("tinsley", re.IGNORECASE))
    seconds, found = best_of(args.repeat, lambda: sum(1 for _ in select_games([source], tinsley)))
    print(f"select --player Tinsley:          {seconds:6.2f} s  {found:,} games")

    for level in LEVELS:
        seconds, found = best_of(
            1, lambda lv=level: sum(s.repeats is not None for s in dedupe_games([source], lv))
        )
        print(f"dedupe --by {level:<9}             {seconds:6.2f} s  {found:,} repeats")
    print(f"dedupe memory: {bytes_per_key():.0f} bytes per distinct game")

    for option in (["--fen", fen], ["--player", "Tinsley"]):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "pdn", "select", source, *option, "--count"],
            capture_output=True,
            text=True,
            check=True,
        )
        took = time.perf_counter() - start
        print(f"pdn select {option[0]} --count (CLI): {took:6.2f} s  {done.stdout.strip()}")

    if args.check:
        start = time.perf_counter()
        expected = full_validation_count(path, fen)
        took = time.perf_counter() - start
        print(f"full validation finds {expected:,} games through the position ({took:.0f} s)")


if __name__ == "__main__":
    main()
