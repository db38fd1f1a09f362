"""The explorer and the diagram sheet at their limits (issue 33, section 7).

A full temporary folder while the explorer's counts spill to SQLite is one line naming the
folder, never a traceback; an oversized --max-nodes, --plies, --depth or --min-games is
taken as no bound (and a walk stops where the tree ends, not after every level asked); the
diagram sheet carries a Content-Security-Policy as strict as the viewer's.
"""

from __future__ import annotations

import base64
import hashlib
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from click.testing import CliRunner

from pdn import engine
from pdn.cli import main
from pdn.study import counts as explorer_store
from pdn.study.counts import SpilledCounts, SpillError
from pdn.study.explore import tree as explorer
from pdn.study.explore.tree import Tree, build

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT = ROOT / "examples" / "german-open-2004.pdn"
HUGE = str(10**20)


@pytest.fixture
def full_database(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every spill goes to a database that holds 2 pages: SQLite's own "database or disk
    is full", as a full temporary folder gives it; and the explorer spills at once."""
    real = SpilledCounts.__init__

    def tiny(self: SpilledCounts) -> None:
        real(self)
        self.db.execute("PRAGMA max_page_count = 2")

    monkeypatch.setattr(SpilledCounts, "__init__", tiny)
    defaults = dict(build.__kwdefaults__ or {})
    monkeypatch.setattr(build, "__kwdefaults__", {**defaults, "spill": 10})


@pytest.mark.usefixtures("full_database")
def test_a_full_temporary_folder_is_one_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.delenv("SQLITE_TMPDIR", raising=False)
    with pytest.raises(SpillError) as raised:
        build([str(TOURNAMENT)])
    assert raised.value.filename == str(tmp_path) and "database or disk is full" in str(
        raised.value
    )
    result = CliRunner().invoke(main, ["explore", "-j", "1", str(TOURNAMENT)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"Error: {tmp_path}: the explorer's temporary database failed")
    assert "database or disk is full" in line and "TMPDIR" in line


def test_the_database_errors_are_spill_errors_everywhere() -> None:
    counts = SpilledCounts()
    counts.db.close()  # any SQLite error, in each of its calls
    calls: list[Callable[[], Any]] = [
        lambda: counts.add(explorer_store.CountTable([1])),
        lambda: counts.position(1),
        lambda: list(counts.moves_from(1)),
        lambda: list(counts.positions()),
        lambda: list(counts.moves()),
    ]
    for call in calls:
        with pytest.raises(SpillError):
            call()


@pytest.mark.parametrize("option", ["--max-nodes", "--plies", "--depth", "--min-games"])
def test_an_oversized_bound_is_no_bound(option: str) -> None:
    result = CliRunner().invoke(
        main, ["explore", "--format", "html", "-j", "1", option, HUGE, str(TOURNAMENT)]
    )
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "</html>" in result.stdout


def _lines_run(run: Callable[[], object], code: Any) -> int:
    """How many lines of ``code`` run while ``run()`` does."""
    count = 0

    def local(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count
        count += event == "line"
        return local

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code is code else None

    sys.settrace(tracer)
    try:
        run()
    finally:
        sys.settrace(None)
    return count


def test_a_walk_stops_where_the_tree_ends() -> None:
    tree = build([str(TOURNAMENT)], depth=4)
    start = engine.Position.start(engine.get_variant("english"))
    nodes = len(list(tree.walk(start, plies=10)))
    # Each node costs a few lines; plies far past the tree's end cost none.
    for plies in (10, 10_000):
        lines = _lines_run(lambda p=plies: list(tree.walk(start, plies=p)), Tree.walk.__code__)
        assert lines < 20 * nodes, (plies, lines, nodes)
    assert explorer.Tree.walk is Tree.walk


def test_the_diagram_sheet_allows_only_its_own_style(tmp_path: Path) -> None:
    source = tmp_path / "g.pdn"
    source.write_text('[Event "<script>alert(1)</script>"]\n1. 11-15 23-19 *\n')
    args = ["diagram", str(source), "--plies", "1", "--sheet", "-o", str(tmp_path / "d")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    sheet = (tmp_path / "d" / "sheet.html").read_text(encoding="utf-8")
    found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', sheet)
    assert found is not None and sheet.index(found.group()) < sheet.index("<style>")
    policy = dict(part.strip().split(" ", 1) for part in found.group(1).split(";"))
    (style,) = re.findall(r"<style>(.*?)</style>", sheet, re.S)
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    assert policy == {"default-src": "'none'", "style-src": f"'sha256-{digest}'"}
    assert "<script" not in sheet


def test_a_full_temporary_folder_ends_a_report_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The report's games wait on disk by event: SQLite's "database or disk is full" there is
    # the explorer's one line, not a traceback.
    from pdn.study.tournament.store import EventStore

    real = EventStore.__init__

    def tiny(self: EventStore) -> None:
        real(self)
        self._db.execute("PRAGMA max_page_count = 2")

    monkeypatch.setattr(EventStore, "__init__", tiny)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.delenv("SQLITE_TMPDIR", raising=False)
    result = CliRunner().invoke(main, ["report", "--no-openings", str(TOURNAMENT)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"Error: {tmp_path}: the report's temporary database failed")
    assert "database or disk is full" in line and "TMPDIR" in line
