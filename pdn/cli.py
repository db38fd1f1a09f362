"""The ``pdn`` command line: thin click commands over the library.

Every command reads files or ``-`` (standard input), writes standard output or ``-o FILE``
(atomically), and turns bad input into messages, never into a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO

import click

from pdn import engine

from .atomic import atomic_writer, reserve_closed_standard_descriptors
from .model import Game
from .safe_text import printable

if TYPE_CHECKING:
    from .progress import Progress

# Exit statuses: 0 all clean, 1 a game has an error, 2 usage errors (click's own convention).
EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2

VARIANT_NAMES = sorted(engine.VARIANTS)


def _variant_option(func: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--variant",
        type=click.Choice(VARIANT_NAMES, case_sensitive=False),
        default=None,
        help="Rules to use, overriding the GameType tag and detection.",
    )(func)


_files_argument = click.argument(
    "files", nargs=-1, type=click.Path(exists=True, allow_dash=True, dir_okay=False)
)


def _format_option(*choices: str) -> Callable[[click.decorators.FC], click.decorators.FC]:
    """``--format`` with these choices, the first being the default."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(choices)),
        default=choices[0],
        show_default=True,
        help="Output format.",
    )


def _output_option(func: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False, writable=True, allow_dash=True),
        default="-",
        show_default=True,
        help="Where to write; '-' is standard output. Files are replaced atomically.",
    )(func)


