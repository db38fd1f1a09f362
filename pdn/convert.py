"""Converting games: between notations (numeric/algebraic squares, short/full captures) and
between formats (PDN, JSON, NDJSON, CSV, FEN lists), streaming game by game.

Only moves that replay legally are rewritten; an illegal move has no single meaning, so it keeps
the text it was written with (and is counted, so the caller can say so).

>>> import pdn
>>> game = pdn.parse_game("1. 11-15 24-19 2. 15x24 28x19 *")
>>> rewrite_moves(game, squares="algebraic")
0
>>> [node.move for node in game.mainline()]
['f6-e5', 'g3-f4', 'e5xg3', 'h2xf4']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .export import csv_rows, csv_text, fen_lines
from .jsonio import SCHEMA, dumps, game_to_dict
from .model import Game
from .notation import move_text, move_texts, parse_move
from .validation import Report, validate
from .writer import write_game

FORMATS = ("pdn", "json", "ndjson", "csv", "fen")


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """What a conversion does; ``None`` for ``squares``/``captures`` keeps them as written."""

    fmt: str = "pdn"
    squares: str | None = None  # "numeric" | "algebraic"
    captures: str | None = None  # "short" | "full"
    normalize: bool = False
    variant: str | None = None


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece of output text, and how many moves in it could not be rewritten."""

    text: str
    problems: int = 0


def rewrite_moves(
    game: Game,
    report: Report | None = None,
    *,
    squares: str | None = None,
    captures: str | None = None,
) -> int:
    """Rewrite the move texts of every legally replayed move in place; returns how many moves
    needed rewriting but could not be (illegal moves keep their text).

    ``squares``: ``"numeric"`` or ``"algebraic"``; ``captures``: ``"full"`` paths, or
    ``"short"`` (the full path is kept where the short form would be ambiguous). ``None`` keeps
    each aspect as written.
    """
    if squares is None and captures is None:
        return 0
    report = validate(game) if report is None else report
    variant = report.variant
    if variant is None:
        return sum(1 for node, _ in game.walk() if node.move is not None)
    if squares is not None and game.variant_source != "gametype" and "GameType" not in game.tags:
        # Without it, a reader would guess the variant from the new squares (algebraic squares
        # suggest Russian) and misread the game.
        game.tags.add("GameType", str(variant.game_type))
    skipped = 0
    for step in report.steps:
        node = step.node
        if node.move is None:
            continue
        if step.move is None:  # illegal: it has no single meaning to rewrite
            skipped += 1
            continue
        written = parse_move(node.move)
        algebraic = written.algebraic if squares is None else squares == "algebraic"
        if captures == "full" or (captures is None and len(written.squares) > 2):
            node.move = move_text(step.move, variant, full=True, algebraic=algebraic)
            continue
        legal = step.before.legal_moves()
        texts = move_texts(legal, variant, algebraic=algebraic)
        node.move = texts[legal.index(step.move)] if step.move in legal else node.move
    return skipped


def convert_games(games: Iterable[tuple[str, Game]], options: ConvertOptions) -> Iterator[Piece]:
    """The converted text of ``(file name, game)`` pairs, piece by piece, in order."""
    if options.fmt not in FORMATS:
        raise ValueError(f"unknown format {options.fmt!r}; expected one of {', '.join(FORMATS)}")
    if options.fmt == "json":
        yield Piece(f'{{"schema": "{SCHEMA}", "type": "games", "games": [\n')
    first = True
    for _, game in games:
        report = validate(game, options.variant)
        # Rewriting changes move texts only: the replayed steps and positions still hold.
        skipped = rewrite_moves(game, report, squares=options.squares, captures=options.captures)
        yield Piece(_one(game, report, options, first), skipped)
        first = False
    if options.fmt == "json":
        yield Piece("\n]}\n")


def _one(game: Game, report: Report, options: ConvertOptions, first: bool) -> str:
    fmt = options.fmt
    if fmt == "pdn":
        return ("" if first else "\n") + write_game(game, normalize=options.normalize)
    if fmt == "json":
        return ("" if first else ",\n") + dumps(game_to_dict(game, report))
    if fmt == "ndjson":
        return dumps(game_to_dict(game, report)) + "\n"
    if fmt == "csv":
        return csv_text(csv_rows(game, report, game.index), header=first)
    return ("" if first else "\n") + "\n".join(fen_lines(report)) + "\n"
