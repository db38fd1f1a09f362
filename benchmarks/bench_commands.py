"""CPU time and peak memory of each long command over one collection, beside a regex baseline.

Run from the repository root (pdn installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_commands.py                      # OCA 2.0, each command once
    python benchmarks/bench_commands.py --scale 10           # also on the file 10 times over
    python benchmarks/bench_commands.py FILE --only validate openings
    python benchmarks/bench_commands.py --compiled DIR       # and the accelerated build in DIR

Every command runs in its own process on one core (``--jobs 1`` where it has the option), its
output thrown away, and is measured by the kernel (``os.wait4``: user + system CPU, peak
resident memory). Beside each figure is its ratio to a plain regular expression that pulls
the move texts out of the same bytes in the same run (no rules, nothing built), so figures
from a loaded shared machine can still be compared. Issue 12's targets on OCA 2.0: at most
5 s of CPU for validate, openings, report, annotate and convert to PDN, 8 s for JSON, and
the same peak memory (at most 60 MB) at 1x and 10x the input.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from _support import OCA, baseline, installed_pdn, machine_load, measured, require

#: name -> arguments after ``pdn`` (the input file is appended; ``{out}`` is a scratch file).
COMMANDS: dict[str, list[str]] = {
    "validate": ["validate", "-q", "--jobs", "1"],
    "openings": ["openings", "--stats", "-q"],
    "openings, per game": ["openings", "--format", "csv", "-q"],
    "report": ["report", "-q"],
    "annotate": ["annotate", "-q", "-o", "{out}"],
    "convert": ["convert", "-q", "-o", "{out}"],
    "convert --normalize": ["convert", "--normalize", "-q", "-o", "{out}"],
    "convert --to json": ["convert", "--to", "json", "-q", "-o", "{out}"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(OCA))
    parser.add_argument("--scale", type=int, default=1, help="also run on N copies of the file")
    parser.add_argument("--only", nargs="*", choices=sorted(COMMANDS), default=None)
    parser.add_argument(
        "--compiled",
        type=Path,
        help="also run each command on the build installed in this folder, right after the "
        "installed one (PDN_COMPILE=1 pip install --target DIR .), and print the ratio",
    )
    args = parser.parse_args()
    source = Path(args.file)
    require(source)
    pdn = installed_pdn()
    names = args.only or list(COMMANDS)
    version = subprocess.run([pdn, "--version"], capture_output=True, text=True, check=True)
    print(f"{machine_load()}; {version.stdout.strip()}")
    with tempfile.TemporaryDirectory() as folder:
        inputs = [(1, source)]
        if args.scale > 1:
            big = Path(folder) / f"x{args.scale}.pdn"
            with big.open("wb") as out:
                for _ in range(args.scale):
                    with source.open("rb") as copied:
                        shutil.copyfileobj(copied, out)
                    out.write(b"\n")
            inputs.append((args.scale, big))
        out = str(Path(folder) / "out")
        for scale, path in inputs:
            base = baseline(path)
            size = path.stat().st_size / 1e6
            print(f"\n{path.name} x{scale}: {size:.1f} MB")
            print(f"  {'regex baseline':22s} {base:7.2f} s CPU")
            for name in names:
                command = [pdn, *(a.replace("{out}", out) for a in COMMANDS[name]), str(path)]
                cpu, wall, peak = measured(command)
                print(
                    f"  {name:22s} {cpu:7.2f} s CPU ({cpu / base:5.0f}x the baseline), "
                    f"{wall:6.2f} s wall, peak {peak / 1024:5.0f} MB"
                )
                if args.compiled is not None:
                    fast, wall, peak = measured(command, args.compiled)
                    print(
                        f"  {'  compiled':22s} {fast:7.2f} s CPU ({fast / base:5.0f}x the "
                        f"baseline), {wall:6.2f} s wall, peak {peak / 1024:5.0f} MB, "
                        f"{cpu / fast:.2f}x faster"
                    )


if __name__ == "__main__":
    main()
