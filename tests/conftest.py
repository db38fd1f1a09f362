"""Hypothesis runs derandomised everywhere: a failure in CI is the same failure on any machine
(``HYPOTHESIS_PROFILE=explore`` draws new examples, to look for more).

The tiers (markers in ``pyproject.toml``): a plain ``pytest`` runs the fast tier only;
``pytest -m 'not slow'`` runs every tier (the README's test command and ``.ci/run``);
``pytest -m ''`` adds the deep checks. A test in the ``corpus`` tier (``needs_shared`` in
``shared_paths.py``) is skipped here, saying which path is missing, when ``../shared`` lacks it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("corpus"):
        for path in map(Path, mark.args):
            if not path.exists():
                pytest.skip(f"{path} is not here (the shared folder beside the clone)")
