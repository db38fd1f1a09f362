"""The examples in the docstrings of every library module run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import pdn
from pdn import engine

MODULES = sorted(
    f"{package.__name__}.{info.name}"
    for package in (pdn, engine)
    for info in pkgutil.iter_modules(package.__path__)
    if info.name not in {"__main__", "cli"}
)


@pytest.mark.parametrize("name", ["pdn.engine", *MODULES])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
