"""The replay of every line of a game under one variant's rules.

:func:`replay` walks the move tree depth-first from the start position (the variant's, or the
game's FEN), matches each written move to one legal move (the fast path first, then
``engine.diagnose``), and records each step and each problem in a
:class:`~pdn.replay_report.Report`; it never guesses rules (:func:`pdn.validation.validate`
does, trying several). A variation is replayed before the line that goes on after it.

>>> import pdn
>>> report = replay(pdn.parse_game("1. 11-15 (9-13) 23-19 *"), "english")
>>> [(step.node.move, step.mainline) for step in report.steps]
[('9-13', False), ('11-15', True), ('23-19', True)]
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from pdn.engine import (
    FenError,
    Move,
    Position,
    Variant,
    diagnose,
    get_variant,
)

from .draws import DrawWatch, draw_rules, unwatched_sentence
from .fastpath import fast_path
from .gametype import first_colour
from .model import Game, Node
from .notation import NotationError, move_texts, parse_move, resolve_squares
from .problems import Problem
from .replay_report import Report
from .results import Outcome, parse_result
from .steps import Step


def replay(game: Game, variant: Variant | str | None) -> Report:
    """Every line of ``game`` replayed under ``variant`` (a name, or ``None``: the reader's
    guess, else English); a game whose rules pdn lacks gets an ``unsupported-variant`` problem
    and no steps. The report's ``rules_source`` is left for the caller to say."""
    chosen = _choose_variant(game, variant)
    report = Report(game=game, variant=chosen)
    if chosen is None:
        name = variant if isinstance(variant, str) else game.variant
        if name is None and game.game_type is not None:
            what = f"GameType {game.game_type.number} is no variant pdn has rules for"
        else:
            what = f"the rules of {name or 'this variant'} are not implemented"
        report.problems.append(
            Problem(
                "unsupported-variant",
                f"{what}; moves not checked",
                line=game.line,
                column=1,
            )
        )
        return report
    start = _start_position(game, chosen, report)
    if start is None:
        return report
    report.start = start
    try:
        _Replayer(report, chosen).run(start)
        _check_result(report)
    except Exception as exc:  # one game's bug must not stop a whole archive
        report.complete = False
        report.problems.append(
            Problem(
                "internal-error",
                f"pdn could not finish replaying this game ({type(exc).__name__}: {exc}); "
                "please report it with the game",
                line=game.line,
                column=1,
            )
        )
    return report


def _choose_variant(game: Game, variant: Variant | str | None) -> Variant | None:
    if isinstance(variant, Variant):
        return variant
    if variant is None and game.variant is None and game.game_type is not None:
        return None  # a GameType number with no rules here (0 is chess): never a guess
    name = variant if variant is not None else (game.variant or "english")
    try:
        return get_variant(name)
    except KeyError:
        return None


def _start_position(game: Game, variant: Variant, report: Report) -> Position | None:
    """The position the game starts from: its FEN (whose side to move decides), else the
    variant's start with the side to move that :func:`pdn.gametype.first_mover` says (a start
    colour written in the GameType, ``"20,B,10,10,N2,0"``, wins over the variant's, with a
    ``start-colour`` notice)."""
    fen = game.tags.get("FEN")
    if not fen:
        start = Position.start(variant)
        written = game.game_type
        if written is None or not written.start or written.expanded:
            return start
        first = first_colour(variant, game.game_type)
        if first is start.turn:
            return start
        report.problems.append(
            Problem(
                "start-colour",
                f"GameType {written.text.strip()!r} says {first.label} moves first, the rules "
                f"of {variant.title} say {start.turn.label}: the game is replayed from the start "
                f"position with {first.label} to move",
                line=game.line,
                column=1,
            )
        )
        return start.with_turn(first)
    try:
        return Position.from_fen(fen, variant)
    except FenError as exc:
        report.problems.append(
            Problem("bad-fen", f"FEN tag {fen!r}: {exc}", line=game.line, column=1)
        )
        report.complete = False
        return None


#: A line of play to replay before the one that hands it over goes on (see _Replayer.run); it
#: ends with how many nodes of the game it covered.
_Task = Generator[Any, "int | None", int]


