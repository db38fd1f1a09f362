"""Replay a game under its rules and explain every move that breaks them.

This is where the reader's model meets the engine: every line of play (the mainline and each
variation, from the start position or a FEN setup) is replayed, each written move is matched to
exactly one legal move, and each one that is not legal becomes a :class:`~pdn.problems.Problem`.

>>> import pdn
>>> report = pdn.validate(pdn.parse_game("1. 11-15 23-19 2. 15-11 *"))
>>> report.status, [p.code for p in report.problems]
('illegal', ['backward-man'])
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pdn.engine import (
    VARIANTS,
    Color,
    FenError,
    Move,
    Position,
    Variant,
    diagnose,
    get_variant,
    pickle_by_fields,
    same_board,
)

from .draws import DrawWatch, draw_rules, unwatched_sentence
from .fastpath import fast_path
from .gametype import detect_variant, first_colour, moves_evidence
from .model import Game, Node
from .notation import NotationError, move_texts, parse_move, resolve_squares
from .problems import Problem
from .results import Outcome, parse_result
from .steps import Step as Step  # re-exported: pdn.validation.Step, the replay's record

Status = Literal["ok", "illegal", "illegal-variation", "syntax-error", "unchecked"]
#: The statuses of a game with an error (a syntax error or an illegal move).
ERROR_STATUSES: frozenset[Status] = frozenset({"illegal", "illegal-variation", "syntax-error"})


@dataclass(slots=True)
class Report:
    """What replaying one game found: its problems, each replayed step, the final position.

    ``final`` is the last position the mainline reached (before the move that stopped it, if
    one did; ``complete`` is then False). A step whose ``move`` is None was not legal.

    ``steps`` are in the order of the replay; :meth:`walk` gives every node of the game in
    written order with its step, :meth:`step_of` and :meth:`position_of` those of one node,
    and ``game.accept(visitor, report)`` a visitor each step after its move.
    """

    game: Game
    variant: Variant | None
    problems: list[Problem] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    start: Position | None = None
    final: Position | None = None
    complete: bool = True
    #: Where the rules came from: "option" (the caller's), "gametype", "file", "squares",
    #: "fen", "default" or "replay" (see :func:`pdn.detection.source_sentence`) ...
    rules_source: str = "default"
    #: ... and the evidence, as a sentence (``'GameType "25"'``).
    rules_evidence: str = ""

    @property
    def status(self) -> Status:
        """``syntax-error`` when the text has errors; ``illegal`` when the main line has an
        illegal move, ``illegal-variation`` when only side lines have; ``unchecked`` when the
        variant's rules are not implemented; else ``ok`` (warnings and notices allowed)."""
        if any(p.severity == "error" for p in self.game.errors):
            return "syntax-error"
        errors = [p for p in self.problems if p.severity == "error"]
        if any(not p.variation for p in errors):
            return "illegal"
        if errors:
            return "illegal-variation"
        if self.variant is None:
            return "unchecked"
        return "ok"

    @property
    def all_problems(self) -> list[Problem]:
        """The reader's problems followed by the replay's, each group in file order."""
        return [*self.game.errors, *self.problems]

    def mainline_steps(self) -> Iterator[Step]:
        """The steps of the mainline, in order."""
        return (step for step in self.steps if step.mainline)

    def mainline_moves(self) -> list[Move]:
        """The engine's moves of the mainline as replayed, up to the first illegal one (setup
        commands left out).

        >>> import pdn
        >>> report = pdn.validate(pdn.parse_game("1. 11-15 23-19 2. 15-24 24-20 *"))
        >>> [move.path for move in report.mainline_moves()]
        [(11, 15), (23, 19)]
        """
        moves: list[Move] = []
        for step in self.mainline_steps():
            if step.node.setup is not None:
                continue
            if step.move is None:
                break
            moves.append(step.move)
        return moves

    def walk(self) -> Iterator[tuple[Node, Step | None]]:
        """Every node of the game in written order (as :meth:`Game.walk()
        <pdn.model.Game.walk>`), with its step, or ``None`` where the replay did not reach it
        (after an illegal move or a bad setup, or with rules not implemented).  One pass over
        the game and its steps, however many nodes: the way to go through a whole game.

        >>> import pdn
        >>> report = pdn.validate(pdn.parse_game("1. 11-15 (9-13 22-18) 23-19 2. 15-24 24-20 *"))
        >>> [(node.move, step and step.ply) for node, step in report.walk()]
        [('11-15', 1), ('9-13', 1), ('22-18', 2), ('23-19', 2), ('15-24', 3), ('24-20', None)]
        """
        written = self.written_steps()
        reached = len(written)
        for order, (node, _) in enumerate(self.game.walk()):
            step = written[order] if order < reached else None
            if step is not None and step.node is not node:
                raise ValueError("the game has changed since it was validated")
            yield node, step

    def step_of(self, node: Node) -> Step | None:
        """The step of ``node``, or ``None`` where the replay did not reach it.  Each call goes
        through the steps: to look at every node, use :meth:`walk` (or a visitor driven with
        the report, :meth:`Game.accept(visitor, report) <pdn.model.Game.accept>`).

        >>> import pdn
        >>> game = pdn.parse_game("1. 11-15 23-19 2. 15-24 24-20 *")
        >>> report = pdn.validate(game)
        >>> second, third, fourth = list(game.mainline())[1:]
        >>> report.step_of(second).after.fen()[:2], report.step_of(third).move
        ('B:', None)
        >>> report.step_of(fourth) is None
        True
        """
        return next((step for step in self.steps if step.node is node), None)

    def position_of(self, node: Node) -> Position | None:
        """The position after ``node`` as replayed (the start position for the game's root),
        or ``None`` where the replay did not reach it or could not carry the move out.

        >>> import pdn
        >>> game = pdn.parse_game("1. 11-15 23-19 *")
        >>> report = pdn.validate(game)
        >>> report.position_of(game.root.next()).fen()[:2]
        'W:'
        """
        if node is self.game.root:
            return self.start
        step = self.step_of(node)
        return step.after if step is not None else None

    def written_steps(self) -> list[Step | None]:
        """The steps indexed by their node's place in written order (``None`` for a node not
        reached), as far as the last node reached."""
        steps = self.steps
        written: list[Step | None] = [None] * (max((s.order for s in steps), default=-1) + 1)
        for step in steps:
            written[step.order] = step
        return written

    def __repr__(self) -> str:
        # One line: the fields hold every position of the game (kilobytes for one game).
        rules = self.variant.name if self.variant is not None else None
        plies = sum(1 for _ in self.mainline_steps())
        return (
            f"Report(status={self.status!r}, variant={rules!r}, game={self.game.index}, "
            f"line={self.game.line}, plies={plies}, problems={len(self.all_problems)})"
        )

    def _repr_html_(self) -> str:
        """The verdict and a table of the problems, in Jupyter (:func:`pdn.viewer.report_html`)."""
        from .viewer import report_html

        return report_html(self)


