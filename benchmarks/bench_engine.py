"""Engine speed: perft of ours and of pydraughts 0.6.7 in the same run, plus replay primitives.

Run from the repository root::

    python benchmarks/bench_engine.py                 # about 1-2 minutes
    python benchmarks/bench_engine.py --peer-depth 5  # quicker
    python benchmarks/bench_engine.py --no-peer       # ours only

Both engines count leaves the same way: recursive, leaves counted at depth 1 from the length of
the move list (bulk counting). pydraughts is driven through its public API (``legal_moves``,
``push``, ``pop``). The ratio compares leaves per second at the same depth, and also our deepest
run against pydraughts' rate, since bulk counting makes deeper runs cheaper per leaf.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from _support import best_of

# pdn as installed (PYTHONPATH=DIR measures the build in DIR, such as the accelerated one).
from pdn.engine import ENGLISH, INTERNATIONAL, RUSSIAN, Position, Variant, diagnose, perft

PUBLISHED = {
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564],
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929905, 4570667, 22450647],
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483971, 41022614],
}


def ours(variant: Variant, depth: int) -> tuple[int, float]:
    pos = Position.start(variant)
    seconds, nodes = best_of(1, lambda: perft(pos, depth))
    expected = PUBLISHED[variant.name][depth - 1]
    status = "ok" if nodes == expected else f"WRONG (published {expected})"
    rate = nodes / seconds if seconds else float("inf")
    print(
        f"  ours       {variant.name:13} perft({depth:2}) = {nodes:>11,}  {seconds:8.3f} s  "
        f"{rate:>12,.0f} leaves/s  {status}"
    )
    return nodes, seconds


def pydraughts_perft(depth: int) -> tuple[int, float] | None:
    try:
        from draughts import Board
    except ImportError:
        print("  pydraughts is not installed (pip install pydraughts==0.6.7); skipped")
        return None

    def walk(board: Board, left: int) -> int:
        moves = board.legal_moves()
        if left == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += walk(board, left - 1)
            board.pop()
        return total

    board = Board(variant="english")
    seconds, nodes = best_of(1, lambda: walk(board, depth))
    rate = nodes / seconds
    expected = PUBLISHED["english"][depth - 1]
    status = "ok" if nodes == expected else f"WRONG (published {expected})"
    print(
        f"  pydraughts english       perft({depth:2}) = {nodes:>11,}  {seconds:8.3f} s  "
        f"{rate:>12,.0f} leaves/s  {status}"
    )
    return nodes, seconds


def per_call(fn: Callable[[], object], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number * 1e6


def replay_primitives() -> None:
    start = Position.start(ENGLISH)
    move = start.legal_moves()[2]
    jump = Position.from_fen("B:W14,23:B9,1", ENGLISH)
    print("replay primitives (English, microseconds per call):")
    rows = [
        ("diagnose plain legal move (11-15)", lambda: diagnose(start, (11, 15))),
        ("diagnose capture (9x27 = 9x18x27)", lambda: diagnose(jump, (9, 27), True)),
        ("legal_moves() at the start", start.legal_moves),
        ("play(move)", lambda: start.play(move)),
        ("key()", start.key),
    ]
    for label, fn in rows:
        print(f"  {label:36} {per_call(fn, 20000):6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=8, help="our deepest English perft (8)")
    parser.add_argument("--peer-depth", type=int, default=6, help="pydraughts depth (6)")
    parser.add_argument("--no-peer", action="store_true", help="skip pydraughts")
    args = parser.parse_args()

    total = time.perf_counter()
    print(f"Python {sys.version.split()[0]}")
    print("perft from the start position (duplicates counted):")
    peer_depth = args.peer_depth
    same_depth = ours(ENGLISH, peer_depth)
    deepest = ours(ENGLISH, args.depth)
    ours(RUSSIAN, 8)
    ours(INTERNATIONAL, 7)
    peer = None if args.no_peer else pydraughts_perft(peer_depth)
    if peer is not None:
        peer_rate = peer[0] / peer[1]
        same_rate = same_depth[0] / same_depth[1]
        deep_rate = deepest[0] / deepest[1]
        print(
            f"ratio at depth {peer_depth}: {same_rate / peer_rate:,.0f}x pydraughts "
            f"({peer[1] / same_depth[1]:,.0f}x less time for the same tree)"
        )
        print(
            f"ratio, our perft({args.depth}) leaves/s to pydraughts' perft({peer_depth}): "
            f"{deep_rate / peer_rate:,.0f}x"
        )
    replay_primitives()
    print(f"benchmark wall time {time.perf_counter() - total:.1f} s")


if __name__ == "__main__":
    main()
