"""Matches between engines that speak the Hub protocol, over opening ballots.

Each ballot is played twice, each engine having each colour once. A game ends when the side
to move has no move (it loses), when a draw rule of the variant's federation says the game
is drawn or may be claimed (:mod:`pdn.draws`; adjudicated a draw), when an engine gives no
legal move (it loses), or at ``max_plies`` (adjudicated a draw). Each game is written as PDN
with its ballot, engines, result and why it ended (``Termination``), and
:func:`pdn.report.build_reports` makes the standings.
"""

from __future__ import annotations

import datetime
import random
import shlex
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pdn.engine import ENGLISH, Color, Move, Position, Variant

from .draws import DrawWatch, draw_rules
from .gametype import first_colour, full_value
from .hub import HubClient, HubError, parse_hub_move
from .model import Game
from .notation import move_texts
from .openings import ballots, eleven_man_fens
from .reader import parse_game
from .results import CANONICAL, Outcome
from .validation import validate

__all__ = ["BALLOTS", "Ballot", "Engine", "ballots_of", "engine_command", "play_game", "play_match"]

#: The ballot decks ``pdn match --ballots`` takes.
BALLOTS = ("english-3move", "english-11man", "start")


@dataclass(frozen=True, slots=True)
class Ballot:
    """An opening to play: a start position and the moves played from it before the engines
    take over, with a name for the record."""

    name: str
    start: Position
    moves: tuple[Move, ...] = ()


def ballots_of(deck: str, variant: Variant = ENGLISH) -> list[Ballot]:
    """The ballots of a deck: ``english-3move`` (the 156 standard ACF three-move ballots,
    played from the start), ``english-11man`` (the 2,400 11-man ballot positions) or
    ``start`` (the start of ``variant``).

    >>> deck = ballots_of("english-3move")
    >>> len(deck), deck[0].name, len(deck[0].moves)
    (156, 'ACF 1: 9-13 21-17 5-9', 3)
    """
    if deck == "start":
        return [Ballot("start", Position.start(variant))]
    if deck == "english-11man":
        return [
            Ballot(f"11-man ballot {number}", Position.from_fen(fen, ENGLISH))
            for number, fen in enumerate(eleven_man_fens(), 1)
        ]
    if deck == "english-3move":
        out = []
        for entry in ballots():
            if entry.status != "standard" or not entry.moves:
                continue
            report = validate(parse_game(f"{entry.moves} *"), ENGLISH)
            out.append(
                Ballot(
                    f"ACF {entry.number}: {entry.moves}",
                    Position.start(ENGLISH),
                    tuple(report.mainline_moves()),
                )
            )
        return out
    raise ValueError(f"ballots {deck!r}: expected one of {', '.join(BALLOTS)}")


def engine_command(text: str) -> list[str]:
    """The program to run for an engine named on the command line: a ``pdn engine ...``
    command runs with this interpreter (so that it works from a virtual environment not on
    the ``PATH``); any other is split as a shell would.

    >>> engine_command("pdn engine --hub --depth 3")[1:]
    ['-m', 'pdn', 'engine', '--hub', '--depth', '3']
    """
    args = shlex.split(text)
    if args[:2] == ["pdn", "engine"]:
        return [sys.executable, "-m", "pdn", *args[1:]]
    return args


@dataclass(slots=True)
class Engine:
    """An engine of a match: its label in the records and its running program."""

    label: str
    client: HubClient


@dataclass(frozen=True, slots=True)
class Played:
    """A game played: the moves after the ballot's, the outcome and why the game ended."""

    moves: tuple[Move, ...]
    outcome: Outcome
    termination: str


