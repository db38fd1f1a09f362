"""Repeated games: one small key per game, and the first game each key was seen in.

Three levels, from strictest to loosest:

* ``text``: the same text once runs of white space are made one space (tags, comments and
  all): byte-for-byte copies and copies re-wrapped by an editor;
* ``moves``: the same mainline from the same start, whatever the tags say, as replayed: each
  move is the engine's move under the rules ``pdn validate`` replays the game under (a quiet
  move written ``10x14`` is ``10-14``, a capture written ``28-19`` or short is its full path),
  from the same start position, so every spelling of one game is one game (pgn-extract's
  ``-D``); comments, NAGs and variations left out. A game that does not replay cleanly is its
  moves replayed up to the first one that is not legal (or a bad setup), then the rest as
  written (in the PDN 3.0 writing form: ``26-17-10`` is ``26x17x10``); a game under rules
  that cannot be replayed is its moves as written;
* ``position``: the same final position of the mainline (side to move included) between the
  same players (their names with white space and case evened out).

Games without any move repeat nothing at the ``moves`` and ``position`` levels.

A key is a 16-byte BLAKE2b digest, so :class:`Deduper` holds one digest and one integer (file
and line) per distinct game, whatever the games' size; the collision chance over a million
games is about 10^-27.

>>> import pdn
>>> one = pdn.parse_game('[Event "A"]\\n1. 11-15 23-19 *')
>>> two = pdn.parse_game('[Event "B"]\\n1. 11-15  23-19 *')
>>> game_key(one, "moves") == game_key(two, "moves"), game_key(one, "text") == game_key(two, "text")
(True, False)
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from pdn.game.model import Game, Node
from pdn.reading.cutting import RawGame
from pdn.reading.reader import parse_raw
from pdn.reading.recording import Recorded
from pdn.rules.replays import Replays
from pdn.rules.validation import Report
from pdn.writing.writer import canonical_move, canonical_moves, write_game

from .batch import Input, display_name
from .selection import OnProblem, games_as_read

__all__ = [
    "LEVELS",
    "Deduper",
    "Level",
    "Place",
    "Seen",
    "dedupe_games",
    "game_key",
    "pairing_key",
    "text_key",
]

Level = Literal["text", "moves", "position"]
LEVELS: tuple[Level, ...] = ("text", "moves", "position")

_SEP = "\x1f"  # a unit separator: never inside a tag value the reader kept, nor a move


def _digest(*parts: str) -> bytes:
    return hashlib.blake2b(
        _SEP.join(parts).encode("utf-8", "surrogatepass"), digest_size=16
    ).digest()


def text_key(text: str) -> bytes:
    """The ``text`` key of a game's text: white space runs count as one space."""
    return _digest(" ".join(text.split()))


def _mainline(game: Game) -> list[str]:
    return [_written(node) for node in game.mainline()]


def _replayed_line(game: Game, report: Report) -> list[str]:
    """The parts of a game's ``moves`` key: the rules and start of its replay and each
    mainline move as the engine played it, up to the first the replay could not play; from
    there on (or throughout, when the game has no rules to replay it), as written."""
    start = report.start
    if report.variant is None or start is None:
        return ["written", " ".join((game.fen or "").split()), *_mainline(game)]
    played: list[tuple[tuple[int, ...], tuple[int, ...]] | str] = []
    for step in report.mainline_steps():  # in the mainline's order, one per node
        after, move = step.after, step.move
        if after is None or (move is None and step.node.setup is None):
            break  # the first one the replay could not play: from it on, as written
        # A move as the engine played it; a setup command as the position it sets.
        played.append(after.fen() if move is None else (move.path, move.captures))
    rest = (_written(node) for node in itertools.islice(game.mainline(), len(played), None))
    return ["replayed", report.variant.name, start.fen(), repr(played), *rest]


def _written(node: Node) -> str:
    return canonical_move(node.move) if node.move is not None else f"/{node.setup}/"


def _name(value: str | None) -> str:
    return " ".join((value or "").split()).casefold()


def game_key(
    game: Game, level: Level, text: str | None = None, report: Report | None = None
) -> bytes | None:
    """The key of ``game`` at ``level``; ``text`` is its text as read (for ``text``; the
    game is written out when it is not given), ``report`` its replay (for ``position``;
    validated here when not given). ``None`` for a game without moves at the ``moves`` and
    ``position`` levels: empty records are alike without repeating anything."""
    if level == "text":
        return text_key(text if text is not None else write_game(game))
    if not any(node.move is not None for node in game.mainline()):
        return None
    if report is None:
        from pdn.rules.validation import validate

        report = validate(game)
    if level == "moves":
        return _digest(*_replayed_line(game, report))
    final = report.final
    where = "" if final is None else f"{final.variant.name}:{final.fen()}"
    if final is None:
        # Not replayable (no rules for it, a bad start): its moves stand for the position.
        where = "moves:" + " ".join(_mainline(game))
    return _digest(where, _name(game.tags.get("Black")), _name(game.tags.get("White")))


