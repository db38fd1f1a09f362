"""The ``pdn`` command line: thin click commands over the library.

Every command reads files or ``-`` (standard input), writes standard output or ``-o FILE``
(atomically), and turns bad input into messages, never into a traceback.

The commands live in modules by what users do with them (:data:`COMMANDS`): a command's
module is imported only when that command runs (or its help is asked), so that start-up
does not grow with the number of commands; ``pdn --help`` imports none of them.
"""

from __future__ import annotations

import errno
import importlib
import sys

import click

from .streams import (
    EXIT_CLEAN,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    INPUT_LOST,
    StreamClosedError,
    open_output,
    prepare_standard_streams,
    write_outputs,
)

__all__ = [
    "COMMANDS",
    "EXIT_CLEAN",
    "EXIT_PROBLEMS",
    "EXIT_USAGE",
    "StreamClosedError",
    "main",
    "open_output",
    "write_outputs",
]

#: Each command: the module of ``pdn.cli`` that defines it, its function there, and the first
#: sentence of its help, which ``pdn --help`` shortens as click does (tests/test_cli_layout.py
#: checks it against the command's own help).
COMMANDS: dict[str, tuple[str, str, str]] = {
    "analyse": (
        "engines",
        "analyse",
        "Analyse every game of FILES with an engine: each mainline move against the best.",
    ),
    "annotate": (
        "converting",
        "annotate",
        "Write the games back with PlyCount, Opening, FinalFEN and Termination tags, and "
        "optional per-move comments.",
    ),
    "convert": (
        "converting",
        "convert",
        "Convert the games of FILES to PDN, JSON, NDJSON, CSV (one row per ply, or with "
        "csv-games one row per game: tags, result, plies, ballot, status) or FEN lists.",
    ),
    "dedupe": (
        "selecting",
        "dedupe",
        "Write the games of FILES without repeats, keeping the first of each, as read.",
    ),
    "diagram": (
        "viewing",
        "diagram",
        "Write a diagram of each chosen position of the games of FILES into a folder (file "
        "names from the game number, players and ply, always inside it), or with --sheet one "
        "printable HTML page of them (print it to PDF from a browser).",
    ),
    "endgame": (
        "endgames",
        "endgame",
        "Endgame tables built by pdn: win, draw or loss with the distance to the end, for "
        "every position of up to a few pieces (build them, then probe a position).",
    ),
    "engine": (
        "engines",
        "engine_command",
        "pdn's own engine for other programs: with --hub it reads Hub commands (Scan's "
        "protocol, as pydraughts' HubEngine and draughts GUIs speak it) on standard input and "
        "answers on standard output.",
    ),
    "explore": (
        "studying",
        "explore",
        "The opening tree of FILES at one position (the start by default): the games that "
        "reached it, their results for the side to move, and every move played from it with "
        "the same figures.",
    ),
    "fix": (
        "converting",
        "fix",
        "Repair the tags of FILES as asked, listing every change (FILE:LINE: TAG: OLD -> NEW).",
    ),
    "match": (
        "engines",
        "match",
        "Play ENGINE_A against ENGINE_B, two programs speaking the Hub protocol (for pdn's "
        'own, "pdn engine --hub --depth 4"), over opening ballots, each ballot with both '
        "colours.",
    ),
    "novelty": (
        "studying",
        "novelty",
        "The novelty of each game of FILES against ARCHIVE: the first ply after which the game "
        "is in a position no archive game reached (by any move order), with how many archive "
        "games reached the position before it and what they played there.",
    ),
    "openings": (
        "studying",
        "openings",
        "Classify each English game by its ACF three-move ballot (by position, so "
        "transpositions are caught), two-move opening or 11-man ballot.",
    ),
    "perft": (
        "engines",
        "perft",
        "Count the leaf nodes of the move tree to DEPTH plies (a move-generator test).",
    ),
    "report": (
        "studying",
        "report",
        "Standings, crosstable, results by round, colour balance and ballots, per event.",
    ),
    "select": (
        "selecting",
        "select",
        "Keep the games of FILES that meet every condition given, in order, written as read.",
    ),
    "show": (
        "viewing",
        "show",
        "Show a position of one game of FILE, or the position --fen, as a text board or an SVG "
        "or PNG diagram (the last move marked, side to move, coordinates and square numbers).",
    ),
    "split": (
        "selecting",
        "split",
        "Split the games of FILES into files in a folder, written as read, with index.csv "
        "saying which game went where.",
    ),
    "validate": (
        "checking",
        "validate",
        "Replay every game of FILES under its rules and report every problem.",
    ),
    "view": (
        "viewing",
        "view",
        "Write one self-contained HTML page to browse the games of FILES: a game list with a "
        "filter, the board, the moves with comments, NAGs and variations, every illegal move "
        "marked with the validator's message and the legal moves there.",
    ),
}

# click 8.4+ suggests close names ("Did you mean 'validate'?") from the group's loaded commands;
# earlier versions suggest nothing.
_NoSuchCommand = getattr(click.exceptions, "NoSuchCommand", None)


def load_command(name: str) -> click.Command:
    """The command ``name`` of :data:`COMMANDS`, its module imported."""
    module, function, _ = COMMANDS[name]
    command = getattr(importlib.import_module(f"{__name__}.{module}"), function)
    assert isinstance(command, click.Command)
    return command


class _Group(click.Group):
    """Loads each command from its module when it is asked for (click's lazy subcommands), and
    turns the errors a user can cause (unreadable files, a closed pipe) into messages."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in COMMANDS:
            command = load_command(cmd_name)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            if _NoSuchCommand is None or not isinstance(exc, _NoSuchCommand):
                raise
            # The commands not loaded yet are close names too.
            names = self.list_commands(ctx)
            raise _NoSuchCommand(exc.command_name, possibilities=names, ctx=ctx) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Click's own listing, of stand-ins that carry only the first sentence of each help:
        # the same lines, and no command module imported.
        stand_ins = [click.Command(name, help=short) for name, (_, _, short) in COMMANDS.items()]
        listing = click.Group(commands=[*stand_ins, *self.commands.values()])
        listing.format_commands(ctx, formatter)

    def invoke(self, ctx: click.Context) -> object:
        prepare_standard_streams()
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
            from pdn.collections.batch import WorkerDiedError

            if not isinstance(exc, WorkerDiedError):
                raise
            raise _UsageExit(str(exc)) from exc
        if ctx.meta.get(INPUT_LOST):
            sys.exit(EXIT_PROBLEMS)  # the run went on past input it could not keep: say so
        return returned


class _UsageExit(click.ClickException):
    """A one-line error that ends the run with the usage status (2): the run could not go on."""

    exit_code = EXIT_USAGE


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version

    from pdn.engine import COMPILED

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


def __getattr__(name: str) -> object:
    # The names the single-module CLI had: each command's function (pdn.cli.validate) and
    # VARIANT_NAMES, loaded on first use.
    for command, (_, function, _) in COMMANDS.items():
        if name == function:
            return load_command(command)
    if name == "VARIANT_NAMES":
        from .options import VARIANT_NAMES

        return VARIANT_NAMES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
