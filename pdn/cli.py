"""The ``pdn`` command line: thin click commands over the library.

Every command reads files or ``-`` (standard input), writes standard output or ``-o FILE``
(atomically), and turns bad input into messages, never into a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO, TypeVar

import click

from pdn import engine

from .atomic import atomic_writer, reserve_closed_standard_descriptors
from .model import Game, Tags
from .safe_text import printable

if TYPE_CHECKING:
    from .names import Aliases
    from .novelty import Novelty
    from .problems import Problem
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


def _remember_recursive(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    # Eager, so that the FILES callback (which runs later) knows it.
    ctx.meta["pdn.recursive"] = value
    return value


def _expand_files(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    """FILES as the command reads them: a folder is its ``*.pdn`` files (``--recursive``:
    of its subfolders too), and no FILE at all is standard input when data is piped in."""
    from .batch import input_files

    if not value:
        stdin = sys.stdin
        # A terminal means nobody piped anything in: a usage error, not a wait for typing.
        if stdin is None or stdin.isatty():
            return value
        return ("-",)
    try:
        return tuple(input_files(value, recursive=ctx.meta.get("pdn.recursive", False)))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="FILES") from exc


def _remember_encoding(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        try:
            # A LookupError both for unknown names and for codecs that are not text (base64);
            # the byte is there because decoding nothing looks no codec up.
            b"a".decode(value, "replace")
        except (LookupError, UnicodeError) as exc:  # (idna: a text codec that refuses bytes)
            raise click.BadParameter(f"{value!r}: {exc}", ctx=ctx, param=param) from exc
    ctx.meta["pdn.encoding"] = value


def _encoding_option(func: click.decorators.FC) -> click.decorators.FC:
    """``--encoding``, for every command that reads PDN (FILES commands get it with
    :func:`_files_argument`); read back with :func:`_encoding`."""
    return click.option(
        "--encoding",
        metavar="CODEC",
        default=None,
        expose_value=False,  # read through the context by the code that reads the files
        callback=_remember_encoding,
        help="Read PDN bytes in this encoding (utf-8, cp1251, cp1252, latin-1...) instead of "
        "the one detected. JSON is always UTF-8.",
    )(func)


def _encoding() -> str | None:
    """The ``--encoding`` of the running command (None: detect it)."""
    context = click.get_current_context(silent=True)
    return None if context is None else context.meta.get("pdn.encoding")


def _files_argument(func: click.decorators.FC) -> click.decorators.FC:
    """FILES...: files, ``-`` for standard input, or folders (their ``*.pdn`` files in sorted
    order; ``--recursive`` for subfolders); none reads standard input when it is not a
    terminal. Every command taking FILES takes it through here, and ``--encoding`` with it."""
    func = _encoding_option(func)
    func = click.argument(
        "files",
        nargs=-1,
        type=click.Path(exists=True, allow_dash=True),
        callback=_expand_files,
    )(func)
    return click.option(
        "-r",
        "--recursive",
        is_flag=True,
        is_eager=True,
        expose_value=False,
        callback=_remember_recursive,
        help="Also read the *.pdn files of the subfolders of a FILE that is a folder.",
    )(func)


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


def _load_aliases(ctx: click.Context, param: click.Parameter, value: str | None) -> Aliases | None:
    from .decoding import decode_bytes
    from .names import AliasError, Aliases

    if not value:
        return None
    try:
        # Decoded as PDN files are (a list saved from a Windows spreadsheet is cp1252).
        with open(value, "rb") as handle:
            decoded = decode_bytes(handle)
            text = "".join(decoded.blocks)
        damage = decoded.decoder.damage if decoded.decoder is not None else []
        if damage:
            raise AliasError(
                f"{value}: byte {damage[0].byte_offset} ({damage[0].data!r}) is not text in "
                f"{decoded.decoder.encoding if decoded.decoder else 'its encoding'}; "
                "save the list as UTF-8"
            )
        return Aliases.from_text(text, value)
    except AliasError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from exc
    except OSError as exc:
        raise click.BadParameter(f"{value}: {exc.strerror or exc}", ctx=ctx, param=param) from exc


def _names_option(func: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--names",
        "aliases",
        type=click.Path(exists=True, dir_okay=False),
        default=None,
        callback=_load_aliases,
        help="Alias list to apply (CSV: old,new[,tags[,why]]): player and event renames, "
        "as pdn fix --suggest-names writes it.",
    )(func)


def _remember_quiet(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    ctx.meta["pdn.quiet"] = value


_jobs_option = click.option(
    "-j",
    "--jobs",
    type=click.IntRange(0),
    default=None,
    help="Worker processes (0: one per core). Default: one per core for inputs over 4 MB, "
    "else 1. Output and its order are the same.",
)

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


def _in_place_option(func: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--in-place",
        is_flag=True,
        help="Without -o: rewrite each FILE with its own output (atomically, once it is all "
        "read), as sed -i does, in its own encoding and line ends; a FILE that would lose "
        "text is left as it is (exit 1). With -o: allow OUTPUT to be one of the inputs.",
    )(func)


def write_outputs(
    output: str,
    files: tuple[str, ...],
    in_place: bool,
    write: Callable[[tuple[str, ...], TextIO], None],
    *,
    unchanged: type[Exception] | None = None,
) -> None:
    """Call ``write(inputs, out)``: once, with every input and OUTPUT; or, with ``in_place``
    and no ``-o``, once per input file with that file as its output, through
    :func:`pdn.inplace.rewrite`: in its own encoding (``--encoding`` when given) and line
    ends, replaced atomically only when its whole output is written and nothing of it would
    be lost (else it is left as it was, said in one line, the other files are still done, and
    the exit status is 1). A ``write`` that raises ``unchanged`` leaves its file as it is,
    untouched, and the others go on. Standard input cannot be rewritten in place."""
    from .inplace import InPlaceRefused, rewrite

    if not (in_place and output == "-"):
        try:
            with open_output(output, files, in_place=in_place) as out:
                write(files, out)
        except InPlaceRefused as exc:
            raise click.ClickException(printable(str(exc))) from exc
        return
    if not files or "-" in files:
        raise click.UsageError("--in-place without -o rewrites files: name them (not -)")
    refused = 0
    for name in files:
        try:
            with rewrite(name, _encoding()) as out:
                write((name,), out)
        except InPlaceRefused as exc:
            click.echo(f"Error: {printable(str(exc))}", err=True)
            refused += 1
        except Exception as exc:
            if unchanged is None or not isinstance(exc, unchanged):
                raise
    if refused:
        raise click.exceptions.Exit(EXIT_PROBLEMS)


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
            returned = super().invoke(ctx)
        except BrokenPipeError:
            # The reader of our output went away (``pdn validate big.pdn | head``): not an error.
            sys.stderr.close()
            sys.exit(EXIT_CLEAN)
        except OSError as exc:
            if exc.errno == errno.EBADF and exc.filename:  # -o /dev/stdout with it closed
                raise StreamClosedError(exc.filename, exc.strerror) from exc
            raise click.ClickException(f"{exc.filename or ''}: {exc.strerror or exc}") from exc
        except RuntimeError as exc:
            from .batch import WorkerDiedError

            if not isinstance(exc, WorkerDiedError):
                raise
            raise _UsageExit(str(exc)) from exc
        if ctx.meta.get(_INPUT_LOST):
            sys.exit(EXIT_PROBLEMS)  # the run went on past input it could not keep: say so
        return returned


#: Set in the root context's ``meta`` when a command met input it could not keep: a file that is
#: not PDN at all, a game cut for its length (said on standard error as it was met); the run
#: then ends with status 1 (see ``_Group``).
_INPUT_LOST = "pdn.input_lost"


class _UsageExit(click.ClickException):
    """A one-line error that ends the run with the usage status (2): the run could not go on."""

    exit_code = EXIT_USAGE


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version

    from .engine import COMPILED

    # Which build: a slow machine's first question, and the accelerated build must say so.
    build = "compiled with mypyc" if COMPILED else "pure Python"
    click.echo(f"pdn, version {version('pdn')} ({build}; Python {sys.version.split()[0]})")
    ctx.exit()


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help="Show the version, and whether this is the accelerated (compiled) build.",
)
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
        raise click.UsageError(
            "give at least one FILE, a folder, or - for standard input (or pipe data in)"
        )
    return [sys.stdin.buffer if f == "-" else f for f in files]


@main.command()
@_files_argument
@_format_option("text", "json", "ndjson")
@_variant_option
@_jobs_option
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
        for verdict in validate_files(
            progress.sources(sources), variant=variant, jobs=jobs, encoding=_encoding()
        ):
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
            least = "notice" if notices else "warning"
            out.write(("\n" if summary.games else "") + summary.text(least=least) + "\n")
        elif fmt == "ndjson":
            out.write(json.dumps(summary.to_dict()) + "\n")
        else:
            out.write('\n], "summary": ' + json.dumps(summary.to_dict()) + "}\n")
    sys.exit(EXIT_PROBLEMS if summary.with_errors else EXIT_CLEAN)


def _progress(files: tuple[str, ...], *, slow: bool = True, per_game: bool = False) -> Progress:
    """The progress bar of this command over FILES (silenced by its ``--quiet``, and when the
    work is not ``slow``: a pass that only cuts games and reads tags is over in a moment);
    ``per_game`` for work slow on each game (an analysis): shown whatever the input's size,
    the games done counted one by one."""
    from .progress import LARGE, Progress

    context = click.get_current_context(silent=True)
    quiet = bool(context is not None and context.meta.get("pdn.quiet"))
    if per_game:
        return Progress(files, quiet=quiet, large=0, every=1)
    return Progress(files, quiet=quiet or not slow, large=LARGE)


def _reported(
    games: Iterator[tuple[str, Game]], *, in_place: bool = False
) -> Iterator[tuple[str, Game]]:
    """The games, each reading error said on standard error as FILE:LINE:COL: CODE: MESSAGE
    (the game is still written with everything that was read; one that lost text on reading
    makes the exit status 1).  In place, a game that lost
    text on reading (:func:`pdn.inplace.text_lost`: a file that is not PDN at all, a game cut
    for its length) ends the rewrite of its file with :class:`~pdn.inplace.InPlaceRefused`:
    writing it would replace the file with less than it holds."""
    from .inplace import InPlaceRefused, text_lost

    for name, game in games:
        # An input that is not PDN at all was said as it was read (_not_pdn_said).
        errors = [p for p in game.errors if p.severity == "error" and p.code != "not-pdn"]
        lost = text_lost(game)
        if lost is not None:
            # Written or not, less than was read: the run says so in its status too.
            click.get_current_context().find_root().meta[_INPUT_LOST] = True
        if lost is not None and in_place:
            where = f"{name}:{lost.line or game.line}:{lost.column or 1}"
            raise InPlaceRefused(
                f"{where}: {lost.code}: {lost.message}; rewriting in place would lose this "
                "text: the file was left as it is (write a copy with -o)"
            )
        for problem in errors[:_ERRORS_SHOWN]:
            where = f"{name}:{problem.line or game.line}:{problem.column or 1}"
            click.echo(printable(f"{where}: {problem.code}: {problem.message}"), err=True)
        if len(errors) > _ERRORS_SHOWN:
            more = len(errors) - _ERRORS_SHOWN
            click.echo(f"{name}:{game.line}:1: {more} more reading errors in this game", err=True)
        yield name, game


#: Reading errors said per game by commands whose output is not a report (convert).
_ERRORS_SHOWN = 20


def _games_of(
    files: tuple[str, ...], *, not_pdn: _NotPdn | None = None
) -> Iterator[tuple[str, Game]]:
    """(file name, game) for every game of FILES, streaming; an input that is not PDN at all
    is said (:func:`_not_pdn_said`, through ``not_pdn`` when given)."""
    from .batch import named_games

    sources = _sources(files)
    progress = _progress(files)
    games = progress.count(named_games(progress.sources(sources), encoding=_encoding()))
    return _not_pdn_said(games, not_pdn)


def _not_pdn_said(
    games: Iterator[tuple[str, Game]], say: _NotPdn | None = None
) -> Iterator[tuple[str, Game]]:
    """The games, each input that is not PDN at all (its one game says ``not-pdn``) said on
    standard error by ``say`` (a new :class:`_NotPdn` by default), so that the run ends with
    status 1."""
    say = _NotPdn() if say is None else say
    for name, game in games:
        for problem in game.errors:
            if problem.code == "not-pdn":
                say(name, problem)
        yield name, game


@main.command()
@_files_argument
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
@_variant_option
@_in_place_option
@_quiet_option
@_output_option
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
    every ply) and reads back with pdn.jsonio.game_from_dict. Nothing is left out unless
    --no-comments, --no-variations, --no-nags, --tags or --drop-tags asks.
    """
    from .convert import ConvertOptions, convert_games
    from .stripping import StripOptions, tag_list

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
        for piece in convert_games(_reported(_games_of(inputs), in_place=in_place), options):
            out.write(piece.text)
            problems += piece.problems

    write_outputs(output, files, in_place, write)
    if problems:
        said = "1 move does" if problems == 1 else f"{problems} moves do"
        click.echo(f"note: {said} not replay: kept as written, not rewritten", err=True)


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
@click.option("--png", is_flag=True, help="Write a PNG diagram (needs the optional cairosvg).")
@_picture_options
@_variant_option
@_encoding_option
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
    from .replays import Replays
    from .validation import locate

    piped = file is None and fen is None and sys.stdin is not None and not sys.stdin.isatty()
    if piped:
        file = "-"  # data piped in and no FILE: standard input, as every command reads it
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
        seen = 0
        game = None
        replays = Replays(variant)
        for name, candidate in _games_of((file,)):
            seen += 1
            if candidate.index == number:
                game = candidate
                break
            replays.skip(candidate, name)  # the earlier games may settle its rules
        if game is None:
            if piped and not seen:
                raise click.UsageError("give a FILE or --fen FEN (standard input held no game)")
            raise click.BadParameter(f"{file} has fewer than {number} games", param_hint="--game")
        found = locate(replays.of(game, name), ply)
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
    from collections import Counter

    from .openings import (
        Opening,
        ballot_stats,
        classify,
        empty_stats_note,
        opening_row,
        render_openings_chunks,
        render_stats,
    )
    from .replays import Replays
    from .writer import write_game

    replays = Replays()
    with open_output(output, files) as out:
        if ballot is not None:
            extracted = 0
            for name, game in _games_of(files):
                opening = classify(game, replays.of(game, name))
                if opening.kind == "ballot" and opening.number == ballot:
                    out.write(("\n" if extracted else "") + write_game(game))
                    extracted += 1
        elif stats:
            kinds: Counter[str] = Counter()  # what the games were, to say why no row
            variants: Counter[str] = Counter()

            def classified() -> Iterator[tuple[Opening, str | None]]:
                for name, game in _games_of(files):
                    opening = classify(game, replays.of(game, name))
                    kinds[opening.kind] += 1
                    if opening.kind == "not-english":
                        variants[game.variant or "unknown"] += 1
                    yield opening, game.result

            # Tallied game by game: the memory does not grow with the input.
            table = ballot_stats(classified())
            if sort == "games":
                table.sort(key=lambda row: -row.games)
            out.write(render_stats(table, fmt))
            if not table:
                note = empty_stats_note(kinds, variants)
                click.echo(f"note: the table is empty: {note}", err=True)
        else:
            # One row per game, written as it comes in CSV and JSON (text and Markdown size
            # their columns from every row first).
            rows = (
                opening_row(game, classify(game, replays.of(game, name)))
                for name, game in _games_of(files)
            )
            for chunk in render_openings_chunks(rows, fmt):
                out.write(chunk)


