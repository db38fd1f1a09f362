"""The tables of ``pdn report``, ``pdn openings`` and ``pdn explore``, byte for byte.

Each case runs one command over a bundled input (``tests/fixtures/report``,
``tests/fixtures/openings``, ``examples/`` and ``tests/golden/inputs/hostile.pdn``: 65 players
with tabs, double spaces, controls, bidi overrides, Markdown and HTML characters and formula
starts in their names, so that the crosstable folds, the text tables fold to ``--width`` and
every cell guard is used) and compares its standard output with the file of the case in
``tests/golden/``. They lock today's bytes so that the tables can be rebuilt underneath.

A deliberate change of an output regenerates the files (then read the diff before committing)::

    PDN_REGENERATE_GOLDEN=1 python -m pytest tests/test_golden_tables.py
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn.cli import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
REGENERATE = os.environ.get("PDN_REGENERATE_GOLDEN") == "1"

HOSTILE = "tests/golden/inputs/hostile.pdn"
REPORT_INPUTS = [
    "tests/fixtures/report/round_robin.pdn",
    "tests/fixtures/report/international_match.pdn",
    "examples/german-open-2004.pdn",
    "examples/international-wk2007.pdn",
    HOSTILE,
]
OPENINGS_INPUTS = ["tests/fixtures/openings/games.pdn", "examples/german-open-2004.pdn", HOSTILE]
EXPLORE_INPUTS = [
    "tests/fixtures/openings/games.pdn",
    "examples/german-open-2004.pdn",
    "examples/international-wk2007.pdn",
    HOSTILE,
]

REPORT_ARGS = [
    [],
    ["--width", "60"],
    ["--width", "20"],
    ["--format", "markdown"],
    ["--format", "html"],
    ["--format", "json"],
    ["--points", "3,1,0", "--format", "csv"],
    *(["--format", "csv", "--table", table] for table in ("standings", "crosstable", "games")),
    ["--format", "csv", "--table", "openings"],
]
OPENINGS_ARGS = [
    [*stats, "--format", fmt]
    for stats in ([], ["--stats"], ["--stats", "--sort", "games"])
    for fmt in ("text", "csv", "json", "markdown")
]
EXPLORE_ARGS = [[], ["--min-games", "2"], ["--format", "json"]]

CASES = [
    *(("report", path, args) for path in REPORT_INPUTS for args in REPORT_ARGS),
    *(("openings", path, args) for path in OPENINGS_INPUTS for args in OPENINGS_ARGS),
    *(("explore", path, args) for path in EXPLORE_INPUTS for args in EXPLORE_ARGS),
    ("explore", HOSTILE, ["--moves", "11-15"]),
]


def _golden_path(command: str, path: str, args: list[str]) -> Path:
    slug = re.sub(r"[^A-Za-z0-9]+", "_", " ".join(args)).strip("_") or "default"
    return GOLDEN / command / f"{Path(path).stem}__{slug}.out"


def _case_id(case: tuple[str, str, list[str]]) -> str:
    command, path, args = case
    return _golden_path(command, path, args).relative_to(GOLDEN).as_posix()


@pytest.mark.parametrize("case", CASES, ids=[_case_id(case) for case in CASES])
def test_output_is_the_golden_file(
    case: tuple[str, str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    command, path, args = case
    monkeypatch.chdir(ROOT)  # the inputs are named as from the clone's root
    result = CliRunner().invoke(main, [command, path, *args])
    assert result.exit_code == 0, result.output
    golden = _golden_path(command, path, args)
    if REGENERATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(result.stdout_bytes)
    assert golden.exists(), f"{golden} is missing: run with PDN_REGENERATE_GOLDEN=1"
    assert result.stdout_bytes == golden.read_bytes()


def test_every_golden_file_has_its_case() -> None:
    # A case renamed or dropped leaves no stale file behind that nothing checks.
    expected = {_golden_path(*case) for case in CASES}
    found = {path for path in GOLDEN.glob("*/*.out")}
    assert found == expected
