"""The module paths pdn had before its subpackages, kept working for one release.

``import pdn.reader`` (any path of :data:`MOVED`) loads the module at its new path, under both
names, and warns with a :class:`DeprecationWarning` that says the new one. pdn itself never
imports these paths (``tests/test_public_api.py``); ``docs/api.md`` says which paths are public.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    # Only for the type: importlib.abc would bring importlib.resources and pathlib into every
    # start-up.
    from importlib.abc import Loader

#: Each old path and the path its module has now.
MOVED: dict[str, str] = {
    "pdn.analysis": "pdn.study.play.analysis",
    "pdn.analysis_record": "pdn.study.play.analysis_record",
    "pdn.annotate": "pdn.writing.annotate",
    "pdn.atomic": "pdn.text.atomic",
    "pdn.batch": "pdn.collections.batch",
    "pdn.builder": "pdn.reading.builder",
    "pdn.convert": "pdn.writing.convert",
    "pdn.copying": "pdn.collections.copying",
    "pdn.criteria": "pdn.collections.criteria",
    "pdn.cutting": "pdn.reading.cutting",
    "pdn.decoding": "pdn.text.decoding",
    "pdn.detection": "pdn.game.detection",
    "pdn.diagram": "pdn.writing.diagram",
    "pdn.draws": "pdn.rules.draws",
    "pdn.duplicates": "pdn.collections.duplicates",
    "pdn.excerpts": "pdn.game.excerpts",
    "pdn.explorer": "pdn.study.explore.tree",
    "pdn.explorer_lines": "pdn.study.explore.lines",
    "pdn.explorer_page": "pdn.view.explorer_page",
    "pdn.explorer_render": "pdn.study.explore.render",
    "pdn.explorer_store": "pdn.study.counts",
    "pdn.export": "pdn.writing.export",
    "pdn.fastpath": "pdn.rules.fastpath",
    "pdn.filenames": "pdn.text.filenames",
    "pdn.filtering": "pdn.collections.filtering",
    "pdn.fixing": "pdn.collections.fixing",
    "pdn.gametype": "pdn.game.gametype",
    "pdn.grammar": "pdn.reading.grammar",
    "pdn.hub": "pdn.study.play.hub",
    "pdn.inplace": "pdn.collections.inplace",
    "pdn.inputs": "pdn.collections.inputs",
    "pdn.json_text": "pdn.text.json_text",
    "pdn.jsonio": "pdn.writing.jsonio",
    "pdn.line_ends": "pdn.text.line_ends",
    "pdn.match": "pdn.study.play.match",
    "pdn.model": "pdn.game.model",
    "pdn.name_typos": "pdn.text.name_typos",
    "pdn.names": "pdn.text.names",
    "pdn.native": "pdn.reading.native",
    "pdn.notation": "pdn.text.notation",
    "pdn.novelty": "pdn.study.novelty",
    "pdn.openings": "pdn.rules.openings",
    "pdn.openings_render": "pdn.writing.openings_render",
    "pdn.parse_problems": "pdn.reading.parse_problems",
    "pdn.parsing": "pdn.reading.parsing",
    "pdn.play": "pdn.study.play",
    "pdn.play.appraisal": "pdn.study.play.appraisal",
    "pdn.play.clock": "pdn.study.play.clock",
    "pdn.play.elo": "pdn.study.play.elo",
    "pdn.play.endgame": "pdn.study.play.endgame",
    "pdn.play.engines": "pdn.study.play.engines",
    "pdn.play.evaluators": "pdn.study.play.evaluators",
    "pdn.play.judgement": "pdn.study.play.judgement",
    "pdn.pool": "pdn.collections.pool",
    "pdn.problems": "pdn.text.problems",
    "pdn.progress": "pdn.text.progress",
    "pdn.raw_edits": "pdn.collections.raw_edits",
    "pdn.reader": "pdn.reading.reader",
    "pdn.recording": "pdn.reading.recording",
    "pdn.replay_report": "pdn.rules.replay_report",
    "pdn.replayer": "pdn.rules.replayer",
    "pdn.replays": "pdn.rules.replays",
    "pdn.report": "pdn.study.tournament",
    "pdn.report.delft": "pdn.study.tournament.delft",
    "pdn.report.marks": "pdn.study.tournament.marks",
    "pdn.report.records": "pdn.study.tournament.records",
    "pdn.report.render": "pdn.study.tournament.render",
    "pdn.report.standings": "pdn.study.tournament.standings",
    "pdn.report.store": "pdn.study.tournament.store",
    "pdn.report.tiebreaks": "pdn.study.tournament.tiebreaks",
    "pdn.results": "pdn.text.results",
    "pdn.rewriting": "pdn.writing.rewriting",
    "pdn.safe_text": "pdn.text.safe_text",
    "pdn.schema": "pdn.text.schema",
    "pdn.selection": "pdn.collections.selection",
    "pdn.splitting": "pdn.collections.splitting",
    "pdn.steps": "pdn.game.steps",
    "pdn.stripping": "pdn.writing.stripping",
    "pdn.tables": "pdn.text.tables",
    "pdn.tokens": "pdn.reading.tokens",
    "pdn.validation": "pdn.rules.validation",
    "pdn.verdicts": "pdn.collections.verdicts",
    "pdn.viewer": "pdn.view.viewer",
    "pdn.visitor": "pdn.game.visitor",
    "pdn.writer": "pdn.writing.writer",
}


class _MovedLoader:
    """Gives the module at its new path for an import of its old one."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} is deprecated: import {self.new} (the same module)",
            DeprecationWarning,
            stacklevel=3,
        )
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module ran when its new path was imported."""


class MovedFinder:
    """Finds the old paths of :data:`MOVED`. First on ``sys.meta_path``: no file is at an old
    path any more, but an editable install of an older checkout could still offer one."""

    @staticmethod
    def find_spec(
        fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """A spec whose loader gives the moved module, for an old path; else None."""
        new = MOVED.get(fullname)
        return None if new is None else ModuleSpec(fullname, cast("Loader", _MovedLoader(new)))


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())