def validate(
    game: Game,
    variant: Variant | str | None = None,
    *,
    file_rules: Mapping[str, int] | None = None,
) -> Report:
    """Replay every line of ``game`` and report what is illegal.

    ``variant`` overrides the variant detected by the reader (a :class:`engine.Variant` or a
    name such as ``"english"``).  Without it and without a ``GameType`` tag the variant is a
    guess (from the other games of the file, else from the game's squares).  When the main line
    is illegal under the guess, the other rules of that board are tried: the one that alone
    replays the game cleanly is used, with a ``variant-guess`` warning saying why.  When none
    or several do, every variant whose board and notation fit the record is tried (a 10x10
    or 64-square board included); of those that replay the whole game, one is used only
    where the evidence is certain (squares above 50 with a 64-square numbering are Turkish;
    squares no other board has), or where ``file_rules`` (variant name -> how many earlier
    games of the same file replayed cleanly under it) puts it first; otherwise the verdict
    stays the guess's and the warning names the rules that replay the game and the GameType
    to add (so an English record with a slip that pool checkers would allow stays an error).
    A game from the start whose first move is the other side's is also tried under the rules
    where that side starts, and the one that goes furthest, if only one does, is used.  The
    report says which rules were used and where they came from (:attr:`Report.rules_source`,
    ``rules_evidence``).
    """
    report = _replay(game, variant)
    if variant is not None:
        name = variant.name if isinstance(variant, Variant) else variant
        report.rules_source, report.rules_evidence = "option", f"asked for: {name}"
        return report
    report.rules_source, report.rules_evidence = game.variant_source, game.variant_evidence
    if game.variant_source == "gametype" or report.variant is None:
        return report
    _check_opening_turn(game, report)
    first = _first_fault(report)
    if first is None:
        return report
    return _better_guess(game, report, first, file_rules)


