"""The verdicts on a move from an engine's values: one function for every engine.

:func:`judge` takes the values of every legal move at the last depth an engine completed and
at the depth before (:class:`~pdn.study.play.evaluators.Valued`, from pdn's own search or an outside
engine alike) and says which verdicts stand: a verdict claimed at the last depth alone is
``unclear``, not given. The thresholds are in hundredths of a man.

:func:`by_the_tables` and :func:`result_against_tables` say what the endgame tables prove
(:mod:`pdn.study.play.endgame`), whatever the engine: a move that throws away a win or a draw, or
misses a win the tables hold, and a result the tables contradict. Their verdicts are exact,
so they stand at any depth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pdn.engine import Color, Move, Position, Probe, Prober
from pdn.text.results import Outcome, parse_result

from .evaluators import Valued, end_of

__all__ = [
    "BLUNDER",
    "MISTAKE",
    "ONLY",
    "SHOT",
    "TABLE_VERDICTS",
    "VERDICTS",
    "TableVerdict",
    "by_the_tables",
    "judge",
    "result_against_tables",
]

#: A move that loses this much (hundredths of a man) against the best is a blunder ...
BLUNDER = 90
#: ... and one that loses this much, less than a blunder, a mistake.
MISTAKE = 40
#: The gain over the static value that makes the best move a shot (about a man).
SHOT = 90
#: What every other move must lose against the best for it to be the only move.
ONLY = 90
#: The verdicts, in the order they are written.
VERDICTS = ("blunder", "mistake", "missed shot", "only move")
#: The verdicts the endgame tables prove (:func:`by_the_tables`).
TABLE_VERDICTS = ("throws away a win", "throws away a draw", "misses a win")


def judge(
    static: int, capture: bool, valued: Sequence[Valued], played: Valued
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The verdicts on the move ``played`` among the legal moves ``valued`` (by any
    :class:`~pdn.study.play.evaluators.Evaluator`), and those the last depth alone claims: the one
    function that turns an engine's values into verdicts, whichever engine.

    ``static`` is the position's static value (:func:`pdn.engine.evaluate`), ``capture``
    whether a capture was pending. A verdict stands when it holds at the last depth and at the
    depth before (a blunder there but only a mistake before is a mistake), or when the loss is
    proven: the move played is a forced loss and the best is not, or (an only move) every
    other move is a forced loss and the one played is not. What the last depth alone claims
    is returned second (the move is then ``unclear``: no NAG, no comment).

    >>> from pdn.engine import ENGLISH, Position
    >>> a, b = Position.start(ENGLISH).legal_moves()[:2]
    >>> best, bad = Valued(a, 20, (a,), 10), Valued(b, -100, (b,), -90)
    >>> judge(0, False, [best, bad], bad)
    (('blunder',), ())
    >>> bad.previous = 0  # the loss appears only at the last depth
    >>> judge(0, False, [best, bad], bad)
    ((), ('blunder',))
    """
    index = next(i for i, v in enumerate(valued) if v is played)
    now = [v.value for v in valued]
    claimed = _labels(static, capture, now, index)
    if not claimed or _proven(now, index):
        return claimed, ()
    before = [v.previous for v in valued]
    if any(value is None for value in before):
        return (), claimed  # no depth before: nothing is confirmed
    earlier = _labels(static, capture, [v for v in before if v is not None], index)
    held = {label for label in claimed if label in earlier}
    if "blunder" in claimed and "mistake" in earlier:
        held.add("mistake")
    return (
        tuple(v for v in VERDICTS if v in held),
        tuple(v for v in VERDICTS if v in claimed and v not in held),
    )


def _labels(static: int, capture: bool, values: list[int], index: int) -> tuple[str, ...]:
    """The verdicts on move ``index`` at one depth, from every legal move's value."""
    best = max(values)
    loss = best - values[index]
    verdicts: list[str] = []
    if loss >= BLUNDER:
        verdicts.append("blunder")
    elif loss >= MISTAKE:
        verdicts.append("mistake")
    if not capture and loss >= MISTAKE and best - static >= SHOT:
        verdicts.append("missed shot")
    holding = [i for i, value in enumerate(values) if value > best - ONLY]
    if holding == [index]:
        verdicts.append("only move")
    return tuple(verdicts)


def _proven(values: list[int], index: int) -> bool:
    """Whether the values prove a verdict: the move played a forced loss and the best not
    one, or every other move a forced loss and the one played not."""

    def lost(value: int) -> bool:
        end = end_of(value)
        return end is not None and end < 0

    played = values[index]
    if lost(played):
        return not lost(max(values))
    return all(lost(v) for i, v in enumerate(values) if i != index)


# ----------------------------------------------------------------------------- the tables


@dataclass(frozen=True, slots=True)
class TableVerdict:
    """What the tables prove of a move: the ``verdict`` (one of :data:`TABLE_VERDICTS`),
    the value of the move played and of the best move (``best``), both for the mover."""

    verdict: str
    after: Probe
    best: Move
    best_value: Probe


def by_the_tables(
    probe: Prober, position: Position, moves: Sequence[Move], move: Move
) -> TableVerdict | None:
    """What the endgame tables (``probe``) prove of ``move`` among the legal ``moves`` of
    ``position``: it *throws away a win* (the tables hold the position as won, and the move
    leads to a draw or a loss) or *a draw* (drawn, and the move loses), or it *misses a
    win* (the tables do not hold the position, a move leads to a position they hold as won,
    the move played to one they hold as drawn or lost); ``None`` when they prove none."""
    reached = probe(position.play(move))
    if reached is None:
        return None
    after = reached.for_mover()
    here = probe(position)
    if here is not None and here.result == after.result:
        return None
    if here is None and after.result == "win":
        return None
    if here is not None and here.result == "loss":
        return None
    valued: list[tuple[Probe, int, Move]] = []
    for index, other in enumerate(moves):
        found = probe(position.play(other))
        if found is not None:
            valued.append((found.for_mover(), -index, other))
    if not valued:
        return None
    best_value, _, best = max(valued, key=lambda v: (v[0].rank(), v[1]))
    if here is not None:
        verdict = "throws away a win" if here.result == "win" else "throws away a draw"
    elif best_value.result == "win":
        verdict = "misses a win"
    else:
        return None
    return TableVerdict(verdict, after, best, best_value)


def result_against_tables(
    result: str | None, probe: Probe, turn: Color, first: Color, ply: int
) -> str | None:
    """The sentence saying that ``result`` (the game's, as PDN writes it) contradicts the
    tables' value ``probe`` of the game's last position (after ``ply`` plies, ``turn`` to
    move; ``first`` the colour that moves first), or ``None`` when it agrees (or says no
    result: ``*``, ``0-0``).

    >>> from pdn.engine import Color, Probe
    >>> said = result_against_tables("1/2-1/2", Probe("win", 31), Color.WHITE, Color.BLACK, 40)
    >>> said.partition(": ")[2]
    'the position after ply 40 is a win for White in 31 plies'
    """
    said = parse_result(result)
    if said not in (Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW):
        return None
    if probe.distance is None:
        truth, words = Outcome.DRAW, "a draw"
    else:
        winner = turn if probe.result == "win" else turn.opponent
        truth = Outcome.FIRST_WINS if winner is first else Outcome.SECOND_WINS
        words = f"a win for {winner.label} in {probe.distance} plies"
    if said is truth:
        return None
    where = f"the position after ply {ply}" if ply else "the start position"
    return f"the result {result} contradicts the tables: {where} is {words}"
