"""What ``pdn explore`` prints of a position of an opening tree: text and JSON.

The tree and its figures are :mod:`pdn.study.explore.tree`; this module lays them out.
"""

from __future__ import annotations

from typing import Any

from pdn.rules.openings import compact_fen
from pdn.text.safe_text import one_line
from pdn.text.schema import SCHEMA
from pdn.text.tables import Column, Table

from .tree import Figures, Node, Reply, Tree

__all__ = ["render_text", "shown_replies", "to_json"]


_REPLY_COLUMNS: list[Column] = [
    ("move", "Move", False),
    ("games", "Games", True),
    ("win", "Win", True),
    ("draw", "Draw", True),
    ("loss", "Loss", True),
    ("unknown", "Unknown", True),
    ("score", "Score %", True),
    ("dates", "Dates", False),
    ("reached", "Reached", True),
    ("note", "Note", False),
]


def _dates(figures: Figures) -> str:
    if figures.first_date is None:
        return ""
    if figures.first_date == figures.last_date:
        return figures.first_date
    return f"{figures.first_date} - {figures.last_date}"


def _results_line(figures: Figures) -> str:
    score = "" if figures.score is None else f", score {figures.score:.1f}%"
    return (
        f"{figures.win} won, {figures.draw} drawn, {figures.loss} lost, "
        f"{figures.unknown} unknown{score}"
    )


def shown_replies(node: Node, min_games: int = 1) -> tuple[Reply, ...]:
    """The replies of ``node`` played in at least ``min_games`` games."""
    return tuple(reply for reply in node.replies if reply.figures.games >= min_games)


def render_text(tree: Tree, node: Node, *, min_games: int = 1) -> str:
    """The position, its figures and its replies as ``pdn explore`` prints them.

    >>> import pdn
    >>> from pdn.study.explore.tree import Tree
    >>> tree = Tree()
    >>> tree.add_game(pdn.parse_game("1. 11-15 23-19 1-0"))
    >>> print(render_text(tree, tree.node()))  # doctest: +NORMALIZE_WHITESPACE
    Position   B:W21-32:B1-12 (english, Black to move)
    Games      1: 1 won, 0 drawn, 0 lost, 0 unknown, score 100.0% for Black
    <BLANKLINE>
    Move   Games  Win  Draw  Loss  Unknown  Score %  Dates  Reached  Note
    -----  -----  ---  ----  ----  -------  -------  -----  -------  ----
    11-15      1    1     0     0        0    100.0               1
    <BLANKLINE>
    1 english game, the first 30 plies; rules: a guess from the squares the moves use 1
    """

    position, figures = node.position, node.figures
    side = position.turn.label
    head = [
        ("Position", f"{compact_fen(position)} ({position.variant.name}, {side} to move)"),
    ]
    if node.name:
        head.append(("Opening", node.name))
    score = "" if figures.score is None else f" for {side}"
    head.append(("Games", f"{figures.games}: {_results_line(figures)}{score}"))
    if figures.first_date is not None:
        head.append(("Dates", _dates(figures)))
    if node.players:
        head.append(("Players", ", ".join(f"{name} {n}" for name, n in node.players)))
    lines = [f"{label:<10} {one_line(value, squeeze=True)}" for label, value in head]
    replies = shown_replies(node, min_games)
    out = "\n".join(lines) + "\n\n"
    if replies:
        rows = []
        for reply in replies:
            f = reply.figures
            note = f"transposition: {reply.reached.games - f.games} more by other orders"
            rows.append(
                [
                    reply.move,
                    str(f.games),
                    str(f.win),
                    str(f.draw),
                    str(f.loss),
                    str(f.unknown),
                    "" if f.score is None else f"{f.score:.1f}",
                    _dates(f),
                    str(reply.reached.games),
                    note if reply.transposition else "",
                ]
            )
        out += Table(_REPLY_COLUMNS, rows, squeeze=True).text() + "\n"
    elif figures.games:
        out += "No game went on from here within the depth.\n\n"
    else:
        out += "No game of the collection reached this position within the depth.\n\n"
    hidden = len(node.replies) - len(replies)
    if hidden:
        replies_text = "reply" if hidden == 1 else "replies"
        out += f"{hidden} {replies_text} played in fewer than {min_games} games not shown.\n"
    return out + tree.summary(position.variant) + "\n"


def to_json(tree: Tree, node: Node, *, min_games: int = 1) -> dict[str, Any]:
    """What ``pdn explore --format json`` writes (``docs/json.md``): the position's figures,
    its replies and a summary of what went into the tree.

    >>> import pdn
    >>> from pdn.study.explore.tree import Tree
    >>> tree = Tree()
    >>> tree.add_game(pdn.parse_game("1. 11-15 23-19 1-0"))
    >>> data = to_json(tree, tree.node())
    >>> data["games"], data["results"]["win"], data["replies"][0]["move"]
    (1, 1, '11-15')
    """
    variant = node.position.variant
    out = {"schema": SCHEMA, "type": "explorer", **node.to_dict()}
    out["replies"] = [reply.to_dict() for reply in shown_replies(node, min_games)]
    stopped = tree.stopped(variant.name)
    out["summary"] = {
        "depth": tree.depth,
        "games": tree.variants()[variant.name],
        "stopped_illegal": stopped["illegal"],
        "stopped_setup": stopped["setup"],
        "rules": dict(sorted(tree.rules(variant.name).items())),
        "other_rules": {n: c for n, c in sorted(tree.variants().items()) if n != variant.name},
        "unplayable": tree.unplayable,
        "min_games": min_games,
        "replies_hidden": len(node.replies) - len(out["replies"]),
    }
    return out