@dataclass(slots=True)
class FileRules:
    """What the earlier games of a file replayed cleanly under, for :func:`validate` to break
    a tie between rules that all replay a game (``file_rules``).

    Games are counted per block of ``block`` games of one file (by :attr:`Game.index`), so
    that a file validated in one process or in batches of that size by several (see
    :func:`pdn.batch.map_games`) gets the same verdicts.

    >>> import pdn
    >>> memory = FileRules(block=200)
    >>> memory.before("a.pdn", 1)
    {}
    >>> memory.add(pdn.validate(pdn.parse_game('[GameType "29"] 1. c3-d4 *')))
    >>> memory.before("a.pdn", 2), memory.before("a.pdn", 201)
    ({'czech': 1}, {})
    """

    block: int
    file: str | None = None
    part: int = -1
    last: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def before(self, file: str, index: int) -> dict[str, int]:
        """The counts for the game ``index`` of ``file``: those of the earlier games of its
        block (a new file or block, or a file read again from an earlier game, starts them
        afresh)."""
        self.enter(file, index)
        return self.counts

    def enter(self, file: str, index: int) -> bool:
        """Move on to the game ``index`` of ``file``; whether its counts start afresh there."""
        part = (index - 1) // self.block
        fresh = file != self.file or part != self.part or index <= self.last
        if fresh:
            self.file, self.part, self.counts = file, part, {}
        self.last = index
        return fresh

    def add(self, report: Report) -> None:
        """Count a game of the current file and block whose main line replayed cleanly."""
        if report.variant is not None and report.status == "ok":
            name = report.variant.name
            self.counts[name] = self.counts.get(name, 0) + 1


def _check_opening_turn(game: Game, report: Report) -> None:
    """Warn when a FEN opening position (a ballot, an 11-man opening: no kings, at most two men
    missing and three moved on each side) has the side to move that does not start under the
    guessed rules although the side that does has not moved more: as if the other side had
    begun. Nothing in such a position says which variant it is, so this stays a warning.

    On the shared corpus this flags 2,216 of the 2,400 positions of CheckerBoard's Italian
    11-man ballots and none of the English FEN files."""
    start, variant = report.start, report.variant
    if start is None or variant is None or "FEN" not in game.tags or start.kings:
        return
    if start.turn is variant.first_mover:
        return
    initial = Position.start(variant)
    full = initial.black.bit_count()
    moved: dict[Color, int] = {}
    for color, men, home in (
        (Color.BLACK, start.black, initial.black),
        (Color.WHITE, start.white, initial.white),
    ):
        moved[color] = (men & ~home).bit_count()
        if men.bit_count() < full - 2 or moved[color] > 3:
            return
    if moved[variant.first_mover] > moved[start.turn]:
        return
    report.problems.insert(
        0,
        _guess_problem(
            game,
            f"no GameType, and the FEN is an opening position with {start.turn.label} to "
            f"move although {variant.first_mover.label}, who moves first in {variant.title}, "
            f"has not moved more ({game.variant_evidence}): the game may be of a variant "
            f"where {start.turn.label} starts; add a GameType tag",
        ),
    )


