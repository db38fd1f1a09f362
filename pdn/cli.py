"""The ``pdn`` command line: thin click commands over the library.

Every command reads files or ``-`` (standard input), writes standard output or ``-o FILE``
(atomically), and turns bad input into messages, never into a traceback.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import click

import engine

from .atomic import atomic_writer

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
def open_output(output: str, inputs: tuple[str, ...] = (), *, in_place: bool = False) -> Iterator[TextIO]:
    """Standard output for ``-``, else an atomic writer that refuses to overwrite an input."""
    if output == "-":
        yield sys.stdout
        return
    target = Path(output).resolve()
    if not in_place and any(i != "-" and Path(i).resolve() == target for i in inputs):
        raise click.UsageError(
            f"{output} is also an input; refusing to overwrite it (use --in-place to do so)"
        )
    with atomic_writer(target) as handle:
        yield handle


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pdn")
def main() -> None:
    """Check, convert and study draughts and checkers game records (PDN)."""


@main.command()
@click.argument("depth", type=click.IntRange(0, 30))
@click.option("--fen", default=None, help="Start from this position instead of the start.")
@_variant_option
@click.option("--divide", is_flag=True, help="Show the count below each legal move.")
def perft(depth: int, fen: str | None, variant: str | None, divide: bool) -> None:
    """Count the leaf nodes of the move tree to DEPTH plies (a move-generator test)."""
    rules = engine.get_variant(variant or "english")
    try:
        position = (
            engine.Position.from_fen(fen, rules) if fen else engine.Position.start(rules)
        )
    except engine.FenError as exc:
        raise click.BadParameter(str(exc), param_hint="--fen") from exc
    from .notation import move_text

    total = 0
    if divide and depth > 0:
        for move in position.legal_moves():
            count = engine.perft(position.play(move), depth - 1)
            total += count
            click.echo(f"{move_text(move, rules, full=True)}: {count}")
        click.echo(f"total: {total}")
    else:
        click.echo(str(engine.perft(position, depth)))
