"""The read-only shared folder beside the clone (``../shared``) and the mark of the tests that
read it.

``../shared`` holds the real-world corpus (``corpus/``) and the reference data and notes
(``reference/``); a fresh clone has neither. A test that reads it carries
``needs_shared(path, ...)``: that puts it in the ``corpus`` tier (deselected by default, see
``pyproject.toml``) and ``conftest.py`` skips it, naming the missing path, when a path it names
is absent. The core behaviour such a test checks is also tested on the bundled fixtures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

#: ``../shared`` as seen from the clone root (not resolved: a linked folder keeps its name).
SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"
REFERENCE = SHARED / "reference"
REFERENCE_DATA = REFERENCE / "data"
#: OCA 2.0, the 22,621 English games most corpus tests read.
OCA = CORPUS / "mzuluaga__checkers" / "OCA_2.0.pdn"
#: wiegerw/pdn's test games, sorted into ``succeed`` and ``fail``.
WIEGERW_GAMES = CORPUS / "wiegerw__pdn" / "games"


def needs_shared(*paths: Path) -> pytest.MarkDecorator:
    """The mark of a test that reads ``paths`` (``SHARED`` when none is named): the ``corpus``
    tier, and a clean skip when one of them is missing."""
    return pytest.mark.corpus(*(paths or (SHARED,)))
