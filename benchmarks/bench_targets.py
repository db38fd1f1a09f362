"""Issue 26's targets in one run, the pure build and the accelerated one side by side.

Run from the repository root, with the pure build installed (``pip install -e ".[bench]"``)
and the accelerated one in a folder of its own
(``PDN_COMPILE=1 pip install --no-deps --target DIR .``)::

    python benchmarks/bench_targets.py --compiled DIR              # every target
    python benchmarks/bench_targets.py --compiled DIR --quick      # small inputs, ~1 min
    python benchmarks/bench_targets.py --compiled DIR --json OUT   # the figures as JSON too
    python benchmarks/bench_targets.py --compiled DIR --scale 1    # no 10x memory runs

A full run takes about 2 minutes of CPU per build for the targets' figures and 5-9 minutes
per build for the runs over ten copies of the file (memory only): some 10 minutes on an idle
2-core machine, twice that when other work keeps both cores busy.

It prints the load average, each figure as it comes, then a Markdown table for the README
(one row per target: each build's figure and ratio, and whether the pure build meets it; the
targets are the pure build's, the compiled one is reported beside) and notes on what the
figures are. The targets, and the scripts whose measuring code it runs:

* ``pdn validate --jobs 1`` of the first ``--games`` (5,000) games of FILE (OCA 2.0), CPU of
  the whole process, at least 400x less than pydraughts 0.6.7 replaying the same games
  (``bench_replay.py``'s replay and check: the final positions must agree with pdn's).
  pydraughts replays ``--peer-games`` (100) of them, evenly spaced, and its time for all of
  them is extrapolated by plies; it is given the moves as pdn read them, untimed;
* each long command over FILE at most 15x the CPU of one regex pass over the same bytes, 24x
  for ``convert --to json`` (``bench_commands.py``: its table of commands, its runs);
* the reader at least 0.35 of the regex tokenizer (``bench_reader.py --json``);
* start-up over ``python -c pass``: ``pdn --help`` +60 ms, ``pdn validate`` of one small game
  +100 ms, in the least wall and the least CPU time of ``--runs`` (15), the larger difference
  counting (``bench_startup.py``);
* peak resident memory at most 60 MB in every command run here, and flat (at most 10% more)
  from FILE to ``--scale`` (10) copies of it, as ``bench_commands.py --scale 10``. Those
  runs are the longest part; they are measured for their memory only, so ``--memory-jobs``
  (2) of them run at once (``--scale 1`` skips them, and the "flat" row).

Every child runs on one core, without ``PYTHONDONTWRITEBYTECODE`` and after a warm-up run, so
that its ``.pyc`` files exist as for an installed pdn. The steps that need pdn in-process
(cutting the sample, pydraughts, the reader) run in children too, so that this process stays
small: a child's peak memory counts the parent pages it was forked from. ``--quick`` runs
every step on the first 1,000 games instead of FILE (pydraughts on 10, 5 start-up runs, one
reader run): a check that the script works, not the targets' figures, since start-up and
bounded caches that are not full yet weigh much more on a small input.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from _support import MOVES, OCA, installed_pdn, machine_load, require, run_measured
from bench_commands import (
    COMMANDS,
    PEAK_MB,
    Run,
    baseline_cpu,
    run_command,
    scaled,
    version,
    warm_up,
)
from bench_startup import FLOOR, TARGETS, measure_startup

HERE = Path(__file__).resolve().parent
#: Issue 26: pydraughts' replay of the games over ``pdn validate``'s process, at least.
PEER_RATIO = 400
#: Issue 26's "flat" memory: the peak over ``--scale`` copies over the peak over one, at most.
FLAT = 1.10
#: The commands that have a target (a limit in ``bench_commands.COMMANDS``).
TARGETED = [name for name, command in COMMANDS.items() if command.limit is not None]
#: Runs of ``pdn validate`` over the sample, the least CPU kept (a second or two each).
VALIDATE_RUNS = 3


# Called in children (``in_child``), where pdn may be imported.


def first_games(source: str, count: str, out: str) -> dict[str, int]:
    """Write the first ``count`` games of ``source`` into ``out``, as pdn cuts them."""
    from itertools import islice

    import pdn

    games = 0
    with open(out, "w", encoding="utf-8") as written:
        for raw in islice(pdn.split_games(source), int(count)):
            written.write(raw.text if raw.text.endswith("\n") else raw.text + "\n")
            written.write("\n")
            games += 1
    return {"games": games, "bytes": Path(out).stat().st_size}


def peer_figures(sample: str, peer_games: str) -> dict[str, Any]:
    """pydraughts' replay of ``peer_games`` games of ``sample``, evenly spaced (CPU seconds,
    and extrapolated by plies to all of them), and how its final positions compare with pdn's.
    """
    from bench_replay import peer_replay, squares_of

    import pdn

    games = list(pdn.read_games(sample))
    plies = sum(len(game.mainline_moves()) for game in games)
    count = max(1, min(int(peer_games), len(games)))
    picked = [games[index * len(games) // count] for index in range(count)]
    lines = [game.mainline_moves() for game in picked]
    start = time.process_time()
    finals = [peer_replay(line) for line in lines]
    seconds = time.process_time() - start
    agree = differ = unreplayed = 0
    for game, peer in zip(picked, finals, strict=True):
        ours = pdn.validate(game).final
        if peer is None or ours is None:
            unreplayed += 1
        elif squares_of(peer) == squares_of(ours.fen()):
            agree += 1
        else:
            differ += 1
    sample_plies = sum(len(line) for line in lines)
    return {
        "games": len(games),
        "plies": plies,
        "sample_games": count,
        "sample_plies": sample_plies,
        "sample_cpu": seconds,
        "cpu": seconds * plies / sample_plies,
        "agree": agree,
        "differ": differ,
        "unreplayed": unreplayed,
    }


def in_child(function: str, *args: str, cwd: Path) -> Any:
    """The JSON answer of one of the functions above, called in a fresh interpreter."""
    code = (
        f"import json, sys; sys.path.insert(0, {str(HERE)!r}); import bench_targets; "
        f"print(json.dumps(bench_targets.{function}(*sys.argv[1:])))"
    )
    # In ``cwd``, not the checkout, whose ./pdn ``-c`` would put first on sys.path.
    done = run_measured([sys.executable, "-c", code, *args], capture=True, cwd=cwd)
    if done.returncode != 0:
        sys.exit(f"{function} failed:\n{done.stderr.decode(errors='replace')}")
    return json.loads(done.stdout)


def reader_figures(path: Path, repeat: int, site: Path | None, cwd: Path) -> dict[str, Any]:
    """``bench_reader.py --json`` over ``path``, importing pdn from ``site`` when given."""
    command = [sys.executable, str(HERE / "bench_reader.py"), str(path), "--repeat", str(repeat)]
    done = run_measured([*command, "--json"], site, capture=True, cwd=cwd)
    if done.returncode != 0:
        sys.exit(f"bench_reader.py failed:\n{done.stderr.decode(errors='replace')}")
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


# Measured in this process's children, build by build.


@dataclass(slots=True)
class Build:
    """One build and what was measured of it."""

    name: str
    site: Path | None
    """Where it is imported from (``PYTHONPATH``); None for the installed one."""
    version: str
    startup: dict[str, dict[str, float]] = field(default_factory=dict)
    """Per command of ``bench_startup``, in ms: best and median wall, best CPU, and wall and
    CPU over the floor."""
    validate: Run | None = None
    """``pdn validate`` over the sample."""
    commands: dict[str, Run] = field(default_factory=dict)
    """Each targeted command over the input."""
    reader: dict[str, Any] = field(default_factory=dict)
    scaled: dict[str, Run] = field(default_factory=dict)
    """Each targeted command over ``--scale`` copies of the input."""


@dataclass(slots=True)
class Settings:
    """How much is measured: the options, with ``--quick``'s defaults or the full ones."""

    games: int
    peer_games: int
    runs: int
    repeat: int
    scale: int
    memory_jobs: int
    quick: bool

    @classmethod
    def of(cls, args: argparse.Namespace) -> Settings:
        quick = bool(args.quick)
        return cls(
            games=args.games or (1000 if quick else 5000),
            peer_games=args.peer_games or (10 if quick else 100),
            runs=args.runs or (5 if quick else 15),
            repeat=args.repeat or (1 if quick else 3),
            scale=args.scale,
            memory_jobs=args.memory_jobs,
            quick=quick,
        )


