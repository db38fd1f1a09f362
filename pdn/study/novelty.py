"""Novelties: the first move of each game that takes it where no game of an archive went.

A game's novelty is the first ply whose position *after* it no archive game reached, by any
move order (positions are compared, as :mod:`pdn.study.explore.tree` keys them, so a transposition
is
no novelty). With it come the archive's figures at the position before: how many archive
games reached it and what they played there.

The search is made for a large archive. The games looked at are replayed once, as ``pdn
validate`` replays them (:mod:`pdn.rules.replays`), and only the keys of the positions they reach
are kept (:class:`Played`); the archive is then built into an explorer
:class:`~pdn.study.explore.tree.Tree`
``within`` those positions, which counts nothing else, so that its memory grows with the games
looked at and not with the archive. A position's key holds its variant: an archive game
replayed under other rules never matches (:func:`archive_summary` says how many there were).

>>> import pdn
>>> archive = [pdn.parse_game(t) for t in ("1. 11-15 23-19 2. 8-11 *", "1. 11-15 22-18 *")]
>>> (found,) = find_novelties([pdn.parse_game("1. 11-15 23-19 2. 9-14 *")], archive)
>>> found.ply, found.move, found.archive_games, found.archive_moves
(3, '9-14', 1, (('8-11', 1),))
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from pdn.collections.batch import Input, map_games
from pdn.game.model import Comment, Game
from pdn.rules.replays import replay_of
from pdn.text.schema import SCHEMA
from pdn.writing.annotate import Annotations

from .explore.tree import Reached, Tree, build, key_position, position_key

if TYPE_CHECKING:
    from pdn.rules.validation import Report
    from pdn.text.problems import Problem

__all__ = [
    "Novelty",
    "Played",
    "add_novelty",
    "archive_summary",
    "archive_tree",
    "find_novelties",
    "novelty_comment",
    "novelty_of",
    "novelty_text",
    "played_of",
    "replay_games",
    "summary_of",
    "summary_text",
    "to_json",
]

#: The archive's moves a text line lists at most (JSON lists them all).
TEXT_MOVES = 10


@dataclass(slots=True)
class Played:
    """What the search keeps of one game: where it is (``file``, its number ``game`` there,
    its first ``line``), a few tags, the variant it was replayed under, the keys of the
    positions its mainline reached legally (the start first, then one per ply), the moves
    that led there as written (``moves[k - 1]`` is ply ``k``), and why the mainline stopped
    before its end, if it did: ``"illegal"`` (a move that is not legal), ``"setup"`` (a
    setup command); or why it was not replayed at all: ``"unplayable"`` (a start that could
    not be set up), ``"not-pdn"`` (an input that is not PDN at all: its one game says so)."""

    file: str
    game: int
    line: int
    tags: tuple[str | None, str | None, str | None, str | None]  # Event, Date, Black, White
    variant: str | None
    keys: tuple[int, ...]
    moves: tuple[str, ...]
    stopped: str | None


def played_of(report: Report, file: str = "") -> Played:
    """What the search keeps of the game replayed in ``report``, the game of ``file``.

    >>> import pdn
    >>> played = played_of(pdn.validate(pdn.parse_game("1. 11-15 23-19 2. 15-24 *")))
    >>> len(played.keys), played.moves, played.stopped
    (3, ('11-15', '23-19'), 'illegal')
    """
    game = report.game
    tags = game.tags
    event, date, black, white = (tags.get(name) for name in ("Event", "Date", "Black", "White"))
    variant, start = report.variant, report.start
    name = None if variant is None else variant.name
    not_pdn = any(problem.code == "not-pdn" for problem in game.errors)
    if not_pdn or variant is None or start is None:
        why = "not-pdn" if not_pdn else "unplayable"
        return Played(file, game.index, game.line, (event, date, black, white), name, (), (), why)
    keys = [position_key(start)]
    moves: list[str] = []
    # The mainline as far as it is legal, as the explorer counts it.
    reached = Reached(report)
    for step in reached.steps():
        assert step.after is not None and step.node.move is not None
        keys.append(position_key(step.after))
        # Interned: a few hundred distinct texts stand for every ply of a large file.
        moves.append(sys.intern(step.node.move))
    stopped = reached.stopped
    return Played(
        file,
        game.index,
        game.line,
        (event, date, black, white),
        name,
        tuple(keys),
        tuple(moves),
        stopped,
    )


def _played_of_game(
    game: Game, file: str, variant: str | None
) -> tuple[Played, tuple[Problem, ...]]:
    # The reading errors travel beside the record (from a worker too), not in it.
    errors = tuple(problem for problem in game.errors if problem.severity == "error")
    return played_of(replay_of(game, file, variant), file), errors


def replay_games(
    games_or_sources: Iterable[Input | Game],
    *,
    variant: str | None = None,
    jobs: int = 1,
    encoding: str | None = None,
    tick: Callable[[], object] | None = None,
    reading_errors: Callable[[str, tuple[Problem, ...]], object] | None = None,
) -> Iterator[Played]:
    """Each game replayed once, as ``pdn validate`` replays it (``variant``: under those
    rules), and what the search keeps of it: the games of each source (a path, a stream;
    ``jobs`` processes at once), or a :class:`~pdn.game.model.Game` on its own. ``tick`` is called
    after each game (a progress bar), ``reading_errors(file, problems)`` for each game with
    reading errors (it is still compared as far as it was read and is legal)."""
    items = iter(games_or_sources)
    alone: list[Game] = []

    def sources() -> Iterator[Input]:
        # The sources up to the next item that is a Game, which waits in ``alone``: one
        # map_games (one pool of workers) for each run of sources.
        for item in items:
            if isinstance(item, Game):
                alone.append(item)
                return
            yield item

    def told(read: tuple[Played, tuple[Problem, ...]]) -> Played:
        played, errors = read
        if errors and reading_errors is not None:
            reading_errors(played.file, errors)
        if tick is not None:
            tick()
        return played

    each = partial(_played_of_game, variant=variant)
    while True:
        for read in map_games(each, sources(), jobs=jobs, encoding=encoding):
            yield told(read)
        if not alone:
            return
        yield told(_played_of_game(alone.pop(), "", variant))


def archive_tree(
    archive: Iterable[Input | Game],
    played: Iterable[Played],
    *,
    variant: str | None = None,
    jobs: int = 1,
    encoding: str | None = None,
    tick: Callable[[], object] | None = None,
    reading_errors: Callable[[str, tuple[Problem, ...]], object] | None = None,
) -> Tree:
    """The archive's whole games, replayed as ``pdn validate`` replays them, counted only at
    the positions the ``played`` games reached (and at the positions one move further):
    what :func:`novelty_of` asks of it. ``tick`` and ``reading_errors`` as
    :func:`pdn.study.explore.tree.build` takes them."""
    # A generator, so that neither the set nor the positions outlive the tree's own set.
    within = (key_position(key) for key in {key for one in played for key in one.keys})
    alone: list[Game] = []

    def sources() -> Iterator[Input]:
        for item in archive:
            if isinstance(item, Game):
                alone.append(item)  # counted after the files: a tree's counts have no order
            else:
                yield item

    tree = build(
        sources(),
        0,
        variant=variant,
        within=within,
        jobs=jobs,
        encoding=encoding,
        tick=tick,
        reading_errors=reading_errors,
    )
    for game in alone:
        tree.add_report(replay_of(game, None, variant))
    return tree


@dataclass(slots=True)
class Novelty:
    """The novelty of one game against an archive: the ply (``None`` when every position of
    the game's mainline, as far as it is legal, is in the archive), its move as written, the
    FEN of the position before it, and the archive's games there (``archive_games``) with
    the moves they played (most played first, in the engine's writing). With no novelty,
    those figures are of the last position the game reached. ``plies`` counts the legal
    plies of the mainline, ``stopped`` says why it stopped before its end (``"illegal"``,
    ``"setup"``) or was not compared (``"unplayable"``, ``"not-pdn"``: see :class:`Played`),
    and ``archive_other_rules`` counts the archive games replayed under other rules than this
    game, which could not match it."""

    file: str
    game: int
    line: int
    event: str | None
    date: str | None
    black: str | None
    white: str | None
    variant: str | None
    ply: int | None
    move: str | None
    fen: str | None
    archive_games: int
    archive_moves: tuple[tuple[str, int], ...]
    plies: int
    stopped: str | None
    archive_other_rules: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON record of the novelty (``docs/json.md``), as ``pdn novelty --format json``
        lists it."""
        return {
            "schema": SCHEMA,
            "type": "novelty",
            "game": self.game,
            "file": self.file,
            "line": self.line,
            "event": self.event,
            "date": self.date,
            "black": self.black,
            "white": self.white,
            "variant": self.variant,
            "ply": self.ply,
            "move": self.move,
            "fen": self.fen,
            "archive_games": self.archive_games,
            "archive_moves": [{"move": move, "games": n} for move, n in self.archive_moves],
            "plies": self.plies,
            "stopped": self.stopped,
            "archive_other_rules": self.archive_other_rules,
        }


def novelty_of(played: Played, tree: Tree) -> Novelty:
    """The novelty of the game ``played`` against the archive ``tree``
    (:func:`archive_tree`)."""
    keys = played.keys
    ply = None
    for index in range(1, len(keys)):
        if not tree.figures(key_position(keys[index])).games:
            ply = index
            break
    before = None if not keys else key_position(keys[-1] if ply is None else keys[ply - 1])
    figures = None if before is None else tree.figures(before)
    replies = () if before is None else tree.replies(before)
    event, date, black, white = played.tags
    others = sum(n for name, n in tree.variants().items() if name != played.variant)
    return Novelty(
        played.file,
        played.game,
        played.line,
        event,
        date,
        black,
        white,
        played.variant,
        ply,
        None if ply is None else played.moves[ply - 1],
        None if before is None else before.fen(),
        0 if figures is None else figures.games,
        tuple((reply.move, reply.figures.games) for reply in replies),
        len(played.moves),
        played.stopped,
        others,
    )


def find_novelties(
    games_or_sources: Iterable[Input | Game],
    archive: Iterable[Input | Game],
    *,
    variant: str | None = None,
    jobs: int = 1,
    encoding: str | None = None,
) -> list[Novelty]:
    """The novelty of each game of ``games_or_sources`` (paths, streams, games) against the
    games of ``archive`` (the same), in order: each game replayed once, the archive counted
    only where those games went (:func:`archive_tree`)."""
    played = list(replay_games(games_or_sources, variant=variant, jobs=jobs, encoding=encoding))
    tree = archive_tree(archive, played, variant=variant, jobs=jobs, encoding=encoding)
    return [novelty_of(one, tree) for one in played]


def archive_summary(tree: Tree, variants: Iterable[str | None]) -> str:
    """One line on the archive: its games, those under the rules of the games looked at
    (``variants``), and those under other rules, which never match.

    >>> import pdn
    >>> tree = Tree(0)
    >>> tree.add_game(pdn.parse_game("1. 11-15 *"))
    >>> tree.add_game(pdn.parse_game('[GameType "22"]\\n1. c3-b4 *'))
    >>> archive_summary(tree, ["english"])
    'archive: 2 games, 1 english; 1 under other rules, never matching (italian 1)'
    """
    wanted = sorted({name for name in variants if name is not None})
    games = tree.variants()
    if wanted:
        parts = [f"archive: {tree.games} games, {_counts(games, wanted)}"]
        others = sorted(name for name in games if name not in wanted)
        if others:
            listed = ", ".join(f"{name} {games[name]}" for name in others)  # as explore says
            total = sum(games[name] for name in others)
            parts.append(f"{total} under other rules, never matching ({listed})")
    else:  # no game compared: no rules to be the same or other
        parts = [
            f"archive: {tree.games} games"
            + (f" ({_counts(games, sorted(games))})" if games else "")
        ]
    if tree.unplayable:
        parts.append(f"{tree.unplayable} with a start that could not be set up")
    return "; ".join(parts)


def _counts(games: Counter[str], names: list[str]) -> str:
    return ", ".join(f"{games[name]} {name}" for name in names)


def summary_of(novelties: Iterable[Novelty], tree: Tree) -> dict[str, Any]:
    """The counts of a search: the games looked at (``games``), those with a novelty
    (``with_novelty``), those wholly in the archive (``in_archive``), those that stopped
    before any novelty (``stopped``: an illegal move, a setup command, a start that could not
    be set up), and the archive's games (``archive``: all of them, per variant under the
    rules of the games looked at, under other rules, and with no start).

    >>> import pdn
    >>> found = find_novelties([pdn.parse_game("1. 9-14 *")], [pdn.parse_game("1. 9-14 *")])
    >>> summary = summary_of(found, Tree(0))
    >>> summary["games"], summary["with_novelty"], summary["in_archive"]
    (1, 0, 1)
    """
    games = new = stopped = 0
    wanted: set[str] = set()
    for one in novelties:
        games += 1
        new += one.ply is not None
        stopped += one.ply is None and one.stopped is not None
        if one.variant is not None:
            wanted.add(one.variant)
    variants = tree.variants()
    return {
        "games": games,
        "with_novelty": new,
        "in_archive": games - new - stopped,
        "stopped": stopped,
        "archive": {
            "games": tree.games,
            "same_rules": {name: variants[name] for name in sorted(wanted)},
            "other_rules": {n: c for n, c in sorted(variants.items()) if n not in wanted},
            "unplayable": tree.unplayable,
        },
    }


def summary_text(novelties: Iterable[Novelty], tree: Tree) -> str:
    """The last line of ``pdn novelty``'s text: :func:`summary_of` in words."""
    found = list(novelties)
    summary = summary_of(found, tree)
    games = f"{summary['games']} game{'' if summary['games'] == 1 else 's'}"
    return (
        f"{games}: {summary['with_novelty']} with a novelty, {summary['in_archive']} wholly in "
        f"the archive, {summary['stopped']} stopped before any novelty; "
        + archive_summary(tree, (one.variant for one in found))
    )


def to_json(novelties: Iterable[Novelty], tree: Tree) -> dict[str, Any]:
    """What ``pdn novelty --format json`` writes (``docs/json.md``): the record of each
    game's novelty and the summary of the search."""
    found = list(novelties)
    return {
        "schema": SCHEMA,
        "type": "novelties",
        "games": [one.to_dict() for one in found],
        "summary": summary_of(found, tree),
    }


def _moves_text(novelty: Novelty, limit: int | None = None) -> str:
    shown = novelty.archive_moves if limit is None else novelty.archive_moves[:limit]
    text = ", ".join(f"{move} {n}" for move, n in shown)
    left = len(novelty.archive_moves) - len(shown)
    return text + (f" and {left} more" if left else "")


def _reached(novelty: Novelty, what: str, limit: int | None = None) -> str:
    games = novelty.archive_games
    if not games:
        return f"no archive game reached {what}"
    played = f": {_moves_text(novelty, limit)}" if novelty.archive_moves else ""
    return f"{games} archive game{'s' if games != 1 else ''} reached {what}{played}"


def novelty_text(novelty: Novelty) -> str:
    """One line on the novelty of a game, as ``pdn novelty`` prints it (the values read from
    the file are not escaped here: the caller shows them).

    >>> import pdn
    >>> (found,) = find_novelties([pdn.parse_game("1. 9-14 *")], [pdn.parse_game("1. 11-15 *")])
    >>> novelty_text(found)
    'game 1: novelty at ply 1, 9-14 (1 archive game reached the position before: 11-15 1)'
    """
    where = f"{novelty.file}:{novelty.line}: " if novelty.file else ""
    people = " - ".join(name or "?" for name in (novelty.black, novelty.white))
    about = ", ".join(part for part in (people if people != "? - ?" else "", novelty.event) if part)
    head = f"{where}game {novelty.game}{f' ({about})' if about else ''}: "
    if novelty.ply is not None:
        reached = _reached(novelty, "the position before", TEXT_MOVES)
        return head + f"novelty at ply {novelty.ply}, {novelty.move} ({reached})"
    if novelty.stopped in _NOT_COMPARED:
        return head + _NOT_COMPARED[novelty.stopped]
    if novelty.stopped is not None:
        stop = "its illegal move" if novelty.stopped == "illegal" else "its setup command"
        reached = _reached(novelty, "the position before", TEXT_MOVES)
        return head + f"no novelty before {stop} at ply {novelty.plies + 1} ({reached})"
    if not novelty.plies:
        return head + "no novelty: it has no moves"
    plies = f"{novelty.plies} pl{'y is' if novelty.plies == 1 else 'ies are'}"
    reached = _reached(novelty, "its last position", TEXT_MOVES)
    return head + f"no novelty: all its {plies} in the archive ({reached})"


# Why a game was not compared at all, as the text says it.
_NOT_COMPARED = {
    "unplayable": "its start could not be set up: not compared",
    "not-pdn": "not PDN: not compared",
}


def novelty_comment(novelty: Novelty) -> Comment | None:
    """The comment ``pdn annotate --novelties`` writes after the novelty's move (``None``
    when the game has none).

    >>> import pdn
    >>> (found,) = find_novelties([pdn.parse_game("1. 9-14 *")], [pdn.parse_game("1. 11-15 *")])
    >>> print(novelty_comment(found).text)  # doctest: +NORMALIZE_WHITESPACE
    novelty: no game of the archive reached this position;
    1 archive game reached the one before: 11-15 1
    """
    if novelty.ply is None:
        return None
    reached = _reached(novelty, "the one before")
    return Comment(f"novelty: no game of the archive reached this position; {reached}")


def add_novelty(annotations: Annotations, novelty: Novelty, report: Report) -> None:
    """Add the comment of ``novelty`` to ``annotations`` of the game replayed in ``report``,
    after the novelty's move (after the other comments added there)."""
    comment = novelty_comment(novelty)
    if comment is None or novelty.ply is None:
        return
    for ply, step in enumerate(report.mainline_steps(), 1):
        if ply == novelty.ply:
            annotations.comments.setdefault(step.order, []).append(comment)
            return