def _subtree_size(node: Node) -> int:
    """How many nodes ``node`` and everything below it hold."""
    total = 0
    pending = [node]
    while pending:
        total += 1
        pending.extend(pending.pop().variations)
    return total


class _Replayer:
    """Walks the move tree depth-first, carrying the position along each line."""

    def __init__(self, report: Report, variant: Variant) -> None:
        self.report = report
        self.variant = variant
        self.fast = fast_path(variant)

    def run(self, start: Position) -> None:
        root = self.report.game.root
        # The lines are generators that hand their variations back to this loop, which runs
        # them first: variations of any depth are replayed without recursion, in written order.
        # Each gives back how many nodes it covered, for the written-order place of what
        # follows it (Step.order).
        stack: list[Generator[_Task, int | None, int]] = [
            self._line(root, start, ply=1, mainline=True, path=(), order=0)
        ]
        value: int | None = None
        while stack:
            try:
                task = stack[-1].send(value)
            except StopIteration as done:
                stack.pop()
                value = done.value
                continue
            value = None  # a generator starts with None
            stack.append(task)

    def _line(
        self,
        parent: Node,
        position: Position,
        ply: int,
        mainline: bool,
        path: tuple[int, ...],
        order: int,
    ) -> Generator[_Task, int | None, int]:
        """Replay the continuation of ``parent``, whose first node has the place ``order`` in
        written order; returns how many nodes it covered (all those below ``parent``).  The
        main line leaves the last position it reached (before the move that stopped it, when
        one did) in ``report.final``."""
        # Each federation's own draw rules, on the main line (pdn.draws).
        rules = draw_rules(self.variant) if mainline else None
        watch = DrawWatch(rules, position) if rules is not None else None
        # Where none are watched, the first king move of the main line (before it no draw
        # rule of any federation can apply) says so, once.
        unwatched = mainline and rules is None
        report = self.report
        problems, steps = report.problems, report.steps
        fast = self.fast.match
        first = order
        while parent.variations:
            variations = parent.variations
            main = variations[0]
            # In written order the alternatives to ``main`` come after it, each with its
            # whole line, and then what follows ``main``.
            following = order + 1
            for number in range(1, len(variations)):
                covered = yield self._line_from(
                    variations[number], position, ply, (*path, number), following
                )
                assert covered is not None
                following += covered
            text = main.move
            played = fast(position, text) if text is not None and main.setup is None else None
            move: Move | None
            if played is not None:
                # The common case, a legal move as the engine writes it, inline: it runs on
                # every ply of an archive.
                move, after = played
                steps.append(Step(main, ply, mainline, position, move, after, order))
            else:
                found = self._step(main, position, ply, mainline, path, order)
                if found is None:
                    # The line stops here; what it reached still decides whether the game
                    # was over.
                    if mainline:
                        report.complete = False
                        report.final = position
                    return following - first + _subtree_size(main) - 1
                after, move = found, steps[-1].move
            if text is not None:
                if watch is not None:
                    messages = watch.update(move, after, ply)
                    if messages:
                        code = "draw-claimable" if watch.rules.claim else "draw-rule"
                        for message in messages:
                            problems.append(
                                Problem(
                                    code,
                                    message,
                                    line=main.line,
                                    column=main.column,
                                    ply=ply,
                                    move=text,
                                )
                            )
                ply += 1
            elif watch is not None:
                watch = DrawWatch(watch.rules, after)  # a setup starts the counts afresh
            if unwatched and move is not None and move.king and not move.captures:
                unwatched = False
                problems.append(
                    Problem(
                        "draws-unwatched",
                        f"{unwatched_sentence(self.variant)} (first king move here)",
                        line=main.line,
                        column=main.column,
                        ply=ply - 1,
                        move=text,
                    )
                )
            position = after
            parent = main
            order = following
        if mainline:
            report.final = position
        return order - first

    def _line_from(
        self, first: Node, position: Position, ply: int, path: tuple[int, ...], order: int
    ) -> Generator[_Task, int | None, int]:
        """Replay a variation whose first move is ``first``, an alternative at ``position``
        with the place ``order`` in written order; returns how many nodes it covered (all of
        ``first``'s line)."""
        after = self._step(first, position, ply, False, path, order)
        if after is None:
            return _subtree_size(first)
        covered = yield self._line(
            first, after, ply + (first.move is not None), False, path, order + 1
        )
        assert covered is not None
        return 1 + covered

    def _step(
        self,
        node: Node,
        position: Position,
        ply: int,
        mainline: bool,
        path: tuple[int, ...],
        order: int,
    ) -> Position | None:
        report = self.report
        if node.setup is not None:
            try:
                setup = Position.from_fen(node.setup, self.variant)
            except FenError as exc:
                report.problems.append(
                    Problem(
                        "bad-fen",
                        f"setup {node.setup!r}: {exc}",
                        line=node.line,
                        column=node.column,
                        ply=ply,
                        variation=path,
                    )
                )
                return None
            report.steps.append(Step(node, ply, mainline, position, None, setup, order))
            return setup
        assert node.move is not None  # a node is a move or a setup
        problem, move, after = self._match(node, position, ply, path)
        if problem is not None:
            report.problems.append(problem)
        report.steps.append(Step(node, ply, mainline, position, move, after, order))
        return after

    def _match(
        self, node: Node, position: Position, ply: int, path: tuple[int, ...]
    ) -> tuple[Problem | None, Move | None, Position | None]:
        text = node.move or ""
        played = self.fast.match(position, text)
        if played is not None:  # the common case; anything else gets the full diagnosis
            return None, played[0], played[1]

        def problem(code: str, message: str, legal: tuple[str, ...] = ()) -> Problem:
            return Problem(
                code,
                message,
                line=node.line,
                column=node.column,
                ply=ply,
                move=text,
                legal=legal,
                variation=path,
            )

        try:
            written = parse_move(text)
        except NotationError:
            if text.replace(" ", "") in {"--", "-"}:
                # The reader has reported it; the line cannot go on past an unknown move.
                return None, None, None
            return problem("illegal-move", f"{text!r} is not a move"), None, None
        try:
            squares = resolve_squares(written, self.variant)
        except NotationError as exc:
            return problem("bad-square", f"{text}: {exc}"), None, None
        diagnosis = diagnose(position, squares, written.capture_written)
        if diagnosis.fault is None and diagnosis.move is not None:
            # A legal move may still carry a remark on how it was written.
            remark = problem("separator", diagnosis.message) if diagnosis.message else None
            return remark, diagnosis.move, position.play(diagnosis.move)
        shown = diagnosis.candidates or tuple(position.legal_moves())
        legal = tuple(move_texts(shown, self.variant, algebraic=written.algebraic))
        code = diagnosis.fault.value if diagnosis.fault is not None else "illegal-move"
        return problem(code, diagnosis.message, legal), diagnosis.move, diagnosis.applied