def say(text: str) -> None:
    """A line of progress, at once (the run is long)."""
    print(text, flush=True)


def measure_startups(builds: list[Build], runs: int, folder: Path) -> None:
    """``bench_startup``'s figures for each build (its warm-up writes the ``.pyc`` files)."""
    for build in builds:
        timings = measure_startup(runs, folder, build.site)
        for label, timing in timings.items():
            wall, cpu = timing.added(timings[FLOOR])
            build.startup[label] = {
                "best_ms": timing.best * 1000,
                "median_ms": statistics.median(timing.walls) * 1000,
                "cpu_best_ms": timing.best_cpu * 1000,
                "added_wall_ms": wall * 1000,
                "added_cpu_ms": cpu * 1000,
            }
        for label in TARGETS:
            figures = build.startup[label]
            say(
                f"  {build.name}: {label}: +{figures['added_wall_ms']:.0f} ms wall, "
                f"+{figures['added_cpu_ms']:.0f} ms CPU over {FLOOR}"
            )


def measure_validate(builds: list[Build], pdn: str, sample: Path, folder: Path) -> None:
    """``pdn validate`` over the sample, the least CPU of ``VALIDATE_RUNS`` runs per build."""
    for build in builds:
        runs = [
            run_command(pdn, "validate", sample, folder / "out", build.site)
            for _ in range(VALIDATE_RUNS)
        ]
        build.validate = min(runs, key=lambda run: run.cpu)
        say(f"  {build.name}: pdn validate: {build.validate.cpu:.2f} s CPU")


