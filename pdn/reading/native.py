"""The code of pdn that takes a different way in the accelerated (mypyc) build: making nodes.

The engine's flag :data:`pdn.engine.COMPILED` says which build runs (one flag, kept by the
engine, since all compiled modules are compiled together); the engine's own two-way code is
``pdn_engine.native``.
"""

from __future__ import annotations

from collections.abc import Sequence

from pdn.engine import COMPILED
from pdn.game.model import Node

__all__ = ["chain_nodes"]

_new_node = object.__new__


def chain_nodes(
    parent: Node,
    moves: Sequence[str],
    numbers: Sequence[str | None],
    lines: Sequence[int | None],
    columns: Sequence[int | None],
) -> Node:
    """Nodes for ``moves``, each the next move of the one before, from ``parent`` on; the last.

    This makes almost every node of an archive (:class:`~pdn.reading.builder.GameBuilder`'s loop).
    Compiled, ``Node``'s constructor is the fast way (and ``object.__new__(Node)`` is refused
    there); in Python, filling the slots skips ``__init__``'s argument handling, a tenth of the
    reading time. Either way the nodes are those the constructor makes.

    >>> root = Node()
    >>> last = chain_nodes(root, ["11-15", "23-19"], ["1.", None], [1, 1], [1, 10])
    >>> last.move, last.parent.move, last.parent.parent is root, last.column
    ('23-19', '11-15', True, 10)
    """
    rows = zip(moves, numbers, lines, columns, strict=True)
    if COMPILED:
        for move, number, line, column in rows:
            node = Node(move, None, number, parent=parent, line=line, column=column)
            parent.variations.append(node)
            parent = node
        return parent
    for move, number, line, column in rows:
        node = _new_node(Node)
        node.move = move
        node.setup = node.strength = node._nags = node._before = node._after = None
        node.number = number
        node.variations = []
        node.parent = parent
        node.line = line
        node.column = column
        parent.variations.append(node)
        parent = node
    return parent
