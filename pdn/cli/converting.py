"""The commands that write the games back, changed as asked: ``convert`` (to other formats and
forms), ``annotate`` (tags and comments added) and ``fix`` (tags repaired)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

import click

from pdn.text.safe_text import printable

from .guard import InputPath, OutputPath
from .inputs import (
    Emptiness,
    ReadingErrors,
    archive_files,
    games_of,
    not_pdn_said,
    progress_bar,
    recorded_games_of,
    reported,
    say_damage,
    say_recoded,
    sources_of,
)
from .options import (
    encoding,
    files_argument,
    in_place_option,
    names_option,
    output_option,
    quiet_option,
    variant_option,
)
from .streams import open_output, write_outputs

if TYPE_CHECKING:
    from pdn.game.model import Game, Tags
    from pdn.reading.recording import Recorded
    from pdn.study.novelty import Novelty
    from pdn.text.names import Aliases


@click.command()
@files_argument()
@click.option(
    "--to",
    "fmt",
    type=click.Choice(["pdn", "json", "ndjson", "csv", "csv-games", "fen"]),
    default="pdn",
    show_default=True,
    help="Output format (csv: one row per ply; csv-games: one row per game).",
)
@click.option(
    "--squares",
    type=click.Choice(["numeric", "algebraic"]),
    default=None,
    help="Rewrite squares as numbers or as algebraic names (default: as written).",
)
@click.option(
    "--captures",
    type=click.Choice(["short", "full"]),
    default=None,
    help="Rewrite captures short (full path kept where short is ambiguous) or as full paths.",
)
@click.option(
    "--separator",
    type=click.Choice(["x", ":"]),
    default=None,
    help="Capture separator of rewritten moves (default: the variant's PDN 3.0 form, "
    "':' for Russian, 'x' elsewhere).",
)
@click.option(
    "--normalize",
    is_flag=True,
    help="PDN 3.0 writing form (tag order, numbering, legal moves and FEN in canonical form).",
)
@click.option("--no-comments", is_flag=True, help="Leave out every comment.")
@click.option("--no-variations", is_flag=True, help="Leave out every variation (side line).")
@click.option("--no-nags", is_flag=True, help="Leave out NAGs ($n) and strength marks (! ?).")
@click.option(
    "--tags",
    "keep_tags",
    default=None,
    metavar="LIST",
    help="Keep only these tags (comma-separated; FEN and GameType are always kept). "
    "With csv-games: the tag columns.",
)
@click.option(
    "--drop-tags", default="", metavar="LIST", help="Leave out these tags (comma-separated)."
)
@click.option(
    "--max-plies",
    type=click.IntRange(0),
    default=None,
    metavar="N",
    help="Cut every line after ply N (variations too); the result is kept.",
)
@click.option(
    "--split-variations",
    is_flag=True,
    help="Write the mainline, then each variation as a game of its own (the moves leading "
    "to it, the tags, a Variation tag saying where it comes from, result *).",
)
@click.option(
    "--width",
    type=click.IntRange(1),
    default=80,
    show_default=True,
    metavar="N",
    help="PDN: fill movetext lines up to N columns.",
)
@click.option("--no-move-numbers", is_flag=True, help="PDN: write no move numbers.")
@variant_option()
@in_place_option()
@quiet_option()
@output_option()
def convert(
    files: tuple[str, ...],
    fmt: str,
    squares: str | None,
    captures: str | None,
    separator: str | None,
    normalize: bool,
    no_comments: bool,
    no_variations: bool,
    no_nags: bool,
    keep_tags: str | None,
    drop_tags: str,
    max_plies: int | None,
    split_variations: bool,
    width: int,
    no_move_numbers: bool,
    variant: str | None,
    in_place: bool,
    output: str,
) -> None:
    """Convert the games of FILES to PDN, JSON, NDJSON, CSV (one row per ply, or with
    csv-games one row per game: tags, result, plies, ballot, status) or FEN lists.

    JSON is lossless (tags, the move tree with comments, NAGs and variations, and the FEN after
    every ply) and reads back with pdn.writing.jsonio.game_from_dict. Nothing is left out unless
    --no-comments, --no-variations, --no-nags, --tags or --drop-tags asks.
    """
    from pdn.writing.convert import ConvertOptions, convert_games
    from pdn.writing.stripping import StripOptions, tag_list

    try:
        strip = StripOptions(
            comments=not no_comments,
            variations=not no_variations,
            nags=not no_nags,
            keep_tags=None if keep_tags is None else tag_list(keep_tags),
            drop_tags=tag_list(drop_tags),
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--drop-tags") from exc
    options = ConvertOptions(
        fmt=fmt,
        squares=squares,
        captures=captures,
        separator=separator,
        normalize=normalize,
        variant=variant,
        strip=strip,
        max_plies=max_plies,
        split_variations=split_variations,
        columns=width,
        move_numbers=not no_move_numbers,
    )
    if fmt != "pdn" and (width != 80 or no_move_numbers):
        raise click.UsageError("--width and --no-move-numbers shape PDN output only")
    if in_place and output == "-" and fmt != "pdn":
        # A .pdn file holding CSV could not be read back: its games would be lost.
        raise click.UsageError(f"--in-place rewrites files as PDN; give -o to write {fmt}")
    problems = 0

    def write(inputs: tuple[str, ...], out: TextIO) -> None:
        nonlocal problems
        games: Iterator[tuple[str, Game | Recorded]] = (
            # Written as read: no tree is needed for a game of plain moves (most are).
            recorded_games_of(inputs, whole=True) if options.writes_as_read else games_of(inputs)
        )
        from pdn.collections.copying import AsRead
        from pdn.collections.inplace import keep_as_read
        from pdn.reading.recording import game_of

        current: list[tuple[str, Game]] = []  # the game being converted
        empty = Emptiness(inputs)
        # A copy written as read keeps each line's end and a BOM as its file had them (in
        # place, rewrite does; and there damaged bytes are put back, not said).
        faithful = (
            AsRead(encoding(), say_recoded) if options.writes_as_read and not in_place else None
        )

        def noted(
            pairs: Iterator[tuple[str, Game | Recorded]],
        ) -> Iterator[tuple[str, Game | Recorded]]:
            for name, read in pairs:
                game = game_of(read)
                current[:] = [(name, game)]
                empty.saw(name)
                if not in_place:
                    _say_damage(name, game)
                if faithful is not None:
                    faithful.follow(name)
                yield name, read

        pieces = convert_games(noted(reported(games, in_place=in_place)), options)
        for number, piece in enumerate(pieces):
            text = piece.text
            why = keep_as_read(current[0][1], text) if in_place else None
            if why is not None:
                text = ("\n" if number else "") + _kept_as_read(out, *current[0], why)
            if faithful is None:
                out.write(text)
            else:
                if not number:
                    out.write(faithful.bom)  # the BOM of the first game's file
                out.write(faithful.text(text))
            problems += piece.problems
        if faithful is not None:
            out.write(faithful.rest())
        empty.say()

    write_outputs(output, files, in_place, write)
    if problems:
        said = "1 move does" if problems == 1 else f"{problems} moves do"
        click.echo(f"note: {said} not replay: kept as written, not rewritten", err=True)


@click.command()
@files_argument()
@click.option("--fen", "fen_comments", is_flag=True, help="A comment with the FEN after each move.")
@click.option("--forced", is_flag=True, help="Mark only-moves and forced jumps.")
@click.option(
    "--problems", is_flag=True, help="A comment at each illegal move (code, legal moves)."
)
@click.option(
    "--novelties",
    multiple=True,
    type=InputPath(),
    metavar="ARCHIVE",
    help="A comment at each game's novelty against ARCHIVE (a file or folder; repeatable): "
    "its first move to a position no archive game reached, as pdn novelty finds it.",
)
@variant_option()
@in_place_option()
@quiet_option()
@output_option()
def annotate(
    files: tuple[str, ...],
    fen_comments: bool,
    forced: bool,
    problems: bool,
    novelties: tuple[str, ...],
    variant: str | None,
    in_place: bool,
    output: str,
) -> None:
    """Write the games back with PlyCount, Opening, FinalFEN and Termination tags, and
    optional per-move comments. Everything already in the file is kept as it was.

    With --novelties, FILES are read twice (once to find where their games go, then to
    write them), so they cannot be standard input.
    """
    from pdn.collections.inplace import keep_as_read
    from pdn.rules.replays import Replays
    from pdn.writing.annotate import AnnotateOptions, Annotator, annotations_of
    from pdn.writing.writer import PdnWriter

    options = AnnotateOptions(fen=fen_comments, forced=forced, problems=problems)
    found = _novelties_of(files, novelties, variant) if novelties else {}

    def write(inputs: tuple[str, ...], out: TextIO) -> None:
        from pdn.rules.openings import BALLOT_PLIES

        replays = Replays(variant)
        games: Iterator[tuple[str, Game | Recorded]]
        if options == AnnotateOptions() and not found:
            # Tags only: each game read whole but without a tree where it is one line of
            # plain moves (most are), replayed from the reader's runs with steps for its
            # opening, and written from them.
            games = recorded_games_of(inputs, first_steps=BALLOT_PLIES, whole=True)
        else:
            games = games_of(inputs)  # the comments need every step: the model
        number = 0
        for name, read in reported(games, in_place=in_place):
            report = replays.of(read, name)
            game = report.game
            if any(problem.code == "not-pdn" for problem in game.errors):
                # No draughts game to annotate (said already): written as it was read, and
                # an input with no game at all (a binary file) adds nothing.
                text = read.accept(PdnWriter(variant=game.variant))
                if text.strip():
                    out.write(("\n" if number else "") + text)
                    number += 1
                continue
            annotations = annotations_of(read, report, options)
            novelty = found.get((name, game.index))
            if novelty is not None:
                from pdn.study.novelty import add_novelty  # (only then: it takes a while to import)

                add_novelty(annotations, novelty, report)
            text = read.accept(Annotator(PdnWriter(variant=game.variant), annotations))
            why = keep_as_read(game, text) if in_place else None
            if why is not None:
                text = _kept_as_read(out, name, game, why)
            out.write(("\n" if number else "") + text)
            number += 1

    write_outputs(output, files, in_place, write)


def _say_damage(name: str, game: Game) -> None:
    """Say where bytes the file's encoding cannot read were written as U+FFFD, and what the
    writer cannot give back as it was read (:data:`pdn.collections.inplace.UNWRITABLE_CODES`)."""
    from pdn.collections.inplace import UNWRITABLE_CODES

    for problem in game.errors:
        if problem.code in UNWRITABLE_CODES:
            where = f"{name}:{problem.line or game.line}:{problem.column or 1}"
            click.echo(printable(f"{where}: {problem.code}: {problem.message}"), err=True)
    damage = [
        (p.message, p.line or game.line, p.column or 1) for p in game.errors if p.code == "encoding"
    ]
    say_damage(name, game.line, damage, " (--in-place keeps it)")


def _kept_as_read(out: TextIO, name: str, game: Game, why: str) -> str:
    """The text a game was read with, for a rewrite in place that cannot write its new text
    (``why``, said on standard error)."""
    from pdn.collections.inplace import as_read

    text = as_read(out, game.index)
    assert text is not None  # (only in place)
    click.echo(f"{name}:{game.line}: game {game.index} {why}: kept as it was read", err=True)
    return text


def _novelties_of(
    files: tuple[str, ...], against: tuple[str, ...], variant: str | None
) -> dict[tuple[str, int], Novelty]:
    """The novelty of each game of FILES against the archive, by file and game number, for
    ``annotate --novelties``; a line on standard error says how many were found."""
    from pdn.study.novelty import archive_summary, archive_tree, novelty_of, replay_games

    if "-" in files:
        raise click.UsageError("--novelties reads FILES twice: give files, not standard input")
    archive = archive_files(files, against, "--novelties")
    with progress_bar(files + tuple(archive)) as progress:
        played = list(
            replay_games(progress.sources(sources_of(files)), variant=variant, encoding=encoding())
        )
        # The archive's reading errors are said here; those of FILES as they are written.
        tree = archive_tree(
            progress.sources(archive),
            played,
            variant=variant,
            encoding=encoding(),
            reading_errors=ReadingErrors(),
        )
        progress.close()
    found = {(one.file, one.game): novelty_of(one, tree) for one in played}
    new = sum(one.ply is not None for one in found.values())
    variants = (one.variant for one in found.values())
    click.echo(
        f"{new} of {len(found)} games with a novelty; {archive_summary(tree, variants)}", err=True
    )
    return found


# -------------------------------------------------------------------------------- pdn fix


def _headers_of(files: tuple[str, ...]) -> Iterator[Tags]:
    """The tags of every game of FILES, without parsing PDN movetext (JSON records are read
    whole: their tags come with them)."""
    from pdn.collections.batch import is_json, iter_games
    from pdn.reading.reader import read_headers

    for source in sources_of(files):
        if is_json(source):
            yield from (game.tags for game in iter_games(source))
        else:
            yield from read_headers(source, encoding=encoding())


@click.command()
@files_argument()
@names_option()
@click.option(
    "--suggest-names",
    is_flag=True,
    help="Write likely aliases (case, spacing, dots, look-alike letters, transliteration) "
    "as an alias list to review, instead of fixing.",
)
@click.option(
    "--result-from-terminator",
    is_flag=True,
    help="Where the Result tag and the result after the moves disagree, set the tag.",
)
@click.option(
    "--terminator-from-result",
    is_flag=True,
    help="Where they disagree, write the Result tag's result after the moves.",
)
@click.option("--dates", is_flag=True, help="Write Date and EventDate as YYYY.MM.DD (? kept).")
@click.option(
    "--add-gametype", is_flag=True, help="Add GameType where the rules are certain from the moves."
)
@click.option(
    "--log",
    "log_file",
    type=OutputPath(writable=True),
    default=None,
    help="Write the list of changes here instead of standard error.",
)
@in_place_option()
@output_option()
def fix(
    files: tuple[str, ...],
    aliases: Aliases | None,
    suggest_names: bool,
    result_from_terminator: bool,
    terminator_from_result: bool,
    dates: bool,
    add_gametype: bool,
    log_file: str | None,
    in_place: bool,
    output: str,
) -> None:
    """Repair the tags of FILES as asked, listing every change (FILE:LINE: TAG: OLD -> NEW).

    Everything else in each game is written as it was read, and a game with no change keeps
    its text exactly; with --in-place a file with no change is not rewritten at all. Nothing
    is changed unless an option asks; --suggest-names only writes an alias list for --names.
    """
    from pdn.collections.batch import display_name
    from pdn.collections.fixing import FixOptions, fix_source
    from pdn.text.names import aliases_csv, suggest_aliases

    if suggest_names:
        with open_output(output, files) as out:
            out.write(aliases_csv(suggest_aliases(_headers_of(files))))
        return
    try:
        options = FixOptions(
            aliases=aliases,
            result_from_terminator=result_from_terminator,
            terminator_from_result=terminator_from_result,
            dates=dates,
            add_gametype=add_gametype,
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    if options == FixOptions():
        raise click.UsageError(
            "nothing to fix: give --names, --result-from-terminator, --terminator-from-result, "
            "--dates or --add-gametype (or --suggest-names)"
        )
    made = games_changed = 0
    log = open_output(log_file, files) if log_file else contextlib.nullcontext(sys.stderr)
    with log as log_out:

        def write(inputs: tuple[str, ...], out: TextIO) -> None:
            nonlocal made, games_changed
            progress = progress_bar(inputs)
            number = made_here = 0
            for source in progress.sources(sources_of(inputs)):
                name = display_name(source)
                for fixed in progress.count(fix_source(source, options, encoding=encoding())):
                    said = not_pdn_said(iter([(name, fixed.game)]))
                    for _ in reported(said, in_place=in_place):
                        pass  # (says the game's reading errors)
                    for change in fixed.changes:
                        log_out.write(printable(f"{name}:{change.line}: {change.text()}") + "\n")
                    made_here += fixed.made
                    games_changed += bool(fixed.made)
                    out.write((fixed.before if number else "") + fixed.text)
                    number += 1
            made += made_here
            if in_place and output == "-" and not made_here:
                raise _Unchanged  # the file stays byte for byte as it was

        try:
            write_outputs(output, files, in_place, write, unchanged=_Unchanged)
        except click.exceptions.Exit:  # a file refused, after the others: the count still
            click.echo(f"{made} changes in {games_changed} games", err=True)
            raise
    click.echo(f"{made} changes in {games_changed} games", err=True)


class _Unchanged(Exception):
    """Raised inside the atomic writer of ``fix --in-place`` when a file needs no change: the
    temporary copy is thrown away and the file is not touched."""