def measure_commands(builds: list[Build], pdn: str, data: Path, base: float, folder: Path) -> None:
    """Each targeted command over ``data`` once per build, the builds one after the other."""
    for name in TARGETED:
        for build in builds:
            run = build.commands[name] = run_command(pdn, name, data, folder / "out", build.site)
            say(
                f"  {build.name}: {COMMANDS[name].shown}: {run.cpu:.2f} s CPU "
                f"({run.cpu / base:.1f}x), peak {run.peak_mb:.0f} MB"
            )


def measure_scaled(
    builds: list[Build], pdn: str, big: Path, scale: int, jobs: int, folder: Path
) -> None:
    """Each targeted command over ``big`` (``scale`` copies of the input) per build, ``jobs``
    at once: only their peak memory is kept, which sharing the cores does not change."""
    work = [(name, build) for name in TARGETED for build in builds]

    def one(index: int) -> Run:
        name, build = work[index]
        run = run_command(pdn, name, big, folder / f"out-{index}", build.site)
        say(
            f"  {build.name}: {COMMANDS[name].shown}: peak {build.commands[name].peak_mb:.0f}"
            f" MB, x{scale} {run.peak_mb:.0f} MB"
        )
        return run

    with ThreadPoolExecutor(max_workers=max(jobs, 1)) as pool:
        for (name, build), run in zip(work, pool.map(one, range(len(work))), strict=True):
            build.scaled[name] = run


# The table and its notes.


@dataclass(slots=True)
class Row:
    """One target: each build's figure and ratio, and whether the pure build meets it."""

    target: str
    figures: list[str]
    """Figure, ratio, for each build in turn."""
    met: bool


def _mb(kb: int) -> str:
    return f"{kb / 1024:.0f} MB"


def _runs(count: int) -> str:
    return f"{count} run" if count == 1 else f"{count} runs"


