"""Inputs and facts for the explorer's tests and benchmarks.

Random legal English games as PDN text: inputs whose positions are nearly all distinct, for
memory that must not grow with the input (copies of one file add games but no new
positions), seeded so that the same call gives the same text. And everything a tree says,
as plain values, to compare two trees built differently."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pdn.engine import ENGLISH, Position
from pdn.study.explore.tree import Tree
from pdn.text.notation import move_texts

_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def random_games(count: int, plies: int = 40, seed: int = 0) -> str:
    """``count`` games of at most ``plies`` random legal plies each, with random results and
    dates (game ``i`` of seed ``s`` is the same whatever ``count``)."""
    out = []
    for i in range(count):
        rng = random.Random(f"{seed}:{i}")
        position = Position.start(ENGLISH)
        words = []
        for ply in range(plies):
            legal = position.legal_moves()
            if not legal:
                break
            choice = rng.randrange(len(legal))
            if ply % 2 == 0:
                words.append(f"{ply // 2 + 1}.")
            words.append(move_texts(legal, ENGLISH)[choice])
            position = position.play(legal[choice])
        result = rng.choice(_RESULTS)
        date = f"{rng.randrange(1900, 2030)}.{rng.randrange(1, 13):02d}.??"
        out.append(
            f'[Event "random {seed}:{i}"]\n[Date "{date}"]\n[GameType "21"]\n'
            f'[Result "{result}"]\n{" ".join(words)} {result}\n\n'
        )
    return "".join(out)


def random_file(folder: Path, count: int, plies: int = 40, seed: int = 0) -> Path:
    """A file of :func:`random_games` in ``folder``, written once and then reused."""
    path = folder / f"random-{count}-{plies}-{seed}.pdn"
    if not path.exists():
        partial = path.with_suffix(".part")
        partial.write_text(random_games(count, plies, seed), encoding="utf-8")
        partial.replace(path)
    return path


def tree_facts(tree: Tree) -> dict[str, Any]:
    """Every position's and move's figures (dates too), the summary and the counts of games
    of ``tree``, and the node of its start with its replies, as comparable values."""
    positions = {(p.variant.name, p.fen()): f for p, f in tree.positions()}
    moves = {(a.variant.name, a.fen(), b.fen()): f for a, b, f in tree.moves()}
    assert len(positions) == sum(1 for _ in tree.positions())  # each position once
    assert len(moves) == sum(1 for _ in tree.moves())
    facts: dict[str, Any] = {
        "positions": positions,
        "moves": moves,
        "summary": tree.summary(),
        "games": tree.games,
        "variants": tree.variants(),
        "stopped": tree.stopped(),
        "unplayable": tree.unplayable,
    }
    if tree.main_variant() is not None:
        facts["start"] = [node.to_dict() for node in tree.walk(tree.start(), plies=3)]
    return facts
