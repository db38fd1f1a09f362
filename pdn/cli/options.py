"""The options and the FILES argument the commands share, each defined once.

Each factory returns a click decorator (``@files_argument()``, ``@jobs_option(default=1)``);
a parameter changes what differs between commands (a default, the destination name), never
what the option means. Options read by the plumbing rather than by the command (``--encoding``,
``--recursive``, ``--quiet``) are kept in the context: :func:`encoding`, :func:`recursive`,
:func:`quiet` read them back.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click
from click.decorators import FC

from pdn import engine

from .guard import InputPath, OutputPath

if TYPE_CHECKING:
    from pdn.text.names import Aliases

VARIANT_NAMES = sorted(engine.VARIANTS)

# Where the options the plumbing reads are kept, in the context's ``meta``.
_RECURSIVE, _ENCODING, _QUIET = "pdn.recursive", "pdn.encoding", "pdn.quiet"

_VARIANT_HELP = (
    "Replay every game under these rules, overriding the GameType tag and detection "
    "(without it: the rules pdn validate chooses)."
)


def variant_option(help: str = _VARIANT_HELP, name: str = "variant") -> Callable[[FC], FC]:
    """``--variant``: one of the engine's variants, any case, read as ``name``."""
    return click.option(
        "--variant",
        name,
        type=click.Choice(VARIANT_NAMES, case_sensitive=False),
        default=None,
        help=help,
    )


