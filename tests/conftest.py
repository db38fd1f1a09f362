"""Hypothesis runs derandomised everywhere: a failure in CI is the same failure on any machine
(``HYPOTHESIS_PROFILE=explore`` draws new examples, to look for more)."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
