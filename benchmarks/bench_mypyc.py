"""What compiling with mypyc would give: the replay, pure Python against compiled, same run.

Run from the repository root (needs a C compiler; mypyc comes with mypy)::

    python benchmarks/bench_mypyc.py                 # 3,000 OCA games
    python benchmarks/bench_mypyc.py --games 22621

It installs the package twice into a scratch folder, compiles the engine (and, with
``--with-validation``, the replay loop and the notation) with mypyc in the second copy, then runs
the same replay in both, each in a fresh interpreter, and checks that the verdicts of every game
are the same. Nothing here is installed for use: pdn ships pure Python (see the README for the
figures and the decision).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OCA = ROOT / ".." / "shared" / "corpus" / "mzuluaga__checkers" / "OCA_2.0.pdn"
ENGINE = ["variants", "board", "movegen", "position", "lookup", "fen", "diagnose"]
REPLAY = ["pdn/fastpath.py", "pdn/validation.py", "pdn/notation.py"]

TIMING = """
import json, sys, time
from itertools import islice
import pdn
from pdn.validation import validate
games = list(islice(pdn.read_games(sys.argv[1]), int(sys.argv[2])))
plies = sum(len(g.mainline_moves()) for g in games)
best = 1e9
for _ in range(3):
    start = time.process_time()
    reports = [validate(g) for g in games]
    best = min(best, time.process_time() - start)
verdicts = [
    (r.status, [(p.code, p.line, p.column, p.message) for p in r.problems]) for r in reports
]
print(json.dumps({"plies": plies, "seconds": best, "verdicts": verdicts}))
"""


def run(site: Path, path: Path, games: int) -> dict[str, object]:
    """The timing script's answer in a fresh interpreter that imports pdn from ``site``."""
    done = subprocess.run(
        [sys.executable, "-c", TIMING, str(path), str(games)],
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
        cwd=site,
    )
    import json

    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(OCA))
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--with-validation", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        sites = {name: Path(scratch) / name for name in ("pure", "compiled")}
        install = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target"]
        for site in sites.values():
            subprocess.run(
                [*install, str(site), str(ROOT)],
                check=True,
                capture_output=True,
            )
        modules = [f"pdn/engine/{name}.py" for name in ENGINE]
        if args.with_validation:
            modules += REPLAY
        subprocess.run(
            [
                sys.executable,
                "-m",
                "mypyc",
                "--config-file",
                str(ROOT / "pyproject.toml"),
                *modules,
            ],
            cwd=sites["compiled"],
            check=True,
            capture_output=True,
        )
        pure = run(sites["pure"], Path(args.file), args.games)
        compiled = run(sites["compiled"], Path(args.file), args.games)
    for name, answer in (("pure Python", pure), ("mypyc", compiled)):
        seconds = float(str(answer["seconds"]))
        rate = int(str(answer["plies"])) / seconds
        print(f"  {name:12} {seconds:7.3f} s CPU  {rate:>10,.0f} plies/s")
    print(f"  compiled: {', '.join(modules)}")
    print(f"  verdicts equal: {pure['verdicts'] == compiled['verdicts']}")


if __name__ == "__main__":
    main()