def rows_of(
    builds: list[Build], peer: dict[str, Any], base: float, data: str, settings: Settings
) -> list[Row]:
    """The table's rows, one per target; the first build is the one the targets are for."""
    rows = []

    def row(target: str, cells: list[tuple[str, str]], met: bool) -> None:
        rows.append(Row(target, [text for cell in cells for text in cell], met))

    validated = [build.validate for build in builds if build.validate is not None]
    row(
        f"`pdn validate --jobs 1`, first {peer['games']:,} games, whole process: >= {PEER_RATIO}x "
        "pydraughts 0.6.7's replay",
        [(f"{run.cpu:.2f} s CPU", f"{peer['cpu'] / run.cpu:,.0f}x") for run in validated],
        peer["cpu"] / validated[0].cpu >= PEER_RATIO,
    )
    for name in TARGETED:
        limit = COMMANDS[name].limit or 0.0
        runs = [build.commands[name] for build in builds]
        row(
            f"`{COMMANDS[name].shown}` over {data}: CPU <= {limit:g}x the regex",
            [(f"{run.cpu:.2f} s", f"{run.cpu / base:.1f}x") for run in runs],
            runs[0].cpu / base <= limit,
        )
    readers = [build.reader for build in builds]
    target = readers[0]["target"]
    row(
        f"reader (bytes to models): >= {target} of the regex tokenizer",
        [
            (f"{r['megabytes'] / r['reader_seconds']:.2f} MB/s", f"{r['ratio']:.2f}")
            for r in readers
        ],
        readers[0]["ratio"] >= target,
    )
    for label, target_s in TARGETS.items():
        added = [build.startup[label] for build in builds]
        row(
            f"start-up, `{label}`: <= +{target_s * 1000:.0f} ms over `{FLOOR}` (wall and CPU)",
            [
                (
                    f"+{figures['added_wall_ms']:.0f} ms wall, +{figures['added_cpu_ms']:.0f} CPU",
                    f"{figures['best_ms'] / build.startup[FLOOR]['best_ms']:.1f}x",
                )
                for figures, build in zip(added, builds, strict=True)
            ],
            max(added[0]["added_wall_ms"], added[0]["added_cpu_ms"]) <= target_s * 1000,
        )
    peaks = []
    flats = []
    for build in builds:
        every = [(run.peak_kb, name) for name, run in build.commands.items()]
        every += [(run.peak_kb, f"{name}, x{settings.scale}") for name, run in build.scaled.items()]
        peaks.append(max(every))
        flats.append(
            max(
                (
                    many.peak_kb / build.commands[name].peak_kb,
                    build.commands[name].peak_kb,
                    many.peak_kb,
                    name,
                )
                for name, many in build.scaled.items()
            )
            if build.scaled
            else None
        )
    inputs = f"1x and {settings.scale}x" if settings.scale > 1 else "1x"
    row(
        f"peak memory, every command above, {inputs}: <= {PEAK_MB} MB",
        [(f"{_mb(kb)} ({name})", f"{kb / 1024 / PEAK_MB:.0%} of it") for kb, name in peaks],
        peaks[0][0] / 1024 <= PEAK_MB,
    )
    if flats[0] is None:
        return rows
    row(
        f"peak memory flat from 1x to {settings.scale}x the input (<= {FLAT:.2f}x)",
        [
            (f"{_mb(once)} to {_mb(many)} ({name})", f"{growth:.2f}x")
            for growth, once, many, name in (flat for flat in flats if flat is not None)
        ],
        flats[0][0] <= FLAT,
    )
    return rows


