"""Linear work and memory on hostile shapes (issue 22, item 3): the viewer on nested variations
with illegal moves, the writer on long runs of glued ``)``, ``split`` on names sharing a stem,
``openings`` text on a growing collection.

No wall-clock: each test measures the work (operations counted, peak memory under tracemalloc,
or bytes of data) at ``n`` and ``4n`` and asserts a ratio well under the 16 of a quadratic
step. The exact sizes of the issue are timed by ``benchmarks/bench_hostile_shapes.py``.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import pdn
from pdn.collections import splitting
from pdn.collections.splitting import NAME_BYTES, Names, safe_name
from pdn.rules.openings import Opening
from pdn.rules.validation import validate
from pdn.view import viewer
from pdn.writing import writer
from pdn.writing.openings_render import OpeningRow, render_openings_chunks
from pdn.writing.writer import write_game

#: 4n over n: linear work gives 4, quadratic 16; the margin covers fixed costs and noise.
LINEAR = 7.0


def _peak(work: Callable[[], object]) -> int:
    """The peak memory (bytes) that ``work`` allocates, what it returns dropped."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _nested_stopping(n: int) -> pdn.Game:
    """Variations nested ``n`` deep, each alternative to the second move of the one around it,
    whose second move is illegal: the replay stops in each, so the tree is deep and the steps
    are few."""
    text = "1. 11-15 23-19 " + "(23-18 11-20 " * n + ") " * n + "*\n"
    return pdn.parse_game(text)


def _nested_replayed(n: int) -> pdn.Game:
    """Variations nested ``n`` deep that the replay enters level after level (two kings go
    back and forth), each with an illegal move: a problem per level, each deeper."""
    cycle = ["29-25", "4-8", "25-29", "8-4"]
    levels = "".join(f"({cycle[(k + 1) % 4]} 1-2 " for k in range(n))
    return pdn.parse_game(f'[GameType "21"][FEN "W:WK29:BK4"]\n1. 29-25 4-8 {levels}{") " * n}*\n')


def test_viewer_matching_problems_to_moves_is_linear_in_nesting() -> None:
    """The path of every node was a tuple as long as its depth: quadratic memory."""
    sizes = []
    for n in (400, 1600):
        game = _nested_stopping(n)
        report = validate(game)
        problems = report.all_problems
        assert any(p.variation for p in problems)  # side-line problems to match
        per_node = viewer._problems_per_node(game, report, problems)
        assert sorted(i for v in per_node.values() for i in v) == list(range(len(problems)))
        sizes.append(_peak(lambda g=game, r=report, p=problems: viewer._problems_per_node(g, r, p)))
    assert sizes[1] < LINEAR * sizes[0], sizes


def test_viewer_page_data_per_nested_variation_is_constant() -> None:
    """A problem per level: the page must not spell each one's path (as long as its depth)."""
    sizes = []
    for n in (300, 1200):
        game = _nested_replayed(n)
        record = viewer.view_game(game, "-").record
        assert len(record["problems"]) == n  # one per level, each deeper than the last
        sizes.append(len(viewer.script_json(record)))
    assert sizes[1] < 4.5 * sizes[0], sizes


def test_viewer_spells_where_in_full_up_to_eight_levels_then_cuts_the_path() -> None:
    game = _nested_replayed(12)
    record = viewer.view_game(game, "-").record
    problems = validate(game).all_problems
    assert {len(p.variation) for p in problems} == set(range(1, 13))
    for problem, shown in zip(problems, record["problems"], strict=True):
        if len(problem.variation) <= 8:
            assert shown["where"] == problem.where  # as every real file has them
        else:
            assert shown["where"] == (
                f"variation 1.1.1.1 ... 1.1.1.1 ({len(problem.variation)} deep), ply {problem.ply}"
            )


def _lines_run(module_file: str, work: Callable[[], object]) -> int:
    """How many lines of ``module_file`` run while ``work`` runs (an operation count)."""
    count = 0

    def tracer(frame: Any, event: str, arg: object) -> Any:
        nonlocal count
        if frame.f_code.co_filename != module_file:
            return None
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        work()
    finally:
        sys.settrace(None)
    return count


