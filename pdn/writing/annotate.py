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

The same annotations can be added on the way out instead, without touching the model:
``game.accept(Annotator(PdnWriter(), annotations_of(game)))`` writes the annotated text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from mypy_extensions import mypyc_attr

from pdn.engine import Position, pickle_by_fields
from pdn.game.model import Comment, Game
from pdn.game.steps import Step
from pdn.game.visitor import SKIP, GameFilter, GameStart, GameVisitor, Skip
from pdn.reading.recording import Recorded, game_of
from pdn.rules.openings import classify
from pdn.rules.validation import Report, validate
from pdn.text.notation import move_texts
from pdn.text.problems import Problem

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class AnnotateOptions:
    """Which per-move comments to add (tags are always added)."""

    fen: bool = False
    forced: bool = False
    problems: bool = False


pickle_by_fields(AnnotateOptions)


@dataclass(slots=True)
class Annotations:
    """What annotation adds to a game: tags (only those it lacks), and comments after moves,
    keyed by the move's place in written order (0 for the first move or setup visited)."""

    tags: list[tuple[str, str]] = field(default_factory=list)
    comments: dict[int, list[Comment]] = field(default_factory=dict)

    def apply(self, game: Game) -> None:
        """Add the annotations to ``game`` in place."""
        for name, value in self.tags:
            game.tags.add(name, value)
        if self.comments:
            for index, (node, _) in enumerate(game.walk()):
                for comment in self.comments.get(index, ()):
                    node.comments_after.append(comment)


def annotations_of(
    game: Game | Recorded,
    report: Report | None = None,
    options: AnnotateOptions = AnnotateOptions(),
) -> Annotations:
    """The annotations of ``game`` (its validation report is computed when not given).

    ``game`` may be read whole for its replay (:func:`pdn.reading.recording.record`), with steps for
    the first :data:`~pdn.rules.openings.BALLOT_PLIES` plies at least (the opening's), when no
    comment is asked for: the comments need every step."""
    report = validate(game) if report is None else report
    tags = _tags(game, report)
    model = game_of(game)
    found = Annotations(tags=[pair for pair in tags if pair[0] not in model.tags])
    if options.fen or options.forced or options.problems:
        if isinstance(game, Recorded) and game.runs is not None:
            raise ValueError("comments need every step: give the model")
        found.comments = _comments(report, options)
    return found


def annotate(
    game: Game,
    report: Report | None = None,
    options: AnnotateOptions = AnnotateOptions(),
) -> Report:
    """Add tags and the chosen comments to ``game`` in place; returns its validation report."""
    report = validate(game) if report is None else report
    annotations_of(game, report, options).apply(game)
    return report


def _plies(game: Game | Recorded, report: Report) -> int:
    """The moves of the main line the replay reached (one that stopped it included)."""
    if isinstance(game, Recorded) and game.runs is not None:
        # Replayed from the reader's runs, with steps for the first plies only.
        if report.complete:
            return len(game.mainline_moves())
        # Stopped (rare: an illegal game): the model's replay under the same rules says where.
        report = validate(game.model(), report.variant)
    return sum(1 for step in report.mainline_steps() if step.node.move is not None)


def _tags(game: Game | Recorded, report: Report) -> list[tuple[str, str]]:
    if report.variant is None:
        return []
    tags = [("PlyCount", str(_plies(game, report)))]
    if report.variant.name == "english":
        opening = classify(report.game, report)
        if opening.kind in ("ballot", "eleven-man", "other"):
            tags.append(("Opening", opening.label))
    final = report.final
    if final is not None and report.start is not None and final != report.start:
        tags.append(("FinalFEN", final.fen()))
    if final is not None and report.complete and final.is_game_over():
        tags.append(("Termination", _termination(final)))
    return tags


def _termination(final: Position) -> str:
    side = final.turn.label
    if any(piece.color is final.turn for piece in final.pieces().values()):
        return f"{side} has no legal move"
    return f"{side} has no pieces left"


