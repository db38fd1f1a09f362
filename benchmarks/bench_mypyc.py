"""The accelerated build against the pure one: the replay, same games, same run.

Run from the repository root (the accelerated build needs a C compiler)::

    python benchmarks/bench_mypyc.py                 # 3,000 OCA games
    python benchmarks/bench_mypyc.py --games 22621
    python benchmarks/bench_mypyc.py --compiled DIR  # a build made before (pip install --target)
    python benchmarks/bench_mypyc.py --corpus ../shared/corpus   # and every file's output

It installs the package twice into a scratch folder, as ``pip install .`` and as
``PDN_COMPILE=1 pip install .`` (``setup.py``: the modules ``build_support/pdn_build.py`` names,
compiled by mypyc), runs the same replay in both, each in a fresh interpreter, and checks that
the verdicts of every game are the same. For the commands, run ``bench_commands.py`` with
``PYTHONPATH`` set to the compiled folder.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _support import OCA, ROOT

sys.path.insert(0, str(ROOT / "build_support"))
from pdn_build import COMPILED

TIMING = """
import json, sys, time
from itertools import islice
import pdn
from pdn.rules.validation import validate
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


def install(site: Path, *, compiled: bool) -> None:
    """``pip install --target site`` of this checkout, compiled or not."""
    env = {k: v for k, v in os.environ.items() if k != "PDN_COMPILE"}
    if compiled:
        env["PDN_COMPILE"] = "1"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), "."],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )


#: What --corpus compares, per file: the whole verdict text and the JSON of every game.
COMMANDS = (
    ["validate", "--notices", "--jobs", "1", "-q"],
    ["convert", "--to", "ndjson", "-q", "-o", "-"],
)


def same_outputs(pure: Path, compiled: Path, files: list[Path]) -> list[str]:
    """The files on which the two builds print anything different (empty: none)."""
    differ = []
    for path in files:
        for command in COMMANDS:
            outputs = [
                subprocess.run(
                    [sys.executable, "-m", "pdn", *command, str(path.resolve())],
                    env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
                    capture_output=True,
                    cwd=site,
                    check=False,
                )
                for site in (pure, compiled)
            ]
            if len({(o.returncode, o.stdout, o.stderr) for o in outputs}) != 1:
                differ.append(f"{path} ({command[0]})")
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(OCA))
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--compiled", type=Path, help="a compiled build already installed here")
    parser.add_argument(
        "--corpus",
        type=Path,
        help="also compare what validate and convert print on every .pdn file under this folder",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        pure_site = Path(scratch) / "pure"
        install(pure_site, compiled=False)
        compiled_site = args.compiled
        if compiled_site is None:
            compiled_site = Path(scratch) / "compiled"
            install(compiled_site, compiled=True)
        pure = run(pure_site, Path(args.file), args.games)
        compiled = run(compiled_site, Path(args.file), args.games)
        files = [] if args.corpus is None else sorted(args.corpus.rglob("*.pdn"))
        differ = same_outputs(pure_site, compiled_site, files)
    rates = {}
    for name, answer in (("pure Python", pure), ("mypyc", compiled)):
        seconds = float(str(answer["seconds"]))
        rates[name] = rate = int(str(answer["plies"])) / seconds
        print(f"  {name:12} {seconds:7.3f} s CPU  {rate:>10,.0f} plies/s")
    print(f"  compiled / pure: {rates['mypyc'] / rates['pure Python']:.2f}x")
    print(f"  compiled modules: {', '.join(COMPILED)}")
    print(f"  verdicts equal: {pure['verdicts'] == compiled['verdicts']}")
    if files:
        print(f"  {len(files)} corpus files, validate and convert --to ndjson: ", end="")
        print("identical output" if not differ else f"different on {', '.join(differ)}")


if __name__ == "__main__":
    main()
