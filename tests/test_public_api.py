"""The public API is explicit: ``pdn.__all__`` and each subpackage's ``__all__`` (its public
modules) are what users import, checked against a snapshot so that a change to them is a
decision, not an accident; and the module paths before the subpackages still import, with a
``DeprecationWarning``, for a release, while pdn itself never uses them."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

import pytest
from test_import_contract import all_imports

from pdn.moved import MOVED

#: Each package of the API and the names it makes public.
SNAPSHOT: dict[str, list[str]] = {
    "pdn": [
        "CODES",
        "SKIP",
        "Comment",
        "Game",
        "GameBuilder",
        "GameVisitor",
        "HeadersOnly",
        "Node",
        "PdnWriter",
        "Problem",
        "RawGame",
        "Report",
        "Tags",
        "__version__",
        "accept_raw",
        "analysis",
        "engine",
        "explorer",
        "novelty",
        "parse_game",
        "parse_games",
        "parse_raw",
        "read_game",
        "read_games",
        "read_headers",
        "split_games",
        "validate",
        "write_game",
        "write_games",
    ],
    "pdn.text": ["problems", "results", "names", "notation"],
    "pdn.game": ["model", "visitor", "excerpts", "gametype"],
    "pdn.reading": ["reader", "recording", "parsing", "builder", "cutting"],
    "pdn.rules": ["validation", "replays", "openings", "draws"],
    "pdn.writing": ["writer", "jsonio", "diagram", "export", "convert", "annotate", "stripping"],
    "pdn.collections": ["batch", "selection", "duplicates", "splitting", "fixing", "inplace"],
    "pdn.study": ["explore", "novelty", "tournament", "play"],
    "pdn.study.explore": ["tree", "lines", "render"],
    "pdn.study.play": [
        "analysis",
        "analysis_record",
        "appraisal",
        "endgame",
        "engines",
        "evaluators",
        "hub",
        "judgement",
        "match",
    ],
    "pdn.view": ["viewer", "explorer_page"],
}


@pytest.mark.parametrize("package", sorted(SNAPSHOT))
def test_each_package_makes_public_what_the_snapshot_says(package: str) -> None:
    module = importlib.import_module(package)
    assert sorted(module.__all__) == sorted(SNAPSHOT[package])
    for name in module.__all__:  # each public name is there when asked for
        assert getattr(importlib.import_module(package), name, None) is not None or (
            importlib.import_module(f"{package}.{name}") is not None
        )


def test_a_package_costs_nothing_to_import() -> None:
    # Importing a layer's package loads none of its modules: they load when asked for.
    packages = sorted(set(SNAPSHOT) - {"pdn"})
    code = (
        f"import sys\nimport {', '.join(packages)}\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('pdn.'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == sorted([*packages, "pdn.moved"])


@pytest.mark.parametrize("old", ["pdn.reader", "pdn.jsonio", "pdn.report", "pdn.report.records"])
def test_an_old_path_gives_the_same_module_and_warns(old: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=MOVED[old].replace(".", r"\.")):
        module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])


def test_every_old_path_still_imports() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for old, new in MOVED.items():
            assert importlib.import_module(old) is importlib.import_module(new), old


def test_pdn_never_imports_an_old_path() -> None:
    wrong = [
        f"{found.path}:{found.line}: {found.target}"
        for found in all_imports()
        if found.target in MOVED or any(f"{found.target}.{name}" in MOVED for name in found.names)
    ]
    assert not wrong, "\n".join(wrong)
