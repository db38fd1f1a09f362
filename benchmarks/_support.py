"""What the benchmarks share: where the corpus is, how a process is measured, the regex baseline.

Imported by the scripts of this folder (``from _support import ...``: a script's own folder is
on ``sys.path``) and by those of ``corpus/``, which put this folder there first. It imports
no part of pdn at module level, so that a script measuring child processes stays small itself
(a child's peak memory counts the parent pages it was forked from).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

#: The checkout this folder belongs to.
ROOT = Path(__file__).resolve().parents[1]
#: The read-only shared corpus: beside the checkout, or beside the folder of work trees.
CORPUS = next(
    (path for path in (ROOT / "../shared/corpus", ROOT / "../../shared/corpus") if path.is_dir()),
    ROOT / "../shared/corpus",
)
#: The Open Checkers Archive 2.0 (22,621 English games), the default input of most scripts.
OCA = CORPUS / "mzuluaga__checkers" / "OCA_2.0.pdn"

#: The move texts of a movetext, for the baselines that parse nothing and apply no rules.
MOVES = r"\d+(?:[-x]\d+)+"
#: The regex baseline as a process of its own, like the commands it is set beside.
BASELINE = f"import re, sys; print(len(re.findall(rb'{MOVES}', open(sys.argv[1], 'rb').read())))"

T = TypeVar("T")


def require(path: Path) -> None:
    """Stop the script when its input (most often a file of the shared corpus) is missing."""
    if not path.exists():
        sys.exit(f"{path} not found (the shared corpus is needed)")


def installed_pdn() -> str:
    """The path of the ``pdn`` command, which the command benchmarks run in processes.

    The one beside this interpreter comes first, then the one on ``PATH``: a script run with a
    virtual environment's python, not activated, measures that environment's pdn.
    """
    beside = Path(sys.executable).parent / "pdn"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("pdn")
    if found is None:
        sys.exit("the pdn command is not installed (pip install -e .)")
    return found


def machine_load() -> str:
    """The one-minute load average and the core count, printed before figures that it skews."""
    return f"load average {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)"


def build_name() -> str:
    """Which build of pdn this process imported: ``compiled`` or ``pure Python``."""
    from pdn.engine import COMPILED

    return "compiled" if COMPILED else "pure Python"


def site_env(site: Path | str | None) -> dict[str, str]:
    """This process's environment, importing pdn from ``site`` (``PYTHONPATH``) when given.

    ``PYTHONDONTWRITEBYTECODE`` is left out: a child measured with it would compile every
    module of pdn from source at each start, which no installed pdn does (a first run writes
    the ``.pyc`` files; the scripts that time start-up make one before they measure).
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return env


@dataclass(slots=True)
class Measured:
    """One child process as the kernel saw it (``os.wait4``)."""

    cpu: float
    """User + system CPU seconds (the child's own children included, once waited for)."""
    wall: float
    """Seconds from spawning to exit."""
    peak_kb: int
    """Peak resident memory in kB (``ru_maxrss``)."""
    returncode: int
    stdout: bytes = b""
    stderr: bytes = b""


def run_measured(
    command: list[str],
    site: Path | str | None = None,
    *,
    capture: bool = False,
    cwd: Path | str | None = None,
) -> Measured:
    """Run ``command`` to its end (in ``cwd`` when given) and measure it; its output is thrown
    away unless ``capture``.

    Captured output goes through temporary files, not pipes: the parent reads nothing until
    the child is reaped by ``os.wait4``, which is what gives its resource usage.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sink = (out, err) if capture else (subprocess.DEVNULL, subprocess.DEVNULL)
        start = time.perf_counter()
        process = subprocess.Popen(
            command, stdout=sink[0], stderr=sink[1], env=site_env(site), cwd=cwd
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(
            usage.ru_utime + usage.ru_stime,
            wall,
            usage.ru_maxrss,
            process.returncode,
            out.read(),
            err.read(),
        )


def measured(command: list[str], site: Path | str | None = None) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, peak resident kB) of one run of a command that must succeed
    (exit 0, or 1 when its input has illegal games), importing pdn from ``site`` when given."""
    run = run_measured(command, site)
    if run.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} exited with {run.returncode}")
    return run.cpu, run.wall, run.peak_kb


def baseline(path: Path) -> float:
    """CPU seconds of the regex baseline over ``path`` (start-up included, as for pdn)."""
    cpu, _, _ = measured([sys.executable, "-c", BASELINE, str(path)])
    return cpu


def own_peak_kb() -> int:
    """This process's peak resident memory in kB so far, for a child that reports its own."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def best_of(
    repeat: int, work: Callable[[], T], clock: Callable[[], float] = time.perf_counter
) -> tuple[float, T]:
    """The least time of ``repeat`` calls of ``work`` (at least one), and the last result.

    Wall time by default; ``clock=time.process_time`` counts this process's CPU only, which a
    loaded machine distorts less (a descheduled process's waiting is not counted).
    """
    times = []
    for _ in range(max(repeat, 1)):
        start = clock()
        result = work()
        times.append(clock() - start)
    return min(times), result
