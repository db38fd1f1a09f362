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
from typing import BinaryIO, TextIO

import click

from pdn import engine

from .atomic import atomic_writer, reserve_closed_standard_descriptors
from .model import Game
from .safe_text import printable

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
    default=1,
    show_default=True,
    help="Worker processes (0: one per core). Output order is the same.",
)
@click.option("--notices", is_flag=True, help="Also show notices (draw claims, numbering).")
@_output_option
def validate(
    files: tuple[str, ...],
    fmt: str,
    variant: str | None,
    jobs: int,
    notices: bool,
    output: str,
) -> None:
    """Replay every game of FILES under its rules and report every problem.

    Problems are printed as FILE:LINE:COL: CODE: MESSAGE, grouped per game, then a summary.
    Exit status: 0 when every game is clean, 1 when any has an error, 2 on usage errors.
    """
    import json

    from .batch import Summary, validate_files, verdict_text
    from .jsonio import SCHEMA

    jobs = jobs or os.cpu_count() or 1
    summary = Summary()
    progress = _Progress(files)
    with open_output(output, files) as out:
        if fmt == "json":
            out.write(f'{{"schema": "{SCHEMA}", "type": "verdicts", "games": [\n')
        first = True
        for verdict in validate_files(_sources(files), variant=variant, jobs=jobs):
            summary.add(verdict)
            progress.tick(summary.games)
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
        progress.done()
        if fmt == "text":
            out.write(("\n" if summary.games else "") + summary.text() + "\n")
        elif fmt == "ndjson":
            out.write(json.dumps(summary.to_dict()) + "\n")
        else:
            out.write('\n], "summary": ' + json.dumps(summary.to_dict()) + "}\n")
    sys.exit(EXIT_PROBLEMS if summary.with_errors else EXIT_CLEAN)


class _Progress:
    """A games counter on standard error, only for a terminal and large inputs."""

    LARGE = 2 << 20  # bytes

    def __init__(self, files: tuple[str, ...]) -> None:
        size = sum(Path(f).stat().st_size for f in files if f != "-" and Path(f).is_file())
        self.enabled = sys.stderr.isatty() and size >= self.LARGE

    def tick(self, games: int) -> None:
        if self.enabled and games % 500 == 0:
            click.echo(f"\r{games:,} games...", nl=False, err=True)

    def done(self) -> None:
        if self.enabled:
            click.echo("\r" + " " * 30 + "\r", nl=False, err=True)


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

    return named_games(_sources(files))


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


def _picture_options(func: click.decorators.FC) -> click.decorators.FC:
    """The drawing options shared by ``show`` and ``diagram``."""
    for option in reversed(
        [
            click.option("--flip", is_flag=True, help="Black at the bottom."),
            click.option("--no-numbers", is_flag=True, help="Leave out the square numbers."),
            click.option("--no-coordinates", is_flag=True, help="Leave out the files and ranks."),
            click.option(
                "--size",
                type=click.IntRange(80, 4000),
                default=360,
                show_default=True,
                help="Board width in pixels.",
            ),
        ]
    ):
        func = option(func)
    return func


def _write_picture(out: TextIO, svg: str, png: bool) -> None:
    """An SVG diagram, or its PNG (bytes through the text stream's buffer)."""
    from .diagram import PngUnavailable, png_bytes

    if not png:
        out.write(svg + "\n")
        return
    try:
        data = png_bytes(svg)
    except PngUnavailable as exc:
        raise click.ClickException(str(exc)) from exc
    out.flush()
    out.buffer.write(data)
    out.buffer.flush()


@main.command()
@click.argument(
    "file", required=False, type=click.Path(exists=True, allow_dash=True, dir_okay=False)
)
@click.option("--fen", default=None, help="Draw this position (no FILE needed).")
@click.option(
    "--move",
    "written",
    default=None,
    help="With --fen: play this move from the position and mark it (e.g. 9-13, 15x22).",
)
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
@click.option("--png", is_flag=True, help='Write a PNG diagram (needs: pip install "pdn[png]").')
@_picture_options
@_variant_option
@_output_option
def show(
    file: str | None,
    fen: str | None,
    written: str | None,
    number: int,
    ply: int | None,
    svg: bool,
    png: bool,
    flip: bool,
    no_numbers: bool,
    no_coordinates: bool,
    size: int,
    variant: str | None,
    output: str,
) -> None:
    """Show a position of one game of FILE, or the position --fen, as a text board or an SVG or
    PNG diagram (the last move marked, side to move, coordinates and square numbers)."""
    from .diagram import play_written, svg_board, text_board
    from .validation import position_at

    if (file is None) == (fen is None):
        raise click.UsageError("give a FILE or --fen FEN (one of them)")
    if written is not None and fen is None:
        raise click.UsageError("--move goes with --fen (a FILE's moves are its own)")
    move = None
    if fen is not None:
        try:
            position = engine.Position.from_fen(fen, engine.get_variant(variant or "english"))
        except engine.FenError as exc:
            raise click.BadParameter(str(exc), param_hint="--fen") from exc
        reason = f"FEN {fen}"
        if written is not None:
            try:
                position, move = play_written(position, written)
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="--move") from exc
            reason += f", after {written}"
    else:
        assert file is not None
        game = next((g for _, g in _games_of((file,)) if g.index == number), None)
        if game is None:
            raise click.BadParameter(f"{file} has fewer than {number} games", param_hint="--game")
        found = position_at(game, ply, variant)
        if found.position is None:
            raise click.ClickException(found.reason)
        position, reason, move = found.position, found.reason, found.move
    inputs = (file,) if file is not None else ()
    with open_output(output, inputs) as out:
        if svg or png:
            picture = svg_board(
                position,
                size=size,
                numbers=not no_numbers,
                coordinates=not no_coordinates,
                flip=flip,
                move=move,
            )
            _write_picture(out, picture, png)
        else:
            out.write(f"{printable(reason)}\n{text_board(position)}\n")


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


