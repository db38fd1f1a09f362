"""The examples in the docstrings of every library module run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import pdn
import pdn_engine

# Every module of both packages (pdn.engine among pdn's) and of their subpackages
# (pdn.study.tournament:
# a package's examples are those of its own docstrings, not its submodules'), but the
# accelerated build's runtime library, which is no module of ours.
MODULES = sorted(
    {"pdn_engine"}
    | {
        info.name
        for package in (pdn, pdn_engine)
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
        if info.name.split(".")[1] not in {"__main__", "cli"} and "__mypyc" not in info.name
    }
)


ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The examples name files as a user in the clone would (examples/...), wherever the suite
    # runs from (CI runs the accelerated build's from outside the clone).
    monkeypatch.chdir(ROOT)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
