"""pdn's build backend: setuptools', plus what the accelerated build needs when asked for.

``PDN_COMPILE=1 pip install .`` compiles the modules of :data:`COMPILED` with mypyc (see
``setup.py``). mypy (which brings mypyc) and pdn's own dependencies (whose types mypy reads)
are then build requirements; a plain build downloads neither.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the backend's other hooks, unchanged)

#: The modules compiled: the reader and the model it builds, the replay and what it calls on
#: each ply, and the writers of PDN and JSON (``json_text``: the JSON text of every record the
#: schema's reader and writer handle). The classes users derive from (the visitors, the
#: model's) are marked ``mypyc_attr(allow_interpreted_subclasses=True)``. The reports, the CLI
#: and the package's entry points stay Python: compiling report, duplicates and openings saved
#: 11% of ``pdn report`` and nothing of ``openings``, and raised their peak memory on OCA 2.0
#: from 42-49 MB to 62-69 MB.
COMPILED = (
    "pdn_engine.board",
    "pdn_engine.variants",
    "pdn_engine.position",
    "pdn_engine.movegen",
    "pdn_engine.build",
    "pdn_engine.native",
    "pdn_engine.perft",
    "pdn_engine.search",
    "pdn_engine.acceptance",
    "pdn_engine.faults",
    "pdn_engine.wording",
    "pdn_engine.diagnose",
    "pdn_engine.lookup",
    "pdn_engine.fen",
    "pdn_engine.pickling",
    "pdn_engine.endgame",
    "pdn.reading.cutting",
    "pdn.reading.tokens",
    "pdn.reading.parse_problems",
    "pdn.reading.parsing",
    "pdn.game.model",
    "pdn.reading.builder",
    "pdn.reading.recording",
    "pdn.reading.native",
    "pdn.rules.fastpath",
    "pdn.rules.draws",
    "pdn.game.steps",
    "pdn.rules.replay_report",
    "pdn.rules.replayer",
    "pdn.rules.validation",
    "pdn.text.notation",
    "pdn.writing.rewriting",
    "pdn.writing.writer",
    "pdn.text.json_text",
    "pdn.writing.jsonio",
    "pdn.writing.annotate",
)

#: The source root of each package (pyproject.toml's ``packages.find``): a module's file is
#: ``ROOTS[package] / package / module.py``.
ROOTS = {"pdn": ".", "pdn_engine": "engine", "pdn_grammars": "grammars"}


def source_of(module: str) -> Path:
    """The file of a module named as it installs, relative to the project's root.

    >>> source_of("pdn_engine.movegen").as_posix()
    'engine/pdn_engine/movegen.py'
    """
    return Path(ROOTS[module.partition(".")[0]], *module.split(".")).with_suffix(".py")


#: The mypy (and so mypyc) the accelerated build is made and tested with: the lint extra's.
MYPYC = "mypy==2.4.1"


def compiling() -> bool:
    """Whether this build compiles (``PDN_COMPILE`` set to 1, true or yes)."""
    return os.environ.get("PDN_COMPILE", "").strip().lower() in {"1", "true", "yes"}


def compile_requirements() -> list[str]:
    """What compiling needs beside setuptools: mypy, and pdn's own dependencies, so that mypy
    sees their types (a first install builds before it installs them)."""
    if not compiling():
        return []
    from setuptools.config.pyprojecttoml import read_configuration

    project = read_configuration(Path(__file__).resolve().parents[1] / "pyproject.toml")
    return [MYPYC, *project["project"]["dependencies"]]


def get_requires_for_build_wheel(config_settings: dict[str, object] | None = None) -> list[str]:
    """setuptools' requirements, and those of compiling when asked for."""
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *compile_requirements()]


def get_requires_for_build_editable(
    config_settings: dict[str, object] | None = None,
) -> list[str]:
    """As for a wheel: an editable install can be compiled too (the .so files land in place)."""
    return [
        *_setuptools.get_requires_for_build_editable(config_settings),
        *compile_requirements(),
    ]
