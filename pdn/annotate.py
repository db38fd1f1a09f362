"""Adding what replay knows to a game: tags, and optionally a comment at each move.

Nothing already in the game changes: tags are only added when absent, comments are appended
after what the move already has, and moves keep the text they were written with.

Tags added: ``PlyCount`` (mainline plies), ``Opening`` (the ACF ballot or 11-man ballot of an
English game), ``FinalFEN`` (the final position, when it differs from the start) and
``Termination`` (when the final position decides the game). The final position goes into
``FinalFEN`` and not into ``FEN``, because ``FEN`` is PDN's *setup* tag: a reader would start the
game from it.

>>> import pdn
>>> game = pdn.parse_game('[Event "x"]\\n1. 11-15 22-18 2. 15x22 25x18 *')
>>> _ = annotate(game)
>>> game.tags["PlyCount"], game.tags["Opening"]
('4', 'ACF 120: 11-15 22-18 15x22')
"""

from __future__ import annotations

from dataclasses import dataclass

from pdn.engine import Position

from .model import Comment, Game, Node
from .notation import move_texts
from .openings import classify
from .problems import Problem
from .validation import Report, Step, validate


@dataclass(frozen=True, slots=True)
class AnnotateOptions:
    """Which per-move comments to add (tags are always added)."""

    fen: bool = False
    forced: bool = False
    problems: bool = False


def annotate(
    game: Game,
    report: Report | None = None,
    options: AnnotateOptions = AnnotateOptions(),
) -> Report:
    """Add tags and the chosen comments to ``game`` in place; returns its validation report."""
    report = validate(game) if report is None else report
    _add_tags(game, report)
    if options.fen or options.forced or options.problems:
        _add_comments(report, options)
    return report


def _add_tag(game: Game, name: str, value: str) -> None:
    if name not in game.tags:
        game.tags.add(name, value)


def _add_tags(game: Game, report: Report) -> None:
    plies = sum(1 for step in report.mainline_steps() if step.node.move is not None)
    if report.variant is None:
        return
    _add_tag(game, "PlyCount", str(plies))
    if report.variant.name == "english":
        opening = classify(game, report)
        if opening.kind in ("ballot", "eleven-man", "other"):
            _add_tag(game, "Opening", opening.label)
    final = report.final
    if final is not None and report.start is not None and final != report.start:
        _add_tag(game, "FinalFEN", final.fen())
    if final is not None and report.complete and not final.legal_moves():
        _add_tag(game, "Termination", _termination(final))


def _termination(final: Position) -> str:
    side = final.turn.label
    if any(piece.color is final.turn for piece in final.pieces().values()):
        return f"{side} has no legal move"
    return f"{side} has no pieces left"


def _add_comments(report: Report, options: AnnotateOptions) -> None:
    problems_at: dict[tuple[int | None, int | None], Problem] = {}
    if options.problems:
        for found in report.problems:
            if found.ply is not None and found.severity == "error":
                problems_at[(found.line, found.column)] = found
    for step in report.steps:
        node = step.node
        if node.move is None:
            continue
        if options.forced and step.move is not None:
            _note_forced(node, step, report)
        problem = problems_at.get((node.line, node.column))
        if problem is not None:
            legal = f"; legal: {' '.join(problem.legal)}" if problem.legal else ""
            node.comments_after.append(
                Comment(f"illegal ({problem.code}): {problem.message}{legal}")
            )
        if options.fen and step.after is not None:
            node.comments_after.append(Comment(f"[%fen {step.after.fen()}]"))


def _note_forced(node: Node, step: Step, report: Report) -> None:
    legal = step.before.legal_moves(merge_duplicates=True)
    if len(legal) != 1 or report.variant is None:
        return
    kind = "forced jump" if legal[0].is_capture else "only move"
    (text,) = move_texts(legal, report.variant)
    node.comments_after.append(Comment(f"{kind} ({text})" if kind == "forced jump" else kind))
