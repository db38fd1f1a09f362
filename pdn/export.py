"""Replayed games as tables: CSV (one row per ply) and FEN lists (JSON is :mod:`pdn.jsonio`).

>>> import pdn
>>> game = pdn.parse_game("1. 11-15 23-19 *")
>>> fen_lines(pdn.validate(game))[-1]
'B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from .model import Game
from .notation import move_text
from .validation import Report

CSV_FIELDS = ("game", "ply", "side", "move", "path", "fen_after")


def csv_rows(game: Game, report: Report, index: int) -> Iterable[list[str]]:
    """One row per mainline ply: game index, ply, side that moved, move as written,
    full path, FEN after the ply."""
    for step in report.mainline_steps():
        if step.node.move is None:
            continue
        side = "Black" if step.before.turn.name == "BLACK" else "White"
        path = (
            move_text(step.move, report.variant, full=True)
            if step.move is not None and report.variant is not None
            else ""
        )
        fen = step.after.fen() if step.after is not None else ""
        yield [str(index), str(step.ply), side, step.node.move, path, fen]


def csv_text(rows: Iterable[Sequence[str]], *, header: bool = True) -> str:
    """CSV text (RFC 4180 quoting, ``\\n`` line ends) for rows of :data:`CSV_FIELDS`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if header:
        writer.writerow(CSV_FIELDS)
    writer.writerows(rows)
    return buffer.getvalue()


def fen_lines(report: Report) -> list[str]:
    """The FEN of the start position and after every mainline ply, one per entry."""
    fens = [report.start.fen()] if report.start is not None else []
    fens += [step.after.fen() for step in report.mainline_steps() if step.after is not None]
    return fens
