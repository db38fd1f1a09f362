"""The explorer's storage: a tree spilled to SQLite, pickled or merged says what one built in
memory says, and its memory stays flat as the distinct positions of the input grow."""

from __future__ import annotations

import gc
import pickle
import tracemalloc
from pathlib import Path

import pytest
from explorer_inputs import random_file, tree_facts

from pdn import read_games, validate
from pdn.engine import ENGLISH, Position
from pdn.study.explore.tree import Line, Tree, build, line_of

pytestmark = pytest.mark.stress

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = sorted(
    str(p) for p in [*ROOT.glob("examples/*.pdn"), *ROOT.glob("tests/fixtures/corpus/*/*.pdn")]
)
TINY = 500  # entries in memory: the fixtures go through SQLite many times


@pytest.fixture(scope="module")
def randoms(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("random")
    return [str(random_file(folder, 150, plies=30, seed=seed)) for seed in range(2)]


def spilled(tree: Tree) -> bool:
    return tree._disk is not None


def test_a_spilled_tree_says_what_one_in_memory_says(randoms: list[str], tmp_path: Path) -> None:
    unplayable = tmp_path / "unplayable.pdn"  # a start that cannot be set up: 99 is off the board
    unplayable.write_text('[SetUp "1"]\n[FEN "B:W99:B1"]\n\n1. 1-6 *\n', encoding="utf-8")
    files = [*FIXTURES, *randoms, str(unplayable)]
    whole = build(files)
    small = build(files, spill=TINY)
    assert spilled(small) and not spilled(whole)
    facts = tree_facts(whole)
    assert tree_facts(small) == facts
    assert len(facts["positions"]) > 10 * TINY  # so it spilled again and again
    dated = [f for f in facts["positions"].values() if f.first_date != f.last_date]
    assert dated  # first and last dates that differ went through the spill too
    assert facts["stopped"]["illegal"] > 0 and facts["unplayable"] == 1


def test_spilled_asked_again_after_more_games(randoms: list[str]) -> None:
    # Asking flushes the memory to disk; games added after it must still count.
    tree = build(randoms[:1], spill=TINY)
    tree_facts(tree)
    more = build(randoms[1:], spill=TINY)
    tree.merge(more)
    assert tree_facts(tree) == tree_facts(build(randoms))


def test_within_and_players_through_the_spill(randoms: list[str]) -> None:
    start = Position.start(ENGLISH)
    after = [r.position for r in build(randoms).node(start).replies]
    kwargs = {"within": [start, *after], "players_at": [start]}
    whole = build(randoms, **kwargs)  # type: ignore[arg-type]
    small = build(randoms, spill=20, **kwargs)  # type: ignore[arg-type]
    assert spilled(small)
    assert tree_facts(small) == tree_facts(whole)
    assert small.node(start).replies == whole.node(start).replies


def test_a_spilled_tree_pickles(randoms: list[str]) -> None:
    small = build([*FIXTURES, *randoms], spill=TINY)
    copy = pickle.loads(pickle.dumps(small))
    assert not spilled(copy)  # it travels as its counts
    assert tree_facts(copy) == tree_facts(small)
    whole = build([*FIXTURES, *randoms])
    assert tree_facts(pickle.loads(pickle.dumps(whole))) == tree_facts(whole)


def test_spilled_trees_merge(randoms: list[str]) -> None:
    files = [*FIXTURES, *randoms]
    half = len(files) // 2
    expected = tree_facts(build(files))
    one, other = build(files[:half], spill=TINY), build(files[half:], spill=TINY)
    assert spilled(one) and spilled(other)
    one.merge(other)
    assert tree_facts(one) == expected
    # Into a tree in memory that spills as it takes them in, and the other way round.
    into = build(files[:half], spill=3 * TINY)
    into.merge(build(files[half:]))
    assert tree_facts(into) == expected
    memory = build(files[:half])
    memory.merge(build(files[half:], spill=TINY))
    assert tree_facts(memory) == expected


def lines_of(path: Path) -> list[Line]:
    lines = [line_of(validate(game)) for game in read_games(path)]
    return [line for line in lines if line is not None]


def peak_while_adding(lines: list[Line], spill: int) -> int:
    """The peak memory traced while a tree takes in ``lines``: the tree's own, since the
    lines were made before (reading and replaying have caches of their own, bounded but
    large beside a small tree: the engine's move lookup holds thousands of positions)."""
    gc.collect()
    tracemalloc.start()
    try:
        tree = Tree(spill=spill)
        for line in lines:
            tree.add_line(line)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert tree.games == len(lines)
    return peak


def test_memory_stays_flat_as_distinct_positions_grow(tmp_path: Path) -> None:
    small = lines_of(random_file(tmp_path, 300, plies=30))
    large = small + lines_of(random_file(tmp_path, 900, plies=30, seed=1))  # 4x the positions
    assert len({key for line in large for key in line.keys}) > 3.5 * len(
        {key for line in small for key in line.keys}
    )
    spill = 1000  # entries: well below the small input's ~15,000
    peak_while_adding(small, spill)  # the first flush's imports and statements cached
    flat = peak_while_adding(large, spill) / peak_while_adding(small, spill)
    grows = peak_while_adding(large, 10**9) / peak_while_adding(small, 10**9)
    assert grows > 3  # in memory, four times the positions take about four times the room
    assert flat < 1.3