def _better_guess(
    game: Game, report: Report, first: int, file_rules: Mapping[str, int] | None
) -> Report:
    """The report under other rules, when the guess cannot replay the main line (see
    :func:`validate`); ``report`` itself, with a warning, when nothing is better."""
    guessed = report.variant
    assert guessed is not None
    fault = next(p for p in report.problems if p.ply == first and not p.variation)
    if "FEN" in game.tags or any(node.setup is not None for node, _ in game.walk()):
        return report  # from a set-up position a few moves say little of the rules
    opening = first == 1 and fault.code == "wrong-side"
    looks_alike = _candidates(game, guessed, opening=opening)
    tried = [
        (_first_fault(other) or _CLEAN, other)
        for other in (_replay(game, v) for v in looks_alike)
        if other.status != "syntax-error"
    ]
    clean = [other for reach, other in tried if reach == _CLEAN]
    said = f"{guessed.title} rules stop at ply {first} ({fault.code})"
    found: Report | None = None
    if len(clean) == 1:
        # A look-alike of the guess (same board, first mover and notation): the squares
        # cannot tell them apart, and only its rules replay the game.
        found = clean[0]
    else:
        # Every other variant whose board and notation fit the record (a 10x10 or 64-square
        # board included), for the rules that replay the whole game.
        wider = [
            other
            for other in (_replay(game, v) for v in _fitting(game, guessed, looks_alike))
            if other.status != "syntax-error"
        ]
        clean += [other for other in wider if _first_fault(other) is None]
        tried += [(_first_fault(other) or _CLEAN, other) for other in wider]
        if clean:
            return _settle(game, report, clean, tried, said, file_rules)
    if found is None and opening:
        # The first move is the other side's: the rules of this board where that side starts,
        # the one that goes furthest, never a tie.
        others = [
            (reach, o)
            for reach, o in tried
            if o.variant
            and o.variant.first_mover is not guessed.first_mover
            and same_board(o.variant, guessed)
        ]
        best = max((reach for reach, _ in others), default=0)
        winners = [other for reach, other in others if reach == best]
        if best > 1 and len(winners) == 1:
            found = winners[0]
    if found is None or found.variant is None:
        return report
    reach = _first_fault(found)
    how = "replay the whole game" if reach is None else f"replay it up to ply {reach}"
    if opening:
        why = (
            f"the first move ({fault.move}) is {guessed.first_mover.opponent.label}'s, who does "
            f"not start in {guessed.title}"
        )
    else:
        why = said
    return _adopt(game, found, f"{why}, and {found.variant.title} rules {how}")


def _adopt(game: Game, found: Report, why: str, source: str = "replay") -> Report:
    """``found``, the report under the rules a failing guess gives way to, saying why."""
    assert found.variant is not None
    found.rules_source = source
    found.rules_evidence = f"{game.variant_evidence}; {why}"
    found.problems.insert(
        0,
        _guess_problem(
            game,
            f"replayed as {found.variant.title} ({game.variant_evidence}): {why}; a guess: "
            f'add [GameType "{found.variant.game_type}"] to be sure',
        ),
    )
    return found


def _settle(
    game: Game,
    report: Report,
    clean: list[Report],
    tried: list[tuple[int, Report]],
    said: str,
    file_rules: Mapping[str, int] | None,
) -> Report:
    """The verdict when some rules other than the guess's replay the whole game: the one
    the evidence makes certain, else the one the file's earlier games were replayed under,
    else the guess's verdict with a warning naming the rules and their GameType."""
    rules = [other.variant for other in clean if other.variant is not None]
    names = " and ".join(v.title for v in rules)
    certain = _certain(game, report, clean[0], tried) if len(clean) == 1 else None
    if certain is not None:
        found = clean[0]
        assert found.variant is not None
        why = f"{said}; {certain}, and {found.variant.title} rules replay the whole game"
        return _adopt(game, found, why)
    counts = file_rules or {}
    best = max(counts.values(), default=0)
    leaders = [name for name, count in counts.items() if count == best]
    chosen = [other for other in clean if other.variant and [other.variant.name] == leaders]
    if best > 0 and chosen:
        found = chosen[0]
        assert found.variant is not None
        why = (
            f"{said}; {names} rules replay the whole game, and the most earlier games of this "
            f"file ({best}) replay cleanly under {found.variant.title} rules"
        )
        return _adopt(game, found, why, "replay-file")
    tags = " or ".join(f'[GameType "{v.game_type}"]' for v in rules)
    which = "to say which" if len(rules) > 1 else "if it was played under them"
    report.problems.insert(
        0,
        _guess_problem(
            game,
            f"{game.variant_evidence}: {said}; {names} rules replay the whole game: add {tags} "
            f"{which}",
        ),
    )
    return report


def _certain(
    game: Game, report: Report, found: Report, tried: list[tuple[int, Report]]
) -> str | None:
    """Why the record's squares leave no rules but ``found``'s, or ``None`` when they do:
    numeric squares above 50 with a 64-square numbering (Turkish's), or squares that no other
    board tried has (every other replay stops on a square its board lacks)."""
    variant = found.variant
    assert variant is not None
    algebraic, highest = moves_evidence(game.mainline_moves())
    if not algebraic and 50 < highest <= variant.squares == 64:
        return f"its squares go up to {highest}, which only {variant.title} numbers (64 squares)"
    others = [report, *(other for _, other in tried if other is not found)]
    if all(_first_fault_code(other) == "bad-square" for other in others):
        return "no other board tried has all its squares"
    return None


