"""Replay speed: validating OCA 2.0 games with pdn against pydraughts 0.6.7, same run.

Run from the repository root::

    python benchmarks/bench_replay.py                    # 1,000 games; pydraughts on 100
    python benchmarks/bench_replay.py --games 22621 --peer-games 0

Three measurements over the same games:

* baseline: a plain regular expression that pulls the move texts out of the movetext, no rules;
* pdn: ``pdn.validate`` on games already read (replay + matching + problem checks), then
  again with the fast path off (every move through ``engine.diagnose``), verdicts compared;
* pydraughts: ``Move(board, pdn_move=...)`` + ``push`` for each ply, the way its users replay.

pydraughts also serves as an oracle: for every game both replay, the final positions must agree.
"""

from __future__ import annotations

import argparse
import re
import time
from itertools import islice
from pathlib import Path

from _support import MOVES, OCA, build_name, require

# pdn as installed (not the checkout's folders), so that PYTHONPATH=DIR measures the build in
# DIR, such as the accelerated one.
import pdn
from pdn.rules.validation import Report, validate

MOVE = re.compile(MOVES)


def squares_of(fen: str) -> tuple[str, frozenset[str], frozenset[str]]:
    """A FEN reduced to (side, white squares, black squares) so square order does not matter."""
    turn, *sides = fen.split(":")
    found: dict[str, frozenset[str]] = {}
    for side in sides:
        found[side[0]] = frozenset(s for s in side[1:].split(",") if s)
    return turn, found.get("W", frozenset()), found.get("B", frozenset())


def _kept(report: Report) -> tuple[str, list[tuple[str, str]], str | None]:
    """The status, the problems and the final position's FEN of a report."""
    final = None if report.final is None else report.final.fen()
    return report.status, [(p.code, p.message) for p in report.problems], final


def peer_replay(moves: list[str]) -> str | None:
    from draughts import Board, Move

    board = Board("english")
    try:
        for text in moves:
            board.push(Move(board, pdn_move=text))
    except (KeyError, ValueError):
        return None
    return str(board.fen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(OCA))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--peer-games", type=int, default=100)
    args = parser.parse_args()
    path = Path(args.file)
    require(path)

    games = list(islice(pdn.read_games(path), args.games))
    plies = sum(len(g.mainline_moves()) for g in games)
    texts = [pdn.write_game(g) for g in games]
    print(f"{len(games):,} games, {plies:,} plies from {path.name} ({build_name()} build)")

    start = time.perf_counter()
    found = sum(len(MOVE.findall(t.split("\n\n", 1)[-1])) for t in texts)
    baseline = time.perf_counter() - start
    print(f"  baseline regex   {baseline:8.3f} s  {found / baseline:>12,.0f} moves/s  (no rules)")

    start = time.perf_counter()
    # What a command keeps of each report (the verdict, the final position), not the reports
    # themselves: holding every step of every game would time the garbage collector instead.
    reports = [_kept(validate(g)) for g in games]
    ours = time.perf_counter() - start
    clean = sum(status == "ok" for status, _, _ in reports)
    print(
        f"  pdn.validate     {ours:8.3f} s  {plies / ours:>12,.0f} plies/s  "
        f"({clean:,} clean; {ours / baseline:.1f}x the baseline's time)"
    )

    # The same replay with the fast path declining every move: every move through diagnose,
    # as before issue 12. The verdicts must not change.
    from pdn.rules.fastpath import FastPath

    fast_match = FastPath.match
    FastPath.match = lambda self, position, text: None  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        full = [_kept(validate(g)) for g in games]
        slow = time.perf_counter() - start
    finally:
        FastPath.match = fast_match  # type: ignore[method-assign]
    same = reports == full
    print(
        f"  diagnose only    {slow:8.3f} s  {plies / slow:>12,.0f} plies/s  "
        f"(fast path {slow / ours:.2f}x faster; same verdicts: {same})"
    )

    if args.peer_games <= 0:
        return
    try:
        import draughts  # noqa: F401
    except ImportError:
        print("  pydraughts is not installed (pip install pydraughts==0.6.7); skipped")
        return
    sample = games[: args.peer_games]
    sample_plies = sum(len(g.mainline_moves()) for g in sample)
    start = time.perf_counter()
    finals = [peer_replay(g.mainline_moves()) for g in sample]
    peer = time.perf_counter() - start
    peer_rate = sample_plies / peer
    print(
        f"  pydraughts       {peer:8.3f} s  {peer_rate:>12,.0f} plies/s  "
        f"(first {len(sample):,} games)"
    )
    print(f"  ratio pdn / pydraughts (plies per second): {plies / ours / peer_rate:,.0f}x")
    agree = disagree = 0
    for (
        _,
        _,
        final,
    ), peer_fen in zip(reports, finals, strict=False):
        if peer_fen is None or final is None:
            continue
        if squares_of(peer_fen) == squares_of(final):
            agree += 1
        else:
            disagree += 1
    print(f"  final positions: {agree} agree with pydraughts, {disagree} differ")


if __name__ == "__main__":
    main()
