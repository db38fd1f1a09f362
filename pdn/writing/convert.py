"""Converting games: between notations (numeric/algebraic squares, short/full captures) and
between formats (PDN, JSON, NDJSON, CSV per ply or per game, FEN lists), streaming game by
game, optionally without comments, variations, NAGs or some tags (:mod:`pdn.writing.stripping`, one
filter for every format).

Only moves that replay legally are rewritten (:mod:`pdn.writing.rewriting`); an illegal move has no
single meaning, so it keeps the text it was written with, in every mode (and is counted, so the
caller can say so).

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

from pdn.game.excerpts import split_variations, truncate
from pdn.game.model import Game
from pdn.reading.recording import Recorded, game_of
from pdn.rules.replays import Replays
from pdn.rules.validation import Report, validate

from .export import GAME_CSV_TAGS, csv_rows, csv_text, fen_lines, game_csv_header, game_csv_row
from .jsonio import SCHEMA, game_json
from .rewriting import rewrite_moves
from .stripping import StripOptions, strip_game
from .writer import PdnWriter

__all__ = ["FORMATS", "ConvertOptions", "Piece", "convert_games", "rewrite_moves"]

FORMATS = ("pdn", "json", "ndjson", "csv", "csv-games", "fen")


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """What a conversion does; ``None`` for ``squares``/``captures`` keeps them as written."""

    fmt: str = "pdn"
    squares: str | None = None  # "numeric" | "algebraic"
    captures: str | None = None  # "short" | "full"
    separator: str | None = None  # "x" | ":"; None: the variant's (pdn.text.notation)
    normalize: bool = False
    variant: str | None = None
    strip: StripOptions = field(default_factory=StripOptions)
    max_plies: int | None = None  # every line cut after this ply (pdn.game.excerpts.truncate)
    split_variations: bool = False  # each variation as a game (pdn.game.excerpts)
    columns: int = 80  # PDN line width
    move_numbers: bool = True  # PDN: False writes none

    @property
    def replays(self) -> bool:
        """Whether the games must be replayed: to rewrite moves, or for a format that carries
        what the replay finds (positions, verdicts). A faithful PDN copy needs none."""
        rewrites = (self.squares, self.captures, self.separator) != (None, None, None)
        return self.fmt != "pdn" or rewrites or self.normalize

    @property
    def writes_as_read(self) -> bool:
        """Whether the games are written as they were read (a faithful PDN copy, nothing left
        out, cut or split): then they need no tree, and may be read whole for their replay
        (:func:`pdn.reading.recording.record`)."""
        cut = self.max_plies is not None or self.split_variations
        return not self.replays and not self.strip.strips and not cut

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


def convert_games(
    games: Iterable[tuple[str, Game | Recorded]], options: ConvertOptions
) -> Iterator[Piece]:
    """The converted text of ``(file name, game)`` pairs, piece by piece, in order; a game
    may be read whole for its replay (:func:`pdn.reading.recording.record` with ``whole``), which is
    written from what was read when :attr:`ConvertOptions.writes_as_read`."""
    if options.fmt not in FORMATS:
        raise ValueError(f"unknown format {options.fmt!r}; expected one of {', '.join(FORMATS)}")
    if options.fmt == "json":
        yield Piece(f'{{"schema": "{SCHEMA}", "type": "games", "games": [\n')
    first = True
    replays = Replays(options.variant)
    for name, read in games:
        if isinstance(read, Recorded) and options.writes_as_read:
            yield Piece(_one(read, None, options, first))
            first = False
            continue
        whole = read.model() if isinstance(read, Recorded) else read
        for game in _excerpts(name, whole, options):
            game = strip_game(game, options.strip)
            if not options.replays:
                yield Piece(_one(game, None, options, first))
                first = False
                continue
            report = replays.of(whole, name)
            if game is not whole:
                # A part of the game (stripped, cut, a variation): under the rules chosen for
                # it, and for the same reason.
                whole_report = report
                report = validate(game, report.variant or options.variant)
                if options.variant is None:
                    report.rules_source = whole_report.rules_source
                    report.rules_evidence = whole_report.rules_evidence
            # Rewriting changes move texts only: the replayed steps and positions still hold.
            skipped = rewrite_moves(
                game,
                report,
                squares=options.squares,
                captures=options.captures,
                separator=options.separator,
                normalize=options.normalize and options.fmt == "pdn",
            )
            if options.fmt == "csv-games":
                row = game_csv_row(name, game, report, options.game_columns)
                header = game_csv_header(options.game_columns)
                yield Piece(csv_text([row], header=first, fields=header), skipped)
            else:
                yield Piece(_one(game, report, options, first), skipped)
            first = False
    if options.fmt == "json":
        yield Piece("\n]}\n")


def _excerpts(name: str, whole: Game, options: ConvertOptions) -> Iterator[Game]:
    """The game of file ``name`` cut to ``max_plies`` and split into its variations, as
    asked."""
    game = whole
    if options.max_plies is not None:
        game = truncate(game, options.max_plies)
    if options.split_variations:
        # Standard input has no name worth saying in the Variation tag.
        yield from split_variations(game, None if name == "-" else name)
    else:
        yield game


def _one(game: Game | Recorded, report: Report | None, options: ConvertOptions, first: bool) -> str:
    fmt = options.fmt
    if fmt == "pdn":
        # The moves and positions are already rewritten: the writer only lays the game out.
        model = game_of(game)
        writer = PdnWriter(
            normalize=options.normalize,
            # Move numbers count from the first mover of the rules the game was replayed under.
            variant=model.variant if report is None else report.variant_name,
            columns=options.columns,
            move_numbers=options.move_numbers,
            separate=True,
        )
        return ("" if first else "\n") + game.accept(writer)
    assert report is not None  # every other format replays (ConvertOptions.replays)
    assert isinstance(game, Game)
    if fmt == "json":
        return ("" if first else ",\n") + game_json(game, report)
    if fmt == "ndjson":
        return game_json(game, report) + "\n"
    if fmt == "csv":
        return csv_text(csv_rows(game, report, game.index), header=first)
    return ("" if first else "\n") + "\n".join(fen_lines(report)) + "\n"
