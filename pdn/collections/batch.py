"""Whole files, game by game: on one process or several, always in the input's order.

The names of three modules, under the one name commands and users import them by:
:mod:`pdn.collections.inputs` (which files a command line names, and the games of each, PDN or
JSON),
:mod:`pdn.collections.pool` (``map_games``: the games of the files through a function, on worker
processes with ``jobs``) and :mod:`pdn.collections.verdicts` (validation's verdict of each game, the
summary
of a run, and their text).

>>> from pathlib import Path
>>> verdicts = list(validate_files([Path("examples/illegal-moves.pdn")]))
>>> len(verdicts), verdicts[0].status
(12, 'illegal')
"""

from __future__ import annotations

from .inputs import (
    JSON_SUFFIXES,
    PDN_SUFFIX,
    Input,
    display_name,
    input_files,
    is_json,
    iter_games,
    named_games,
    page_name,
)
from .pool import (
    BATCH_SIZE,
    PARALLEL_BYTES,
    WorkerDiedError,
    default_jobs,
    map_games,
    process_pool,
    usable_cores,
    worker_count,
)
from .verdicts import (
    Summary,
    Verdict,
    validate_files,
    verdict_of,
    verdict_of_report,
    verdict_text,
)

__all__ = [
    "BATCH_SIZE",
    "JSON_SUFFIXES",
    "PARALLEL_BYTES",
    "PDN_SUFFIX",
    "Input",
    "Summary",
    "Verdict",
    "WorkerDiedError",
    "default_jobs",
    "display_name",
    "input_files",
    "is_json",
    "iter_games",
    "map_games",
    "named_games",
    "page_name",
    "process_pool",
    "usable_cores",
    "validate_files",
    "verdict_of",
    "verdict_of_report",
    "verdict_text",
    "worker_count",
]
