"""Where the commands write, and what a closed standard stream becomes.

Standard output for ``-``, else a file replaced atomically (:func:`open_output`); each input
rewritten in place (:func:`write_outputs`); a standard stream closed when pdn started is a
one-line error (:class:`StreamClosedError`), never a silent exit 0 or a traceback.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO, TextIO

import click

# (pdn.text.atomic and pdn.text.safe_text are imported where they are used: ``pdn --help`` imports
# this
# module, and needs neither.)

# Exit statuses: 0 all clean, 1 a game has an error, 2 usage errors (click's own convention).
EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2

#: Set in the root context's ``meta`` when a command met input it could not keep: a file that is
#: not PDN at all, a game cut for its length (said on standard error as it was met); the run
#: then ends with status 1 (see the group of :mod:`pdn.cli`).
INPUT_LOST = "pdn.input_lost"


@contextlib.contextmanager
def open_output(output: str, inputs: tuple[str, ...] = ()) -> Iterator[TextIO]:
    """Standard output for ``-``, else an atomic writer that refuses to overwrite a file the
    command reads (:func:`pdn.cli.guard.guard_output`: its FILES, archives and lists, and
    ``inputs``)."""
    if output == "-":
        if isinstance(sys.stdout, _ClosedOutput):
            raise StreamClosedError("standard output")  # before any work is done
        yield sys.stdout
        return
    from pdn.text.atomic import atomic_writer

    from .guard import guard_output

    guard_output(output, inputs)
    # The name as given: the writer must see "/dev/stdout", not the file it resolves to.
    with atomic_writer(output) as handle:
        yield handle


def write_outputs(
    output: str,
    files: tuple[str, ...],
    in_place: bool,
    write: Callable[[tuple[str, ...], TextIO], None],
    *,
    unchanged: type[Exception] | None = None,
) -> None:
    """Call ``write(inputs, out)``: once, with every input and OUTPUT; or, with ``in_place``
    and no ``-o`` (or ``-o`` naming the one input), once per input file with that file as its
    output, through
    :func:`pdn.collections.inplace.rewrite`: in its own encoding (``--encoding`` when given) and
    line
    ends, replaced atomically only when its whole output is written and nothing of it would
    be lost (else it is left as it was, said in one line, the other files are still done, and
    the exit status is 1). A ``write`` that raises ``unchanged`` leaves its file as it is,
    untouched, and the others go on. Standard input cannot be rewritten in place."""
    from pdn.collections.inplace import InPlaceRefused, rewrite
    from pdn.text.safe_text import printable

    from .guard import same_file
    from .options import encoding

    if in_place and output != "-" and any(f != "-" and same_file(f, output) for f in files):
        if len(files) > 1:
            raise click.UsageError(
                f"-o {output} is one of several FILES; --in-place without -o rewrites each "
                "FILE in its own encoding and line ends"
            )
        output = "-"  # the one FILE rewritten in place, with the same guards and encoding
    if not (in_place and output == "-"):
        try:
            with open_output(output, files) as out:
                write(files, out)
        except InPlaceRefused as exc:
            raise click.ClickException(printable(str(exc))) from exc
        return
    if not files or "-" in files:
        raise click.UsageError("--in-place without -o rewrites files: name them (not -)")
    refused = 0
    for name in files:
        try:
            with rewrite(name, encoding()) as out:
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


def prepare_standard_streams() -> None:
    """Closed standard streams become explicit errors; text that the output encoding cannot
    hold (Cyrillic names under cp1252, what Windows gives a redirected stream) is written as
    ``\\u....`` escapes instead of raising ``UnicodeEncodeError``."""
    from pdn.text.atomic import reserve_closed_standard_descriptors

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