@main.command()
@click.argument("engine_a")
@click.argument("engine_b")
@click.option(
    "--ballots",
    "deck",
    type=click.Choice(["english-3move", "english-11man", "start"]),
    default="english-3move",
    show_default=True,
    help="The openings: ACF three-move ballots, 11-man ballots, or the start position.",
)
@click.option("--games", type=click.IntRange(1), default=2, show_default=True)
@click.option(
    "--depth",
    type=click.IntRange(1, 64),
    default=None,
    help="Plies a move for both (default: each engine's own level).",
)
@click.option(
    "--movetime", type=click.FloatRange(0.01), default=None, help="Seconds a move for both."
)
@click.option(
    "--variant",
    type=click.Choice(VARIANT_NAMES, case_sensitive=False),
    default=None,
    help="The rules, for --ballots start (default English).",
)
@click.option("--max-plies", type=click.IntRange(1), default=300, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Order of the ballots.")
@_output_option
def match(
    engine_a: str,
    engine_b: str,
    deck: str,
    games: int,
    depth: int | None,
    movetime: float | None,
    variant: str | None,
    max_plies: int,
    seed: int,
    output: str,
) -> None:
    """Play ENGINE_A against ENGINE_B, two programs speaking the Hub protocol (for pdn's own,
    "pdn engine --hub --depth 4"), over opening ballots, each ballot with both colours.

    The games are written as PDN (to -o, else standard output) with their ballot, engines,
    result and termination; the standings follow on standard output (standard error when the
    games go there). A game ends with no move left, a draw rule of the variant, an illegal
    move from an engine (it loses), or --max-plies (a draw).
    """
    from .hub import HubError
    from .match import ballots_of, engine_command, play_match
    from .report import build_reports, games_to_records, render_text
    from .writer import write_game

    if variant is not None and deck != "start":
        raise click.UsageError("--variant goes with --ballots start (the other decks are English)")
    ballots = ballots_of(deck, engine.get_variant(variant or "english"))
    played: list[Game] = []
    try:
        with open_output(output, ()) as out:
            for game in play_match(
                [engine_command(engine_a), engine_command(engine_b)],
                ballots,
                games,
                depth=depth,
                movetime=movetime,
                max_plies=max_plies,
                seed=seed,
                labels=[engine_a, engine_b],
            ):
                out.write(("\n" if played else "") + write_game(game))
                played.append(game)
    except HubError as exc:
        raise click.ClickException(str(exc)) from exc
    table = render_text(build_reports(games_to_records(played)))
    click.echo(table, err=output == "-", nl=False)


@main.command("engine")
@click.option("--hub", is_flag=True, help="Speak the Hub protocol on standard input and output.")
@click.option(
    "--depth", type=click.IntRange(1, 64), default=None, help="Search this many plies a move."
)
@click.option("--movetime", type=click.FloatRange(0.01), default=None, help="Seconds per move.")
def engine_command(hub: bool, depth: int | None, movetime: float | None) -> None:
    """pdn's own engine for other programs: with --hub it reads Hub commands (Scan's
    protocol, as pydraughts' HubEngine and draughts GUIs speak it) on standard input and
    answers on standard output. The depth or time given here is its level until the
    program sends a level command; without either it searches 6 plies."""
    from .hub import HubEngine

    if not hub:
        raise click.UsageError("say which protocol: --hub")
    import pdn

    server = HubEngine(sys.stdout, depth=depth, movetime=movetime, version=pdn.__version__)
    server.serve(sys.stdin)


@main.command()
@_files_argument
@click.option(
    "--depth",
    type=click.IntRange(1, 64),
    default=None,
    help="Search every move this many plies (default 8).",
)
@click.option(
    "--movetime",
    type=click.FloatRange(0.01),
    default=None,
    help="Seconds a move instead of a depth: the deepest depth done in time.",
)
@_format_option("pdn", "json")
@_variant_option
@_jobs_option
@_quiet_option
@_output_option
def analyse(
    files: tuple[str, ...],
    depth: int | None,
    movetime: float | None,
    fmt: str,
    variant: str | None,
    jobs: int | None,
    output: str,
) -> None:
    """Analyse every game of FILES with pdn's engine: each mainline move against the best.

    A move that loses about a man (0.90) or more against the best is a blunder ($4), 0.40 or
    more a mistake ($2); a missed shot is a forced gain of a man not played; an only move the
    one move that does not lose a man. PDN output is each game as it was read, with at each
    blunder and mistake its NAG, a comment with the values and the engine's line as a
    variation, and a summary; JSON gives the figures of every ply. The progress bar counts
    the games (-q: none).
    """
    import json

    from .analysis import analyse_files
    from .batch import default_jobs, usable_cores
    from .jsonio import SCHEMA

    if depth is not None and movetime is not None:
        raise click.UsageError("give --depth or --movetime, not both")
    sources = _sources(files)
    jobs = default_jobs(sources) if jobs is None else (jobs or usable_cores())
    not_pdn = _NotPdn()
    reading_errors = _ReadingErrors()
    with _progress(files, per_game=True) as progress, open_output(output, files) as out:
        if fmt == "json":
            out.write(f'{{"schema": "{SCHEMA}", "type": "analysis", "games": [\n')
        count = 0
        for found, text in analyse_files(
            progress.sources(sources),
            depth=depth,
            movetime=movetime,
            variant=variant,
            pdn=fmt == "pdn",
            jobs=jobs,
            encoding=_encoding(),
        ):
            progress.tick()
            if found.not_pdn is not None:
                not_pdn(found.file, found.not_pdn)
                continue
            if found.errors:
                reading_errors(found.file, found.errors)
            if fmt == "json":
                data = json.dumps(found.to_dict(), ensure_ascii=False)
                out.write(("" if not count else ",\n") + data)
            else:
                out.write(("\n" if count else "") + text)
            count += 1  # inputs not PDN at all are not counted
        if fmt == "json":
            out.write("\n]}\n")


@main.command()
@_files_argument
@click.option(
    "--moves",
    "line",
    metavar="LINE",
    default=None,
    help='Explore the position after this line from the start ("11-15 23-19 8-11").',
)
@click.option("--fen", default=None, help="Explore this position.")
@click.option(
    "--depth",
    type=click.IntRange(0),
    default=30,
    show_default=True,
    help="Plies of each game that go into the tree (0: whole games).",
)
@click.option(
    "--min-games",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Show only replies played in at least this many games (html: follow only those).",
)
@click.option(
    "--plies",
    type=click.IntRange(0),
    default=10,
    show_default=True,
    help="html: how many plies below the position the page follows replies.",
)
@click.option(
    "--max-nodes",
    type=click.IntRange(1),
    default=5000,
    show_default=True,
    help="html: the most positions the page holds (the nearest first).",
)
@_format_option("text", "json", "html")
@_variant_option
@_jobs_option
@_quiet_option
@_output_option
def explore(
    files: tuple[str, ...],
    line: str | None,
    fen: str | None,
    depth: int,
    min_games: int,
    plies: int,
    max_nodes: int,
    fmt: str,
    variant: str | None,
    jobs: int | None,
    output: str,
) -> None:
    """The opening tree of FILES at one position (the start by default): the games that
    reached it, their results for the side to move, and every move played from it with the
    same figures. Positions, not move orders, are counted: transpositions merge.

    Each game is replayed under its rules, as validate replays it; the tree shows the
    variant most games are in (or --variant). A game that breaks off with an illegal move
    counts up to its last legal ply.

    --format html writes one self-contained page to click through the tree from the
    position: its board, figures and replies; a click on a reply goes to the position
    after it (the browser's back button steps back). The page holds the positions reached
    by replies played in at least --min-games games, up to --plies plies below the
    position, at most --max-nodes of them, nearest first; it says how many replies lead to
    positions left out. OCA 2.0 from the start with the defaults: 5,000 positions, about
    0.9 MB.
    """
    import json

    from .batch import default_jobs, usable_cores
    from .explorer import build, positions_asked
    from .explorer_render import render_text, to_json

    if line is not None and fen is not None:
        raise click.UsageError("give --moves or --fen, not both")
    try:
        asked = positions_asked(line, fen, variant)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--moves") from exc
    sources = _sources(files)
    jobs = default_jobs(sources) if jobs is None else (jobs or usable_cores())
    with _progress(files) as progress:
        tree = build(
            progress.sources(sources),
            depth,
            variant=variant,
            players_at=[p for p in asked.values() if not isinstance(p, str)],
            jobs=jobs,
            encoding=_encoding(),
            tick=progress.tick,
            reading_errors=_ReadingErrors(),
        )
        progress.close()
    rules = engine.get_variant(variant) if variant else tree.main_variant()
    if rules is None:
        raise click.ClickException("no game to explore in FILES")
    position = asked[rules.name]
    if isinstance(position, str):
        raise click.BadParameter(position, param_hint="--fen" if fen else "--moves")
    if fmt == "html":
        from .batch import display_name
        from .explorer_page import explorer_html

        page = explorer_html(
            tree,
            position,
            min_games=min_games,
            plies=plies,
            max_nodes=max_nodes,
            line=line if line is not None else (None if fen is not None else ""),
            title="Explorer: " + ", ".join(display_name(s) for s in sources),
        )
        with open_output(output, files) as out:
            out.write(page)
        return
    node = tree.node(position)
    with open_output(output, files) as out:
        if fmt == "json":
            out.write(json.dumps(to_json(tree, node, min_games=min_games), indent=2) + "\n")
        else:
            out.write(render_text(tree, node, min_games=min_games))


def _archive_files(files: tuple[str, ...], against: tuple[str, ...], option: str) -> list[str]:
    """The files of the archives named by ``option`` (files or folders, ``--recursive`` as
    for FILES), none of them a FILE."""
    from .batch import input_files

    try:
        recursive = click.get_current_context().meta.get("pdn.recursive", False)
        archive = input_files(against, recursive=recursive)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=option) from exc
    if {Path(f).resolve() for f in files if f != "-"} & {Path(a).resolve() for a in archive}:
        raise click.UsageError(f"a FILE is also an {option} ARCHIVE")
    return archive