def _glued_closes(n: int) -> pdn.Game:
    """Variations nested ``n`` deep, so that the text ends in ``n`` glued ``)``."""
    return pdn.parse_game("1. 11-15 23-19 " + "(23-18 11-20 " * n + ")" * n + " *\n")


@pytest.mark.skipif(not writer.__file__.endswith(".py"), reason="compiled: no lines to count")
def test_writer_lays_out_a_long_run_of_glued_closes_in_linear_work() -> None:
    """Each ``)`` looked back along the whole glued run for where it starts: quadratic."""
    counts = []
    for n in (250, 1000):
        game = _glued_closes(n)
        text = write_game(game)
        assert ")" * 40 in text and pdn.parse_game(text) == game  # laid out, nothing lost
        counts.append(_lines_run(writer.__file__, lambda g=game: write_game(g)))
    assert counts[1] < LINEAR * counts[0], counts


def _naming_work(folder: Path, labels: list[str]) -> int:
    """The lines of :mod:`pdn.collections.splitting` that naming ``labels`` runs (each a new
    label)."""
    names = Names(folder)
    chosen: list[str] = []
    work = _lines_run(splitting.__file__, lambda: chosen.extend(map(names.name, labels)))
    assert len({c.casefold() for c in chosen}) == len(labels)  # unique, even ignoring case
    return work


@pytest.mark.skipif(not splitting.__file__.endswith(".py"), reason="compiled: no lines to count")
def test_split_names_sharing_a_stem_take_constant_work_each(tmp_path: Path) -> None:
    """Each new label of a stem probed ``stem.pdn``, ``stem-2.pdn``... from 1: quadratic."""
    stem = "Open " + "x" * NAME_BYTES  # the label is cut to the stem: the number is lost
    counts = []
    for n in (200, 800):
        labels = [f"{stem} {i}" for i in range(n)]
        assert len({safe_name(label) for label in labels}) == 1
        counts.append(_naming_work(tmp_path, labels))
    assert counts[1] < LINEAR * counts[0], counts


def test_split_names_still_skip_files_in_the_way(tmp_path: Path) -> None:
    """A name another stem took, or a link in the folder, is passed over; stems that differ
    only in case share one numbering (they are one name where case is ignored)."""
    (tmp_path / "a-3.pdn").symlink_to(tmp_path / "elsewhere")
    names = Names(tmp_path)
    assert [names.name(label) for label in ("a-2", "a", "a?", "a*", "A:")] == [
        "a-2.pdn",
        "a.pdn",
        "a-4.pdn",  # "a?" is "a" made safe: 3 is the link
        "a-5.pdn",
        "A-6.pdn",  # "A" is "a" on a file system that ignores case
    ]


def _opening_rows(n: int) -> Iterator[OpeningRow]:
    """``n`` rows made as they are asked for, names of every length and script."""
    kinds = [Opening("short", played="11-15"), Opening("ballot", number=3, moves="9-13 21-17")]
    for i in range(n):
        event = None if i % 3 else f"Open {'é' * (i % 17)} \udcff{i}"
        yield OpeningRow(i + 1, kinds[i % 2], event, f"B{i}", None)


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_openings_aligned_table_memory_does_not_grow_with_the_rows(fmt: str) -> None:
    """The columns are sized from every row: the rows wait on disk, not in memory."""

    def render(n: int) -> None:
        for _chunk in render_openings_chunks(_opening_rows(n), fmt):
            pass

    peaks = [_peak(lambda n=n: render(n)) for n in (1500, 6000)]
    assert peaks[1] < 1.5 * peaks[0], peaks


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_openings_spooled_table_is_the_table_laid_out_in_memory(fmt: str) -> None:
    from pdn.text.tables import markdown_table, text_table
    from pdn.writing.openings_render import _OPENING_COLUMNS, _opening_cells

    rows = list(_opening_rows(50))
    cells = [_opening_cells(row) for row in rows]
    shown = [c for c in _OPENING_COLUMNS if c[0] not in {"white"}]  # no row has a White
    whole = (text_table if fmt == "text" else markdown_table)(shown, cells)
    assert "".join(render_openings_chunks(iter(rows), fmt)) == whole
    assert "Event" in whole and "White" not in whole