def _remember_quiet(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    ctx.meta["pdn.quiet"] = value


_quiet_option = click.option(
    "-q",
    "--quiet",
    is_flag=True,
    expose_value=False,  # read by _progress through the context, not by each command
    callback=_remember_quiet,
    help="No progress bar (one is shown only on a terminal, for inputs over 2 MB).",
)


@contextlib.contextmanager
def open_output(
    output: str, inputs: tuple[str, ...] = (), *, in_place: bool = False
) -> Iterator[TextIO]:
    """Standard output for ``-``, else an atomic writer that refuses to overwrite an input."""
    if output == "-":
        if isinstance(sys.stdout, _ClosedOutput):
            raise StreamClosedError("standard output")  # before any work is done
        yield sys.stdout
        return
    target = Path(output).resolve()
    if not in_place and any(i != "-" and Path(i).resolve() == target for i in inputs):
        raise click.UsageError(
            f"{output} is also an input; refusing to overwrite it (use --in-place to do so)"
        )
    # The name as given: the writer must see "/dev/stdout", not the file it resolves to.
    with atomic_writer(output) as handle:
        yield handle


class StreamClosedError(click.ClickException):
    """A standard stream the command needs was closed when pdn started (``<&-``, ``>&-``)."""

    exit_code = EXIT_USAGE

    def __init__(self, stream: str, why: str | None = None) -> None:
        if why is None:
            why = "nothing to read" if stream == "standard input" else "give -o FILE to write"
        super().__init__(f"{stream} is closed ({why})")


class _ClosedInput(io.TextIOBase):
    """Stands for a closed standard input: using it is a :class:`StreamClosedError`."""

    @property
    def buffer(self) -> BinaryIO:
        raise StreamClosedError("standard input")

    def read(self, size: int | None = -1) -> str:
        raise StreamClosedError("standard input")


class _ClosedOutput(io.TextIOBase):
    """Stands for a closed standard output: writing is a :class:`StreamClosedError` (click's
    ``echo`` would otherwise drop the text silently and the command exit 0)."""

    encoding = "utf-8"

    def write(self, text: str) -> int:
        raise StreamClosedError("standard output")

    def flush(self) -> None:
        # Nothing is ever buffered; interpreter shutdown flushes sys.stdout and must not fail.
        return None


def _prepare_standard_streams() -> None:
    """Closed standard streams become explicit errors; text that the output encoding cannot
    hold (Cyrillic names under cp1252, what Windows gives a redirected stream) is written as
    ``\\u....`` escapes instead of raising ``UnicodeEncodeError``."""
    reserve_closed_standard_descriptors()
    if sys.stdin is None:
        sys.stdin = _ClosedInput()
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        # Messages have nowhere to go; the exit status still tells.
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (process-long)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")


class _Group(click.Group):
    """Turns the errors a user can cause (unreadable files, a closed pipe) into messages."""

    def invoke(self, ctx: click.Context) -> object:
        _prepare_standard_streams()
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # The reader of our output went away (``pdn validate big.pdn | head``): not an error.
            sys.stderr.close()
            sys.exit(EXIT_CLEAN)
        except OSError as exc:
            if exc.errno == errno.EBADF and exc.filename:  # -o /dev/stdout with it closed
                raise StreamClosedError(exc.filename, exc.strerror) from exc
            raise click.ClickException(f"{exc.filename or ''}: {exc.strerror or exc}") from exc


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pdn")
def main() -> None:
    """Check, convert and study draughts and checkers game records (PDN)."""


@main.command()
@click.argument("depth", type=click.IntRange(0, 30))
@click.option("--fen", default=None, help="Start from this position instead of the start.")
@_variant_option
@click.option("--divide", is_flag=True, help="Show the count below each legal move.")
@click.option(
    "--merge",
    is_flag=True,
    help="Count captures that take the same pieces to the same square once (the published "
    "International figures); by default each capture path counts.",
)
def perft(depth: int, fen: str | None, variant: str | None, divide: bool, merge: bool) -> None:
    """Count the leaf nodes of the move tree to DEPTH plies (a move-generator test)."""
    rules = engine.get_variant(variant or "english")
    try:
        position = engine.Position.from_fen(fen, rules) if fen else engine.Position.start(rules)
    except engine.FenError as exc:
        raise click.BadParameter(str(exc), param_hint="--fen") from exc
    from .notation import move_text

    total = 0
    if divide and depth > 0:
        for move in position.legal_moves(merge_duplicates=merge):
            count = engine.perft(position.play(move), depth - 1, merge_duplicates=merge)
            total += count
            click.echo(f"{move_text(move, rules, full=True)}: {count}")
        click.echo(f"total: {total}")
    else:
        click.echo(str(engine.perft(position, depth, merge_duplicates=merge)))


def _sources(files: tuple[str, ...]) -> list[str | BinaryIO]:
    """Paths as given, with ``-`` standing for standard input (read as bytes, so that the
    reader detects its encoding like a file's)."""
    if not files:
        raise click.UsageError("give at least one FILE (or - for standard input)")
    return [sys.stdin.buffer if f == "-" else f for f in files]


@main.command()
@_files_argument
@_format_option("text", "json", "ndjson")
@_variant_option
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(0),
    default=None,
    help="Worker processes (0: one per core). Default: one per core for inputs over 4 MB, "
    "else 1. Output and its order are the same.",
)
@click.option("--notices", is_flag=True, help="Also show notices (draw claims, numbering).")
@_quiet_option
@_output_option
def validate(
    files: tuple[str, ...],
    fmt: str,
    variant: str | None,
    jobs: int | None,
    notices: bool,
    output: str,
) -> None:
    """Replay every game of FILES under its rules and report every problem.

    Problems are printed as FILE:LINE:COL: CODE: MESSAGE, grouped per game, then a summary.
    Exit status: 0 when every game is clean, 1 when any has an error, 2 on usage errors.
    """
    import json

    from .batch import Summary, default_jobs, usable_cores, validate_files, verdict_text
    from .jsonio import SCHEMA

    sources = _sources(files)
    jobs = default_jobs(sources) if jobs is None else (jobs or usable_cores())
    summary = Summary()
    with _progress(files) as progress, open_output(output, files) as out:
        if fmt == "json":
            out.write(f'{{"schema": "{SCHEMA}", "type": "verdicts", "games": [\n')
        first = True
        for verdict in validate_files(progress.sources(sources), variant=variant, jobs=jobs):
            summary.add(verdict)
            progress.tick()
            if fmt == "text":
                text = verdict_text(verdict, least="notice" if notices else "warning")
                if text:
                    out.write(text + "\n")
            elif fmt == "ndjson":
                out.write(json.dumps(verdict.to_dict(), ensure_ascii=False) + "\n")
            else:
                out.write(
                    ("" if first else ",\n") + json.dumps(verdict.to_dict(), ensure_ascii=False)
                )
            first = False
        progress.close()  # before the summary, which stays on screen
        if fmt == "text":
            out.write(("\n" if summary.games else "") + summary.text() + "\n")
        elif fmt == "ndjson":
            out.write(json.dumps(summary.to_dict()) + "\n")
        else:
            out.write('\n], "summary": ' + json.dumps(summary.to_dict()) + "}\n")
    sys.exit(EXIT_PROBLEMS if summary.with_errors else EXIT_CLEAN)


def _progress(files: tuple[str, ...]) -> Progress:
    """The progress bar of this command over FILES (silenced by its ``--quiet``)."""
    from .progress import Progress

    context = click.get_current_context(silent=True)
    quiet = bool(context is not None and context.meta.get("pdn.quiet"))
    return Progress(files, quiet=quiet)


