"""The inputs of a command: the files a command line names, and the games of each.

A file (or ``-``) is read as given, a folder as its ``*.pdn`` files (:func:`input_files`); a
source holds PDN or the JSON records of :mod:`pdn.writing.jsonio` (:func:`is_json`), and
:func:`iter_games` gives its games either way, streaming.

>>> input_files(["examples"])[:1], display_name("examples/illegal-moves.pdn")
(['examples/german-open-2004.pdn'], 'examples/illegal-moves.pdn')
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import IO

from pdn.game.model import Game
from pdn.reading.reader import read_games
from pdn.text.schema import JSON_SUFFIXES as JSON_SUFFIXES  # re-exported: its home is apart
from pdn.text.schema import is_json as is_json

#: What a command reads from: a path, or an open file (text or bytes).
Input = str | os.PathLike[str] | IO[str] | IO[bytes]


def display_name(source: Input) -> str:
    """How a source is named in messages: its path, or ``-`` for standard input."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    # Standard input calls itself "<stdin>"; users wrote "-".
    return name if isinstance(name, str) and not name.startswith("<") else "-"


def page_name(source: Input) -> str:
    """How a source is named on a page pdn writes for others to read (the viewer, a report,
    the explorer): as given when the path is relative, its base name when it is absolute,
    so that a published page never shows the user's folders (messages on the terminal keep
    :func:`display_name`).

    >>> page_name("/home/someone/club/2025/round3.pdn"), page_name("2025/round3.pdn")
    ('round3.pdn', '2025/round3.pdn')
    """
    name = display_name(source)
    return os.path.basename(name) if os.path.isabs(name) else name


#: The file name ending of the files read from a folder (compared ignoring case: old DOS
#: archives write ``GAMES.PDN``).
PDN_SUFFIX = ".pdn"


def input_files(paths: Iterable[str], *, recursive: bool = False) -> list[str]:
    """The inputs named by ``paths``: a file (or ``-``) as given; a folder as its ``*.pdn``
    files in sorted order (with ``recursive``, those of its subfolders too, each folder's
    files sorted by path). Names starting with ``.`` (hidden files, temporary files of a
    writer) are left out, and symbolic links to folders are not followed (no loops).

    Raises :class:`ValueError` for a folder that holds no such file.

    >>> input_files(["examples"])[:2]
    ['examples/german-open-2004.pdn', 'examples/illegal-moves.pdn']
    """
    files: list[str] = []
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            files.append(path)
            continue
        found: list[str] = []
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = [] if not recursive else [d for d in subfolders if d[0] != "."]
            found.extend(
                os.path.join(folder, name)
                for name in names
                if name[0] != "." and name.lower().endswith(PDN_SUFFIX)
            )
        if not found:
            where = " or its subfolders" if recursive else ""
            raise ValueError(f"{path}: no *{PDN_SUFFIX} file in this folder{where}")
        files.extend(sorted(found, key=lambda name: os.path.normpath(name).split(os.sep)))
    return files


def iter_games(source: Input, *, encoding: str | None = None) -> Iterator[Game]:
    """The games of one source (a path as ``str`` or ``PathLike``, or an open file): PDN, or
    the JSON records of :mod:`pdn.writing.jsonio` (told by :func:`is_json`). ``encoding`` forces the
    codec of PDN bytes; JSON is always UTF-8 (see :func:`pdn.reading.reader.read_games`, which this
    is)."""
    return read_games(source, encoding=encoding)


def named_games(
    sources: Iterable[Input], *, encoding: str | None = None
) -> Iterator[tuple[str, Game]]:
    """``(file name, game)`` for every game of every source, streaming, on this process
    (``encoding``: as :func:`iter_games` takes it)."""
    for source in sources:
        name = display_name(source)
        for game in iter_games(source, encoding=encoding):
            yield name, game