def _remember_recursive(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    # Eager, so that the FILES callback (which runs later) knows it.
    ctx.meta[_RECURSIVE] = value
    return value


def recursive() -> bool:
    """The ``--recursive`` of the running command."""
    context = click.get_current_context(silent=True)
    return False if context is None else bool(context.meta.get(_RECURSIVE, False))


def _expand_files(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    """FILES as the command reads them: a folder is its ``*.pdn`` files (``--recursive``:
    of its subfolders too), and no FILE at all is standard input when data is piped in."""
    from pdn.collections.batch import input_files

    if not value:
        stdin = sys.stdin
        # A terminal means nobody piped anything in: a usage error, not a wait for typing.
        if stdin is None or stdin.isatty():
            return value
        return ("-",)
    try:
        return tuple(input_files(value, recursive=ctx.meta.get(_RECURSIVE, False)))
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
    ctx.meta[_ENCODING] = value


def encoding_option() -> Callable[[FC], FC]:
    """``--encoding``, for every command that reads PDN (FILES commands get it with
    :func:`files_argument`); read back with :func:`encoding`."""
    return click.option(
        "--encoding",
        metavar="CODEC",
        default=None,
        expose_value=False,  # read through the context by the code that reads the files
        callback=_remember_encoding,
        help="Read PDN bytes in this encoding (utf-8, cp1251, cp1252, latin-1...) instead of "
        "the one detected. JSON is always UTF-8.",
    )


def encoding() -> str | None:
    """The ``--encoding`` of the running command (None: detect it)."""
    context = click.get_current_context(silent=True)
    return None if context is None else context.meta.get(_ENCODING)


def files_argument() -> Callable[[FC], FC]:
    """FILES...: files, ``-`` for standard input, or folders (their ``*.pdn`` files in sorted
    order; ``--recursive`` for subfolders); none reads standard input when it is not a
    terminal. Every command taking FILES takes it through here, and ``--encoding`` with it."""

    def decorate(func: FC) -> FC:
        func = encoding_option()(func)
        func = click.argument(
            "files",
            nargs=-1,
            type=InputPath(allow_dash=True),
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

    return decorate


def format_option(*choices: str) -> Callable[[FC], FC]:
    """``--format`` with these choices, the first being the default."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(choices)),
        default=choices[0],
        show_default=True,
        help="Output format.",
    )


def output_option() -> Callable[[FC], FC]:
    """``-o/--output FILE``, standard output by default."""
    return click.option(
        "-o",
        "--output",
        type=OutputPath(writable=True),
        default="-",
        show_default=True,
        help="Where to write; '-' is standard output. Files are replaced atomically.",
    )


def output_folder_option(name: str, *, writable: bool) -> Callable[[FC], FC]:
    """``-o/--output DIRECTORY``, required, for the commands that write many files; read as
    ``name``."""
    return click.option(
        "-o",
        "--output",
        name,
        required=True,
        type=click.Path(file_okay=False, writable=writable),
        help="The folder to write into (made if missing).",
    )


def _load_aliases(ctx: click.Context, param: click.Parameter, value: str | None) -> Aliases | None:
    from pdn.text.decoding import decode_bytes
    from pdn.text.names import AliasError, Aliases

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


def names_option() -> Callable[[FC], FC]:
    """``--names LIST``: an alias list, read as ``aliases`` (a :class:`pdn.text.names.Aliases`)."""
    return click.option(
        "--names",
        "aliases",
        type=InputPath(dir_okay=False),
        default=None,
        callback=_load_aliases,
        help="Alias list to apply (CSV: old,new[,tags[,why]]): player and event renames, "
        "as pdn fix --suggest-names writes it.",
    )


def jobs_option(default: int | None = None) -> Callable[[FC], FC]:
    """``-j/--jobs N``: worker processes, 0 for one per core. ``default`` None chooses by the
    size of the input (see :func:`pdn.collections.batch.default_jobs`); a number is the default
    itself."""
    if default is None:
        help = (
            "Worker processes (0: one per core). Default: one per core for inputs over 4 MB, "
            "else 1. Output and its order are the same."
        )
    else:
        help = "Worker processes for the replay (0: one per core)."
    return click.option(
        "-j",
        "--jobs",
        type=click.IntRange(0),
        default=default,
        show_default=default is not None,
        help=help,
    )


def _remember_quiet(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    ctx.meta[_QUIET] = value


def quiet_option() -> Callable[[FC], FC]:
    """``-q/--quiet``: no progress bar; read back with :func:`quiet`."""
    return click.option(
        "-q",
        "--quiet",
        is_flag=True,
        expose_value=False,  # read through the context by the progress bar, not by each command
        callback=_remember_quiet,
        help="No progress bar (one is shown only on a terminal, for inputs over 2 MB).",
    )


def quiet() -> bool:
    """The ``--quiet`` of the running command."""
    context = click.get_current_context(silent=True)
    return bool(context is not None and context.meta.get(_QUIET))


def in_place_option() -> Callable[[FC], FC]:
    """``--in-place``: each FILE rewritten with its own output (see
    :func:`pdn.cli.streams.write_outputs`)."""
    return click.option(
        "--in-place",
        is_flag=True,
        help="Without -o: rewrite each FILE with its own output (atomically, once it is all "
        "read), as sed -i does, in its own encoding and line ends; a FILE that would lose "
        "text is left as it is (exit 1). -o naming the one FILE does the same.",
    )


def game_option(default: int | None) -> Callable[[FC], FC]:
    """``--game N``: the Nth game of each file (1-based), read as ``number``. ``default`` is
    that game, or None for every game."""
    every = "; default: every game" if default is None else ""
    return click.option(
        "--game",
        "number",
        type=click.IntRange(1),
        default=default,
        show_default=default is not None,
        metavar="N",
        help=f"The Nth game of each file (1-based{every}).",
    )


def tables_option() -> Callable[[FC], FC]:
    """``--tables DIR`` and ``--no-tables``: the endgame tables a command uses (default the
    data folder's, when ``pdn endgame build`` built any there); read with
    :func:`tables_choice`."""

    def decorate(f: FC) -> FC:
        f = click.option("--no-tables", "no_tables", is_flag=True, help="Use no endgame tables.")(f)
        return click.option(
            "--tables",
            "tables_dir",
            type=click.Path(file_okay=False),
            default=None,
            metavar="DIR",
            help="The endgame tables' folder (default: the one pdn endgame build fills, "
            "$XDG_DATA_HOME/pdn/endgame). A position they hold takes their exact value.",
        )(f)

    return decorate


def tables_choice(tables_dir: str | None, no_tables: bool) -> bool | str:
    """What ``--tables``/``--no-tables`` ask: ``True`` the data folder's, ``False`` none, or
    a folder (as :data:`pdn.study.play.endgame.Tables`)."""
    if no_tables and tables_dir is not None:
        raise click.UsageError("give --tables or --no-tables, not both")
    if no_tables:
        return False
    return tables_dir if tables_dir is not None else True
