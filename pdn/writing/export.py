"""Replayed games as tables: CSV (one row per ply, or one per game) and FEN lists (JSON is
:mod:`pdn.writing.jsonio`). Every cell taken from a file goes through
:func:`pdn.text.safe_text.csv_cell`.

>>> import pdn
>>> game = pdn.parse_game("1. 11-15 23-19 *")
>>> fen_lines(pdn.validate(game))[-1]
'B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from pdn.engine import move_text
from pdn.game.model import Game
from pdn.rules.openings import classify
from pdn.rules.validation import Report
from pdn.text.safe_text import csv_cell

CSV_FIELDS = ("game", "ply", "side", "move", "path", "fen_after")

#: The tag columns of the per-game CSV unless others are asked for.
GAME_CSV_TAGS: tuple[str, ...] = (
    "Event", "Site", "Date", "Round", "Black", "White", "Result", "GameType",
)  # fmt: skip

#: The columns of the per-game CSV that follow its tag columns.
GAME_CSV_FIELDS: tuple[str, ...] = ("result", "plies", "ballot", "status", "errors")


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


def game_csv_header(tags: Sequence[str] = GAME_CSV_TAGS) -> list[str]:
    """The header row of the per-game CSV: file, game, line, the tag columns (named as the
    tags are), then :data:`GAME_CSV_FIELDS`.

    The names are unique ignoring case, as SQL imports need: a column of pdn's own whose name
    a tag column has is prefixed ``pdn_`` (``pdn_result`` beside the ``Result`` tag), and a tag
    name written again in another case gets ``_2``, ``_3``...

    >>> game_csv_header(["Black", "Result"])
    ['file', 'game', 'line', 'Black', 'Result', 'pdn_result', 'plies', 'ballot', 'status', 'errors']
    """
    taken: set[str] = set()

    def unique(name: str, ours: bool) -> str:
        chosen, number = name, 1
        while chosen.casefold() in taken:
            number += 1
            chosen = f"pdn_{chosen}" if ours else f"{name}_{number}"
        taken.add(chosen.casefold())
        return chosen

    tag_columns = [unique(tag, ours=False) for tag in tags]
    file, game, line, *fields = (unique(name, ours=True) for name in _OWN_COLUMNS)
    return [file, game, line, *tag_columns, *fields]


_OWN_COLUMNS = ("file", "game", "line", *GAME_CSV_FIELDS)


def game_csv_row(
    file: str, game: Game, report: Report, tags: Sequence[str] = GAME_CSV_TAGS
) -> list[str]:
    """One game as a CSV row (see :func:`game_csv_header`): its tags (the first value of each,
    empty when absent), the result it ends with (the Result tag, else the terminator), the
    mainline plies written, the ACF ballot number of an English game (empty otherwise), the
    validation status and the number of errors.

    >>> import pdn
    >>> game = pdn.parse_game('[Black "=cmd"]\\n1. 11-15 23-19 2. 8-11 22-17 *')
    >>> game_csv_row("f.pdn", game, pdn.validate(game))[7:]
    ["'=cmd", '', '', '', '*', '4', '126', 'ok', '0']
    """
    opening = classify(game, report) if report.variant is not None else None
    ballot = str(opening.number) if opening is not None and opening.kind == "ballot" else ""
    plies = sum(1 for node in game.mainline() if node.move is not None)
    errors = sum(1 for problem in report.all_problems if problem.severity == "error")
    cells = [file, str(game.index), str(game.line)]
    cells += [game.tags.get(name) or "" for name in tags]
    cells += [game.result or "", str(plies), ballot, report.status, str(errors)]
    return [str(csv_cell(cell)) for cell in cells]


def csv_text(
    rows: Iterable[Sequence[str]],
    *,
    header: bool = True,
    fields: Sequence[str] = CSV_FIELDS,
) -> str:
    """CSV text (RFC 4180 quoting, ``\\n`` line ends) for rows of ``fields`` (the per-ply
    :data:`CSV_FIELDS` unless told), with a header row first when ``header``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if header:
        writer.writerow(fields)
    writer.writerows(rows)
    return buffer.getvalue()


def fen_lines(report: Report) -> list[str]:
    """The FEN of the start position and after every mainline ply, one per entry."""
    fens = [report.start.fen()] if report.start is not None else []
    fens += [step.after.fen() for step in report.mainline_steps() if step.after is not None]
    return fens
