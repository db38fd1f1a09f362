"""Picking games out of collections: criteria on tags, moves, positions and verdicts.

A :class:`Selection` holds the conditions; :func:`select_games` streams the games of some files
that meet all of them (or none of them, with ``invert``), in order, each with its text exactly as
read. The work done per game is only what the conditions need, cheapest first:

* ``games`` (numbers in the order read) decides before the game is read at all;
* tags (players, event, dates, result, GameType) are read without parsing the movetext
  (:class:`~pdn.game.visitor.HeadersOnly`);
* the move count, a missing Result tag or GameType need the game parsed, not replayed;
* positions (``fen``, ``fen_pattern``, ``ballot``, ``material``, ``moves``) and the
  validation verdict (``clean``, ``broken``, ``cut_at_error``) read the game's replay under the
  rules ``pdn validate`` chooses (:class:`pdn.rules.replays.Replays`: the GameType, else the guess,
  retried when it fails, the earlier games of the file breaking a tie), so that a position
  ``pdn convert`` writes is found, and a game ``pdn validate`` calls clean is kept by ``clean``.

Games are written as read: the text of a selected game is the reader's
:class:`~pdn.reading.cutting.RawGame` text, so nothing is reformatted or lost.

>>> import io, re
>>> text = '[Black "Ann"][White "Bob"][Result "1-0"]\\n1. 11-15 23-19 1-0\\n\\n'
>>> text += '[Black "Cy"][White "Ann"][Result "2-0"]\\n1. 9-13 22-18 2-0\\n'
>>> chosen = Selection(black=re.compile("ann", re.I), results=parse_results(["1-0"]))
>>> [picked.line for picked in select_games([io.StringIO(text)], chosen)]
[1]

The work is done by three modules whose names this one gathers: :mod:`pdn.collections.criteria` (the
conditions as written), :mod:`pdn.collections.filtering` (:class:`Selection`: a game against them)
and
:mod:`pdn.collections.raw_edits` (the text of a game cut or marked).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from pdn.game.model import Game
from pdn.game.visitor import HeadersOnly
from pdn.reading.cutting import RawGame
from pdn.reading.parsing import accept_raw
from pdn.reading.reader import parse_raw, split_games
from pdn.reading.recording import Recorded
from pdn.text.problems import Problem
from pdn.writing.writer import write_game

from .criteria import (
    Comparison,
    DatePart,
    Material,
    Numbers,
    Pattern,
    date_span,
    parse_date_bound,
    parse_line,
    parse_material,
    parse_numbers,
    parse_pattern,
    parse_results,
    parse_where,
)
from .filtering import Selection, line_position, opening_of
from .inputs import Input, display_name, is_json, iter_games
from .raw_edits import cut_at_error, marked_game, marked_raw

__all__ = [
    "AsRead",
    "Comparison",
    "DatePart",
    "Material",
    "Numbers",
    "OnProblem",
    "Pattern",
    "Picked",
    "Selection",
    "cut_at_error",
    "date_span",
    "games_as_read",
    "line_position",
    "opening_of",
    "parse_date_bound",
    "parse_line",
    "parse_material",
    "parse_numbers",
    "parse_pattern",
    "parse_results",
    "parse_where",
    "partition_games",
    "select_games",
]

# ----------------------------------------------------------------------------- streaming


@dataclass(slots=True)
class Picked:
    """A selected game: where it comes from and its text to write (as read, or cut)."""

    file: str
    index: int
    line: int
    text: str
    cut: bool = False  # written up to its first error, the rest in a comment
    marked: bool = False  # a comment added where the conditions on positions were met
    kept: bool = True  # False: a game the selection leaves out (partition_games)
    # The game as read (None: a JSON record, written anew): where its lines are in its file
    # and what of its bytes could not be read (pdn.collections.copying writes it with its line
    # ends).
    raw: RawGame | None = None


def _with_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


#: What a source gives per game: its text as read (PDN) or its model (a JSON record).
AsRead = tuple[RawGame | None, Game | None]
#: Told (file name, problem) when a source is not PDN at all.
OnProblem = Callable[[str, Problem], None]


def games_as_read(
    source: Input,
    on_problem: OnProblem | None = None,
    *,
    scan: bool = True,
    encoding: str | None = None,
) -> Iterator[AsRead]:
    """Each game of a source as read, cheaply: ``(raw, None)`` for PDN (cut, not parsed),
    ``(None, game)`` for a JSON record. A source that is not text at all gives no game, and
    ``on_problem`` hears why. ``scan=False`` skips the file's scan for the board its games
    agree on (:mod:`pdn.game.detection`), for callers that never parse a game. ``encoding`` forces
    the codec of PDN bytes (else it is detected)."""
    if is_json(source):
        for game in iter_games(source):
            # JSON that is not game records (a validate report...) is told as binary PDN is.
            unreadable = next((p for p in game.errors if p.code == "not-pdn"), None)
            if unreadable is not None:
                if on_problem is not None:
                    on_problem(display_name(source), unreadable)
                continue
            yield None, game
        return
    for raw in split_games(source, scan=scan, encoding=encoding):
        if raw.problem is not None:
            if on_problem is not None:
                on_problem(display_name(source), raw.problem)
            continue
        yield raw, None


def select_games(
    sources: Iterable[Input],
    selection: Selection,
    *,
    on_problem: OnProblem | None = None,
    encoding: str | None = None,
) -> Iterator[Picked]:
    """The games of ``sources`` that meet ``selection``, streaming, in input order.

    Only what the conditions need is done per game (see the module docstring). JSON inputs
    are written back as PDN; PDN games are written as read, unless ``cut_at_error`` cuts
    them. ``encoding``: see :func:`games_as_read`.
    """
    for picked in partition_games(
        sources, selection, on_problem=on_problem, encoding=encoding, every=False
    ):
        if picked.kept:
            yield picked


def partition_games(
    sources: Iterable[Input],
    selection: Selection,
    *,
    on_problem: OnProblem | None = None,
    encoding: str | None = None,
    every: bool = True,
) -> Iterator[Picked]:
    """Every game of ``sources``, in input order, each :attr:`Picked.kept` or not: those kept
    as :func:`select_games` gives them, the others as read. With ``every=False`` it stops
    once no later game can be kept (``first`` games kept, or past the last of ``games``);
    else it reads on, and the games after that are the rest (not kept).

    >>> import io
    >>> text = "1. 11-15 *\\n\\n1. 9-13 *\\n\\n1. 10-14 *\\n"
    >>> chosen = Selection(games=parse_numbers("2-3"), first=1)
    >>> [(p.index, p.kept) for p in partition_games([io.StringIO(text)], chosen)]
    [(1, False), (2, True), (3, False)]
    """
    chosen = number = 0
    numbers = selection.games
    alone = selection.replay_alone()
    for source in sources:
        name = display_name(source)
        scan = selection.may_parse()
        replays = selection.replays_games()
        for raw, parsed in games_as_read(source, on_problem, scan=scan, encoding=encoding):
            number += 1
            full = selection.first is not None and chosen >= selection.first
            past = numbers is not None and number > numbers.last and not selection.invert
            if (full or past) and not every:
                return
            replayed = selection._replays.replayed
            game = parsed
            recorded: Recorded | None = None
            decided: bool | None = None
            if full:
                decided = selection.invert  # kept by no condition: the rest
            elif numbers is not None and number not in numbers:
                decided = False
            elif raw is not None:
                decided = (
                    selection.tags_match(accept_raw(raw, HeadersOnly()))
                    if selection.has_tag_conditions()
                    else True
                )
                if decided is True and selection.needs_game():
                    decided = None
            if decided is None and game is None and alone:
                assert raw is not None
                recorded = selection.record(raw)
                decided = selection.tags_match(recorded.game.tags) is not False and (
                    selection.recorded_matches(recorded, name)
                )
            if decided is None:
                if game is None:
                    assert raw is not None
                    game = parse_raw(raw)
                decided = selection.tags_match(game.tags) is not False and (
                    selection.game_matches(game, name)
                )
            kept = decided != selection.invert
            picked = _picked(name, raw, game, selection) if kept else _as_read(name, raw, game)
            picked.raw = raw
            if replays and selection._replays.replayed == replayed:
                # Not replayed: its verdict may still count for a later game's rules.
                item = game if game is not None else recorded if recorded is not None else raw
                assert item is not None
                selection.skip(item, name)
            chosen += kept
            yield picked


def _as_read(name: str, raw: RawGame | None, game: Game | None) -> Picked:
    """A game not kept, written as read."""
    if raw is None:
        assert game is not None
        return Picked(name, game.index, game.line, _with_newline(write_game(game)), kept=False)
    return Picked(name, raw.index, raw.line, _with_newline(raw.text), kept=False)


def _picked(name: str, raw: RawGame | None, game: Game | None, selection: Selection) -> Picked:
    if selection.mark:
        game = game or parse_raw(raw) if raw is not None else game
        assert game is not None
        marks = selection.marks(game, name)
        if marks:
            text = None if raw is None else marked_raw(raw, game, marks)
            if text is None:
                text = write_game(marked_game(game, marks))
            line, index = (game.line, game.index) if raw is None else (raw.line, raw.index)
            return Picked(name, index, line, _with_newline(text), marked=True)
    if raw is None:
        assert game is not None
        return Picked(name, game.index, game.line, _with_newline(write_game(game)))
    if selection.cut_at_error:
        game = game or parse_raw(raw)
        cut = cut_at_error(raw, game, selection.replay(game, name))
        if cut is not None:
            return Picked(name, raw.index, raw.line, cut, cut=True)
    return Picked(name, raw.index, raw.line, _with_newline(raw.text))
