"""The accelerated build (``PDN_COMPILE=1 pip install .``, see ``setup.py``) and the pure one
give the same results.

CI runs the whole suite twice: on the pure package, then on the compiled one with
``PDN_EXPECT_COMPILED=1``, where the tests below that need the compiled modules must run (they
fail rather than skip when those modules are missing).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pdn

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
sys.path.insert(0, str(ROOT / "build_support"))
from pdn_build import COMPILED  # noqa: E402

EXPECTED = os.environ.get("PDN_EXPECT_COMPILED") == "1"


def _is_extension(name: str) -> bool:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, name
    return spec.origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def _compiled() -> bool:
    found = [_is_extension(name) for name in COMPILED]
    partly = dict(zip(COMPILED, found, strict=True))
    assert all(found) or not any(found), f"a partly compiled install: {partly}"
    return all(found)


def test_each_compiled_module_is_a_module_of_the_package() -> None:
    # Each name in the build's list is a module of the package (a typo would compile nothing).
    for name in COMPILED:
        assert importlib.util.find_spec(name) is not None, name
        assert name.partition(".")[0] in {"pdn", "pdn_engine"}


def test_the_build_in_use_is_the_one_expected() -> None:
    from pdn.engine import COMPILED as engine_compiled

    assert _compiled() == engine_compiled
    if EXPECTED:
        assert engine_compiled, "PDN_EXPECT_COMPILED=1 but the pure modules were imported"


def test_the_version_line_says_which_build() -> None:
    from click.testing import CliRunner

    from pdn.cli import main
    from pdn.engine import COMPILED as engine_compiled

    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.startswith("pdn, version ")
    build = "compiled with mypyc" if engine_compiled else "pure Python"
    assert f"({build};" in result.output


#: What the comparison looks at, per fixture: every verdict and problem, every final position,
#: and the JSON of every game.
SUMMARY = """
import json, sys
from pathlib import Path
import pdn
from pdn.engine import COMPILED
from pdn.writing.jsonio import dumps, game_to_dict

out = {"compiled": COMPILED}
for path in sorted(Path(sys.argv[1]).rglob("*.pdn")):
    games = []
    for game in pdn.read_games(path):
        report = pdn.validate(game)
        games.append([
            report.status,
            report.variant.name if report.variant is not None else None,
            report.rules_source,
            report.rules_evidence,
            [(p.code, p.message, p.line, p.column, p.ply) for p in report.all_problems],
            report.final.fen() if report.final is not None else None,
            [(s.ply, s.move.notation() if s.move else None) for s in report.steps],
            dumps(game_to_dict(game, report)),
        ])
    out[path.name] = games
print(json.dumps(out, sort_keys=True, default=str))
"""


def _summary(env: dict[str, str], cwd: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", SUMMARY, str(FIXTURES)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.install
def test_compiled_and_pure_builds_agree_on_every_fixture(tmp_path: Path) -> None:
    if not _compiled():
        if EXPECTED:
            pytest.fail("PDN_EXPECT_COMPILED=1 but the pure modules were imported")
        pytest.skip("the pure build is installed; CI runs this on the compiled one")
    pure = tmp_path / "pure"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(pure), "."],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "PDN_COMPILE"},
        check=True,
        capture_output=True,
    )
    compiled_site = Path(pdn.__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    compiled = _summary({**env, "PYTHONPATH": str(compiled_site)}, tmp_path)
    plain = _summary({**env, "PYTHONPATH": str(pure)}, tmp_path)
    assert compiled.pop("compiled") is True and plain.pop("compiled") is False
    assert len(compiled) >= 5
    assert compiled == plain
