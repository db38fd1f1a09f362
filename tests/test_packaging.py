"""The wheel installs one package, ``pdn``; nothing generic lands at the top of site-packages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), "."],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return target


def test_only_pdn_is_installed(installed: Path) -> None:
    top = sorted(p.name for p in installed.iterdir() if p.name not in {"bin", "__pycache__"})
    assert top[0] == "pdn"
    assert len(top) == 2 and top[1].startswith("pdn-") and top[1].endswith(".dist-info")
    assert (installed / "pdn" / "engine" / "data" / "square_map_8x8.csv").is_file()
    assert (installed / "pdn" / "grammars" / "pdn.lark").is_file()
    assert (installed / "pdn" / "py.typed").is_file()


def test_import_beside_engine_and_grammars_modules(installed: Path, tmp_path: Path) -> None:
    # A user's folder holding modules called engine.py and grammars.py must not shadow ours.
    (tmp_path / "engine.py").write_text("raise ImportError('the user engine.py was imported')\n")
    (tmp_path / "grammars.py").write_text("raise ImportError('the user grammars.py')\n")
    script = (
        "import pdn\n"
        "g = pdn.parse_game('1. 11-15 23-19 *')\n"
        "print(pdn.validate(g).status, pdn.engine.perft(pdn.engine.Position.start("
        "pdn.engine.ENGLISH), 3))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(installed)}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok", "302"]
