"""Converting games: between notations (numeric/algebraic squares, short/full captures) and
between formats (PDN, JSON, NDJSON, CSV per ply or per game, FEN lists), streaming game by
game, optionally without comments, variations, NAGs or some tags (:mod:`pdn.stripping`, one
filter for every format).

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
from dataclasses import dataclass, field

from .export import GAME_CSV_TAGS, csv_rows, csv_text, fen_lines, game_csv_header, game_csv_row
from .jsonio import SCHEMA, dumps, game_to_dict
from .model import Game
from .notation import move_text, move_texts, parse_move
from .stripping import StripOptions, strip_game
from .validation import Report, validate
from .writer import write_game

FORMATS = ("pdn", "json", "ndjson", "csv", "csv-games", "fen")


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """What a conversion does; ``None`` for ``squares``/``captures`` keeps them as written."""

    fmt: str = "pdn"
    squares: str | None = None  # "numeric" | "algebraic"
    captures: str | None = None  # "short" | "full"
    normalize: bool = False
    variant: str | None = None
    strip: StripOptions = field(default_factory=StripOptions)

    @property
    def game_columns(self) -> tuple[str, ...]:
        """The tag columns of ``csv-games``: those ``strip`` keeps of the usual ones, or the
        ones it keeps when it names them."""
        names = self.strip.keep_tags if self.strip.keep_tags is not None else GAME_CSV_TAGS
        return tuple(name for name in names if self.strip.keeps_tag(name))


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
    for name, game in games:
        game = strip_game(game, options.strip)
        report = validate(game, options.variant)
        # Rewriting changes move texts only: the replayed steps and positions still hold.
        skipped = rewrite_moves(game, report, squares=options.squares, captures=options.captures)
        if options.fmt == "csv-games":
            row = game_csv_row(name, game, report, options.game_columns)
            header = game_csv_header(options.game_columns)
            yield Piece(csv_text([row], header=first, fields=header), skipped)
        else:
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