_against_option = click.option(
    "--against",
    multiple=True,
    required=True,
    type=click.Path(exists=True),
    metavar="ARCHIVE",
    help="The archive to compare with (a file or folder; repeatable).",
)


@main.command()
@_files_argument
@_against_option
@_format_option("text", "json")
@_variant_option
@_jobs_option
@_quiet_option
@_output_option
def novelty(
    files: tuple[str, ...],
    against: tuple[str, ...],
    fmt: str,
    variant: str | None,
    jobs: int | None,
    output: str,
) -> None:
    """The novelty of each game of FILES against ARCHIVE: the first ply after which the
    game is in a position no archive game reached (by any move order), with how many archive
    games reached the position before it and what they played there.

    Games are replayed as validate replays them, each under its rules; an archive game under
    other rules never matches (the summary says how many there were). A game whose mainline,
    as far as it is legal, is all in the archive has no novelty. --format json writes the
    records of docs/json.md. Reading errors are said on standard error as FILE:LINE:COL (a
    game still counts as far as it was read and is legal); exit status 1 when an input is not
    PDN at all.
    """
    import json

    from .batch import default_jobs, usable_cores
    from .novelty import (
        archive_tree,
        novelty_of,
        novelty_text,
        replay_games,
        summary_text,
        to_json,
    )

    archive = _archive_files(files, against, "--against")
    sources = _sources(files)
    jobs = default_jobs([*sources, *archive]) if jobs is None else (jobs or usable_cores())
    reading = _ReadingErrors()  # said as they come; an input that is not PDN exits 1
    with _progress(files + tuple(archive)) as progress:
        played = list(
            replay_games(
                progress.sources(sources),
                variant=variant,
                jobs=jobs,
                encoding=_encoding(),
                tick=progress.tick,
                reading_errors=reading,
            )
        )
        tree = archive_tree(
            progress.sources(archive),
            played,
            variant=variant,
            jobs=jobs,
            encoding=_encoding(),
            tick=progress.tick,
            reading_errors=reading,
        )
        progress.close()
    # An input that is not PDN was said: it has no game to list.
    found = [novelty_of(one, tree) for one in played if one.stopped != "not-pdn"]
    with open_output(output, files) as out:
        if fmt == "json":
            data = to_json(found, tree)
            out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        else:
            for each in found:
                out.write(printable(novelty_text(each)) + "\n")
            out.write(("\n" if found else "") + summary_text(found, tree) + "\n")


