"""Verdicts over the shared corpus: per file, how many games are clean, broken or unchecked,
and under which rules (from which source) they were replayed.

    python benchmarks/corpus/corpus_verdicts.py [CORPUS_DIR] [--only NAME_PART]

Prints one line per file that has a game not clean or not decided by its GameType tag, then
the totals. It is a measurement for notes and reviews, not a test.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/, for _support
from _support import CORPUS

from pdn.collections.batch import Summary, validate_files


def main(argv: list[str] | None = None) -> int:
    """Run over every ``*.pdn`` file under the corpus folder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(CORPUS))
    parser.add_argument("--only", default="", help="only files whose path contains this")
    args = parser.parse_args(argv)
    files = sorted(p for p in Path(args.corpus).rglob("*.pdn") if args.only in str(p))
    if not files:
        print(f"no .pdn files under {args.corpus}", file=sys.stderr)
        return 2
    total = Summary()
    statuses: Counter[str] = Counter()
    for path in files:
        summary = Summary()
        status: Counter[str] = Counter()
        for verdict in validate_files([path]):
            summary.add(verdict)
            total.add(verdict)
            status[verdict.status] += 1
            statuses[verdict.status] += 1
        tagged = summary.by_rules and all(source == "gametype" for _, source in summary.by_rules)
        if status.keys() == {"ok"} and tagged:
            continue
        rules = ", ".join(
            f"{title} {n} ({source})" for (title, source), n in summary.by_rules.most_common()
        )
        counts = " ".join(f"{k}={v}" for k, v in sorted(status.items()))
        print(f"{path.relative_to(args.corpus)}: {summary.games} games, {counts}; {rules}")
    print()
    print(f"{len(files)} files; " + " ".join(f"{k}={v}" for k, v in sorted(statuses.items())))
    print(total.text(least="warning"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
