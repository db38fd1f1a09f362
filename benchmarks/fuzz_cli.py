"""A hostile round through the CLI: thousands of mutants, no traceback, no hang, no game lost.

Each mutant is a window of a few games of a PDN file of the corpus, damaged
(``--kind pdn``: bytes flipped, lost, gained or spliced, the text re-encoded as UTF-16,
UTF-8 with a BOM or a code page, brackets, quotes and tags edited) or turned into the records
of ``pdn convert --to json`` and edited in structure (``--kind json``: a field set to a value
of another kind, nested thousands deep or megabytes long, dropped or doubled; the layout
changed). It goes through ``validate``, ``select --count``, ``convert -o`` and
``convert --in-place`` in this process (click's CliRunner), each under an alarm; see
``tests/fuzzing.py`` for what counts as a finding (a traceback, a hang, a game-count change).
The same seed gives the same mutants::

    nice python benchmarks/fuzz_cli.py --kind pdn --seed 33 --count 10000
    nice python benchmarks/fuzz_cli.py --kind json --seed 33 --count 10000

Prints a line of figures every ``--every`` mutants, each finding (up to ``--show``) with the
edits that make it, and the totals; exit status 1 when anything was found. The stress tier
runs a few hundred mutants of the vendored fixtures (``tests/test_fuzz_cli.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for _support
from _support import CORPUS, ROOT

sys.path.insert(0, str(ROOT / "tests"))
# tests/fuzzing.py and tests/mutations.py, shared with the tests
from fuzzing import KINDS, Fuzzer, Tally, source_texts, summary


def main() -> int:
    """Run the mutants and print what they found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[CORPUS])
    parser.add_argument("--kind", choices=KINDS, default="pdn")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--count", type=int, default=1000, help="mutants to run")
    parser.add_argument("--show", type=int, default=20, help="findings to print")
    parser.add_argument("--every", type=int, default=500, help="mutants between progress lines")
    args = parser.parse_args()
    texts = source_texts(args.folders)
    fuzzer = Fuzzer(texts, args.kind, args.seed)
    started = time.monotonic()
    shown = 0

    def progress(tally: Tally) -> None:
        nonlocal shown
        for finding in tally.findings[shown : args.show]:
            print(f"  #{tally.mutants}: {finding}", flush=True)
        shown = max(shown, min(len(tally.findings), args.show))
        if tally.mutants % args.every == 0:
            seconds = time.monotonic() - started
            print(f"{summary(tally, args.kind, args.seed)} ({seconds:.0f} s)", flush=True)

    try:
        tally = fuzzer.run(args.count, progress)
    finally:
        fuzzer.close()
    seconds = time.monotonic() - started
    print(f"{len(texts)} source files under {', '.join(map(str, args.folders))}")
    print(f"total: {summary(tally, args.kind, args.seed)} in {seconds:.0f} s")
    return 1 if tally.findings else 0


if __name__ == "__main__":
    sys.exit(main())
