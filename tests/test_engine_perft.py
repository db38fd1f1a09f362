"""Perft from the start of every variant against the published tables, in one parametrised
test (the figures and their sources: ``variant_cases.START_PERFT``), and perft's own rules.

The figures are written out so the suite does not depend on files outside the repository;
``test_tables_agree_with_reference_csv`` checks them against shared/reference/data/perft.csv
when it is there.
"""

from __future__ import annotations

import csv
from typing import Any

import pytest
from shared_paths import REFERENCE_DATA, needs_shared
from variant_cases import FAST_DEPTH, MERGE_UP_TO, START_PERFT

from pdn.engine import CANADIAN, ENGLISH, POOL, Position, get_variant, perft

REFERENCE = REFERENCE_DATA / "perft.csv"


def _cases() -> list[Any]:
    cases = []
    for name, table in START_PERFT.items():
        for depth, (counted, merged) in table.items():
            marks = [] if depth <= FAST_DEPTH[name] else [pytest.mark.slow]
            id_ = f"{name}-{depth}"
            cases.append(pytest.param(name, depth, counted, merged, marks=marks, id=id_))
    return cases


@pytest.mark.parametrize(("name", "depth", "counted", "merged"), _cases())
def test_perft_start(name: str, depth: int, counted: int | None, merged: int) -> None:
    # Every variant's published (or cross-checked) figures, variant_cases.START_PERFT.
    start = Position.start(get_variant(name))
    if counted is not None:
        assert perft(start, depth) == counted
    if counted is None or counted != merged or depth <= MERGE_UP_TO.get(name, depth):
        # Merging only matters where the columns differ; where they agree it is checked
        # cheaply (MERGE_UP_TO).
        assert perft(start, depth, merge_duplicates=True) == merged


def test_pool_and_russian_agree_until_mid_capture_crowning_matters() -> None:
    # The two differ only in what a man does on the last row mid-capture, which first changes
    # the count at depth 8 (Russian 929899, Pool 929896 published).
    for depth in range(1, 7):
        assert perft(Position.start(POOL), depth) == START_PERFT["russian"][depth][0]


def test_perft_canadian_first_plies() -> None:
    # 12x12, 30 men each: the front row has 6 men, 11 first moves; no published deeper table
    # was available, so only what can be counted by hand is asserted.
    start = Position.start(CANADIAN)
    assert perft(start, 1) == 11
    assert perft(start, 2) == 121
    assert perft(start, 0) == 1


def test_merged_never_exceeds_counted() -> None:
    circle = "W:WK2,17,19,21,24,25,26,27,29,30,31,32:B1,4,5,6,7,8,10,12,14,15"
    pos = Position.from_fen(circle, ENGLISH)
    for depth in range(1, 4):
        assert perft(pos, depth, merge_duplicates=True) <= perft(pos, depth)
    assert perft(pos, 1) == 2
    assert perft(pos, 1, merge_duplicates=True) == 1


def test_negative_depth_rejected() -> None:
    with pytest.raises(ValueError):
        perft(Position.start(ENGLISH), -1)


@needs_shared(REFERENCE)
def test_tables_agree_with_reference_csv() -> None:
    tables = {name: START_PERFT[name] for name in ("english", "russian", "international")}
    seen = 0
    with REFERENCE.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            table = tables.get(row["variant"])
            depth = int(row["depth"])
            if table is None or depth not in table:
                continue
            counted = int(row["perft_duplicate_captures_counted"])
            merged = int(row["perft_duplicate_captures_merged"])
            assert table[depth] == (counted, merged), (row["variant"], depth)
            seen += 1
    assert seen == sum(map(len, tables.values()))
