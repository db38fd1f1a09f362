"""The opening explorer in a browser: a page to click through a tree, and the viewer's panel.

``pdn explore FILES --format html`` writes :func:`explorer_html`: one self-contained page (no
network; its script and style inline, allowed by a Content-Security-Policy naming their
SHA-256, as the viewer's page is) that starts at the position asked (the root) and shows its
board, its figures and its replies; a click on a reply goes to the position after it, with the
line played from the root as a breadcrumb and in the address's ``#`` part, so that the
browser's back button steps back. The page holds the nodes of
:meth:`Tree.walk <pdn.study.explore.tree.Tree.walk>` from the root: the replies played in at least
``min_games`` games, at most ``plies`` plies below the root, and no more than ``max_nodes``
positions (the most played first, so that the main lines are followed to their end before
the side lines near the root); the page says how many
replies lead to positions it left out, and which options bring them in.

``pdn view FILES --explorer`` adds :func:`panel_data` to the viewer: the collection's replies at
every mainline position of the shown games up to ``depth`` plies, from a tree built with
:func:`panel_tree`, which counts only those positions (``Tree(within=...)``), so that its size
follows the shown games, not the whole collection.

No rules in the page: each reply carries the squares the engine says it changes
(:func:`pdn.view.viewer.ply_change`), the board (:file:`pdn/view/assets/board.js`, the viewer's
own drawing) applies them. Every value from a file (player and opening names) goes through
:mod:`pdn.text.safe_text` and into JSON escaped for ``<script>``
(:func:`pdn.view.viewer.script_json`).

>>> import pdn
>>> from pdn.study.explore.tree import Tree
>>> tree = Tree(players_at=[Position.start(pdn.engine.ENGLISH)])
>>> tree.add_game(pdn.parse_game('[Black "<i>&</i>"] 1. 11-15 23-19 *'))
>>> page = explorer_html(tree, tree.start())
>>> "<i>" in page, "\\\\u003ci\\\\u003e\\\\u0026" in page
(False, True)
"""

from __future__ import annotations

import html
import itertools
import sys
from collections.abc import Callable, Iterable
from typing import Any

from pdn.collections.batch import Input
from pdn.engine import Position, Variant, letters
from pdn.study.explore.render import shown_replies
from pdn.study.explore.tree import (
    DEFAULT_DEPTH,
    Figures,
    Node,
    Tree,
    build,
    key_position,
    lines,
)
from pdn.text.safe_text import one_line, printable

from .viewer import asset, board_geometry, csp_source, ply_change, script_json

__all__ = [
    "MAX_NODES",
    "PAGE_PLIES",
    "explorer_data",
    "explorer_html",
    "panel_data",
    "panel_key",
    "panel_tree",
]

#: How many plies below the root the page follows replies (``pdn explore --plies``).
PAGE_PLIES = 10

#: The most positions one page holds (``pdn explore --max-nodes``). OCA 2.0 from the start:
#: 5,000 positions make a page of about 0.9 MB (6,976 positions lie within 8 plies).
MAX_NODES = 5000

JsonDict = dict[str, Any]


def _figures(figures: Figures) -> list[Any]:
    """``[win, draw, loss, unknown, score, first date, last date]``: the games are their sum."""
    return [
        figures.win,
        figures.draw,
        figures.loss,
        figures.unknown,
        figures.score,
        figures.first_date,
        figures.last_date,
    ]


def _node_head(node: Node) -> JsonDict:
    out: JsonDict = {"f": _figures(node.figures)}
    if node.name:
        out["n"] = one_line(node.name)
    if node.players is not None:
        out["pl"] = [[one_line(name), n] for name, n in node.players]
    return out


def explorer_data(
    tree: Tree,
    root: Position,
    *,
    min_games: int = 1,
    plies: int = PAGE_PLIES,
    max_nodes: int = MAX_NODES,
    line: str | None = "",
) -> JsonDict:
    """What the explorer's page embeds: the board's geometry, the root's pieces and side to
    move, and its nodes (the root first, as :meth:`Tree.walk_plies` gives them, at most
    ``max_nodes``), each with its figures and its replies played in at least ``min_games``
    games as ``[move, figures, games that reached the position after it, index of that
    node or -1, the squares the move changes]``; with what was left out.

    >>> import pdn
    >>> from pdn.study.explore.tree import Tree
    >>> tree = Tree()
    >>> tree.add_game(pdn.parse_game("1. 11-15 23-19 1-0"))
    >>> data = explorer_data(tree, tree.start())
    >>> [reply[0] for node in data["nodes"] for reply in node["r"]]
    ['11-15', '23-19']
    """
    if max_nodes < 1:
        raise ValueError("max_nodes must be 1 or more")
    # (islice takes no more than sys.maxsize: a larger bound is no bound.)
    walked = tree.walk_plies(root, plies=plies, min_games=min_games)
    nodes = list(itertools.islice(walked, min(max_nodes, sys.maxsize)))
    index = {node.position: i for i, (_, node) in enumerate(nodes)}
    out_nodes: list[JsonDict] = []
    past_plies = capped = 0
    for level, node in nodes:
        replies = []
        below = level + 1
        for reply in shown_replies(node, min_games):
            target = index.get(reply.position, -1)
            if target < 0 and below > plies:
                past_plies += 1
            elif target < 0:
                capped += 1
            replies.append(
                [
                    reply.move,
                    _figures(reply.figures),
                    reply.reached.games,
                    target,
                    ply_change(node.position, reply.position),
                ]
            )
        data = _node_head(node)
        data["r"] = replies
        hidden = len(node.replies) - len(replies)
        if hidden:
            data["h"] = hidden
        out_nodes.append(data)
    variant = root.variant
    return {
        "board": board_geometry(variant),
        "variant": variant.name,
        "root": letters(root),
        "turn": root.turn.letter,
        "nodes": out_nodes,
        "plies": plies,
        "min_games": min_games,
        "max_nodes": max_nodes,
        "line": line,
        "past_plies": past_plies,
        "capped": capped,
        "summary": printable(tree.summary(variant)),
    }


