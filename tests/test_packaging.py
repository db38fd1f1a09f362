"""The wheel installs pdn and its two packages under names of their own (nothing generic such as
``engine`` lands at the top of site-packages), and a checkout imports exactly as it installs."""

from __future__ import annotations

import importlib
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


@pytest.mark.install
def test_only_pdn_and_its_own_packages_are_installed(installed: Path) -> None:
    top = sorted(p.name for p in installed.iterdir() if p.name not in {"bin", "__pycache__"})
    info = [name for name in top if name.endswith(".dist-info")]
    assert len(info) == 1 and info[0].startswith("pdn-")
    assert [name for name in top if name not in info] == ["pdn", "pdn_engine", "pdn_grammars"]
    assert (installed / "pdn_engine" / "data" / "square_map_8x8.csv").is_file()
    assert (installed / "pdn_grammars" / "pdn.lark").is_file()
    assert (installed / "pdn" / "cli" / "__init__.py").is_file()  # a subpackage: pdn.* found
    for package in ("pdn", "pdn_engine"):
        assert (installed / package / "py.typed").is_file()
    # Subpackages too (pdn.study.tournament): every module of the checkout is in the wheel.
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "pdn").rglob("*.py")}
    wheel = {p.relative_to(installed).as_posix() for p in (installed / "pdn").rglob("*.py")}
    assert modules <= wheel, sorted(modules - wheel)


@pytest.mark.install
def test_a_checkout_imports_as_the_wheel_installs(installed: Path) -> None:
    # From the clone's root after `pip install .`: the checkout's pdn/ comes first on the path
    # and must find the installed engine and grammar as the wheel's pdn does.
    script = (
        "import pdn, pdn.engine, pdn_engine\n"
        "from importlib import resources\n"
        "print(pdn.__file__)\n"
        "print(pdn.engine.perft(pdn.engine.Position.start(pdn.engine.ENGLISH), 3))\n"
        "print(pdn.validate(pdn.parse_game('1. 11-15 23-19 *')).status)\n"
        "print(resources.files('pdn_grammars').joinpath('pdn.lark').is_file())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(installed)}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(ROOT / "pdn" / "__init__.py"), "302", "ok", "True"]
    version = subprocess.run(
        [sys.executable, "-m", "pdn", "--version"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert version.returncode == 0 and version.stdout.startswith("pdn, version"), version.stderr


def test_pdn_engine_is_a_module_not_a_second_copy_of_the_package() -> None:
    # pdn.engine names the engine's public objects; its modules are pdn_engine's own, never
    # loaded twice under a second name.
    import pdn.engine
    import pdn_engine

    assert pdn.engine.Position is pdn_engine.Position
    assert sorted(pdn.engine.__all__) == sorted(pdn_engine.__all__)
    with pytest.raises(ModuleNotFoundError, match="not a package"):
        importlib.import_module("pdn.engine.movegen")


@pytest.mark.install
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
