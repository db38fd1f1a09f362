"""The files a command reads, and the guard that keeps every output off them.

Every option or argument that names a file pdn reads takes it as an :class:`InputPath`: the
FILES, ``--against``, ``--novelties``, ``--explorer-from`` and ``--names`` alike; every one
that names a file pdn writes as an :class:`OutputPath` (``-o``, ``--log``, ``--report``...).
Both are remembered in the context as they are parsed, and each output is checked against
every input as soon as both are known, before any work is done; :func:`guard_output` checks
again when a file is opened (:func:`pdn.cli.streams.open_output`, each file of an output
folder). One file is one device and inode: a symbolic link, a hard link or another spelling
of the path is caught too. A folder read is the files pdn reads in it
(:func:`pdn.collections.inputs.input_files`, with the command's ``--recursive``).

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
_READ, _WRITTEN, _CACHE = "pdn.read", "pdn.written", "pdn.read_identities"

__all__ = ["InputPath", "OutputPath", "files_read", "guard_output", "same_file"]


class InputPath(click.Path):
    """A file (or folder) the command reads: an existing path, that no output may be."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(exists=True, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        converted = super().convert(value, param, ctx)
        if ctx is not None and converted != "-":
            entry = (_option_name(param), str(converted))
            ctx.meta.setdefault(_READ, []).append(entry)
            # Only the new path against the outputs so far: linear in the number of FILES.
            for option, path in ctx.meta.get(_WRITTEN, []):
                if not (entry[0] == "FILES" and _rewrites_in_place(ctx, option)):
                    _refuse(path, _identities([entry]))
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
            guard_output(path, skip_files=_rewrites_in_place(ctx, option))
        return converted


def _option_name(param: click.Parameter | None) -> str:
    if param is None:
        return "FILE"
    if isinstance(param, click.Argument):
        return (param.name or "FILE").upper()
    return max(param.opts, key=len)


def _rewrites_in_place(ctx: click.Context, option: str) -> bool:
    # -o naming a FILE, with --in-place, is the rewrite of that FILE: write_outputs decides.
    return option == "--output" and any(p.name == "in_place" for p in ctx.command.params)


def files_read(*, skip_files: bool = False) -> list[tuple[str, str]]:
    """(option, path) of every file the running command reads, folders expanded
    (``skip_files``: but its FILES)."""
    context = click.get_current_context(silent=True)
    named: list[tuple[str, str]] = [] if context is None else context.meta.get(_READ, [])
    return _expanded(e for e in named if not (skip_files and e[0] == "FILES"))


def _expanded(named: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    from pdn.collections.inputs import input_files

    from .options import recursive

    found: list[tuple[str, str]] = []
    for option, path in named:
        try:
            inside = input_files([path], recursive=recursive()) if os.path.isdir(path) else [path]
        except ValueError:  # a folder of no PDN file: nothing in it is read
            inside = []
        found.extend((option, file) for file in inside)
    return found


_Identity = tuple[int, int]


def _identity(path: str) -> _Identity | None:
    """The device and inode of a regular file, else None (missing, a device, a pipe)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISREG(found.st_mode) else None


def _identities(named: Iterable[tuple[str, str]]) -> dict[_Identity, tuple[str, str]]:
    """Each regular file of ``named`` (folders expanded) by its identity."""
    found: dict[_Identity, tuple[str, str]] = {}
    for option, path in _expanded(named):
        identity = _identity(path)
        if identity is not None:
            found.setdefault(identity, (option, path))
    return found


def guard_output(
    target: str | os.PathLike[str], also: Iterable[str] = (), *, skip_files: bool = False
) -> None:
    """Refuse (a usage error) to write ``target`` when it is a file the command reads (one of
    :func:`files_read`, or of ``also``: paths read by a caller outside a command), compared
    by device and inode. A target that does not exist yet, or is no regular file (a
    terminal, ``/dev/null``, a pipe), is not refused: writing it destroys nothing read."""
    name = os.fspath(target)
    if name == "-" or _identity(name) is None:
        return  # not there (or no regular file): nothing read is at stake
    context = click.get_current_context(silent=True)
    named: list[tuple[str, str]] = [] if context is None else context.meta.get(_READ, [])
    # Kept while no path is added: a folder of outputs (diagrams) checks each against them.
    key = f"{_CACHE}.{skip_files}"
    cached = None if context is None else context.meta.get(key)
    if cached is None or cached[0] != len(named):
        read = _identities(e for e in named if not (skip_files and e[0] == "FILES"))
        cached = (len(named), read)
        if context is not None:
            context.meta[key] = cached
    _refuse(name, {**_identities(("FILES", one) for one in also if one != "-"), **cached[1]})


def _refuse(name: str, read: dict[_Identity, tuple[str, str]]) -> None:
    """A usage error when ``name`` is one of the files ``read``."""
    identity = _identity(name)
    if identity is None or identity not in read:
        return
    option, path = read[identity]
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
