"""Reading a viewer page back in Python: its list, its games' data, and the boards the data
gives, so that tests compare what the page would show with the engine's positions."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pdn
from pdn.engine import VARIANTS, Position
from pdn.rules.validation import validate
from pdn.text.notation import move_texts
from pdn.writing.jsonio import loads
from pdn_engine.picture import letters

_CHANGE = re.compile(r"(\d+)([.bwBW])")


@dataclass(slots=True)
class Page:
    """The two data blocks of a page, decoded."""

    meta: dict[str, Any]
    games: list[dict[str, Any]]


def read_page(page: str) -> Page:
    """The page's meta block and its NDJSON game lines, parsed."""
    meta = re.search(r'<script type="application/json" id="pdnv-\d+-meta">(.*?)</script>', page)
    block = re.search(
        r'<script type="application/x-ndjson" id="pdnv-\d+-games">\n(.*?)</script>', page, re.S
    )
    assert meta is not None and block is not None
    lines = block.group(1).split("\n")
    assert lines[-1] == ""
    return Page(loads(meta.group(1)), [loads(line) for line in lines[:-1]])  # at any depth


def move_of(item: Any) -> dict[str, Any]:
    """A move of the list in its object form (plain moves are ``[text, change]``)."""
    if isinstance(item, list):
        return {"s": item[0], **({"d": item[1]} if len(item) > 1 else {})}
    assert isinstance(item, dict)
    return item


def apply(pieces: str, change: str) -> tuple[str, str]:
    """The board and side to move after a change string (the page's own rule)."""
    cells = list(pieces)
    for square, piece in _CHANGE.findall(change[1:]):
        cells[int(square) - 1] = piece
    return "".join(cells), change[0]


def walk(items: list[Any], pieces: str) -> Iterator[tuple[dict[str, Any], str | None]]:
    """Every move of the tree in written order (a move, then its alternatives, then the next
    move) with the board after it, ``None`` when it carries no change."""
    for item in items:
        move = move_of(item)
        after = apply(pieces, move["d"])[0] if "d" in move else None
        yield move, after
        for line in move.get("vars", []):
            yield from walk(line, pieces)
        if after is not None:
            pieces = after


def engine_boards(game: pdn.Game) -> list[str | None]:
    """The engine's board after every node of the game, in written order (``None`` when the
    validator could not replay it)."""
    report = validate(game)
    steps = {id(step.node): step for step in report.steps}
    out: list[str | None] = []
    for node, _ in game.walk():
        step = steps.get(id(node))
        out.append(letters(step.after) if step is not None and step.after is not None else None)
    return out


def opening(variant: str, plies: int) -> tuple[pdn.Game, list[Position]]:
    """A game of ``variant`` of its first legal move ``plies`` times, and its positions from
    the start (for a page of every variant's board)."""
    rules = VARIANTS[variant]
    position = Position.start(rules)
    texts, positions = [], [position]
    for _ in range(plies):
        legal = position.legal_moves()
        texts.append(move_texts(legal, rules)[0])
        position = position.play(legal[0])
        positions.append(position)
    return pdn.parse_game(" ".join(texts) + " *"), positions