def pairing_key(game: Game | Recorded) -> bytes:
    """The key ``pdn report`` counts a game once by: the same mainline, players, event and
    round (two real games of one pairing always differ in one of them); ``game`` may be read
    for its replay alone (:mod:`pdn.reading.recording`)."""
    if isinstance(game, Recorded):
        if game.runs is None:
            return pairing_key(game.game)
        # One line of plain moves: no setup command among them.
        mainline = canonical_moves(game.mainline_moves())
        game = game.game
    else:
        mainline = _mainline(game)
    tags = game.tags
    names = (_name(tags.get(tag)) for tag in ("Event", "Round", "Black", "White"))
    return _digest(*names, " ".join((game.fen or "").split()), *mainline)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a game is: its file, its 1-based line and its number in the file."""

    file: str
    line: int
    index: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(slots=True)
class Seen:
    """A game and, when it repeats an earlier one, where that one is."""

    place: Place
    repeats: Place | None
    raw: RawGame | None
    game: Game | None


class Deduper:
    """Remembers the first place of every key: a 16-byte digest and one integer per key.

    >>> seen = Deduper()
    >>> first = seen.check(b"k" * 16, Place("a.pdn", 1, 1))
    >>> first, str(seen.check(b"k" * 16, Place("b.pdn", 9, 3)))
    (None, 'a.pdn:1')
    """

    __slots__ = ("_files", "_first")

    def __init__(self) -> None:
        self._first: dict[bytes, int] = {}
        self._files: list[str] = []

    def __len__(self) -> int:
        return len(self._first)

    def check(self, key: bytes | None, place: Place) -> Place | None:
        """Where the game with ``key`` was first seen; ``None`` (and remembered) if new.
        A ``None`` key repeats nothing."""
        if key is None:
            return None
        packed = self._first.get(key)
        if packed is not None:
            file, line, index = packed >> 64, (packed >> 32) & 0xFFFFFFFF, packed & 0xFFFFFFFF
            return Place(self._files[file], line, index)
        if not self._files or self._files[-1] != place.file:
            self._files.append(place.file)
        number = len(self._files) - 1
        self._first[key] = (number << 64) | (min(place.line, 0xFFFFFFFF) << 32) | place.index
        return None


def dedupe_games(
    sources: Iterable[Input],
    level: Level = "moves",
    *,
    against: Iterable[Input] = (),
    on_problem: OnProblem | None = None,
    encoding: str | None = None,
) -> Iterator[Seen]:
    """Every game of ``sources`` in order, each saying which earlier game it repeats at
    ``level`` (``None``: it is the first of its kind). ``text`` never parses a game.

    The games of ``against`` (an archive) are read first and only remembered, never given:
    a game of ``sources`` that the archive has says the archive's place. ``encoding``
    forces the codec of PDN bytes (else it is detected).

    >>> import io
    >>> archive = io.StringIO("1. 11-15 23-19 *\\n")
    >>> new = io.StringIO("1. 11-15 23-19 *\\n\\n1. 9-13 22-18 *\\n")
    >>> [seen.repeats is not None for seen in dedupe_games([new], against=[archive])]
    [True, False]
    """
    seen = Deduper()
    replays = Replays()
    for source in against:
        for _ in _keyed(source, level, seen, replays, on_problem, encoding):
            pass
    for source in sources:
        yield from _keyed(source, level, seen, replays, on_problem, encoding)


def _keyed(
    source: Input,
    level: Level,
    seen: Deduper,
    replays: Replays,
    on_problem: OnProblem | None,
    encoding: str | None = None,
) -> Iterator[Seen]:
    """The games of one source, each checked against (and added to) ``seen``; moves and
    positions are those of the replay ``pdn validate`` makes (``replays``)."""
    name = display_name(source)
    for raw, parsed in games_as_read(source, on_problem, encoding=encoding):
        game = parsed if raw is None or level == "text" else parse_raw(raw)
        report = replays.of(game, name) if game is not None and level != "text" else None
        if raw is None:
            assert game is not None
            place = Place(name, game.line, game.index)
            key = game_key(game, level, report=report)
        else:
            place = Place(name, raw.line, raw.index)
            key = text_key(raw.text) if game is None else game_key(game, level, report=report)
        yield Seen(place, seen.check(key, place), raw, game)