def markdown(rows: list[Row], builds: list[Build]) -> str:
    """The rows as a Markdown table."""
    head = ["target"]
    for build in builds:
        head += [build.name, "ratio"]
    head.append(f"met ({builds[0].name})")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [row.target, *row.figures, "yes" if row.met else "**no**"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def notes_of(
    builds: list[Build],
    peer: dict[str, Any],
    base: float,
    data: tuple[str, float],
    settings: Settings,
    loads: tuple[str, str],
    minutes: float,
) -> str:
    """What the table's figures are, for the paragraphs under it."""
    command = " ".join(["python benchmarks/bench_targets.py", *sys.argv[1:]])
    unreplayed = f", {peer['unreplayed']} not replayed" if peer["unreplayed"] else ""
    floors = ", ".join(
        f"{build.startup[FLOOR]['best_ms']:.0f} ms wall and "
        f"{build.startup[FLOOR]['cpu_best_ms']:.0f} ms CPU in the {build.name} runs"
        for build in builds
    )
    paragraphs = [
        f"Measured by `{command}` in {minutes:.1f} minutes ({loads[0]} at the start, "
        f"{loads[1].split()[2]} at the end). CPU is user + system time of each process as the "
        "kernel reports it (`os.wait4`), one core per command.",
        f"pydraughts replayed {peer['sample_games']} of the {peer['games']:,} games (evenly "
        f"spaced, {peer['sample_plies']:,} plies) in {peer['sample_cpu']:.1f} s CPU; its time "
        f"for all of them ({peer['plies']:,} plies) is extrapolated by plies: "
        f"{peer['cpu']:,.0f} s, given the moves as pdn read them (its own reading untimed). "
        f"Final positions: {peer['agree']} agree with pdn's, {peer['differ']} differ"
        f"{unreplayed}. pdn's time is the least CPU of {VALIDATE_RUNS} runs, start-up included.",
        f"The regex: one pass of `{MOVES}` over the {data[1]:.1f} MB of "
        f"{data[0]} in a process of its own, {base:.2f} s CPU (the least of three). The "
        "reader: `bench_reader.py` on the same file, the least CPU time of "
        f"{_runs(settings.repeat)}, beside its regex tokenizer's in the same process.",
        f"Start-up: the least wall and the least CPU time of {_runs(settings.runs)} each, the "
        "commands taking turns, after a warm-up run that wrote the .pyc files; the target "
        f"holds for the larger difference. `{FLOOR}` took {floors}; the ratio is of wall times.",
        f"Memory: the peak resident set of each command above, over {data[0]}"
        + (
            f" and over {settings.scale} copies of it (those runs {settings.memory_jobs} at a "
            "time; their CPU is not a figure here)."
            if settings.scale > 1
            else " (`--scale 1`: no run over copies of it)."
        ),
    ]
    if settings.quick:
        paragraphs.append(
            "`--quick`: every step on a small input, where start-up and caches not yet full "
            "weigh more: a check of the script, not the targets' figures."
        )
    return "\n\n".join(paragraphs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=OCA)
    parser.add_argument("--compiled", type=Path, help="the accelerated build's folder")
    parser.add_argument("--quick", action="store_true", help="every step on 1,000 games")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the figures here")
    parser.add_argument("--games", type=int, help="games validated against pydraughts (5,000)")
    parser.add_argument("--peer-games", type=int, help="of them, replayed by pydraughts (100)")
    parser.add_argument("--runs", type=int, help="start-up runs of each command (15)")
    parser.add_argument("--repeat", type=int, help="reader runs, the best kept (3)")
    parser.add_argument(
        "--scale", type=int, default=10, help="copies for the memory check (10; 1: none)"
    )
    parser.add_argument(
        "--memory-jobs", type=int, default=2, help="runs over the copies at once (2)"
    )
    args = parser.parse_args()
    settings = Settings.of(args)
    source: Path = args.file.resolve()
    require(source)
    pdn = installed_pdn()
    sites: list[tuple[str, Path | None]] = [("pure Python", None)]
    if args.compiled is not None:
        require(args.compiled)
        sites.append(("compiled", args.compiled.resolve()))
    began = time.perf_counter()
    start_load = machine_load()
    say(start_load)
    builds = []
    for name, site in sites:
        said = version(pdn, site)
        if (name == "compiled") != ("compiled" in said):
            sys.exit(f"{pdn} with PYTHONPATH={site or ''} is not the {name} build: {said}")
        say(f"{name}: {said}")
        builds.append(Build(name, site, said))

    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        say("start-up")
        measure_startups(builds, settings.runs, folder)
        for build in builds:
            warm_up(pdn, TARGETED, folder, build.site)

        sample = folder / f"first-{settings.games}.pdn"
        made = in_child("first_games", str(source), str(settings.games), str(sample), cwd=folder)
        say(f"first {made['games']:,} games of {source.name}: {made['bytes'] / 1e6:.1f} MB")
        peer = in_child("peer_figures", str(sample), str(settings.peer_games), cwd=folder)
        say(
            f"  pydraughts: {peer['sample_games']} games, {peer['sample_plies']:,} plies in "
            f"{peer['sample_cpu']:.1f} s CPU; {peer['plies']:,} plies: {peer['cpu']:,.0f} s "
            f"(final positions: {peer['agree']} agree, {peer['differ']} differ)"
        )
        measure_validate(builds, pdn, sample, folder)

        data = sample if settings.quick else source
        base = baseline_cpu(data)
        data_mb = data.stat().st_size / 1e6
        say(f"{data.name}: {data_mb:.1f} MB; regex baseline {base:.2f} s CPU")
        measure_commands(builds, pdn, data, base, folder)
        for build in builds:
            build.reader = reader_figures(data, settings.repeat, build.site, folder)
            say(f"  {build.name}: reader / regex tokenizer {build.reader['ratio']:.3f}")

        if settings.scale > 1:
            big = scaled(data, settings.scale, folder)
            say(f"memory: {data.name} x{settings.scale} ({big.stat().st_size / 1e6:.1f} MB)")
            measure_scaled(builds, pdn, big, settings.scale, settings.memory_jobs, folder)

    end_load = machine_load()
    say(end_load)
    minutes = (time.perf_counter() - began) / 60
    rows = rows_of(builds, peer, base, data.name, settings)
    table = markdown(rows, builds)
    notes = notes_of(
        builds, peer, base, (data.name, data_mb), settings, (start_load, end_load), minutes
    )
    print(f"\n{table}\n\n{notes}")
    if args.json is not None:
        figures = {
            "argv": sys.argv,
            "settings": asdict(settings),
            "load": {"start": start_load, "end": end_load},
            "minutes": minutes,
            "input": {"file": str(source), "measured": data.name, "sample": made},
            "baseline_cpu": base,
            "pydraughts": peer,
            "builds": [_plain(build) for build in builds],
            "rows": [asdict(row) for row in rows],
            "markdown": table,
            "notes": notes,
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


def _plain(build: Build) -> dict[str, Any]:
    """One build's figures as JSON data."""
    figures = asdict(build)
    figures["site"] = None if build.site is None else str(build.site)
    return figures


if __name__ == "__main__":
    main()