def _reported(
    games: Iterator[tuple[str, Game]], *, in_place: bool = False
) -> Iterator[tuple[str, Game]]:
    """The games, each reading error said on standard error as FILE:LINE:COL: CODE: MESSAGE
    (the game is still written with everything that was read).  A file that is not PDN at all
    is never rewritten in place: that would replace it with nothing."""
    for name, game in games:
        errors = [p for p in game.errors if p.severity == "error"]
        if in_place and any(p.code == "not-pdn" for p in errors):
            raise click.ClickException(f"{name}: {errors[0].message}; it was left as it is")
        for problem in errors[:_ERRORS_SHOWN]:
            where = f"{name}:{problem.line or game.line}:{problem.column or 1}"
            click.echo(printable(f"{where}: {problem.code}: {problem.message}"), err=True)
        if len(errors) > _ERRORS_SHOWN:
            more = len(errors) - _ERRORS_SHOWN
            click.echo(f"{name}:{game.line}:1: {more} more reading errors in this game", err=True)
        yield name, game


#: Reading errors said per game by commands whose output is not a report (convert).
_ERRORS_SHOWN = 20


def _games_of(files: tuple[str, ...]) -> Iterator[tuple[str, Game]]:
    """(file name, game) for every game of FILES, streaming."""
    from .batch import named_games

    sources = _sources(files)
    progress = _progress(files)
    return progress.count(named_games(progress.sources(sources)))


