"""Perft against the published tables (shared/reference/data/perft.csv), per variant.

The figures are written out here so the suite does not depend on files outside the repository;
``test_tables_agree_with_reference_csv`` checks them against the CSV when it is there.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from pdn.engine import (
    BRAZILIAN,
    CANADIAN,
    ENGLISH,
    INTERNATIONAL,
    POOL,
    RUSSIAN,
    Position,
    Variant,
    perft,
)

# depth -> (duplicates counted, duplicates merged)
ENGLISH_PERFT = {
    1: (7, 7),
    2: (49, 49),
    3: (302, 302),
    4: (1469, 1469),
    5: (7361, 7361),
    6: (36768, 36768),
    7: (179740, 179740),
    8: (845931, 845931),
    9: (3963680, 3963680),
    10: (18391564, 18391564),
}
RUSSIAN_PERFT = {
    1: (7, 7),
    2: (49, 49),
    3: (302, 302),
    4: (1469, 1469),
    5: (7482, 7482),
    6: (37986, 37986),
    7: (190146, 190146),
    8: (929905, 929899),
    9: (4570667, 4570586),
    10: (22450647, 22444032),
}
INTERNATIONAL_PERFT = {
    1: (9, 9),
    2: (81, 81),
    3: (658, 658),
    4: (4265, 4265),
    5: (27117, 27117),
    6: (167140, 167140),
    7: (1049442, 1049442),
    8: (6483971, 6483961),
    9: (41022614, 41022423),
}
# Merged only (dctl tables quoted in openings-and-rules.md section 2.2).
BRAZILIAN_PERFT = {
    1: 7,
    2: 49,
    3: 302,
    4: 1469,
    5: 7473,
    6: 37628,
    7: 187302,
    8: 907830,
    9: 4431766,
    10: 21560022,
}
POOL_PERFT = {8: 929896, 9: 4570534, 10: 22435955}

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "data" / "perft.csv"

FAST_DEPTH = {"english": 8, "russian": 8, "international": 7}


def _cases(variant: Variant, table: dict[int, tuple[int, int]], fast: int) -> list[Any]:
    out = []
    for depth, (counted, merged) in table.items():
        marks = [] if depth <= fast else [pytest.mark.slow]
        name = f"{variant.name}-{depth}"
        out.append(pytest.param(variant, depth, counted, merged, marks=marks, id=name))
    return out


CASES = (
    _cases(ENGLISH, ENGLISH_PERFT, FAST_DEPTH["english"])
    + _cases(RUSSIAN, RUSSIAN_PERFT, FAST_DEPTH["russian"])
    + _cases(INTERNATIONAL, INTERNATIONAL_PERFT, FAST_DEPTH["international"])
)


@pytest.mark.parametrize(("variant", "depth", "counted", "merged"), CASES)
def test_perft_start(variant: Variant, depth: int, counted: int, merged: int) -> None:
    start = Position.start(variant)
    assert perft(start, depth) == counted
    if counted != merged or depth <= FAST_DEPTH[variant.name] - 2:
        # Merging only matters where the columns differ; check it cheaply elsewhere.
        assert perft(start, depth, merge_duplicates=True) == merged


@pytest.mark.parametrize(
    ("depth", "expected"),
    [
        pytest.param(d, n, marks=[] if d <= 7 else [pytest.mark.slow], id=f"brazilian-{d}")
        for d, n in BRAZILIAN_PERFT.items()
    ],
)
def test_perft_brazilian(depth: int, expected: int) -> None:
    assert perft(Position.start(BRAZILIAN), depth, merge_duplicates=True) == expected


@pytest.mark.parametrize(
    ("depth", "expected"),
    [
        pytest.param(d, n, marks=[] if d <= 8 else [pytest.mark.slow], id=f"pool-{d}")
        for d, n in POOL_PERFT.items()
    ],
)
def test_perft_pool(depth: int, expected: int) -> None:
    assert perft(Position.start(POOL), depth, merge_duplicates=True) == expected


def test_pool_and_russian_agree_until_mid_capture_crowning_matters() -> None:
    # The two differ only in what a man does on the last row mid-capture, which first changes
    # the count at depth 8 (Russian 929899, Pool 929896 published).
    for depth in range(1, 7):
        assert perft(Position.start(POOL), depth) == RUSSIAN_PERFT[depth][0]


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


@pytest.mark.skipif(not REFERENCE.is_file(), reason="shared reference data not present")
def test_tables_agree_with_reference_csv() -> None:
    tables = {
        "english": ENGLISH_PERFT,
        "russian": RUSSIAN_PERFT,
        "international": INTERNATIONAL_PERFT,
    }
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
    assert seen == len(ENGLISH_PERFT) + len(RUSSIAN_PERFT) + len(INTERNATIONAL_PERFT)