def explorer_html(
    tree: Tree,
    root: Position,
    *,
    min_games: int = 1,
    plies: int = PAGE_PLIES,
    max_nodes: int = MAX_NODES,
    line: str | None = "",
    title: str = "Opening explorer",
) -> str:
    """The explorer's page for ``tree`` from ``root`` (see :func:`explorer_data` for what it
    holds), a whole HTML document."""
    data = explorer_data(
        tree, root, min_games=min_games, plies=plies, max_nodes=max_nodes, line=line
    )
    style = asset("viewer.css") + asset("explorer.css")
    script = f"{asset('board.js')}\n{asset('explorer.js')}\nPdnExplorer.mount('pdnx');"
    policy = f"default-src 'none'; style-src {csp_source(style)}; script-src {csp_source(script)}"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(printable(title))}</title>\n"
        f"<style>{style}</style>\n</head><body>\n"
        f'<div class="pdn-explorer pdn-viewer" id="pdnx"></div>\n'
        f'<script type="application/json" id="pdnx-data">{script_json(data)}</script>\n'
        f"<script>{script}</script>\n</body></html>\n"
    )


# ----------------------------------------------------------------------------- the viewer's panel


def panel_key(position: Position) -> str:
    """The name the viewer's script looks a position up by: its variant, side to move and
    pieces, as the script knows them at each ply of a game.

    >>> from pdn.engine import ENGLISH
    >>> panel_key(Position.start(ENGLISH))[:12]
    'english:Bbbb'
    """
    return f"{position.variant.name}:{position.turn.letter}{letters(position)}"


def panel_tree(
    shown: Iterable[Input],
    *,
    archives: Iterable[Input] = (),
    depth: int = DEFAULT_DEPTH,
    variant: str | None = None,
    jobs: int = 1,
    encoding: str | None = None,
    tick: Callable[[], None] | None = None,
) -> tuple[Tree, list[Position]]:
    """The tree the viewer's panel shows, and the positions it is asked at: the games of
    ``shown`` (each replayed as ``pdn validate`` does) and of ``archives``, counted only at
    the first ``depth`` plies of the shown games' mainlines (with the moves from there).
    The shown games' lines are kept between the two steps, so they are replayed once here.

    >>> tree, asked = panel_tree(["examples/german-open-2004.pdn"], depth=4)
    >>> tree.node(asked[0]).figures.games == tree.variants()["english"]
    True
    """
    read = list(lines(shown, depth, variant=variant, jobs=jobs, encoding=encoding))
    keys: dict[int, None] = {}
    for line in read:
        if line is not None:
            keys.update(dict.fromkeys(line.keys))
    asked = [key_position(key) for key in keys]
    tree = Tree(depth, within=asked)
    for line in read:
        if line is None:
            tree.add_unplayable()
        else:
            tree.add_line(line)
        if tick is not None:
            tick()
    # Peeked at, not listed: a progress bar's sources open each file only when it is read.
    more = iter(archives)
    first = next(more, None)
    if first is not None:
        tree.merge(
            build(
                itertools.chain([first], more),
                depth,
                variant=variant,
                within=asked,
                jobs=jobs,
                encoding=encoding,
                tick=tick,
            )
        )
    return tree, asked


def panel_data(tree: Tree, positions: Iterable[Position]) -> JsonDict:
    """What the viewer's panel embeds: for each of ``positions`` (by :func:`panel_key`), its
    figures and replies (``[move, figures, games that reached the position after it, the
    squares the move changes]``), and the tree's depth and summary."""
    nodes: dict[str, JsonDict] = {}
    variants: dict[str, Variant] = {}
    for position in positions:
        node = tree.node(position)
        data = _node_head(node)
        data["r"] = [
            [
                reply.move,
                _figures(reply.figures),
                reply.reached.games,
                ply_change(position, reply.position),
            ]
            for reply in node.replies
        ]
        nodes[panel_key(position)] = data
        variants.setdefault(position.variant.name, position.variant)
    return {
        "depth": tree.depth,
        "nodes": nodes,
        "summary": "; ".join(printable(tree.summary(v)) for v in variants.values()),
    }