@main.command()
@_files_argument
@click.option(
    "--to",
    "fmt",
    type=click.Choice(["pdn", "json", "ndjson", "csv", "fen"]),
    default="pdn",
    show_default=True,
    help="Output format.",
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
@click.option("--normalize", is_flag=True, help="PDN 3.0 writing form (tag order, numbering...).")
@_variant_option
@click.option("--in-place", is_flag=True, help="Allow -o to name one of the input files.")
@_quiet_option
@_output_option
def convert(
    files: tuple[str, ...],
    fmt: str,
    squares: str | None,
    captures: str | None,
    normalize: bool,
    variant: str | None,
    in_place: bool,
    output: str,
) -> None:
    """Convert the games of FILES to PDN, JSON, NDJSON, CSV (one row per ply) or FEN lists.

    JSON is lossless (tags, the move tree with comments, NAGs and variations, and the FEN after
    every ply) and reads back with pdn.jsonio.game_from_dict.
    """
    from .convert import ConvertOptions, convert_games

    options = ConvertOptions(
        fmt=fmt, squares=squares, captures=captures, normalize=normalize, variant=variant
    )
    problems = 0
    with open_output(output, files, in_place=in_place) as out:
        for piece in convert_games(_reported(_games_of(files), in_place=in_place), options):
            out.write(piece.text)
            problems += piece.problems
    if problems:
        click.echo(
            f"note: {problems} moves could not be rewritten and were kept as written", err=True
        )


@main.command()
@click.argument("file", type=click.Path(exists=True, allow_dash=True, dir_okay=False))
@click.option(
    "--game",
    "number",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Which game of the file (1-based).",
)
@click.option(
    "--ply",
    type=click.IntRange(0),
    default=None,
    help="Show the position after this many mainline plies (default: the end).",
)
@click.option("--svg", is_flag=True, help="Write an SVG diagram instead of a text board.")
@_variant_option
@_output_option
def show(
    file: str, number: int, ply: int | None, svg: bool, variant: str | None, output: str
) -> None:
    """Show a position of one game of FILE as a text board or an SVG diagram."""
    from .diagram import svg_board, text_board
    from .validation import position_at

    game = next((g for _, g in _games_of((file,)) if g.index == number), None)
    if game is None:
        raise click.BadParameter(f"{file} has fewer than {number} games", param_hint="--game")
    found = position_at(game, ply, variant)
    if found.position is None:
        raise click.ClickException(found.reason)
    with open_output(output, (file,)) as out:
        if svg:
            out.write(svg_board(found.position) + "\n")
        else:
            out.write(f"{found.reason}\n{text_board(found.position)}\n")


@main.command()
@_files_argument
@click.option("--stats", is_flag=True, help="Per ballot: games, wins, draws and score.")
@click.option(
    "--ballot",
    type=click.IntRange(1, 174),
    default=None,
    help="Extract the games of ACF ballot N as PDN (to -o).",
)
@_format_option("text", "csv", "json", "markdown")
@click.option(
    "--sort",
    type=click.Choice(["ballot", "games"]),
    default="ballot",
    show_default=True,
    help="Order of the --stats rows: by ballot number, or most played first.",
)
@_quiet_option
@_output_option
def openings(
    files: tuple[str, ...], stats: bool, ballot: int | None, fmt: str, sort: str, output: str
) -> None:
    """Classify each English game by its ACF three-move ballot (by position, so
    transpositions are caught), two-move opening or 11-man ballot.

    CSV: a cell that starts with = + - @ (or a tab) gets a ' in front, so that a spreadsheet
    shows it as text instead of running it as a formula; plain numbers such as -1, and a lone
    -, are left as they are. Control characters from the file are shown as \\x1b and so on.
    """
    from .openings import ballot_stats, classify, opening_row, render_openings, render_stats
    from .writer import write_game

    rows = []
    pairs = []
    extracted = 0
    with open_output(output, files) as out:
        for _, game in _games_of(files):
            opening = classify(game)
            if ballot is not None:
                if opening.kind == "ballot" and opening.number == ballot:
                    out.write(("\n" if extracted else "") + write_game(game))
                    extracted += 1
                continue
            if stats:
                pairs.append((opening, game.result))
            else:
                rows.append(opening_row(game, opening))
        if ballot is None and stats:
            table = ballot_stats(pairs)
            if sort == "games":
                table.sort(key=lambda row: -row.games)
            out.write(render_stats(table, fmt))
        elif ballot is None:
            out.write(render_openings(rows, fmt))


@main.command()
@_files_argument
@_format_option("text", "markdown", "csv", "json", "html")
@click.option(
    "--points",
    default="1,0.5,0",
    show_default=True,
    help="Points for a win, a draw and a loss, e.g. 2,1,0.",
)
@click.option(
    "--table",
    type=click.Choice(["standings", "crosstable", "games", "openings"]),
    default="standings",
    show_default=True,
    help="Which table CSV output holds.",
)
@click.option("--no-openings", is_flag=True, help="Skip the ballot of each game (faster).")
@_variant_option
@_quiet_option
@_output_option
def report(
    files: tuple[str, ...],
    fmt: str,
    points: str,
    table: str,
    no_openings: bool,
    variant: str | None,
    output: str,
) -> None:
    """Standings, crosstable, results by round, colour balance and ballots, per event.

    An event with more than 60 players gets no crosstable grid (it would grow with the square
    of the players); a line says so, and --format csv --table crosstable, like JSON, lists
    every pair of players that met.

    CSV: a cell that starts with = + - @ (or a tab) gets a ' in front, so that a spreadsheet
    shows it as text instead of running it as a formula; plain numbers such as -1 (points can
    be negative), and a lone -, are left as they are; results (0-1, 1/2-1/2) start with a
    digit. Control characters from the file are shown as \\x1b and so on.
    """
    from . import report as reports
    from .openings import classify

    try:
        scheme = reports.parse_points(points)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--points") from exc
    records = []
    for _, game in _games_of(files):
        label = None
        if not no_openings:
            opening = classify(game)
            label = f"ACF {opening.number}" if opening.kind == "ballot" else None
        records.extend(reports.games_to_records([game], variant, openings=[label]))
    built = reports.build_reports(records, scheme)
    with open_output(output, files) as out:
        out.write(reports.render(built, fmt, table=table))


@main.command()
@_files_argument
@click.option("--fen", "fen_comments", is_flag=True, help="A comment with the FEN after each move.")
@click.option("--forced", is_flag=True, help="Mark only-moves and forced jumps.")
@click.option(
    "--problems", is_flag=True, help="A comment at each illegal move (code, legal moves)."
)
@_variant_option
@click.option("--in-place", is_flag=True, help="Allow -o to name one of the input files.")
@_quiet_option
@_output_option
def annotate(
    files: tuple[str, ...],
    fen_comments: bool,
    forced: bool,
    problems: bool,
    variant: str | None,
    in_place: bool,
    output: str,
) -> None:
    """Write the games back with PlyCount, Opening, FinalFEN and Termination tags, and
    optional per-move comments. Everything already in the file is kept as it was."""
    from .annotate import AnnotateOptions, Annotator, annotations_of
    from .validation import validate as replay
    from .writer import PdnWriter

    options = AnnotateOptions(fen=fen_comments, forced=forced, problems=problems)
    with open_output(output, files, in_place=in_place) as out:
        for number, (_, game) in enumerate(_reported(_games_of(files), in_place=in_place)):
            annotations = annotations_of(game, replay(game, variant), options)
            text = game.accept(Annotator(PdnWriter(variant=game.variant), annotations))
            out.write(("\n" if number else "") + text)