# ------------------------------------------------------------------- the viewer and diagrams


@main.command()
@_files_argument
@_variant_option
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(0),
    default=1,
    show_default=True,
    help="Worker processes for the replay (0: one per core).",
)
@click.option("--title", default=None, help="The page title (default: the file names).")
@_output_option
def view(
    files: tuple[str, ...], variant: str | None, jobs: int, title: str | None, output: str
) -> None:
    """Write one self-contained HTML page to browse the games of FILES: a game list with a
    filter, the board, the moves with comments, NAGs and variations, every illegal move
    marked with the validator's message and the legal moves there. Arrow keys step through a
    game (up and down change game), f flips the board."""
    from .batch import display_name
    from .viewer import view_files

    sources = _sources(files)
    name = title or ", ".join(display_name(s) for s in sources)
    with open_output(output, files) as out:
        count = view_files(
            sources, out, variant=variant, jobs=jobs or os.cpu_count() or 1, title=name
        )
    if output != "-":
        click.echo(f"{count} games written to {output}", err=True)


def _plies_option(text: str) -> list[int]:
    """``10,20`` -> [10, 20]."""
    try:
        plies = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        plies = []
    if not plies or any(p < 0 for p in plies):
        raise click.BadParameter(f"{text!r}: give ply numbers such as 10,20", param_hint="--plies")
    return plies


@main.command()
@_files_argument
@click.option("--plies", required=True, help="Mainline plies to draw, e.g. 0,10,20.")
@click.option(
    "--game",
    "number",
    type=click.IntRange(1),
    default=None,
    help="Only this game of each file (1-based; default: every game).",
)
@click.option(
    "--sheet",
    is_flag=True,
    help="One printable HTML sheet (DIR/sheet.html) of all diagrams with captions.",
)
@click.option(
    "--png", is_flag=True, help='PNG files instead of SVG (needs: pip install "pdn[png]").'
)
@_picture_options
@_variant_option
@click.option(
    "-o",
    "--output",
    "directory",
    required=True,
    type=click.Path(file_okay=False),
    help="The folder to write into (made if missing).",
)
def diagram(
    files: tuple[str, ...],
    plies: str,
    number: int | None,
    sheet: bool,
    png: bool,
    flip: bool,
    no_numbers: bool,
    no_coordinates: bool,
    size: int,
    variant: str | None,
    directory: str,
) -> None:
    """Write a diagram of each chosen position of the games of FILES into a folder (file names
    from the game number, players and ply, always inside it), or with --sheet one printable
    HTML page of them (print it to PDF from a browser)."""
    from .diagram import confined, diagram_sheet, file_stem, snapshots, svg_board
    from .validation import validate as replay

    wanted = _plies_option(plies)
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    chosen = []
    for name, game in _games_of(files):
        if number is not None and game.index != number:
            continue
        found, missing = snapshots(replay(game, variant), wanted)
        for reason in missing:
            click.echo(printable(f"{name}:{game.line}:1: {reason}"), err=True)
        chosen.extend(found)
    if sheet:
        target = confined(folder, "sheet.html")
        with atomic_writer(target) as out:
            out.write(diagram_sheet(chosen, flip=flip))
        click.echo(f"{len(chosen)} diagrams written to {target}", err=True)
        return
    for item in chosen:
        picture = svg_board(
            item.position,
            size=size,
            numbers=not no_numbers,
            coordinates=not no_coordinates,
            flip=flip,
            move=item.move,
            caption=item.caption,
        )
        target = confined(folder, file_stem(item) + (".png" if png else ".svg"))
        with atomic_writer(target) as out:
            _write_picture(out, picture, png)
    click.echo(f"{len(chosen)} diagrams written to {folder}", err=True)
