"""How the commands read FILES, and say what of them they could not keep.

The games of FILES, streaming (:func:`games_of`), with the progress bar (:func:`progress_bar`);
each reading error said on standard error as FILE:LINE:COL: CODE: MESSAGE (:func:`reported`,
:class:`ReadingErrors`), each input that is not PDN at all too (:class:`NotPdn`), and the run
then ends with status 1 (:data:`pdn.cli.streams.INPUT_LOST`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TypeVar

import click

from pdn.text.safe_text import printable

from .options import encoding, quiet, recursive
from .streams import EXIT_PROBLEMS, INPUT_LOST

if TYPE_CHECKING:
    from pdn.game.model import Game
    from pdn.reading.recording import Recorded
    from pdn.text.problems import Problem
    from pdn.text.progress import Progress

#: Reading errors said per game by commands whose output is not a report (convert).
ERRORS_SHOWN = 20


def sources_of(files: tuple[str, ...]) -> list[str | BinaryIO]:
    """Paths as given, with ``-`` standing for standard input (read as bytes, so that the
    reader detects its encoding like a file's)."""
    if not files:
        raise click.UsageError(
            "give at least one FILE, a folder, or - for standard input (or pipe data in)"
        )
    return [sys.stdin.buffer if f == "-" else f for f in files]


def progress_bar(
    files: tuple[str, ...], *, slow: bool = True, per_game: bool = False, plies: int | None = None
) -> Progress:
    """The progress bar of this command over FILES (silenced by its ``--quiet``, and when the
    work is not ``slow``: a pass that only cuts games and reads tags is over in a moment);
    ``per_game`` for work slow on each game (an analysis): shown whatever the input's size,
    the games done counted one by one, and with ``plies`` (the plies the input holds) the
    plies done counted against them."""
    from pdn.text.progress import LARGE, Progress

    if per_game:
        return Progress(files, quiet=quiet(), large=0, every=1, plies=plies)
    return Progress(files, quiet=quiet() or not slow, large=LARGE)


#: A game as a command reads it: the model, or read for its replay alone.
G = TypeVar("G", "Game", "Game | Recorded")


def reported(games: Iterator[tuple[str, G]], *, in_place: bool = False) -> Iterator[tuple[str, G]]:
    """The games, each reading error said on standard error as FILE:LINE:COL: CODE: MESSAGE
    (the game is still written with everything that was read; one that lost text on reading
    makes the exit status 1).  In place, a game that lost
    text on reading (:func:`pdn.collections.inplace.text_lost`: a file that is not PDN at all, a
    game cut
    for its length) ends the rewrite of its file with
    :class:`~pdn.collections.inplace.InPlaceRefused`:
    writing it would replace the file with less than it holds."""
    from pdn.collections.inplace import InPlaceRefused, text_lost
    from pdn.reading.recording import game_of

    for name, read in games:
        game = game_of(read)
        # An input that is not PDN at all was said as it was read (not_pdn_said).
        errors = [p for p in game.errors if p.severity == "error" and p.code != "not-pdn"]
        lost = text_lost(game)
        if lost is not None:
            # Written or not, less than was read: the run says so in its status too.
            click.get_current_context().find_root().meta[INPUT_LOST] = True
        if lost is not None and in_place:
            where = f"{name}:{lost.line or game.line}:{lost.column or 1}"
            raise InPlaceRefused(
                f"{where}: {lost.code}: {lost.message}; rewriting in place would lose this "
                "text: the file was left as it is (write a copy with -o)"
            )
        for problem in errors[:ERRORS_SHOWN]:
            where = f"{name}:{problem.line or game.line}:{problem.column or 1}"
            click.echo(printable(f"{where}: {problem.code}: {problem.message}"), err=True)
        if len(errors) > ERRORS_SHOWN:
            more = len(errors) - ERRORS_SHOWN
            click.echo(f"{name}:{game.line}:1: {more} more reading errors in this game", err=True)
        yield name, read


def games_of(
    files: tuple[str, ...], *, not_pdn: NotPdn | None = None
) -> Iterator[tuple[str, Game]]:
    """(file name, game) for every game of FILES, streaming; an input that is not PDN at all
    is said (:func:`not_pdn_said`, through ``not_pdn`` when given)."""
    from pdn.collections.batch import named_games

    named = sources_of(files)
    progress = progress_bar(files)
    games = progress.count(named_games(progress.sources(named), encoding=encoding()))
    return not_pdn_said(games, not_pdn)


def recorded_games_of(
    files: tuple[str, ...],
    *,
    first_steps: int = 0,
    whole: bool = False,
    not_pdn: NotPdn | None = None,
) -> Iterator[tuple[str, Game | Recorded]]:
    """:func:`games_of` for a command that only replays the games: each read for its replay
    alone (:mod:`pdn.reading.recording`), with steps for its first ``first_steps`` plies; ``whole``
    for one that writes them back as they were read."""
    from pdn.collections.pool import map_recorded

    named = sources_of(files)
    progress = progress_bar(files)
    recorded = map_recorded(
        _named,
        progress.sources(named),
        encoding=encoding(),
        first_steps=first_steps,
        whole=whole,
    )
    games = progress.count(recorded)
    return not_pdn_said(games, not_pdn)


def _named(game: Game | Recorded, name: str) -> tuple[str, Game | Recorded]:
    return name, game


def not_pdn_said(
    games: Iterator[tuple[str, G]], say: NotPdn | None = None
) -> Iterator[tuple[str, G]]:
    """The games, each input that is not PDN at all (its one game says ``not-pdn``) said on
    standard error by ``say`` (a new :class:`NotPdn` by default), so that the run ends with
    status 1."""
    from pdn.reading.recording import game_of

    say = NotPdn() if say is None else say
    for name, game in games:
        model = game_of(game)
        for problem in model.errors:
            if problem.code == "not-pdn":
                say(name, problem)
        yield name, game


class ReadingErrors:
    """Says the reading errors of a game as FILE:LINE:COL: CODE: MESSAGE on standard error
    (at most :data:`ERRORS_SHOWN` per game), an input that is not PDN at all as
    :class:`NotPdn` says it, for a command that reads games in workers."""

    def __init__(self) -> None:
        self.not_pdn = NotPdn()

    def __call__(self, name: str, problems: tuple[Problem, ...]) -> None:
        errors = [p for p in problems if p.code != "not-pdn"]
        for problem in problems:
            if problem.code == "not-pdn":
                self.not_pdn(name, problem)
        for problem in errors[:ERRORS_SHOWN]:
            where = f"{name}:{problem.line or 1}:{problem.column or 1}"
            click.echo(printable(f"{where}: {problem.code}: {problem.message}"), err=True)
        if len(errors) > ERRORS_SHOWN:
            more = len(errors) - ERRORS_SHOWN
            click.echo(f"{name}: {more} more reading errors in this game", err=True)


class NotPdn:
    """Says each input that is not PDN at all as FILE:LINE:COL: CODE: MESSAGE on standard
    error, and remembers it for the exit status."""

    def __init__(self, page: list[str] | None = None) -> None:
        self.count = 0
        self.page = page  # where a page collects what it must say too (pdn report)

    def __call__(self, name: str, problem: Problem) -> None:
        self.count += 1
        # Every command then ends with status 1 (the group), whether or not it calls exit().
        click.get_current_context().find_root().meta[INPUT_LOST] = True
        where = f"{problem.line or 1}:{problem.column or 1}: {problem.code}: {problem.message}"
        click.echo(printable(f"{name}:{where}"), err=True)
        if self.page is not None:
            from pdn.collections.inputs import (
                page_name,  # a page names the file, not the user's folders
            )

            self.page.append(f"{page_name(name)}:{where}")

    def exit(self) -> None:
        """Exit 1 when an input was not PDN."""
        if self.count:
            sys.exit(EXIT_PROBLEMS)


#: Damaged bytes said per game (then how many more).
DAMAGE_SHOWN = 5


def say_damage(name: str, line: int, messages: list[tuple[str, int, int]], kept: str = "") -> None:
    """Say on standard error where a game (at ``line`` of file ``name``) holds bytes its
    file's encoding cannot read, each ``(message, line, column)`` the reader gave, written
    as U+FFFD in the output (``kept``: what would keep them, said after)."""
    for message, at, column in messages[:DAMAGE_SHOWN]:
        click.echo(
            printable(
                f"{name}:{at or line}:{column or 1}: encoding: {message} in the output{kept}"
            ),
            err=True,
        )
    if len(messages) > DAMAGE_SHOWN:
        more = len(messages) - DAMAGE_SHOWN
        click.echo(f"{name}:{line}:1: {more} more damaged bytes written as U+FFFD", err=True)


def say_recoded(name: str, encoding: str) -> None:
    """Say that the games of a UTF-16 file are written in UTF-8 (see
    :mod:`pdn.collections.copying`)."""
    click.echo(
        printable(f"note: {name} is {encoding.upper()}: its games are written in UTF-8"), err=True
    )


class Emptiness:
    """Says each input that holds no games (an empty file, a JSON list of no records): a
    command reading it would otherwise end as if all were well with nothing done. Told the
    name of each game read; said at the end, in the order of FILES."""

    def __init__(self, files: tuple[str, ...]) -> None:
        self._files = files
        self._seen: set[str] = set()
        self._last: str | None = None

    def saw(self, name: str) -> None:
        """A game of ``name`` was read."""
        if name != self._last:  # (games come file by file: one set lookup per file)
            self._last = name
            self._seen.add(name)

    def say(self) -> None:
        """A warning on standard error for each FILE of which no game was read."""
        for name in dict.fromkeys(self._files):
            if name not in self._seen:
                shown = "standard input" if name == "-" else name
                click.echo(printable(f"Warning: {shown} holds no games"), err=True)


def archive_files(files: tuple[str, ...], against: tuple[str, ...], option: str) -> list[str]:
    """The files of the archives named by ``option`` (files or folders, ``--recursive`` as
    for FILES), none of them a FILE."""
    from pdn.collections.batch import input_files

    try:
        archive = input_files(against, recursive=recursive())
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=option) from exc
    if {Path(f).resolve() for f in files if f != "-"} & {Path(a).resolve() for a in archive}:
        raise click.UsageError(f"a FILE is also an {option} ARCHIVE")
    return archive