def play_game(
    ballot: Ballot,
    black: Engine,
    white: Engine,
    *,
    depth: int | None = None,
    movetime: float | None = None,
    max_plies: int = 300,
) -> Played:
    """Play one game from ``ballot`` between two running engines."""
    variant = ballot.start.variant
    first = first_colour(variant)
    rules = draw_rules(variant)
    position = ballot.start
    watch = DrawWatch(rules, position) if rules is not None else None
    played: list[Move] = list(ballot.moves)
    termination = ""
    outcome = Outcome.UNKNOWN
    for ply, move in enumerate(ballot.moves, 1):
        position = position.play(move)
        if watch is not None:
            watch.update(move, position, ply)
    engines = {Color.BLACK: black, Color.WHITE: white}
    for engine in engines.values():
        engine.client.new_game()
    while True:
        mover = position.turn
        if not position.legal_moves():
            outcome = Outcome.SECOND_WINS if mover is first else Outcome.FIRST_WINS
            termination = f"{mover.label} has no move left"
            break
        if len(played) >= max_plies:
            outcome, termination = Outcome.DRAW, f"adjudicated a draw after {max_plies} plies"
            break
        engine = engines[mover]
        text = engine.client.go(ballot.start, played, depth=depth, movetime=movetime)
        try:
            move = parse_hub_move(text, position)
        except HubError:
            outcome = Outcome.SECOND_WINS if mover is first else Outcome.FIRST_WINS
            termination = f"{engine.label} played {text or 'nothing'!r}, not a legal move"
            break
        played.append(move)
        position = position.play(move)
        said = watch.update(move, position, len(played)) if watch is not None else ()
        if said:
            outcome, termination = Outcome.DRAW, f"adjudicated a draw: {said[0]}"
            break
    return Played(tuple(played[len(ballot.moves) :]), outcome, termination)


def _record(
    ballot: Ballot,
    played: Played,
    black: str,
    white: str,
    round_number: int,
    level: str,
) -> Game:
    variant = ballot.start.variant
    result = CANONICAL["international" if variant.result_family == "international" else "default"]
    texts: list[str] = []
    position = ballot.start
    for move in (*ballot.moves, *played.moves):
        legal = position.legal_moves()
        texts.append(move_texts(legal, variant)[legal.index(move)])
        position = position.play(move)
    tags = [
        ("Event", "pdn match"),
        ("Date", datetime.date.today().strftime("%Y.%m.%d")),
        ("Round", str(round_number)),
        ("Black", black),
        ("White", white),
        ("Result", result[played.outcome]),
        ("GameType", full_value(variant)),
    ]
    if ballot.start != Position.start(variant):
        tags.append(("FEN", ballot.start.fen()))
    tags += [
        ("Opening", ballot.name),
        ("TimeControl", level),
        ("PlyCount", str(len(texts))),
        ("Termination", played.termination),
    ]
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    movetext = _numbered(texts, ballot.start, first_colour(variant))
    return parse_game(f"{head}\n{movetext} {result[played.outcome]}\n")


def _numbered(texts: Sequence[str], start: Position, first: Color) -> str:
    """Moves with their numbers: a move of the first mover starts a number, and a game
    that starts with the other side to move starts with ``1...``."""
    parts: list[str] = []
    number = 1
    mover = start.turn
    for at, text in enumerate(texts):
        if mover is first:
            parts.append(f"{number}.")
        elif at == 0:
            parts.append(f"{number}...")
        parts.append(text)
        if mover is not first:
            number += 1
        mover = mover.opponent
    return " ".join(parts)


def play_match(
    commands: Sequence[Sequence[str]],
    deck: Sequence[Ballot],
    games: int,
    *,
    depth: int | None = None,
    movetime: float | None = None,
    max_plies: int = 300,
    seed: int = 1,
    labels: Sequence[str] | None = None,
) -> Iterator[Game]:
    """Play ``games`` games between the two engines of ``commands`` (their programs), over
    ballots of ``deck`` drawn at random (``seed``), each ballot twice with the colours
    swapped; yields each game's record as it ends. The engines are named as they name
    themselves, or by ``labels`` (how the user wrote them) when those names are the same.
    """
    if len(commands) != 2:
        raise ValueError("a match is between two engines")
    order = list(deck)
    random.Random(seed).shuffle(order)
    variant = order[0].start.variant
    level = (
        f"depth {depth}"
        if depth is not None
        else f"{movetime} s a move"
        if movetime is not None
        else "each engine's own"
    )
    with HubClient(commands[0]) as one, HubClient(commands[1]) as two:
        names = [one.name or "engine 1", two.name or "engine 2"]
        if names[0] == names[1] and labels and labels[0] != labels[1]:
            names = list(labels)
        if names[0] == names[1]:
            names = [f"{names[0]} (1)", f"{names[1]} (2)"]
        engines = [Engine(names[0], one), Engine(names[1], two)]
        for engine in engines:
            engine.client.set_variant(variant)
        for number in range(games):
            ballot = order[(number // 2) % len(order)]
            first, second = engines if number % 2 == 0 else engines[::-1]
            # The first engine of the pair has the first mover's side.
            if first_colour(variant) is Color.BLACK:
                black, white = first, second
            else:
                black, white = second, first
            played = play_game(
                ballot, black, white, depth=depth, movetime=movetime, max_plies=max_plies
            )
            yield _record(ballot, played, black.label, white.label, number + 1, level)