def _first_fault_code(report: Report) -> str | None:
    """The code of the first error on the main line, or ``None``."""
    first = _first_fault(report)
    return next(
        (p.code for p in report.problems if p.ply == first and not p.variation and first), None
    )


def _fitting(game: Game, guessed: Variant, tried: list[Variant]) -> list[Variant]:
    """The variants not yet tried whose board and notation fit the record's squares: the
    algebraic variants for algebraic squares; for numeric squares, the numeric variants and
    the 64-square Turkish numbering, on boards with as many squares as the highest."""
    algebraic, highest = moves_evidence(game.mainline_moves())
    found = []
    for _, other in sorted(VARIANTS.items()):
        if other is guessed or other in tried:
            continue
        if algebraic:
            fits = other.notation == "algebraic"
        else:
            fits = other.notation == "numeric" or other.layout == "orthogonal"
            fits = fits and highest <= other.squares
        if fits:
            found.append(other)
    return found


#: The reach of a replay with no illegal move on its main line.
_CLEAN = 1 << 30


def _guess_problem(game: Game, message: str) -> Problem:
    return Problem("variant-guess", message, line=game.line, column=1)


def _candidates(game: Game, guessed: Variant, *, opening: bool) -> list[Variant]:
    """The rules to try when the guess fails on the main line.

    * The rules the game's own squares point to, when the guess came from the rest of its file.
    * The variants whose records look the same as the guess's (same board, same first mover,
      same notation in the GameType table: Russian, Brazilian and Czech; International and
      Frisian), since squares alone cannot tell them apart. Not for English, the original PDN's
      game: an English record with a slip of the pen often replays under pool checkers' freer
      rules (flying kings, men capturing backward), and that would hide the error.
    * When the first move is the other side's (``opening``), the variants of the board where
      that side starts.
    """
    found: list[Variant] = []
    if game.variant_source == "file":
        own = detect_variant(None, game.mainline_moves(), [game.fen] if game.fen else [])[0]
        if own is not None and own != guessed.name:
            found.append(get_variant(own))
    for other in _same_board(guessed):
        if other in found:
            continue
        if other.first_mover is not guessed.first_mover:
            if opening:
                found.append(other)
        elif guessed.name != "english" and other.notation == guessed.notation:
            found.append(other)
    return found


def _first_fault(report: Report) -> int | None:
    """The ply of the first error on the main line, or ``None``."""
    plies = [p.ply for p in report.problems if p.severity == "error" and not p.variation and p.ply]
    return min(plies, default=None)


def _same_board(variant: Variant) -> list[Variant]:
    """The other variants on a board of the same size and squares, in name order."""
    return [
        other
        for _, other in sorted(VARIANTS.items())
        if other is not variant and same_board(other, variant)
    ]


def _replay(game: Game, variant: Variant | str | None) -> Report:
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


@dataclass(frozen=True, slots=True)
class Located:
    """A position found in a game, and a sentence saying which one it is (or why none).

    ``move`` is the legal move that led to it, when there is one (for a diagram's arrow).
    """

    position: Position | None
    reason: str
    move: Move | None = None


pickle_by_fields(Located)


def position_at(
    game: Game, ply: int | None = None, variant: Variant | str | None = None
) -> Located:
    """The position after ``ply`` mainline plies (``None``: the last position reached).

    >>> import pdn
    >>> position_at(pdn.parse_game("1. 11-15 23-19 *"), 1).position.fen()[:2]
    'W:'
    """
    return locate(validate(game, variant), ply)


def locate(report: Report, ply: int | None = None) -> Located:
    """The position after ``ply`` mainline plies of a validated game (see :func:`position_at`),
    so that several positions of one game need one replay."""
    game = report.game
    if report.start is None:
        reason = report.problems[0].message if report.problems else "no start position"
        return Located(None, f"game {game.index}: {reason}")
    steps = [s for s in report.mainline_steps() if s.after is not None]
    if ply is None:
        position = report.final if report.final is not None else report.start
        last = steps[-1].move if steps and position is steps[-1].after else None
        return Located(
            position, f"game {game.index}, final position after {len(steps)} plies", last
        )
    if ply == 0:
        return Located(report.start, f"game {game.index}, start position")
    if ply > len(steps):
        return Located(None, f"game {game.index} has only {len(steps)} replayable plies, not {ply}")
    step = steps[ply - 1]
    return Located(step.after, f"game {game.index}, after ply {ply} ({step.node.move})", step.move)