def _check_result(report: Report) -> None:
    game = report.game
    tag = game.tags.get("Result")
    terminator = game.terminator
    tag_outcome = parse_result(tag)
    term_outcome = parse_result(terminator)
    if (
        tag_outcome is not Outcome.UNKNOWN
        and term_outcome is not Outcome.UNKNOWN
        and tag_outcome is not term_outcome
    ):
        report.problems.append(
            Problem(
                "result-mismatch",
                f"the Result tag says {tag!r} but the game ends with {terminator!r}",
                line=game.line,
                column=1,
            )
        )
    if tag_outcome is not Outcome.UNKNOWN and terminator is not None and terminator.strip() == "*":
        report.problems.append(
            Problem(
                "result-mismatch",
                f"the Result tag says {tag!r} but the movetext ends with '*' (result unknown)",
                line=game.line,
                column=1,
            )
        )
    outcome = tag_outcome if tag_outcome is not Outcome.UNKNOWN else term_outcome
    final = report.final
    if final is None or outcome is Outcome.UNKNOWN or not final.is_game_over():
        return
    variant = report.variant
    assert variant is not None
    loser = final.turn
    # A result is written from the first mover's side, which a GameType may name ("20,B,...").
    first = first_colour(variant, game.game_type)
    expected = Outcome.SECOND_WINS if loser is first else Outcome.FIRST_WINS
    if outcome is not expected:
        result_text = tag if tag_outcome is not Outcome.UNKNOWN else terminator
        report.problems.append(
            Problem(
                "result-impossible",
                f"the result {result_text!r} cannot stand: {loser.label} is to move in the "
                f"final position and has no legal move, so {loser.label} lost",
                line=game.line,
                column=1,
            )
        )
