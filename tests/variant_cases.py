"""What the test files of the variants share: perft-from-the-start cases, and the optional
pydraughts oracle (``draughts`` is ``None`` where it is not installed)."""

from __future__ import annotations

from typing import Any

import pytest

from pdn.engine import Position, Variant, perft

draughts: Any
try:
    import draughts
except ImportError:  # the oracle is optional; the hand-made expectations stand alone
    draughts = None


def perft_params(
    name: str, table: dict[int, int] | dict[int, tuple[int, int]], *, fast_up_to: int
) -> list[Any]:
    """``(depth, counted, merged)`` cases from a table of depth -> count (or -> (counted,
    merged)); depths above ``fast_up_to`` are marked slow."""
    cases = []
    for depth, value in table.items():
        counted, merged = value if isinstance(value, tuple) else (value, value)
        marks = [] if depth <= fast_up_to else [pytest.mark.slow]
        cases.append(pytest.param(depth, counted, merged, marks=marks, id=f"{name}-{depth}"))
    return cases


def check_start_perft(
    variant: Variant, depth: int, counted: int, merged: int, *, merge_up_to: int | None = None
) -> None:
    """Perft from the start, duplicates counted and (up to ``merge_up_to``) merged."""
    start = Position.start(variant)
    assert perft(start, depth) == counted
    if merge_up_to is None or depth <= merge_up_to:
        assert perft(start, depth, merge_duplicates=True) == merged
