"""From a checkout's root, pdn.engine and pdn.grammars import from the folders beside pdn/, as
they do from the wheel (pdn._checkout): `python -m pdn` in a clone after `pip install .`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_checkout_finds_its_engine_and_grammar_without_any_install() -> None:
    # -I -S: no site-packages (no installed or editable pdn), only the checkout on the path.
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import pdn.engine.movegen, pdn.grammars;"
        "from importlib import resources;"
        "print(pdn.engine.__file__); print(resources.files('pdn.grammars') / 'pdn.lark')"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    engine, grammar = done.stdout.splitlines()
    assert Path(engine) == ROOT / "engine" / "__init__.py"
    assert Path(grammar) == ROOT / "grammars" / "pdn.lark"


def test_an_installed_pdn_adds_no_finder(tmp_path: Path) -> None:
    from pdn._checkout import CheckoutFinder

    assert CheckoutFinder.beside(str(ROOT / "pdn" / "__init__.py")) is not None  # this checkout
    # An installed tree holds engine/ inside pdn/ (and beside it there may be anything).
    for folder in ("pdn/engine", "engine"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text("")
    assert CheckoutFinder.beside(str(tmp_path / "pdn" / "__init__.py")) is None
