"""CPU time and peak memory of each long command over one collection, beside a regex baseline.

Run from the repository root (pdn installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_commands.py                      # OCA 2.0, each command once
    python benchmarks/bench_commands.py --scale 10           # also on the file 10 times over
    python benchmarks/bench_commands.py FILE --only validate openings
    python benchmarks/bench_commands.py --compiled DIR       # and the accelerated build in DIR

Every command runs in its own process on one core (``--jobs 1`` where it has the option), its
output thrown away, and is measured by the kernel (``os.wait4``: user + system CPU, peak
resident memory), after a warm-up run of each on a small file (so the ``.pyc`` files and the
grammar's cache exist, as for any installed pdn). Beside each figure is its ratio to a plain
regular expression that pulls the move texts out of the same bytes in the same run (no rules,
nothing built; the least of three runs), so figures from a loaded shared machine can still be
compared. Issue 26's targets on OCA 2.0: at most 15x the baseline's CPU for validate,
openings --stats, report, annotate and the three converts, 24x for JSON; a peak of at most
60 MB, the same at 1x and 10x the input. ``bench_targets.py`` measures them all in one run
with these functions.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from _support import (
    OCA,
    baseline,
    installed_pdn,
    machine_load,
    measured,
    require,
    site_env,
)

#: Issue 26: the most peak resident memory of any command, in MB (and it must not grow with
#: the input).
PEAK_MB = 60
#: Runs of the regex baseline, of which the least CPU time is kept: it is the denominator of
#: every ratio, and a fraction of a second that one descheduling would skew.
BASELINE_RUNS = 3
#: A game for the warm-up runs.
SMALL = '[Event "warm-up"]\n[Result "*"]\n1. 11-15 23-19 2. 8-11 22-17 *\n'


@dataclass(frozen=True, slots=True)
class Command:
    """One long command as measured: what it does, and its target."""

    words: tuple[str, ...]
    """pdn's subcommand and the options that say what it does (as shown in tables)."""
    limit: float | None
    """Issue 26: the most CPU time, in regex baselines over the same bytes (None: no target)."""
    writes: bool = False
    """Whether it writes a file (``-o``, a scratch file) rather than a summary."""
    jobs: bool = False
    """Whether it has ``--jobs`` (one core here: ``--jobs 1``)."""

    @property
    def shown(self) -> str:
        """The command as a reader knows it: ``pdn openings --stats``."""
        return " ".join(("pdn", *self.words))

    def argv(self, pdn: str, path: Path, out: Path) -> list[str]:
        """The command line over ``path``, quiet, one core, any output into ``out``."""
        extra = ["-q"]
        if self.jobs:
            extra += ["--jobs", "1"]
        if self.writes:
            extra += ["-o", str(out)]
        return [pdn, *self.words, *extra, str(path)]


#: The long commands, by the name ``--only`` takes.
COMMANDS: dict[str, Command] = {
    "validate": Command(("validate",), 15, jobs=True),
    "openings": Command(("openings", "--stats"), 15),
    "openings, per game": Command(("openings", "--format", "csv"), None),
    "report": Command(("report",), 15),
    "annotate": Command(("annotate",), 15, writes=True),
    "convert": Command(("convert",), 15, writes=True),
    "convert --normalize": Command(("convert", "--normalize"), 15, writes=True),
    "convert --to json": Command(("convert", "--to", "json"), 24, writes=True),
}


@dataclass(frozen=True, slots=True)
class Run:
    """One command over one input, as the kernel reported it."""

    cpu: float
    """User + system CPU seconds."""
    wall: float
    peak_kb: int
    """Peak resident memory in kB."""

    @property
    def peak_mb(self) -> float:
        return self.peak_kb / 1024


def run_command(pdn: str, name: str, path: Path, out: Path, site: Path | str | None = None) -> Run:
    """Run the command ``name`` over ``path`` once, importing pdn from ``site`` when given."""
    return Run(*measured(COMMANDS[name].argv(pdn, path, out), site))


def warm_up(pdn: str, names: list[str], folder: Path, site: Path | str | None = None) -> None:
    """Run each command once on a small game, so its modules' ``.pyc`` files get written."""
    small = folder / "warm-up.pdn"
    small.write_text(SMALL, encoding="utf-8")
    for name in names:
        run_command(pdn, name, small, folder / "warm-up.out", site)


def baseline_cpu(path: Path) -> float:
    """CPU seconds of the regex baseline over ``path``: the least of ``BASELINE_RUNS`` runs."""
    return min(baseline(path) for _ in range(BASELINE_RUNS))


def scaled(source: Path, scale: int, folder: Path) -> Path:
    """``source`` written ``scale`` times over into ``folder`` (a blank line between copies)."""
    big = folder / f"{source.stem}-x{scale}.pdn"
    with big.open("wb") as out:
        for _ in range(scale):
            with source.open("rb") as copied:
                shutil.copyfileobj(copied, out)
            out.write(b"\n")
    return big


def version(pdn: str, site: Path | str | None = None) -> str:
    """What ``pdn --version`` says (which build, which Python), importing pdn from ``site``."""
    done = subprocess.run(
        [pdn, "--version"], capture_output=True, text=True, check=True, env=site_env(site)
    )
    return done.stdout.strip()


def _verdict(name: str, cpu: float, base: float) -> str:
    limit = COMMANDS[name].limit
    if limit is None:
        return ""
    return f" (target <= {limit:g}x: {'met' if cpu / base <= limit else 'NOT met'})"


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
    sites: list[Path | None] = [None] if args.compiled is None else [None, args.compiled]
    print(f"{machine_load()}; {version(pdn)}")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for site in sites:
            warm_up(pdn, names, folder, site)
        inputs = [(1, source)]
        if args.scale > 1:
            inputs.append((args.scale, scaled(source, args.scale, folder)))
        out = folder / "out"
        for scale, path in inputs:
            base = baseline_cpu(path)
            size = path.stat().st_size / 1e6
            print(f"\n{path.name} x{scale}: {size:.1f} MB")
            print(f"  {'regex baseline':22s} {base:7.2f} s CPU")
            for name in names:
                pure = run_command(pdn, name, path, out)
                print(
                    f"  {name:22s} {pure.cpu:7.2f} s CPU ({pure.cpu / base:5.1f}x the baseline"
                    f"), {pure.wall:6.2f} s wall, peak {pure.peak_mb:5.0f} MB"
                    f"{_verdict(name, pure.cpu, base)}"
                )
                if args.compiled is not None:
                    fast = run_command(pdn, name, path, out, args.compiled)
                    print(
                        f"  {'  compiled':22s} {fast.cpu:7.2f} s CPU ({fast.cpu / base:5.1f}x "
                        f"the baseline), {fast.wall:6.2f} s wall, peak {fast.peak_mb:5.0f} MB, "
                        f"{pure.cpu / fast.cpu:.2f}x faster"
                    )


if __name__ == "__main__":
    main()
