"""What validation says of each game (:class:`Verdict`), of a run (:class:`Summary`), and
their text: small records that travel between processes.

>>> from pathlib import Path
>>> verdicts = list(validate_files([Path("examples/illegal-moves.pdn")]))
>>> len(verdicts), verdicts[0].status
(12, 'illegal')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial

from pdn.game.detection import source_sentence
from pdn.game.gametype import first_mover
from pdn.game.model import Game
from pdn.reading.recording import Recorded
from pdn.rules.replays import replay_of
from pdn.rules.validation import ERROR_STATUSES, Report
from pdn.text.problems import Problem
from pdn.text.safe_text import printable
from pdn.text.schema import SCHEMA

from .inputs import Input
from .pool import map_recorded


@dataclass(slots=True)
class Verdict:
    """What validation says of one game, small enough to send between processes."""

    file: str
    index: int
    line: int
    tags: list[tuple[str, str]]
    status: str
    problems: list[Problem]
    first_mover: str = "B"  # "B" or "W": whose name the heading shows first
    variant: str | None = None  # the rules the game was replayed under (None: not replayed)
    rules_title: str = ""  # "Russian draughts", or what the GameType was when unchecked
    rules_source: str = "default"  # see pdn.game.detection.source_sentence
    rules_evidence: str = ""

    def rules_text(self) -> str:
        """The rules and where they came from, in one line: ``Czech draughts (GameType '29')``."""
        why = self.rules_evidence or source_sentence(self.rules_source)
        return f"{self.rules_title or 'no rules'} ({why})"

    @property
    def has_errors(self) -> bool:
        """Whether the game has an error (syntax or an illegal move)."""
        return self.status in ERROR_STATUSES

    def tag(self, name: str) -> str | None:
        """The first value of a tag, or None."""
        return next((value for key, value in self.tags if key == name), None)

    def to_dict(self) -> dict[str, object]:
        """The JSON record (``docs/json.md``): file, index, line, tags, status and problems."""
        return {
            "schema": SCHEMA,
            "type": "verdict",
            "file": self.file,
            "index": self.index,
            "line": self.line,
            "tags": [list(pair) for pair in self.tags],
            "status": self.status,
            "rules": {
                "variant": self.variant,
                "title": self.rules_title,
                "source": self.rules_source,
                "evidence": self.rules_evidence,
            },
            "problems": [p.to_dict() for p in self.problems],
        }


def verdict_of(game: Game | Recorded, file: str, variant: str | None = None) -> Verdict:
    """Validate one game, the next of ``file`` (the model, or read for its replay alone:
    :mod:`pdn.reading.recording`), and keep what a report needs (the earlier games of its file, in
    this process, break a tie between rules that all replay it: see :class:`Replays`)."""
    return verdict_of_report(replay_of(game, file, variant), file)


def verdict_of_report(report: Report, file: str) -> Verdict:
    """The :class:`Verdict` of a game's report (:func:`pdn.rules.replays.replay_of` gives the
    report)."""
    game = report.game
    rules = report.variant
    return Verdict(
        file=file,
        index=game.index,
        line=game.line,
        tags=game.tags.items(),
        status=report.status,
        problems=report.all_problems,
        first_mover=first_mover(rules.name if rules else game.variant, game.game_type),
        variant=rules.name if rules else None,
        rules_title=rules.title if rules else _unchecked_title(game),
        rules_source=report.rules_source,
        rules_evidence=report.rules_evidence,
    )


def _unchecked_title(game: Game) -> str:
    if game.game_type is not None and game.variant is None:
        return f"GameType {game.game_type.number} (no draughts rules for it)"
    return f"{game.variant or 'unknown'} (rules not implemented)"


def validate_files(
    sources: Iterable[Input],
    *,
    variant: str | None = None,
    jobs: int = 1,
    encoding: str | None = None,
) -> Iterator[Verdict]:
    """Validate every game of every source, in order (see :func:`map_games` for ``jobs`` and
    ``encoding``)."""
    return map_recorded(partial(verdict_of, variant=variant), sources, jobs=jobs, encoding=encoding)


@dataclass(slots=True)
class Summary:
    """Counts over a run of verdicts."""

    games: int = 0
    clean: int = 0
    with_errors: int = 0
    unchecked: int = 0
    #: Problems per (code, severity): a code's severity can differ from problem to problem.
    by_code_severity: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: Games per (rules title, source): what the run was checked under.
    by_rules: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, verdict: Verdict) -> None:
        """Count one more game."""
        self.games += 1
        if verdict.has_errors:
            self.with_errors += 1
        elif verdict.status == "unchecked":
            self.unchecked += 1
        else:
            self.clean += 1
        self.by_code_severity.update((p.code, p.severity) for p in verdict.problems)
        self.by_rules[(verdict.rules_title, verdict.rules_source)] += 1

    @property
    def by_code(self) -> Counter[str]:
        """Problems per code, whatever their severity."""
        return self._counted(lambda code, severity: code)

    @property
    def by_severity(self) -> Counter[str]:
        """Problems per severity."""
        return self._counted(lambda code, severity: severity)

    def _counted(self, key: Callable[[str, str], str]) -> Counter[str]:
        counts: Counter[str] = Counter()
        for (code, severity), n in self.by_code_severity.items():
            counts[key(code, severity)] += n
        return counts

    def to_dict(self) -> dict[str, object]:
        """The JSON record of the counts."""
        return {
            "schema": SCHEMA,
            "type": "summary",
            "games": self.games,
            "clean": self.clean,
            "with_errors": self.with_errors,
            "unchecked": self.unchecked,
            "by_code": dict(sorted(self.by_code.items())),
            "by_severity": dict(sorted(self.by_severity.items())),
            "rules": [
                {"title": title, "source": source, "games": games}
                for (title, source), games in sorted(self.by_rules.items())
            ],
        }

    def text(self, *, least: str = "notice") -> str:
        """A short human summary. The counts by code are of the problems at least as serious
        as ``least`` (what the report showed); a line says how many others were hidden."""
        parts = [f"{self.games} games: {self.clean} clean, {self.with_errors} with errors"]
        if self.unchecked:
            parts.append(f"{self.unchecked} not checked (no rules for their variant)")
        lines = [", ".join(parts)]
        rules = ", ".join(
            f"{title} {games} ({source_sentence(source)})"
            for (title, source), games in sorted(self.by_rules.items(), key=lambda kv: -kv[1])
        )
        if rules:
            lines.append(f"rules: {rules}")
        limit = _SEVERITY_RANK[least]
        shown: Counter[str] = Counter()
        for (code, severity), n in self.by_code_severity.items():
            if _SEVERITY_RANK[severity] <= limit:
                shown[code] += n
        if shown:
            codes = ", ".join(f"{code} {n}" for code, n in sorted(shown.items()))
            lines.append(f"by code: {codes}")
        hidden = [
            f"{n} {severity}{'s' if n > 1 else ''}"
            for severity, n in sorted(
                self.by_severity.items(), key=lambda kv: _SEVERITY_RANK[kv[0]]
            )
            if _SEVERITY_RANK[severity] > limit
        ]
        if hidden:
            lines.append(f"not shown: {', '.join(hidden)} (--notices shows them)")
        return "\n".join(lines)


_SEVERITY_RANK = {"error": 0, "warning": 1, "notice": 2}


def verdict_text(verdict: Verdict, *, least: str = "warning") -> str:
    """The text report of one game: a heading with its players and event, the rules it was
    replayed under and where they came from, then one ``file:line:col: code: message`` line
    per problem at least as serious as ``least``. Empty when there is nothing to show."""
    shown = [p for p in verdict.problems if _SEVERITY_RANK[p.severity] <= _SEVERITY_RANK[least]]
    if not shown:
        return ""
    # The first mover first, as the result is read (Black in English, White in Russian...).
    sides = ("Black", "White") if verdict.first_mover == "B" else ("White", "Black")
    first, second = (verdict.tag(side) or "?" for side in sides)
    event = verdict.tag("Event")
    heading = f"{verdict.file}: game {verdict.index} (line {verdict.line}): {first} vs {second}"
    if event:
        heading += f", {event}"
        if verdict.tag("Round") not in (None, "", "?", "-"):
            heading += f", round {verdict.tag('Round')}"
    lines = [heading, f"  rules: {verdict.rules_text()}"]
    for p in shown:
        where = f"{verdict.file}:{p.line or verdict.line}:{p.column or 1}"
        detail = f" [{p.where}]" if p.ply is not None else ""
        lines.append(f"  {where}: {p.code}: {p.message}{detail}")
        if p.legal and p.code not in ("missed-capture",):
            lines.append(f"      legal here: {' '.join(p.legal)}")
    # Tag values, file names and quoted text reach a terminal: their controls are shown.
    return "\n".join(printable(line) for line in lines)
