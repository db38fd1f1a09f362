"""The forwarding filter base (:class:`pdn.game.visitor.GameFilter`): every event of
:class:`~pdn.game.visitor.GameVisitor` reaches the downstream visitor, so a filter that overrides
nothing changes no output, and the filters built on it (``Stripper``, ``Annotator``) override
only what they change."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest

import pdn
from pdn.game.visitor import GameFilter, GameVisitor
from pdn.reading.builder import GameBuilder
from pdn.reading.parsing import accept_raw
from pdn.writing.annotate import Annotations, Annotator
from pdn.writing.jsonio import JsonBuilder
from pdn.writing.stripping import StripOptions, Stripper
from pdn.writing.writer import PdnWriter

FIXTURES = Path(__file__).parent / "fixtures"

#: Every event of the protocol, read off the base class so that a new one cannot be forgotten.
EVENTS = sorted(
    name
    for name, value in vars(GameVisitor).items()
    if inspect.isfunction(value) and not name.startswith("_")
)


class Recorder(GameVisitor[object]):
    """Records every event it receives, with its arguments; each returns a token naming it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []


def _recording(name: str) -> Any:
    def record(self: Recorder, *args: Any) -> object:
        self.calls.append((name, args))
        return ("returned by", name)

    return record


for _name in EVENTS:
    setattr(Recorder, _name, _recording(_name))


def _arguments(name: str) -> tuple[Any, ...]:
    """One distinct object per parameter of the event (one-item lists for ``visit_moves``)."""
    parameters = list(inspect.signature(getattr(GameVisitor, name)).parameters)[1:]
    if name == "visit_moves":
        return tuple([object()] if p != "before" else (object(),) for p in parameters)
    return tuple(object() for _ in parameters)


def test_the_protocol_is_read_whole() -> None:
    assert {"begin_game", "visit_move", "visit_moves", "visit_step", "end_game", "result"} <= set(
        EVENTS
    )


@pytest.mark.parametrize("name", EVENTS)
def test_every_event_is_forwarded(name: str) -> None:
    inner = Recorder()
    args = _arguments(name)
    returned = getattr(GameFilter(inner), name)(*args)
    if name == "visit_moves":
        # Moves in a row arrive as single moves, so that a filter of moves sees each one.
        moves, numbers, before, lines, columns = args
        assert inner.calls == [("visit_move", (moves[0], numbers[0], before, lines[0], columns[0]))]
        return
    assert inner.calls == [(name, args)]
    if inspect.signature(getattr(GameVisitor, name)).return_annotation != "None":
        assert returned == ("returned by", name)  # SKIP from end_tags, the result...


def test_the_filter_defines_every_event_but_moves_in_a_row() -> None:
    assert set(EVENTS) - {"visit_moves"} <= set(vars(GameFilter))


def _games() -> list[pdn.Game]:
    files = [
        FIXTURES / "openings" / "games.pdn",
        FIXTURES / "report" / "round_robin.pdn",
        *sorted((FIXTURES / "reader").glob("*.pdn")),
    ]
    games = [game for path in files for game in pdn.read_games(path)]
    games.append(pdn.parse_game('[Event "E"]\n1. 11-15 {c} $1 (9-13 {v} 22-18) 23-19 ! 2. 8-11 *'))
    return games


def test_a_filter_that_overrides_nothing_changes_no_output() -> None:
    games = _games()
    assert len(games) > 20
    for game in games:
        assert game.accept(GameFilter(PdnWriter())) == game.accept(PdnWriter())
        report = pdn.validate(game)
        alone = game.accept(JsonBuilder(report), report)
        assert game.accept(GameFilter(JsonBuilder(report)), report) == alone
        rebuilt = game.accept(GameFilter(GameBuilder()))
        assert pdn.write_game(rebuilt) == pdn.write_game(game)


def test_a_filter_passes_the_readers_events_on() -> None:
    # The reader gives moves in a row (visit_moves): they reach the writer all the same.
    for path in sorted((FIXTURES / "reader").glob("*.pdn")):
        for raw in pdn.split_games(path):
            assert accept_raw(raw, GameFilter(PdnWriter())) == accept_raw(raw, PdnWriter())


def test_the_filters_build_on_it() -> None:
    assert issubclass(Stripper, GameFilter) and issubclass(Annotator, GameFilter)
    game = pdn.parse_game('[Event "E"]\n1. 11-15 {c} $1 (9-13) 23-19 *')
    # Asked to leave nothing out or to add nothing, they are the writer alone.
    assert game.accept(Stripper(PdnWriter(), StripOptions())) == game.accept(PdnWriter())
    assert game.accept(Annotator(PdnWriter(), Annotations())) == game.accept(PdnWriter())
