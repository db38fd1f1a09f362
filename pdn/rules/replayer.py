"""The replay of every line of a game under one variant's rules.

:func:`replay` walks the move tree depth-first from the start position (the variant's, or the
game's FEN), matches each written move to one legal move (the fast path first, then
``engine.diagnose``), and records each step and each problem in a
:class:`~pdn.rules.replay_report.Report`; it never guesses rules
(:func:`pdn.rules.validation.validate`
does, trying several). A variation is replayed before the line that goes on after it.

>>> import pdn
>>> report = replay(pdn.parse_game("1. 11-15 (9-13) 23-19 *"), "english")
>>> [(step.node.move, step.mainline) for step in report.steps]
[('9-13', False), ('11-15', True), ('23-19', True)]
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from pdn.engine import FenError, Move, Position, Variant, diagnose, get_variant
from pdn.game.gametype import first_colour
from pdn.game.model import Game, Node
from pdn.game.steps import Step
from pdn.reading.recording import Recorded, Run
from pdn.text.notation import NotationError, move_texts, parse_move, resolve_squares
from pdn.text.problems import Problem, branch
from pdn.text.results import Outcome, parse_result

from .draws import DrawWatch, draw_rules, unwatched_sentence
from .fastpath import fast_path
from .replay_report import Report


def replay(read: Game | Recorded, variant: Variant | str | None) -> Report:
    """Every line of a game replayed under ``variant`` (a name, or ``None``: the reader's
    guess, else English); a game whose rules pdn lacks gets an ``unsupported-variant`` problem
    and no steps. The report's ``rules_source`` is left for the caller to say.

    A game read for its replay alone (:class:`~pdn.reading.recording.Recorded`) is played from the
    reader's runs of moves when it has them: the same problems, start and final positions,
    but steps only for the first plies it asks for (``first_steps``)."""
    if isinstance(read, Recorded):
        game, runs, first_steps = read.game, read.runs, read.first_steps
    else:
        game, runs, first_steps = read, None, 0
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
        if runs is None:
            _Replayer(report, chosen).run(start)
        else:
            _Replayer(report, chosen).run_plain(start, runs, first_steps)
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
    variant's start with the side to move that :func:`pdn.game.gametype.first_mover` says (a start
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


class _Line:
    """Where the replay stands on one line of play: what :meth:`_Replayer._moves` carries from
    one run of moves to the next."""

    __slots__ = ("mainline", "path", "ply", "position", "unwatched", "watch")

    def __init__(
        self, position: Position, ply: int, mainline: bool, path: Sequence[int], variant: Variant
    ) -> None:
        self.position = position
        self.ply = ply
        self.mainline = mainline
        self.path = path
        # Each federation's own draw rules, on the main line (pdn.rules.draws).
        rules = draw_rules(variant) if mainline else None
        self.watch = DrawWatch(rules, position) if rules is not None else None
        # Where none are watched, the first king move of the main line (before it no draw
        # rule of any federation can apply) says so, once.
        self.unwatched = mainline and rules is None


class _Replayer:
    """Walks the move tree depth-first, carrying the position along each line; or plays the
    runs of moves of a game read for its replay alone (:mod:`pdn.reading.recording`), with no steps.
    Either way every move goes through :meth:`_moves`."""

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

    def run_plain(self, start: Position, runs: list[Run], first_steps: int) -> None:
        """Play a main line given as the reader's runs of moves (no variation, no setup),
        with a step for each of its first ``first_steps`` plies (a node made for each)."""
        state = _Line(start, 1, True, (), self.variant)
        report = self.report
        for texts, numbers, lines, columns in runs:
            order = state.ply - 1  # one node per ply: its place in written order
            wanted = min(len(texts), first_steps - order)
            if wanted > 0:
                nodes = [
                    Node(texts[i], None, numbers[i], line=lines[i], column=columns[i])
                    for i in range(wanted)
                ]
                played = self._moves(state, texts[:wanted], lines, columns, nodes, order, order + 1)
                if played == wanted < len(texts):
                    rest = slice(wanted, None)
                    played += self._moves(
                        state, texts[rest], lines[rest], columns[rest], None, 0, 0
                    )
            else:
                played = self._moves(state, texts, lines, columns, None, order, order + 1)
            if played < len(texts):
                report.complete = False
                break
        report.final = state.position

    def _line(
        self,
        parent: Node,
        position: Position,
        ply: int,
        mainline: bool,
        path: Sequence[int],
        order: int,
    ) -> Generator[_Task, int | None, int]:
        """Replay the continuation of ``parent``, whose first node has the place ``order`` in
        written order; returns how many nodes it covered (all those below ``parent``).  The
        main line leaves the last position it reached (before the move that stopped it, when
        one did) in ``report.final``."""
        state = _Line(position, ply, mainline, path, self.variant)
        report = self.report
        first = order
        while parent.variations:
            variations = parent.variations
            main = variations[0]
            # In written order the alternatives to ``main`` come after it, each with its
            # whole line, and then what follows ``main``.
            following = order + 1
            for number in range(1, len(variations)):
                covered = yield self._line_from(
                    variations[number], state.position, state.ply, branch(path, number), following
                )
                assert covered is not None
                following += covered
            if main.setup is not None:
                after = self._setup(main, state, order)
                if after is None:
                    if mainline:
                        report.complete = False
                        report.final = state.position
                    return following - first + _subtree_size(main) - 1
                if state.watch is not None:
                    state.watch = DrawWatch(state.watch.rules, after)  # the counts start afresh
                state.position = after
                parent = main
                order = following
                continue
            # ``main`` and the moves after it that have no alternative: one run of moves.
            run = [main]
            last = main
            while len(last.variations) == 1 and last.variations[0].setup is None:
                last = last.variations[0]
                run.append(last)
            texts = [node.move or "" for node in run]
            lines = [node.line for node in run]
            columns = [node.column for node in run]
            played = self._moves(state, texts, lines, columns, run, order, following)
            if played < len(run):
                stopped = run[played]
                if mainline:
                    report.complete = False
                    report.final = state.position
                at = order if not played else following + played - 1
                covered = (following - first if not played else at + 1 - first) + (
                    _subtree_size(stopped) - 1
                )
                return covered
            parent = last
            order = following + len(run) - 1
        if mainline:
            report.final = state.position
        return order - first

    def _moves(
        self,
        state: _Line,
        texts: Sequence[str],
        lines: Sequence[int | None],
        columns: Sequence[int | None],
        nodes: Sequence[Node] | None,
        order: int,
        following: int,
    ) -> int:
        """Play ``texts`` in a row from ``state``, the first with the place ``order`` in
        written order, the others from ``following`` on; a step for each when ``nodes`` (their
        nodes) are given. Returns how many were played: all, unless one stopped the line
        (``state`` is then left before it)."""
        report = self.report
        problems, steps = report.problems, report.steps
        fast = self.fast.play
        position, ply, mainline, watch = state.position, state.ply, state.mainline, state.watch
        index = 0
        count = len(texts)
        while index < count:
            # The common case, legal moves as the engine writes them, in one run: it covers
            # almost every ply of an archive.
            played: Sequence[tuple[Move | None, Position]] = fast(position, texts, index)
            if not played:
                node = nodes[index] if nodes is not None else None
                problem, move, found = self._match(
                    texts[index], lines[index], columns[index], position, ply, state.path
                )
                if problem is not None:
                    problems.append(problem)
                if node is not None:
                    steps.append(Step(node, ply, mainline, position, move, found, order))
                if found is None:
                    break
                played = ((move, found),)
            elif nodes is not None:
                before = position
                for offset, (move, after) in enumerate(played):
                    at = index + offset
                    place = order if not at else following + at - 1
                    step = Step(nodes[at], ply + offset, mainline, before, move, after, place)
                    steps.append(step)
                    before = after
            if watch is not None:
                for offset, message in watch.follow(played, ply):
                    at = index + offset
                    code = "draw-claimable" if watch.rules.claim else "draw-rule"
                    problems.append(
                        Problem(
                            code,
                            message,
                            line=lines[at],
                            column=columns[at],
                            ply=ply + offset,
                            move=texts[at],
                        )
                    )
            if state.unwatched:
                for offset, (move, _) in enumerate(played):
                    if move is not None and move.is_reversible:
                        at = index + offset
                        state.unwatched = False
                        problems.append(
                            Problem(
                                "draws-unwatched",
                                f"{unwatched_sentence(self.variant)} (first king move here)",
                                line=lines[at],
                                column=columns[at],
                                ply=ply + offset,
                                move=texts[at],
                            )
                        )
                        break
            position = played[-1][1]
            ply += len(played)
            index += len(played)
            order = following + index - 1
        state.position, state.ply, state.watch = position, ply, watch
        return index

    def _line_from(
        self, first: Node, position: Position, ply: int, path: Sequence[int], order: int
    ) -> Generator[_Task, int | None, int]:
        """Replay a variation whose first move is ``first``, an alternative at ``position``
        with the place ``order`` in written order; returns how many nodes it covered (all of
        ``first``'s line)."""
        if first.setup is not None:
            after = self._setup(first, _Line(position, ply, False, path, self.variant), order)
        else:
            problem, move, after = self._match(
                first.move or "", first.line, first.column, position, ply, path
            )
            if problem is not None:
                self.report.problems.append(problem)
            self.report.steps.append(Step(first, ply, False, position, move, after, order))
        if after is None:
            return _subtree_size(first)
        covered = yield self._line(
            first, after, ply + (first.move is not None), False, path, order + 1
        )
        assert covered is not None
        return 1 + covered

    def _setup(self, node: Node, state: _Line, order: int) -> Position | None:
        """The position a setup command sets up (a step for it), or ``None`` (a problem)."""
        assert node.setup is not None
        report = self.report
        try:
            setup = Position.from_fen(node.setup, self.variant)
        except FenError as exc:
            report.problems.append(
                Problem(
                    "bad-fen",
                    f"setup {node.setup!r}: {exc}",
                    line=node.line,
                    column=node.column,
                    ply=state.ply,
                    variation=state.path,
                )
            )
            return None
        report.steps.append(
            Step(node, state.ply, state.mainline, state.position, None, setup, order)
        )
        return setup

    def _match(
        self,
        text: str,
        line: int | None,
        column: int | None,
        position: Position,
        ply: int,
        path: Sequence[int],
    ) -> tuple[Problem | None, Move | None, Position | None]:
        played = self.fast.match(position, text)
        if played is not None:  # the common case; anything else gets the full diagnosis
            return None, played[0], played[1]

        def problem(code: str, message: str, legal: tuple[str, ...] = ()) -> Problem:
            return Problem(
                code,
                message,
                line=line,
                column=column,
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