def _comments(report: Report, options: AnnotateOptions) -> dict[int, list[Comment]]:
    """The comments to add, keyed by the written-order place of the move they follow."""
    problems_at: dict[tuple[int | None, int | None], Problem] = {}
    if options.problems:
        for found in report.problems:
            if found.ply is not None and found.severity == "error":
                problems_at[(found.line, found.column)] = found
    added: dict[int, list[Comment]] = {}
    for step in report.steps:
        node = step.node
        if node.move is None:
            continue
        comments: list[Comment] = []
        if options.forced and step.move is not None:
            forced = _forced(step, report)
            if forced is not None:
                comments.append(forced)
        problem = problems_at.get((node.line, node.column))
        if problem is not None:
            legal = f"; legal: {' '.join(problem.legal)}" if problem.legal else ""
            comments.append(Comment(f"illegal ({problem.code}): {problem.message}{legal}"))
        if options.fen and step.after is not None:
            comments.append(Comment(f"[%fen {step.after.fen()}]"))
        if comments:
            added[step.order] = comments
    return added


def _forced(step: Step, report: Report) -> Comment | None:
    legal = step.before.legal_moves(merge_duplicates=True)
    if len(legal) != 1 or report.variant is None:
        return None
    kind = "forced jump" if legal[0].is_capture else "only move"
    (text,) = move_texts(legal, report.variant)
    return Comment(f"{kind} ({text})" if kind == "forced jump" else kind)


@mypyc_attr(allow_interpreted_subclasses=True)
class Annotator(GameFilter[T]):
    """Passes a game's events on to ``inner`` with the annotations added: the new tags after
    the game's own, each added comment after what its move already has."""

    def __init__(self, inner: GameVisitor[T], annotations: Annotations) -> None:
        super().__init__(inner)
        self.annotations = annotations

    def begin_game(self, start: GameStart) -> None:
        self.count = 0
        self.pending: Sequence[Comment] = ()  # for the move visited last
        # Depth inside a variation ``inner`` skips: its events are still received here (so
        # that moves keep being counted) but not passed on.
        self.skipping = 0
        self.inner.begin_game(start)

    def end_tags(self) -> Skip | None:
        for name, value in self.annotations.tags:
            self.inner.visit_tag(name, value)
        return self.inner.end_tags()

    def visit_comment(self, comment: Comment) -> None:
        if not self.skipping:
            self.inner.visit_comment(comment)

    def _flush(self) -> None:
        for comment in self.pending:
            self.inner.visit_comment(comment)
        self.pending = ()

    def _next(self) -> bool:
        """Count one more move; whether it is passed on."""
        self._flush()
        self.count += 1
        if self.skipping:
            return False
        self.pending = self.annotations.comments.get(self.count - 1, ())
        return True

    def visit_move(
        self,
        move: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        if self._next():
            self.inner.visit_move(move, number, before, line, column)

    def visit_moves(
        self,
        moves: list[str],
        numbers: list[str | None],
        before: Sequence[Comment],
        lines: list[int],
        columns: list[int],
    ) -> None:
        if self.skipping or self.annotations.comments:
            GameVisitor.visit_moves(self, moves, numbers, before, lines, columns)  # one by one
            return
        # No comment to add: the moves go on in one call, counted.
        self._flush()
        self.count += len(moves)
        self.inner.visit_moves(moves, numbers, before, lines, columns)

    def visit_setup(
        self,
        fen: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        if self._next():
            self.inner.visit_setup(fen, number, before, line, column)

    def visit_step(self, step: Step) -> None:
        if not self.skipping:
            self.inner.visit_step(step)

    def visit_strength(self, strength: str) -> None:
        if not self.skipping:
            self.inner.visit_strength(strength)

    def visit_nag(self, nag: int) -> None:
        if not self.skipping:
            self.inner.visit_nag(nag)

    def begin_variation(self) -> Skip | None:
        self._flush()
        if self.skipping or self.inner.begin_variation() is SKIP:
            self.skipping += 1
        return None

    def end_variation(self) -> None:
        self._flush()
        if self.skipping:
            self.skipping -= 1
        else:
            self.inner.end_variation()

    def visit_terminator(self, terminator: str) -> None:
        self._flush()
        self.inner.visit_terminator(terminator)

    def end_game(self) -> None:
        self._flush()
        self.inner.end_game()
