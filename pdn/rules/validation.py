"""Replay a game under its rules and explain every move that breaks them.

This is where the reader's model meets the engine: every line of play (the mainline and each
variation, from the start position or a FEN setup) is replayed, each written move is matched to
exactly one legal move, and each one that is not legal becomes a
:class:`~pdn.text.problems.Problem`.
This module chooses the rules (:func:`validate`: the guess, and the others tried when it fails)
and finds positions in the result (:func:`locate`); the replay under one variant's rules is
:mod:`pdn.rules.replayer`'s, its record (:class:`Report`) :mod:`pdn.rules.replay_report`'s.

>>> import pdn
>>> report = pdn.validate(pdn.parse_game("1. 11-15 23-19 2. 15-11 *"))
>>> report.status, [p.code for p in report.problems]
('illegal', ['backward-man'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pdn.engine import (
    VARIANTS,
    Color,
    Move,
    Position,
    Variant,
    get_variant,
    pickle_by_fields,
    same_board,
)
from pdn.game.gametype import detect_variant, moves_evidence, variant_from_evidence
from pdn.game.model import Game
from pdn.game.steps import (
    Step as Step,  # re-exported: pdn.rules.validation.Step, the replay's record
)
from pdn.reading.recording import Recorded
from pdn.text.problems import Problem

from .replay_report import ERROR_STATUSES as ERROR_STATUSES  # re-exported, as Report and Status
from .replay_report import Report as Report
from .replay_report import Status as Status
from .replayer import replay


def validate(
    game: Game | Recorded,
    variant: Variant | str | None = None,
    *,
    file_rules: Mapping[str, int] | None = None,
) -> Report:
    """Replay every line of ``game`` and report what is illegal.

    ``game`` is the model, or a game read for its replay alone
    (:func:`pdn.reading.recording.record`:
    the same verdict, problems and positions, without steps).

    ``variant`` overrides the variant detected by the reader (a :class:`engine.Variant` or a
    name such as ``"english"``).  Without it and without a ``GameType`` tag the variant is a
    guess (from the other games of the file, else from the game's squares).  When the main line
    is illegal under the guess, the other rules of that board are tried: the one that alone
    replays the game cleanly is used, with a ``variant-guess`` warning saying why.  When none
    or several do, every variant whose board and notation fit the record is tried (a 10x10
    or 64-square board included); of those that replay the whole game, one is used only
    where the evidence is certain (squares above 50 with a 64-square numbering are Turkish;
    squares no other board has), or where ``file_rules`` (variant name -> how many earlier
    games of the same file replayed cleanly under it) puts it first, or where they all play on
    one board and one of them is its common game (International among the 10x10 rules, with
    a warning naming the others); otherwise the verdict stays the guess's and the warning
    names the rules that replay the game and the GameType to add (so an English record with a
    slip that pool checkers would allow stays an error).
    A game from the start whose first move is the other side's is also tried under the rules
    where that side starts, and the one that goes furthest, if only one does, is used.  The
    report says which rules were used and where they came from (:attr:`Report.rules_source`,
    ``rules_evidence``).
    """
    report = replay(game, variant)
    recorded = game if isinstance(game, Recorded) else None
    game = report.game
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
    if recorded is not None:
        # Other rules are tried on the model (they read its moves), from the guess's replay.
        return validate(recorded.model(), file_rules=file_rules)
    return _better_guess(game, report, first, file_rules)


@dataclass(slots=True)
class FileRules:
    """What the earlier games of a file replayed cleanly under, for :func:`validate` to break
    a tie between rules that all replay a game (``file_rules``).

    Games are counted per block of ``block`` games of one file (by :attr:`Game.index`), so
    that a file validated in one process or in batches of that size by several (see
    :func:`pdn.collections.batch.map_games`) gets the same verdicts.

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
        for other in (replay(game, v) for v in looks_alike)
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
            for other in (replay(game, v) for v in _fitting(game, guessed, looks_alike))
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


def _adopt(
    game: Game, found: Report, why: str, source: str = "replay", also: tuple[Variant, ...] = ()
) -> Report:
    """``found``, the report under the rules a failing guess gives way to, saying why (and
    the GameType of each of the rules in ``also`` that replay the game as well)."""
    assert found.variant is not None
    found.rules_source = source
    found.rules_evidence = f"{game.variant_evidence}; {why}"
    others = "".join(f', or [GameType "{v.game_type}"] for {v.title}' for v in also)
    found.problems.insert(
        0,
        _guess_problem(
            game,
            f"replayed as {found.variant.title} ({game.variant_evidence}): {why}; a guess: "
            f'add [GameType "{found.variant.game_type}"] to be sure{others}',
        ),
    )
    return found


def _common_game(rules: list[Variant], algebraic: bool) -> Variant | None:
    """The common game of the one board every rules of ``rules`` play on, for records of
    that notation (``algebraic`` squares or numeric), when it is among them: International
    among the 10x10 rules, as English among the 8x8 numeric ones and Russian among the 8x8
    algebraic ones (the game :func:`pdn.game.gametype.variant_from_evidence` takes that board's
    squares for). ``None`` for rules on several boards, or when the board's common game is
    not among them (an English record that only pool's freer rules replay, or only Russian's
    with numeric squares, stays an English error)."""
    if not rules or not all(same_board(rules[0], other) for other in rules):
        return None
    common = variant_from_evidence(algebraic, rules[0].squares)
    return next((variant for variant in rules if variant.name == common), None)


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
    common = _common_game(rules, moves_evidence(game.mainline_moves())[0])
    if common is not None:
        found = next(other for other in clean if other.variant is common)
        also = tuple(v for v in rules if v is not common)
        board = f"{common.width}x{common.height}"
        why = (
            f"{said}; {names} rules replay the whole game, all on a {board} board, and "
            f"{common.title} is that board's common game"
        )
        return _adopt(game, found, why, "replay-common", also)
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
