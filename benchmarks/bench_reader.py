"""Reading speed: pdn.read_games against a plain regular-expression tokenizer, same bytes, same run.

    python benchmarks/bench_reader.py [FILE] [--repeat N] [--pydraughts GAMES] [--json]

FILE defaults to the Open Checkers Archive (``../shared/corpus/mzuluaga__checkers/OCA_2.0.pdn``).
Three figures are printed, the first two the least CPU time of ``--repeat`` runs (CPU, not
wall time, so that other processes of a shared machine distort the ratio less):

* the baseline: decoding the bytes and running ONE compiled regular expression over the text,
  with a Python loop that classifies every token (tag, comment, result, number, move, NAG,
  strength, parenthesis, other) and counts them; it builds nothing;
* ``pdn.read_games``: decoding, cutting into games, the LALR grammar, the whole model (every
  move a node with its line and column), variant detection; the loop touches each game's move
  count so that nothing is skipped;
* the ratio reader / baseline (the target is at least 0.35, issues 12 and 26).

With ``--pydraughts N`` the first N games are also read by pydraughts' PDNReader (if installed);
its reader re-splits the rest of the text for every game, so only a small slice is timed.
With ``--json`` the figures are printed as one JSON object instead (``bench_targets.py`` runs
this script so, once per build, in a process of its own).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from _support import OCA, best_of, build_name

from pdn import parse_games, read_games

#: The least ratio reader / baseline that issues 12 and 26 ask for.
TARGET = 0.35

TOKEN = re.compile(
    r"""
      (?P<tag>\[[^\]\n]*\])
    | (?P<comment>\{[^}]*\})
    | (?P<result>(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|0-0|\*)(?![0-9]))
    | (?P<number>[0-9]+\.(?:\.\.)?)
    | (?P<move>[0-9]{1,2}(?:[-xX:][0-9]{1,2})+|[a-h][1-8](?:[-xX:][a-h][1-8])+)
    | (?P<nag>\$[0-9]+)
    | (?P<strength>[!?]+)
    | (?P<paren>[()])
    | (?P<other>\S)
    """,
    re.VERBOSE,
)


def baseline(data: bytes) -> dict[str, int]:
    """Tokenize with one regular expression; count the tokens of each kind."""
    text = data.decode("utf-8", "replace")
    counts: dict[str, int] = {}
    for match in TOKEN.finditer(text):
        kind = match.lastgroup or "?"
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def reader(path: Path) -> dict[str, int]:
    """Read every game with pdn.read_games; count games, moves and problems."""
    games = moves = problems = 0
    for game in read_games(path):
        games += 1
        moves += game.count_moves()
        problems += len(game.errors)
    return {"games": games, "moves": moves, "problems": problems}


def pydraughts_slice(data: bytes, games: int) -> tuple[float, int] | None:
    """Time pydraughts' PDNReader on the first ``games`` games, if pydraughts is installed."""
    try:
        from draughts.PDN import PDNReader  # type: ignore[import-not-found]
    except ImportError:
        return None
    text = data.decode("utf-8", "replace")
    starts = [m.start() for m in re.finditer(r"^\[Event ", text, re.MULTILINE)]
    cut = starts[games] if len(starts) > games else len(text)
    piece = text[:cut]
    start = time.perf_counter()
    result = PDNReader(pdn_text=piece)
    elapsed = time.perf_counter() - start
    return elapsed, len(result.games)


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=OCA)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pydraughts", type=int, default=0, metavar="GAMES")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    path: Path = args.file.resolve()
    if not path.exists():
        print(f"no such file: {path}", file=sys.stderr)
        return 2
    data = path.read_bytes()
    megabytes = len(data) / 1e6
    list(parse_games("1. 11-15 *"))  # build the parser outside the timing

    base_time, counts = best_of(args.repeat, lambda: baseline(data), time.process_time)
    read_time, figures = best_of(args.repeat, lambda: reader(path), time.process_time)
    if args.json:
        print(
            json.dumps(
                {
                    "file": str(path),
                    "megabytes": megabytes,
                    "build": build_name(),
                    "baseline_seconds": base_time,
                    "reader_seconds": read_time,
                    "ratio": base_time / read_time,
                    "target": TARGET,
                    "repeat": args.repeat,
                    "tokens": sum(counts.values()),
                    **figures,
                }
            )
        )
        return 0
    print(f"file: {path.name}, {megabytes:.2f} MB ({build_name()} build)")
    print(
        f"baseline regex tokenizer: {base_time:6.2f} s  {megabytes / base_time:6.2f} MB/s  "
        f"({sum(counts.values())} tokens: {counts})"
    )
    print(
        f"pdn.read_games:           {read_time:6.2f} s  {megabytes / read_time:6.2f} MB/s  "
        f"({figures['games']} games, {figures['moves']} moves, {figures['problems']} problems)"
    )
    print(f"ratio reader / baseline:  {base_time / read_time:.3f}  (target >= {TARGET})")
    if args.pydraughts:
        measured = pydraughts_slice(data, args.pydraughts)
        if measured is None:
            print("pydraughts is not installed")
        else:
            elapsed, count = measured
            share = len(data) * count / max(figures["games"], 1) / 1e6
            print(
                f"pydraughts PDNReader:      {elapsed:6.2f} s for the first {count} games "
                f"(about {share / elapsed:.3f} MB/s on that slice; quadratic in the file size)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
