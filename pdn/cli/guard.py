"""The files a command reads, and the guard that keeps every output off them.

Every option or argument that names a file pdn reads takes it as an :class:`InputPath`: the
FILES, ``--against``, ``--novelties``, ``--explorer-from`` and ``--names`` alike; every one
that names a file pdn writes as an :class:`OutputPath` (``-o``, ``--log``, ``--report``...).
Both are remembered in the context as they are parsed, and each output is checked against
every input as soon as both are known, before any work is done; :func:`guard_output` checks
again when a file is opened (:func:`pdn.cli.streams.open_output`, each file of an output
folder). One file is one device and inode: a symbolic link, a hard link or another spelling
of the path is caught too. A folder read is the files pdn reads in it
(:func:`pdn.inputs.input_files`, with the command's ``--recursive``).

``-o`` naming a FILE of a command with ``--in-place`` is left to
:func:`pdn.cli.streams.write_outputs`, which rewrites the one FILE in place (or refuses).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from typing import Any

import click

# Where the paths are kept, in the context's ``meta``: (option as the user wrote it, path).
_READ, _WRITTEN = "pdn.read", "pdn.written"

__all__ = ["InputPath", "OutputPath", "files_read", "guard_output", "same_file"]


class InputPath(click.Path):
    """A file (or folder) the command reads: an existing path, that no output may be."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(exists=True, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        converted = super().convert(value, param, ctx)
        if ctx is not None and converted != "-":
            ctx.meta.setdefault(_READ, []).append((_option_name(param), str(converted)))
            for option, path in ctx.meta.get(_WRITTEN, []):
                _check(ctx, option, path)
        return converted


class OutputPath(click.Path):
    """A file the command writes (``-`` for standard output), that may be no file it reads."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(dir_okay=False, allow_dash=True, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        converted = super().convert(value, param, ctx)
        if ctx is not None and converted != "-":
            option, path = _option_name(param), str(converted)
            ctx.meta.setdefault(_WRITTEN, []).append((option, path))
            _check(ctx, option, path)
        return converted


def _option_name(param: click.Parameter | None) -> str:
    if param is None:
        return "FILE"
    if isinstance(param, click.Argument):
        return (param.name or "FILE").upper()
    return max(param.opts, key=len)


def _check(ctx: click.Context, option: str, path: str) -> None:
    # -o naming a FILE, with --in-place, is the rewrite of that FILE: write_outputs decides.
    in_place = option == "--output" and any(p.name == "in_place" for p in ctx.command.params)
    guard_output(path, skip_files=in_place)


def files_read(*, skip_files: bool = False) -> list[tuple[str, str]]:
    """(option, path) of every file the running command reads, folders expanded
    (``skip_files``: but its FILES)."""
    from ..inputs import input_files
    from .options import recursive

    context = click.get_current_context(silent=True)
    named: list[tuple[str, str]] = [] if context is None else context.meta.get(_READ, [])
    found: list[tuple[str, str]] = []
    for option, path in named:
        if skip_files and option == "FILES":
            continue
        try:
            inside = input_files([path], recursive=recursive()) if os.path.isdir(path) else [path]
        except ValueError:  # a folder of no PDN file: nothing in it is read
            inside = []
        found.extend((option, file) for file in inside)
    return found


def guard_output(
    target: str | os.PathLike[str], also: Iterable[str] = (), *, skip_files: bool = False
) -> None:
    """Refuse (a usage error) to write ``target`` when it is a file the command reads (one of
    :func:`files_read`, or of ``also``: paths read by a caller outside a command), compared
    by device and inode. A target that does not exist yet, or is no regular file (a
    terminal, ``/dev/null``, a pipe), is not refused: writing it destroys nothing read."""
    name = os.fspath(target)
    if name == "-":
        return
    try:
        written = os.stat(name)
    except OSError:
        return  # not there (or not reachable): nothing read is at stake
    if not stat.S_ISREG(written.st_mode):
        return
    read = [*files_read(skip_files=skip_files), *(("FILES", one) for one in also if one != "-")]
    for option, path in read:
        if not same_file(path, written):
            continue
        named = _same_name(path, name)
        hint = ""
        if option in ("FILES", "FILE"):
            what = "an input" if named else f"the same file as the input {path}"
            hint = " (--in-place without -o rewrites each FILE)" if _has_in_place() else ""
        else:
            what = f"read by {option}" if named else f"the same file as {option} {path}"
        raise click.UsageError(f"{name} is {what}; refusing to overwrite a file pdn reads{hint}")


def same_file(path: str | os.PathLike[str], other: str | os.PathLike[str] | os.stat_result) -> bool:
    """Whether ``path`` and ``other`` (a path, or what :func:`os.stat` said of one) are one
    file: the same device and inode; False when either cannot be found."""
    try:
        one = os.stat(path)
        two = other if isinstance(other, os.stat_result) else os.stat(other)
    except OSError:
        return False
    return (one.st_dev, one.st_ino) == (two.st_dev, two.st_ino)


def _same_name(one: str, two: str) -> bool:
    return os.path.abspath(one) == os.path.abspath(two)


def _has_in_place() -> bool:
    context = click.get_current_context(silent=True)
    return context is not None and any(p.name == "in_place" for p in context.command.params)
