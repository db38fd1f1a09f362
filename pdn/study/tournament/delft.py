"""Delft scoring (the Dutch "Delftse telling", first played as the Volmac count at the Volmac
tournament of 1984): a win scores 4-0 and a draw 2-2, but a drawn game in whose final position
one side is at least :data:`MARGIN` pieces ahead (a man counts one, a king two) is a *victory
on points*, 3-1.

Sources: https://damforum.nl/bb3/viewtopic.php?f=6&t=324 (the count and its margin);
https://fy.wikipedia.org/wiki/Delftske_telling (4 points a win, 2-2 a draw, 3-1 for "a clear
advantage"); http://dampromotie.nl/jml/index.php/het-scoresysteem/delftse-telling ("winst
4-0, puntenoverwinning 3-1, remise 2-2"); https://fy.wikipedia.org/wiki/Trochdamjen (the
material counted: at least three pieces, a king counting two).

The final position is not in a game's tags: it is the last position of the game's main line as
replayed (:func:`with_material` reads it from the game's :class:`~pdn.rules.validation.Report`). A
drawn game whose main line does not replay to its end (an illegal move, rules pdn lacks, moves
that could not be read, no moves at all) has no known final position: it is scored as a plain
draw, 2-2, and :func:`delft_note` says so and why; so is every game scored 3-1, with the
material that made it.

>>> from pdn.study.tournament.records import record_from_tags
>>> draw = record_from_tags({"Black": "Ann", "White": "Bo", "Result": "1/2-1/2"})
>>> delft_scores(draw, 8, 5), delft_scores(draw, 6, 5), delft_scores(draw)
((3, 1), (2, 2), (2, 2))
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .records import _DASH, BLACK, GameRecord

if TYPE_CHECKING:
    from pdn.engine import Position
    from pdn.rules.replay_report import Report

#: Points for a win, a victory on points, a draw, a victory on points lost, a loss.
WIN, ON_POINTS, DRAW, BEHIND_ON_POINTS, LOSS = 4, 3, 2, 1, 0
#: The material lead (a man 1, a king 2) in the final position of a draw that wins on points.
MARGIN = 3


def material(position: Position, colour: str) -> int:
    """The material of ``colour`` (``"Black"`` or ``"White"``) in ``position``: a man
    counts one, a king two."""
    pieces = position.black if colour == BLACK else position.white
    return pieces.bit_count() + (pieces & position.kings).bit_count()


def with_material(record: GameRecord, report: Report) -> GameRecord:
    """``record`` with the first and second mover's material in the final position of the
    game's replayed main line (:attr:`GameRecord.material`), or with why it is not known
    (:attr:`GameRecord.material_unknown`)."""
    why = _unknown(report)
    if why is not None:
        return replace(record, material=None, material_unknown=why)
    assert report.final is not None  # (_unknown says so otherwise)
    first = material(report.final, record.first_colour)
    second = material(report.final, record.second_colour)
    return replace(record, material=(first, second), material_unknown="")


def _unknown(report: Report) -> str | None:
    """Why the final position of ``report``'s game is not known, or ``None`` if it is."""
    game = report.game
    if report.variant is None:
        rules = f" ({game.variant})" if game.variant else ""
        return f"pdn has no rules{rules} to replay it under"
    broken = next((p for p in game.errors if p.severity == "error"), None)
    if broken is not None:
        return f"its moves could not be read whole ({broken.code} at {broken.location})"
    # A move the rules refuse may still have been carried out (one out of turn): the
    # position after it is no position of the game.
    stop = next((p for p in report.problems if p.severity == "error" and not p.variation), None)
    if stop is not None:
        return f"its main line has an illegal move at {stop.where}, {stop.move} ({stop.code})"
    if not report.complete or report.final is None:
        return "its main line does not replay to its end"
    if next(report.mainline_steps(), None) is None and game.tags.get("FEN") is None:
        return "it holds no moves"
    return None


def delft_scores(
    record: GameRecord, first: int | None = None, second: int | None = None
) -> tuple[int, int] | None:
    """The first and second mover's Delft points for a scored game (``None`` for one that
    is not scored); ``first`` and ``second`` are the material in its final position (by
    default the record's :attr:`~GameRecord.material`), used only for a draw."""
    if not record.scored:
        return None
    if record.first_score == 1.0:
        return WIN, LOSS
    if record.second_score == 1.0:
        return LOSS, WIN
    if record.first_score == 0.0:  # a double loss
        return LOSS, LOSS
    if first is None or second is None:
        first, second = record.material or (0, 0)
    if first - second >= MARGIN:
        return ON_POINTS, BEHIND_ON_POINTS
    if second - first >= MARGIN:
        return BEHIND_ON_POINTS, ON_POINTS
    return DRAW, DRAW


def delft_note(record: GameRecord) -> str | None:
    """What a report says of a drawn game under Delft scoring: scored 3-1, and on what
    material; or scored as a plain draw because its final position is not known, and why.
    ``None`` for a game that needs no word (a win, a loss, a draw known to be level)."""
    points = delft_scores(record)
    if points is None or record.first_score != 0.5:
        return None
    game = f"round {record.round}: {record.first}{_DASH}{record.second}: {record.result}"
    if record.material is None:
        why = record.material_unknown or "its moves were not replayed"
        return (
            f"{game} scored 2-2 under Delft scoring, as a plain draw: its final position is "
            f"not known: {why}"
        )
    if points == (DRAW, DRAW):
        return None
    first, second = record.material
    ahead, behind = (
        (record.first, record.second) if first > second else (record.second, record.first)
    )
    return (
        f"{game} scored {points[0]}-{points[1]} under Delft scoring, a victory on points: in "
        f"the final position {ahead} has {max(first, second)} to {behind}'s "
        f"{min(first, second)} (a man counts 1, a king 2; {MARGIN} or more ahead wins on points)"
    )