@main.command()
@_files_argument
@_format_option("text", "markdown", "csv", "json", "html")
@click.option(
    "--points",
    default=None,
    help="Points for a win, a draw and a loss, e.g. 2,1,0 (default: as the results are "
    "written: 2,1,0 for 2-0/1-1 results, else 1,0.5,0).",
)
@click.option(
    "--table",
    type=click.Choice(["standings", "crosstable", "games", "openings"]),
    default="standings",
    show_default=True,
    help="Which table CSV output holds.",
)
@click.option("--no-openings", is_flag=True, help="Skip the ballot of each game (faster).")
@click.option("--event", default=None, metavar="REGEX", help="Only the events this matches.")
@_names_option
@click.option(
    "--width",
    type=click.IntRange(20),
    default=None,
    help="Fold text tables wider than this (default: the terminal's width on a terminal).",
)
@click.option(
    "--dedupe",
    is_flag=True,
    help="Count a repeated game once (same moves, players, event and round).",
)
@_variant_option
@_quiet_option
@_output_option
def report(
    files: tuple[str, ...],
    fmt: str,
    points: str | None,
    table: str,
    no_openings: bool,
    event: str | None,
    aliases: Aliases | None,
    width: int | None,
    dedupe: bool,
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
    import shutil

    from . import report as reports
    from .openings import classify
    from .problems import Problem
    from .replays import Replays

    try:
        scheme = None if points is None else reports.parse_points(points)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--points") from exc
    if width is None and output == "-" and sys.stdout.isatty():
        width = shutil.get_terminal_size().columns

    # What standard error says, the page says too (HTML and Markdown): pdn.report.render_chunks.
    page_warnings: list[str] = []
    not_pdn = _NotPdn(page_warnings)

    def records() -> Iterator[reports.GameRecord]:
        repeats = _Repeats(dedupe, page_warnings)
        replays = Replays(variant)
        with_games: set[str] = set()
        for name, game in _games_of(files, not_pdn=not_pdn):
            if any(p.code == "not-pdn" for p in game.errors):
                with_games.add(name)  # said already (and on the page)
                continue
            if not (game.tags or game.mainline_moves() or game.terminator is not None):
                continue  # text between games (or a file of no games): nothing to report
            with_games.add(name)
            if repeats.skip(name, game):
                replays.skip(game, name)
                continue
            label = None
            if not no_openings:
                opening = classify(game, replays.of(game, name))
                label = f"ACF {opening.number}" if opening.kind == "ballot" else None
            # index: the game's number in its file, as validate and the warnings give it.
            yield reports.game_record(game, variant, opening=label, index=game.index)
        for name in dict.fromkeys(files):
            if name not in with_games:
                not_pdn(name, Problem("not-pdn", "no PDN game in this file", line=1, column=1))
        repeats.summary()  # after the last game, before the first event is written

    # One event at a time: the records wait on disk, not in memory (pdn.report.EventStore).
    try:
        built = reports.iter_reports(records(), scheme, aliases=aliases, event=event)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--event") from exc
    with open_output(output, files) as out:
        chunks = reports.render_chunks(built, fmt, table=table, width=width, warnings=page_warnings)
        for chunk in chunks:
            out.write(chunk)
    not_pdn.exit()


@main.command()
@_files_argument
@click.option("--fen", "fen_comments", is_flag=True, help="A comment with the FEN after each move.")
@click.option("--forced", is_flag=True, help="Mark only-moves and forced jumps.")
@click.option(
    "--problems", is_flag=True, help="A comment at each illegal move (code, legal moves)."
)
@click.option(
    "--novelties",
    multiple=True,
    type=click.Path(exists=True),
    metavar="ARCHIVE",
    help="A comment at each game's novelty against ARCHIVE (a file or folder; repeatable): "
    "its first move to a position no archive game reached, as pdn novelty finds it.",
)
@_variant_option
@_in_place_option
@_quiet_option
@_output_option
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
    from .annotate import AnnotateOptions, Annotator, annotations_of
    from .replays import Replays
    from .writer import PdnWriter

    options = AnnotateOptions(fen=fen_comments, forced=forced, problems=problems)
    found = _novelties_of(files, novelties, variant) if novelties else {}

    def write(inputs: tuple[str, ...], out: TextIO) -> None:
        from .novelty import add_novelty

        replays = Replays(variant)
        for number, (name, game) in enumerate(_reported(_games_of(inputs), in_place=in_place)):
            report = replays.of(game, name)
            annotations = annotations_of(game, report, options)
            novelty = found.get((name, game.index))
            if novelty is not None:
                add_novelty(annotations, novelty, report)
            text = game.accept(Annotator(PdnWriter(variant=game.variant), annotations))
            out.write(("\n" if number else "") + text)

    write_outputs(output, files, in_place, write)


def _novelties_of(
    files: tuple[str, ...], against: tuple[str, ...], variant: str | None
) -> dict[tuple[str, int], Novelty]:
    """The novelty of each game of FILES against the archive, by file and game number, for
    ``annotate --novelties``; a line on standard error says how many were found."""
    from .novelty import archive_summary, archive_tree, novelty_of, replay_games

    if "-" in files:
        raise click.UsageError("--novelties reads FILES twice: give files, not standard input")
    archive = _archive_files(files, against, "--novelties")
    with _progress(files + tuple(archive)) as progress:
        played = list(
            replay_games(progress.sources(_sources(files)), variant=variant, encoding=_encoding())
        )
        # The archive's reading errors are said here; those of FILES as they are written.
        tree = archive_tree(
            progress.sources(archive),
            played,
            variant=variant,
            encoding=_encoding(),
            reading_errors=_ReadingErrors(),
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
    from .batch import is_json, iter_games
    from .reader import read_headers

    for source in _sources(files):
        if is_json(source):
            yield from (game.tags for game in iter_games(source))
        else:
            yield from read_headers(source, encoding=_encoding())


@main.command()
@_files_argument
@_names_option
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
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the list of changes here instead of standard error.",
)
@_in_place_option
@_output_option
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
    from .batch import display_name
    from .fixing import FixOptions, fix_source
    from .names import aliases_csv, suggest_aliases

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
            progress = _progress(inputs)
            number = made_here = 0
            for source in progress.sources(_sources(inputs)):
                name = display_name(source)
                for fixed in progress.count(fix_source(source, options, encoding=_encoding())):
                    said = _not_pdn_said(iter([(name, fixed.game)]))
                    for _ in _reported(said, in_place=in_place):
                        pass  # (says the game's reading errors)
                    for change in fixed.changes:
                        log_out.write(printable(f"{name}:{change.line}: {change.text()}") + "\n")
                    made_here += fixed.made
                    games_changed += bool(fixed.made)
                    out.write(("\n" if number else "") + fixed.text)
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


# ------------------------------------------------------------ select, dedupe, split (issue 11)


class _Repeats:
    """Warns of repeated games on standard error (pdn.duplicates.pairing_key); with
    ``dedupe``, says which are left out of the counts."""

    #: Repeats listed one by one on a page (standard error lists them all).
    SHOWN = 20

    def __init__(self, dedupe: bool, page: list[str] | None = None) -> None:
        from .duplicates import Deduper

        self.dedupe = dedupe
        self.seen = Deduper()
        self.count = 0
        self.page = [] if page is None else page

    def skip(self, name: str, game: Game) -> bool:
        """Whether to leave ``game`` out: it repeats an earlier game and ``dedupe`` is on."""
        from .duplicates import Place, pairing_key

        place = Place(name, game.line, game.index)
        first = self.seen.check(pairing_key(game), place)
        if first is None:
            return False
        self.count += 1
        how = "counted once" if self.dedupe else "counted again"
        message = (
            f"{place}:1: warning: game {game.index} repeats {first} (game {first.index}), {how}"
        )
        click.echo(printable(message), err=True)
        if self.count <= self.SHOWN:
            self.page.append(message)
        return self.dedupe

    def summary(self) -> None:
        """One closing line when any game was repeated."""
        if self.count > self.SHOWN:
            self.page.append(
                f"... {self.count - self.SHOWN} more repeats (standard error lists all)"
            )
        if self.count and not self.dedupe:
            line = f"warning: {self.count} repeated games counted again; --dedupe counts each once"
            click.echo(line, err=True)
            self.page.append(line)
        elif self.count:
            self.page.append(f"{self.count} repeated games counted once (--dedupe)")


T = TypeVar("T")
U = TypeVar("U")


class _ReadingErrors:
    """Says the reading errors of a game as FILE:LINE:COL: CODE: MESSAGE on standard error
    (at most :data:`_ERRORS_SHOWN` per game), an input that is not PDN at all as
    :class:`_NotPdn` says it, for a command that reads games in workers."""

    def __init__(self) -> None:
        self.not_pdn = _NotPdn()

    def __call__(self, name: str, problems: tuple[Problem, ...]) -> None:
        errors = [p for p in problems if p.code != "not-pdn"]
        for problem in problems:
            if problem.code == "not-pdn":
                self.not_pdn(name, problem)
        for problem in errors[:_ERRORS_SHOWN]:
            where = f"{name}:{problem.line or 1}:{problem.column or 1}"
            click.echo(printable(f"{where}: {problem.code}: {problem.message}"), err=True)
        if len(errors) > _ERRORS_SHOWN:
            more = len(errors) - _ERRORS_SHOWN
            click.echo(f"{name}: {more} more reading errors in this game", err=True)


class _NotPdn:
    """Says each input that is not PDN at all as FILE:LINE:COL: CODE: MESSAGE on standard
    error, and remembers it for the exit status."""

    def __init__(self, page: list[str] | None = None) -> None:
        self.count = 0
        self.page = page  # where a page collects what it must say too (pdn report)

    def __call__(self, name: str, problem: Problem) -> None:
        self.count += 1
        # Every command then ends with status 1 (_Group), whether or not it calls exit().
        click.get_current_context().find_root().meta[_INPUT_LOST] = True
        where = f"{name}:{problem.line or 1}:{problem.column or 1}"
        line = f"{where}: {problem.code}: {problem.message}"
        click.echo(printable(line), err=True)
        if self.page is not None:
            self.page.append(line)

    def exit(self) -> None:
        """Exit 1 when an input was not PDN."""
        if self.count:
            sys.exit(EXIT_PROBLEMS)


def _regex(pattern: str | None, param: str) -> re.Pattern[str] | None:
    """A case-insensitive regular expression from an option, or a usage error."""
    if pattern is None:
        return None
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise click.BadParameter(f"{pattern!r}: {exc}", param_hint=param) from exc


def _parsed(parse: Callable[[U], T], text: U | None, param: str) -> T | None:
    """``parse(text)`` for an option value, a ValueError becoming a usage error."""
    if text is None:
        return None
    try:
        return parse(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=param) from exc


def _check_fen(fen: str | None) -> None:
    """A --fen that no variant can read is a usage error, not a silent empty selection."""
    if fen is None:
        return
    errors = []
    for rules in engine.VARIANTS.values():
        try:
            engine.Position.from_fen(fen, rules)
            return
        except engine.FenError as exc:
            errors.append(str(exc))
    raise click.BadParameter(f"{fen!r}: {errors[0]}", param_hint="--fen")


def _check_line(moves: tuple[str, ...] | None, text: str | None) -> None:
    """A --moves line that no variant can play from its standard start is said: only games
    set up by a FEN tag can then match (it is no usage error, as they may)."""
    if moves is None:
        return
    from .selection import line_position

    for rules in engine.VARIANTS.values():
        if line_position(engine.Position.start(rules), moves) is not None:
            return
    click.echo(
        printable(
            f"Warning: --moves {text!r} cannot be played from the start position under any "
            "rules: only games set up by a FEN tag can match"
        ),
        err=True,
    )


@main.command()
@_files_argument
@click.option(
    "--tag",
    "tag_filters",
    multiple=True,
    metavar="NAME=REGEX",
    help="Keep games whose tag NAME (any case) matches REGEX (repeatable: all must match).",
)
@click.option(
    "--where",
    "where_filters",
    multiple=True,
    metavar="EXPR",
    help="A tag compared: WhiteRating>=1950, Date<1990.06, Round!=3 (= != < <= > >=; numbers "
    "as numbers, *Date tags as dates, else text). Repeatable: all must hold.",
)
@click.option("--any", "where_any", is_flag=True, help="One --where holding is enough.")
@click.option("--player", metavar="REGEX", help="Black or White matches.")
@click.option("--black", metavar="REGEX", help="Black matches.")
@click.option("--white", metavar="REGEX", help="White matches.")
@click.option("--event", metavar="REGEX", help="Event matches.")
@click.option(
    "--date-from", metavar="DATE", help="Dated on or after DATE (YYYY, YYYY.MM or YYYY.MM.DD)."
)
@click.option("--date-to", metavar="DATE", help="Dated on or before DATE.")
@click.option(
    "--result",
    "result_filters",
    multiple=True,
    metavar="RESULT",
    help="1-0, 0-1, 2-0, 0-2, 1-1, 1/2-1/2, draw, unknown... (repeatable: any). Read "
    "as the first mover's outcome, so 1-0 also keeps 2-0 (Result tag, else the "
    "terminator).",
)
@click.option(
    "--variant",
    "variant_filter",
    type=click.Choice(VARIANT_NAMES, case_sensitive=False),
    default=None,
    help="Games of this variant (GameType tag, else detected).",
)
@click.option(
    "--min-plies", type=click.IntRange(0), default=None, help="At least N mainline plies."
)
@click.option("--max-plies", type=click.IntRange(0), default=None, help="At most N mainline plies.")
@click.option(
    "--ballot",
    type=click.IntRange(1, 174),
    default=None,
    help="English games on ACF ballot N, by position (transpositions count).",
)
@click.option(
    "--fen", default=None, help="The mainline passes through this position (side to move included)."
)
@click.option(
    "--fen-pattern",
    default=None,
    metavar="PATTERN",
    help="The mainline reaches a position with these pieces, e.g. '?:W18,K22:B15' "
    "(turn B, W or ?; other squares may hold anything).",
)
@click.option(
    "--material",
    default=None,
    metavar="FIRST:SECOND",
    help="Pieces at the end of the mainline: first mover first (3K:2K, 2M1K:3K, 5:4) "
    "or by colour (W3K:B2K).",
)
@click.option(
    "--material-at-any",
    default=None,
    metavar="FIRST:SECOND",
    help="As --material, at any position of the mainline.",
)
@click.option(
    "--moves",
    "moves_line",
    default=None,
    metavar="LINE",
    help="The mainline reaches the position after this line of moves, at the same ply "
    "(e.g. '11-15 23-19 8-11 22-17'; transpositions count).",
)
@click.option(
    "--mark",
    is_flag=True,
    help="Add a {select: ...} comment after the move where --moves, --fen, --fen-pattern, "
    "--material or --material-at-any was met.",
)
@click.option(
    "--clean",
    "verdict",
    flag_value="clean",
    default=None,
    help="Games validation replays without an error (games of variants without rules "
    "are neither clean nor broken).",
)
@click.option("--broken", "verdict", flag_value="broken", help="Games with an error.")
@click.option(
    "--cut-at-error",
    is_flag=True,
    help="Write a game with an error in its mainline up to that error; the rest "
    "follows word for word in ';' comment lines.",
)
@click.option("--invert", is_flag=True, help="Keep the games that do NOT match.")
@click.option("--first", type=click.IntRange(1), default=None, help="Stop after N games.")
@click.option("--count", "count_only", is_flag=True, help="Print only the number of games.")
@_quiet_option
@_output_option
def select(
    files: tuple[str, ...],
    tag_filters: tuple[str, ...],
    where_filters: tuple[str, ...],
    where_any: bool,
    player: str | None,
    black: str | None,
    white: str | None,
    event: str | None,
    date_from: str | None,
    date_to: str | None,
    result_filters: tuple[str, ...],
    variant_filter: str | None,
    min_plies: int | None,
    max_plies: int | None,
    ballot: int | None,
    fen: str | None,
    fen_pattern: str | None,
    material: str | None,
    material_at_any: str | None,
    moves_line: str | None,
    mark: bool,
    verdict: str | None,
    cut_at_error: bool,
    invert: bool,
    first: int | None,
    count_only: bool,
    output: str,
) -> None:
    """Keep the games of FILES that meet every condition given, in order, written as read.

    Regular expressions are case-insensitive and may match anywhere in the value
    (anchor them with ^ and $). Dates: a game's date with ? parts stands for every day it
    could be (1990.??.?? is all of 1990, 19??.??.?? the century) and is kept when any of them
    lies in --date-from..--date-to; a partial bound is its first day (--date-from) or last day
    (--date-to); a game without a known year fails any date bound. Tag conditions never parse
    the moves; --fen and --ballot replay the mainline only as far as they need.

    --where compares a tag with a value: as numbers when the value is one, as PDN dates for a
    tag named *Date (a date with ? parts meets it when a day it stands for would; != is the
    opposite of =), else as text (any case). A missing tag, or one that cannot be read so
    (a rating of ?), meets no comparison.
    """
    from .selection import (
        Selection,
        parse_date_bound,
        parse_line,
        parse_material,
        parse_pattern,
        parse_results,
        parse_where,
        select_games,
    )

    tags = []
    for item in tag_filters:
        name, sep, pattern = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{item!r} is not NAME=REGEX", param_hint="--tag")
        compiled = _regex(pattern, "--tag")
        assert compiled is not None
        tags.append((name.strip(), compiled))
    _check_fen(fen)
    where = [_parsed(parse_where, item, "--where") for item in where_filters]
    if where_any and not where:
        raise click.UsageError("--any ORs the --where conditions: give some")
    moves = _parsed(parse_line, moves_line, "--moves")
    _check_line(moves, moves_line)
    if mark and not (moves or fen or fen_pattern or material or material_at_any):
        raise click.UsageError(
            "--mark marks where --moves, --fen, --fen-pattern, --material or "
            "--material-at-any was met: give one"
        )
    if mark and (invert or cut_at_error):
        raise click.UsageError("--mark cannot go with --invert or --cut-at-error")
    selection = Selection(
        tags=tags,
        where=[comparison for comparison in where if comparison is not None],
        where_any=where_any,
        player=_regex(player, "--player"),
        black=_regex(black, "--black"),
        white=_regex(white, "--white"),
        event=_regex(event, "--event"),
        date_from=_parsed(lambda t: parse_date_bound(t, upper=False), date_from, "--date-from"),
        date_to=_parsed(lambda t: parse_date_bound(t, upper=True), date_to, "--date-to"),
        results=_parsed(parse_results, result_filters or None, "--result"),
        variant=engine.get_variant(variant_filter).name if variant_filter else None,
        min_plies=min_plies,
        max_plies=max_plies,
        ballot=ballot,
        fen=fen,
        fen_pattern=_parsed(parse_pattern, fen_pattern, "--fen-pattern"),
        material=_parsed(parse_material, material, "--material"),
        material_at_any=_parsed(parse_material, material_at_any, "--material-at-any"),
        moves=moves,
        mark=mark,
        verdict="clean" if verdict == "clean" else "broken" if verdict == "broken" else None,
        invert=invert,
        first=first,
        cut_at_error=cut_at_error,
    )
    chosen = cut = 0
    not_pdn = _NotPdn()
    sources = _sources(files)
    # A bar when games are parsed or replayed (positions, verdicts, plies): the slow cases.
    with (
        _progress(files, slow=selection.needs_game()) as progress,
        open_output(output, files) as out,
    ):
        picks = select_games(
            progress.sources(sources), selection, on_problem=not_pdn, encoding=_encoding()
        )
        for picked in picks:
            if not count_only:
                out.write(("\n" if chosen else "") + picked.text)
            chosen += 1
            cut += picked.cut
        progress.close()  # before the count, which stays on screen
        if count_only:
            out.write(f"{chosen}\n")
    if cut:
        click.echo(f"note: {cut} games cut at their first error (the rest in comments)", err=True)
    not_pdn.exit()


@main.command()
@_files_argument
@click.option(
    "--by",
    "level",
    type=click.Choice(["text", "moves", "position"]),
    default="moves",
    show_default=True,
    help="text: the same text, white space aside; moves: the same mainline, tags aside; "
    "position: the same final position and players.",
)
@click.option(
    "--against",
    multiple=True,
    type=click.Path(exists=True),
    metavar="ARCHIVE",
    help="Also drop the games ARCHIVE already has (a file or folder, read but never "
    "written; repeatable).",
)
@click.option(
    "--duplicates-to",
    default=None,
    metavar="FILE",
    help="Write the repeats dropped to FILE, each as read.",
)
@click.option(
    "--report",
    "report_to",
    default=None,
    metavar="FILE",
    help="Write the list of repeats to FILE (FILE:LINE: game N repeats FILE:LINE (game M)); "
    "'-' for standard output, which then gets no games unless -o sends them elsewhere.",
)
@_quiet_option
@_output_option
def dedupe(
    files: tuple[str, ...],
    level: str,
    against: tuple[str, ...],
    duplicates_to: str | None,
    report_to: str | None,
    output: str,
) -> None:
    """Write the games of FILES without repeats, keeping the first of each, as read.

    Standard error gets one summary line (games read, repeats dropped); --report FILE lists
    each repeat and the game it repeats, --duplicates-to FILE writes the repeats themselves.
    With --against ARCHIVE, a game the archive already has is a repeat too (NEW --against
    ARCHIVE: the games of NEW that are not yet in ARCHIVE).
    """
    from .batch import input_files
    from .duplicates import LEVELS, dedupe_games
    from .writer import write_game

    by = LEVELS[LEVELS.index(level)]
    try:
        recursive = click.get_current_context().meta.get("pdn.recursive", False)
        archive = tuple(input_files(against, recursive=recursive))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--against") from exc
    inputs = files + archive
    if {Path(f).resolve() for f in files if f != "-"} & {Path(a).resolve() for a in archive}:
        raise click.UsageError("a FILE is also an --against ARCHIVE")
    report_path = Path(report_to or "-")
    # `--report games.pdn` (the old flag before the input) must not replace the games.
    if (
        report_to not in (None, "-")
        and report_path.suffix.lower() == ".pdn"
        and report_path.exists()
    ):
        raise click.UsageError(
            f"--report {report_to}: the report is a list, not PDN; refusing to overwrite "
            "a .pdn file (use --report - for standard output)"
        )
    named = [o for o in (output, duplicates_to, report_to) if o is not None and o != "-"]
    if len({Path(o).resolve() for o in named}) < len(named):
        raise click.UsageError("-o, --duplicates-to and --report must be different files")
    standard = [o for o in (duplicates_to, report_to) if o == "-"]
    if len(standard) > 1:
        raise click.UsageError("only one of --duplicates-to and --report can be -")
    # Standard output is the games' by default; a report or the repeats may take it instead.
    games_out = None if standard and output == "-" else output
    games = dropped = archived = written = repeats_written = 0
    not_pdn = _NotPdn()
    with contextlib.ExitStack() as stack:
        out = None if games_out is None else stack.enter_context(open_output(games_out, inputs))
        copies = (
            None
            if duplicates_to is None
            else stack.enter_context(open_output(duplicates_to, inputs))
        )
        listing = None if report_to is None else stack.enter_context(open_output(report_to, inputs))
        progress = stack.enter_context(_progress(inputs))
        checked = dedupe_games(
            progress.sources(_sources(files)),
            by,
            against=progress.sources(archive),
            on_problem=not_pdn,
            encoding=_encoding(),
        )
        for seen in progress.count(checked):
            games += 1
            if seen.raw is not None:
                text = seen.raw.text
            else:
                assert seen.game is not None
                text = write_game(seen.game)
            text += "" if text.endswith("\n") else "\n"
            if seen.repeats is not None:
                dropped += 1
                archived += seen.repeats.file in archive
                if listing is not None:
                    listing.write(
                        printable(
                            f"{seen.place}: game {seen.place.index} repeats {seen.repeats} "
                            f"(game {seen.repeats.index})"
                        )
                        + "\n"
                    )
                if copies is not None:
                    copies.write(("\n" if repeats_written else "") + text)
                    repeats_written += 1
                continue
            if out is not None:
                out.write(("\n" if written else "") + text)
            written += 1
        progress.close()  # before the summary, which stays on screen
    inside = f", {archived} of them in the archive" if archive else ""
    click.echo(f"{games} games, {dropped} repeats dropped (by {level}){inside}", err=True)
    not_pdn.exit()


@main.command()
@_files_argument
@click.option(
    "--by",
    "grouping",
    required=True,
    metavar="event|round|ballot|variant|player|N",
    help="One file per event, round, ACF ballot, variant or player (a game goes to both "
    "players' files), or N games per file.",
)
@click.option(
    "-o",
    "--output",
    "folder",
    required=True,
    type=click.Path(file_okay=False, writable=True),
    help="The folder to write into (made if missing).",
)
def split(files: tuple[str, ...], grouping: str, folder: str) -> None:
    """Split the games of FILES into files in a folder, written as read, with index.csv
    saying which game went where.

    File names come from tag values made safe: no path separators, '..', control
    characters or Windows reserved names, at most 100 bytes, unique even ignoring case; a
    symbolic link or an input file in the folder is never written through.
    """
    from .splitting import GROUPINGS, INDEX_NAME, split_files

    by: str | int = grouping.lower()
    if isinstance(by, str) and by.isdigit():
        by = int(by)
        if by < 1:
            raise click.BadParameter("N is at least 1", param_hint="--by")
    elif by not in GROUPINGS:
        raise click.BadParameter(
            f"{grouping!r}: one of {', '.join(GROUPINGS)} or a number", param_hint="--by"
        )
    not_pdn = _NotPdn()
    try:
        result = split_files(_sources(files), folder, by, on_problem=not_pdn, encoding=_encoding())
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(
        printable(
            f"{result.games} games into {len(result.files)} files in {folder}; "
            f"{INDEX_NAME} lists where each went"
        )
    )
    not_pdn.exit()


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
@click.option(
    "--explorer",
    is_flag=True,
    help="Add the opening explorer's panel: the collection's replies at each position.",
)
@click.option(
    "--explorer-from",
    "archives",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    metavar="ARCHIVE",
    help="Also count these files' games in the panel (repeatable; implies --explorer).",
)
@click.option(
    "--explorer-depth",
    type=click.IntRange(0),
    default=30,
    show_default=True,
    help="The panel's plies of each game (0: whole games).",
)
@click.option(
    "--analyse",
    "analyse",
    is_flag=True,
    help="Analyse each game with pdn's engine (as pdn analyse) and draw its values in a "
    "graph under the board.",
)
@click.option(
    "--depth",
    type=click.IntRange(1, 64),
    default=None,
    help="With --analyse: search every move this many plies (default 8).",
)
@_quiet_option
@_output_option
def view(
    files: tuple[str, ...],
    variant: str | None,
    jobs: int,
    title: str | None,
    explorer: bool,
    archives: tuple[str, ...],
    explorer_depth: int,
    analyse: bool,
    depth: int | None,
    output: str,
) -> None:
    """Write one self-contained HTML page to browse the games of FILES: a game list with a
    filter, the board, the moves with comments, NAGs and variations, every illegal move
    marked with the validator's message and the legal moves there. Arrow keys step through a
    game (up and down change game), f flips the board.

    --explorer adds a panel under the board: at each mainline position of the shown game (up
    to --explorer-depth plies), the moves the collection (FILES, and the --explorer-from
    files) played there, with their games, wins, draws, losses and score for the side to
    move. A click on the game's next move (or a variation's) steps there; a click on another
    reply shows the position after it, off the game (the back arrow returns). Only the
    shown games' positions are counted, so a large archive costs its replay time, not its
    tree's memory; FILES are read twice (so not standard input).
    """
    from .batch import display_name
    from .viewer import view_files

    if depth is not None and not analyse:
        raise click.UsageError("--depth is for --analyse")
    if analyse and depth is None:
        from .analysis import DEPTH

        depth = DEPTH
    sources = _sources(files)
    name = title or ", ".join(display_name(s) for s in sources)
    workers = jobs or os.cpu_count() or 1
    panel = None
    if explorer or archives:
        from .explorer_page import panel_data, panel_tree

        if any(not isinstance(s, str) for s in sources):
            raise click.UsageError("--explorer reads FILES twice: give files, not standard input")
        with _progress(files + archives) as progress:
            tree, asked = panel_tree(
                progress.sources(sources),
                archives=progress.sources(archives),
                depth=explorer_depth,
                variant=variant,
                jobs=workers,
                encoding=_encoding(),
                tick=progress.tick,
            )
            progress.close()
        panel = panel_data(tree, asked)
    with _progress(files) as progress, open_output(output, files) as out:
        count = view_files(
            progress.sources(sources),
            out,
            variant=variant,
            jobs=workers,
            title=name,
            encoding=_encoding(),
            on_problem=_NotPdn(),
            explorer=panel,
            analyse=depth,
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
@click.option("--png", is_flag=True, help="PNG files instead of SVG (needs the optional cairosvg).")
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
    from .replays import Replays

    wanted = _plies_option(plies)
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    chosen = []
    replays = Replays(variant)
    for name, game in _games_of(files):
        if number is not None and game.index != number:
            replays.skip(game, name)
            continue
        found, missing = snapshots(replays.of(game, name), wanted)
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
