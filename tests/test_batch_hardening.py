"""pdn.collections.batch's pool (pdn.collections.pool): sized by cores and input, and dies with its
parent."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from pdn.collections import pool
from pdn.collections.batch import (
    BATCH_SIZE,
    map_games,
    usable_cores,
    validate_files,
    worker_count,
)

ROOT = Path(__file__).resolve().parents[1]
ILLEGAL = ROOT / "examples" / "illegal-moves.pdn"


def _games(folder: Path, count: int) -> Path:
    path = folder / f"games-{count}.pdn"
    game = '[Event "E"]\n[Black "A"]\n[White "B"]\n\n1. 11-15 23-19 *\n'
    path.write_text("\n".join([game] * count))
    return path


class _Recorder:
    """Stands in for pdn.collections.pool.process_pool and records how it was asked; a pool larger
    than
    the machine is refused before it is made (a regression must fail the test, not fork
    thousands of processes)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.workers: list[int] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        workers = kwargs.get("workers", args[0] if args else None)
        self.workers.append(workers)
        assert workers is not None and workers <= usable_cores(), f"{workers} workers asked"
        return self.real(*args, **kwargs)


def test_worker_count_is_capped_by_cores_and_batches() -> None:
    assert worker_count(10_000, 1, cores=64) == 1
    assert worker_count(10_000, 3, cores=64) == 3
    assert worker_count(10_000, 500, cores=4) == 4
    assert worker_count(2, 500, cores=4) == 2
    assert 1 <= usable_cores() <= (os.cpu_count() or 1)


def test_huge_jobs_on_a_small_file_starts_no_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = _Recorder(pool.process_pool)
    monkeypatch.setattr(pool, "process_pool", recorder)
    many = [v.to_dict() for v in validate_files([ILLEGAL], jobs=10_000)]
    assert recorder.workers == []  # 12 games are one batch: no worker is worth starting
    assert many == [v.to_dict() for v in validate_files([ILLEGAL], jobs=1)]


def test_huge_jobs_never_exceeds_cores_or_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if usable_cores() < 2:
        pytest.skip("one core: no pool is ever started")
    recorder = _Recorder(pool.process_pool)
    monkeypatch.setattr(pool, "process_pool", recorder)
    source = _games(tmp_path, 2 * BATCH_SIZE + 1)  # three batches
    results = list(map_games(_index, [source], jobs=10_000))
    assert results == list(range(1, 2 * BATCH_SIZE + 2))
    assert recorder.workers == [min(3, usable_cores())]


def _index(game: Any, name: str) -> int:
    return int(game.index)


_ORPHAN_MAKER = textwrap.dedent(
    """
    import sys, time
    from pdn.collections.batch import map_games

    def slow(game, name):
        time.sleep(60)
        return game.index

    if __name__ == "__main__":
        for _ in map_games(slow, [sys.argv[1]], jobs=2):
            pass
    """
)


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # "pid (name) state ppid ...": the name may hold spaces, so split after ")".
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_workers_die_with_their_parent(tmp_path: Path) -> None:
    if usable_cores() < 2:
        pytest.skip("one core: no pool is ever started")
    source = _games(tmp_path, 2 * BATCH_SIZE)
    script = tmp_path / "orphans.py"
    script.write_text(_ORPHAN_MAKER)
    parent = subprocess.Popen([sys.executable, str(script), str(source)], cwd=ROOT)
    workers: set[int] = set()
    try:
        for _ in range(400):  # polls, 20 s at most: only a hang runs out of them
            if len(workers) >= 2:
                break
            time.sleep(0.05)
            workers = _children(parent.pid)
        else:
            pytest.fail("the workers never started")
        time.sleep(0.3)  # let the initializers run
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        for _ in range(200):  # polls, 10 s at most
            if not any(_running(pid) for pid in workers):
                break
            time.sleep(0.05)
        assert not any(_running(pid) for pid in workers), "workers outlived their parent"
    finally:
        parent.kill()
        parent.wait()
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
