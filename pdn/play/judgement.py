"""The verdicts on a move from an engine's values: one function for every engine.

:func:`judge` takes the values of every legal move at the last depth an engine completed and
at the depth before (:class:`~pdn.play.evaluators.Valued`, from pdn's own search or an outside
engine alike) and says which verdicts stand: a verdict claimed at the last depth alone is
``unclear``, not given. The thresholds are in hundredths of a man.
"""

from __future__ import annotations

from collections.abc import Sequence

from .evaluators import Valued, end_of

__all__ = ["BLUNDER", "MISTAKE", "ONLY", "SHOT", "VERDICTS", "judge"]

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


def judge(
    static: int, capture: bool, valued: Sequence[Valued], played: Valued
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The verdicts on the move ``played`` among the legal moves ``valued`` (by any
    :class:`~pdn.play.evaluators.Evaluator`), and those the last depth alone claims: the one
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
