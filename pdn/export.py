"""Games as JSON (lossless, reads back), CSV (one row per ply) and FEN lists.

JSON keeps everything the PDN writer keeps (tags in order, the move tree with comments, NAGs,
strength, move numbers and variations, setup commands, the terminator) and adds what replay
knows: the full capture path and the FEN after every ply.

>>> import pdn
>>> game = pdn.parse_game('[Event "x"]\\n1. 11-15 {good} 23-19 *')
>>> data = game_to_dict(game)
>>> game_from_dict(data) == game
True
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from .model import Comment, Game, Node, Tags
from .notation import move_text
from .validation import Report, Step

JsonDict = dict[str, Any]


def _steps_by_node(report: Report | None) -> dict[int, Step]:
    return {} if report is None else {id(step.node): step for step in report.steps}


def _comments(comments: Sequence[Comment]) -> list[JsonDict]:
    return [{"text": c.text, "kind": c.kind} for c in comments]


def _node_dict(node: Node, steps: dict[int, Step], report: Report | None) -> JsonDict:
    data: JsonDict = {}
    if node.setup is not None:
        data["setup"] = node.setup
    else:
        data["move"] = node.move
    if node.number is not None:
        data["number"] = node.number
    if node.strength is not None:
        data["strength"] = node.strength
    if node.nags:
        data["nags"] = list(node.nags)
    if node.comments_before:
        data["comments_before"] = _comments(node.comments_before)
    if node.comments_after:
        data["comments_after"] = _comments(node.comments_after)
    step = steps.get(id(node))
    if step is not None and report is not None and report.variant is not None:
        data["ply"] = step.ply
        if step.move is not None:
            data["path"] = move_text(step.move, report.variant, full=True)
        if step.after is not None:
            data["fen"] = step.after.fen()
    return data


def _line(first: Node, steps: dict[int, Step], report: Report | None) -> list[JsonDict]:
    """A line of play starting at ``first``; each node lists its alternatives as variations."""
    line: list[JsonDict] = []
    node: Node | None = first
    while node is not None:
        data = _node_dict(node, steps, report)
        parent = node.parent
        if parent is not None and parent.variations and parent.variations[0] is node:
            alternatives = parent.variations[1:]
            if alternatives:
                data["variations"] = [_line(alt, steps, report) for alt in alternatives]
        line.append(data)
        node = node.variations[0] if node.variations else None
    return line


def game_to_dict(game: Game, report: Report | None = None) -> JsonDict:
    """A JSON-ready dictionary of the whole game; with a validation report, each replayed ply
    also carries ``ply``, ``path`` (full capture path) and ``fen`` (position after it)."""
    steps = _steps_by_node(report)
    root = game.root
    data: JsonDict = {
        "tags": [[name, value] for name, value in game.tags.items()],
        "variant": game.variant,
        "comments": _comments(root.comments_after),
        "moves": [],
        "terminator": game.terminator,
    }
    if root.variations:
        data["moves"] = _line(root.variations[0], steps, report)
        if len(root.variations) > 1:
            data["variations"] = [_line(alt, steps, report) for alt in root.variations[1:]]
    if report is not None:
        data["status"] = report.status
        data["problems"] = [p.to_dict() for p in report.all_problems]
        if report.start is not None:
            data["start_fen"] = report.start.fen()
    return data


def _read_comments(items: Iterable[JsonDict]) -> list[Comment]:
    return [Comment(item["text"], item.get("kind", "brace")) for item in items]


def _read_line(parent: Node, items: Sequence[JsonDict]) -> None:
    """Hang the line ``items`` under ``parent`` as its next main continuation."""
    for item in items:
        node = Node(
            move=item.get("move"),
            setup=item.get("setup"),
            number=item.get("number"),
            strength=item.get("strength"),
            nags=list(item.get("nags", [])),
            comments_before=_read_comments(item.get("comments_before", [])),
            comments_after=_read_comments(item.get("comments_after", [])),
        )
        node.parent = parent
        parent.variations.append(node)
        for variation in item.get("variations", []):
            _read_line(parent, variation)
        parent = node


def game_from_dict(data: JsonDict) -> Game:
    """Rebuild a :class:`~pdn.model.Game` from :func:`game_to_dict` output."""
    tags = Tags()
    for name, value in data.get("tags", []):
        tags.add(name, value)
    game = Game(tags=tags, terminator=data.get("terminator"), variant=data.get("variant"))
    game.root.comments_after = _read_comments(data.get("comments", []))
    _read_line(game.root, data.get("moves", []))
    for variation in data.get("variations", []):
        _read_line(game.root, variation)
    return game


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
