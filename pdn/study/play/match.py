"""Matches between engines that speak the Hub protocol, over opening ballots.

Each ballot is played twice, each engine having each colour once. A game ends when the side
to move has no move (it loses), when a draw rule of the variant's federation says the game
is drawn or may be claimed (:mod:`pdn.rules.draws`; adjudicated a draw), when an engine gives no
legal move (it loses), when the endgame tables built by ``pdn endgame build`` hold the
position (adjudicated with their result, said in ``Termination``), or at ``max_plies``
(adjudicated a draw). An engine that stops, says
``error``, sends a line that cannot be read or runs out of time forfeits the game (it loses,
said in ``Termination``) and is started again for the next one; the match goes on. Each game
is written as PDN with its ballot, engines, result and why it ended (``Termination``), and
:func:`pdn.study.tournament.build_reports` makes the standings.
"""

from __future__ import annotations

import datetime
import os
import random
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from pdn.engine import ENGLISH, Color, Move, Position, Prober, Variant
from pdn.game.gametype import first_colour, first_mover, full_value, game_type_of
from pdn.game.model import Game
from pdn.reading.reader import parse_game, read_games
from pdn.rules.draws import DrawWatch, draw_rules
from pdn.rules.openings import ballots, eleven_man_fens
from pdn.rules.validation import validate
from pdn.text.notation import move_texts
from pdn.text.results import CANONICAL, Outcome, parse_result
from pdn.writing.writer import tag_line

from .clock import Clock, TimeControl
from .elo import EloDifference, elo_difference
from .endgame import Tables, used_prober
from .hub import HubClient, HubError, HubTimeout, parse_hub_move

__all__ = [
    "BALLOTS",
    "Ballot",
    "Engine",
    "Limits",
    "Played",
    "ballots_of",
    "engine_command",
    "match_elo",
    "openings_of",
    "play_game",
    "play_match",
]

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


def openings_of(path: str | os.PathLike[str], variant: Variant | None = None) -> list[Ballot]:
    """The openings of a PDN file of start positions: each game's start (its ``FEN``, else
    the start of its variant, or of ``variant`` when given) and its main line, named by its
    ``Opening`` tag (else the file's name and the game's number). A game whose main line is
    not legal, or a file with no game, is a ``ValueError`` naming the game."""
    out: list[Ballot] = []
    name = os.path.basename(os.fspath(path))
    for number, game in enumerate(read_games(path), 1):
        report = validate(game, variant)
        if report.status not in ("ok", "illegal-variation") or report.start is None:
            problem = next((p.message for p in report.all_problems), "not a game")
            raise ValueError(f"{name}, game {number}: {problem}")
        label = game.tags.get("Opening") or f"{name} #{number}"
        out.append(Ballot(label, report.start, tuple(report.mainline_moves())))
    if not out:
        raise ValueError(f"{name}: no game, so no opening")
    return out


def engine_command(text: str) -> list[str]:
    """The program to run for an engine named on the command line: a ``pdn engine ...``
    command runs with this interpreter (so that it works from a virtual environment not on
    the ``PATH``); any other is split as a shell would.

    >>> engine_command("pdn engine --hub --depth 3")[1:]
    ['-m', 'pdn', 'engine', '--hub', '--depth', '3']

    A command that names no program, or that a shell could not split (an unclosed quote), is
    a ``ValueError`` saying so.
    """
    try:
        args = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"engine {text!r}: {exc} (quote the command as a shell would)") from None
    if not args:
        raise ValueError(f"engine {text!r}: no program named")
    if args[:2] == ["pdn", "engine"]:
        return [sys.executable, "-m", "pdn", *args[1:]]
    return args


@dataclass(slots=True)
class Engine:
    """An engine of a match: its label in the records, its running program, and the command
    that starts it again after a failure."""

    label: str
    client: HubClient
    command: Sequence[str] = ()

    def restart(self, variant: Variant) -> None:
        """Stop the program (it broke the protocol or ran out of time) and start it again."""
        self.client.kill()
        client = HubClient(self.command).__enter__()
        self.client = client
        client.set_variant(variant)


@dataclass(frozen=True, slots=True)
class Limits:
    """How long an engine may think: a ``depth`` or ``movetime`` a move, or a clock under
    ``control``; ``timeout`` seconds a move at most when there is no clock nor move time,
    and ``margin`` seconds of grace for the pipes (the move time's, or the clock's once)."""

    depth: int | None = None
    movetime: float | None = None
    control: TimeControl | None = None
    timeout: float = 60.0
    margin: float = 1.0

    def text(self) -> str:
        """The limits as the ``TimeControl`` tag says them."""
        if self.control is not None:
            return self.control.tag()
        if self.depth is not None:
            return f"depth {self.depth}"
        if self.movetime is not None:
            return f"{self.movetime} s a move"
        return "each engine's own"


@dataclass(frozen=True, slots=True)
class Played:
    """A game played: the moves after the ballot's, the outcome and why the game ended;
    ``failed`` names the engine that broke the protocol or ran out of time (``""``: none),
    which is started again before the next game."""

    moves: tuple[Move, ...]
    outcome: Outcome
    termination: str
    failed: str = ""


def play_game(
    ballot: Ballot,
    black: Engine,
    white: Engine,
    *,
    depth: int | None = None,
    movetime: float | None = None,
    max_plies: int = 300,
    limits: Limits | None = None,
    tables: Prober | None = None,
) -> Played:
    """Play one game from ``ballot`` between two running engines, under ``limits`` (else
    ``depth`` or ``movetime`` a move), adjudicated by the endgame ``tables`` (a
    :class:`~pdn.engine.Prober`, :func:`pdn.study.play.endgame.prober`) once they hold a
    position."""
    if limits is None:
        limits = Limits(depth=depth, movetime=movetime)
    variant = ballot.start.variant
    first = first_colour(variant)
    rules = draw_rules(variant)
    position = ballot.start
    watch = DrawWatch(rules, position) if rules is not None else None
    played: list[Move] = list(ballot.moves)
    for ply, move in enumerate(ballot.moves, 1):
        position = position.play(move)
        if watch is not None:
            watch.update(move, position, ply)
    engines = {Color.BLACK: black, Color.WHITE: white}
    clocks: dict[Color, Clock] = {}
    if limits.control is not None:
        clocks = {side: Clock(limits.control, limits.margin) for side in engines}
    for side, engine in engines.items():
        try:
            engine.client.new_game()
        except HubError as exc:
            loss = Outcome.SECOND_WINS if side is first else Outcome.FIRST_WINS
            said = f"{engine.label} forfeits before its first move: {exc}"
            return _played(ballot, played, loss, said, engine.label)
    while True:
        mover = position.turn
        loss = Outcome.SECOND_WINS if mover is first else Outcome.FIRST_WINS
        if not position.legal_moves():
            return _played(ballot, played, loss, f"{mover.label} has no move left")
        known = tables(position) if tables is not None else None
        if known is not None:
            if known.distance is None:
                outcome, said = Outcome.DRAW, "a draw"
            else:
                won = known.result == "win"
                outcome = loss if not won else _WINS[loss]
                verb = "wins" if won else "loses"
                said = f"{mover.label} to move {verb} in {known.distance} plies"
            note = f"adjudicated by the endgame tables at ply {len(played)}: {said}"
            return _played(ballot, played, outcome, note)
        if len(played) >= max_plies:
            return _played(
                ballot, played, Outcome.DRAW, f"adjudicated a draw after {max_plies} plies"
            )
        engine = engines[mover]
        clock = clocks.get(mover)
        if clock is not None:
            deadline = clock.deadline()
        elif limits.movetime is not None:
            deadline = limits.movetime + limits.margin
        else:
            deadline = limits.timeout
        ply = len(played) + 1
        began = time.monotonic()
        try:
            text = engine.client.go(
                ballot.start,
                played,
                depth=limits.depth,
                movetime=limits.movetime,
                level=clock.level() if clock is not None else None,
                timeout=deadline,
            )
        except HubTimeout:
            said = f"{engine.label} lost on time at ply {ply}: no move in {deadline:.3g} s"
            return _played(ballot, played, loss, said, engine.label)
        except HubError as exc:
            said = f"{engine.label} forfeits at ply {ply}: {exc}"
            return _played(ballot, played, loss, said, engine.label)
        spent = time.monotonic() - began
        if clock is not None and not clock.spend(spent):
            said = f"{engine.label} lost on time at ply {ply}: {spent:.3g} s, over its clock"
            return _played(ballot, played, loss, said)
        try:
            move = parse_hub_move(text, position)
        except HubError:
            said = f"{engine.label} played {text or 'nothing'!r}, not a legal move"
            return _played(ballot, played, loss, said)
        played.append(move)
        position = position.play(move)
        drawn = watch.update(move, position, len(played)) if watch is not None else ()
        if drawn:
            return _played(ballot, played, Outcome.DRAW, f"adjudicated a draw: {drawn[0]}")


#: The other side's win.
_WINS = {Outcome.FIRST_WINS: Outcome.SECOND_WINS, Outcome.SECOND_WINS: Outcome.FIRST_WINS}


def _played(
    ballot: Ballot, played: list[Move], outcome: Outcome, termination: str, failed: str = ""
) -> Played:
    return Played(tuple(played[len(ballot.moves) :]), outcome, termination, failed)


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
    # Every value escaped as the writer escapes it: an engine names itself, and a name with
    # a quote or a line break must stay one tag's value, never a tag of its own.
    head = "".join(tag_line(name, value) for name, value in tags)
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


@dataclass(frozen=True, slots=True)
class Scheduled:
    """A round of a match: its number (from 1), its ballot, and which engine (0 or 1 of the
    commands) has the first mover's side."""

    number: int
    ballot: Ballot
    first: int


def schedule(
    deck: Sequence[Ballot], games: int, *, seed: int = 1, shuffle: bool = True
) -> list[Scheduled]:
    """The rounds of a match of ``games`` games over ``deck`` (in an order drawn by ``seed``
    unless ``shuffle`` is false): each ballot twice, the colours swapped.

    >>> deck = [Ballot(name, Position.start(ENGLISH)) for name in "ab"]
    >>> [(r.number, r.ballot.name, r.first) for r in schedule(deck, 3, shuffle=False)]
    [(1, 'a', 0), (2, 'a', 1), (3, 'b', 0)]
    """
    if not deck:
        raise ValueError("no opening to play")
    order = list(deck)
    if shuffle:
        random.Random(seed).shuffle(order)
    return [
        Scheduled(number + 1, order[(number // 2) % len(order)], number % 2)
        for number in range(games)
    ]


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
    limits: Limits | None = None,
    shuffle: bool = True,
    done: Mapping[int, Game] | None = None,
    warn: Callable[[str], None] | None = None,
    tables: Tables = True,
) -> Iterator[Game]:
    """Play ``games`` games between the two engines of ``commands`` (their programs), over
    ballots of ``deck`` drawn at random (``seed``; in their order when ``shuffle`` is
    false), each ballot twice with the colours swapped, under ``limits`` (else ``depth`` or
    ``movetime`` a move); yields each game's record as it ends. The engines are named as
    they name themselves, or by ``labels`` (how the user wrote them) when those names are
    the same.

    ``done`` holds the games of rounds already played (by round number, as a resumed match
    read them back): those rounds are not played again, and each must be the round this
    match would play there (its opening and its engines), else ``ValueError``. An engine
    that fails a game forfeits it, ``warn`` is told, and it is started again. ``tables``:
    the endgame tables that adjudicate (``True`` the data folder's, ``False`` none, or a
    folder; nothing when none is built).
    """
    if len(commands) != 2:
        raise ValueError("a match is between two engines")
    if limits is None:
        limits = Limits(depth=depth, movetime=movetime)
    rounds = schedule(deck, games, seed=seed, shuffle=shuffle)
    variant = rounds[0].ballot.start.variant
    probe = used_prober(variant, tables)
    level = limits.text()
    done = done or {}
    broken: set[str] = set()  # the engines to start again before the next game
    with HubClient(commands[0]) as one, HubClient(commands[1]) as two:
        names = [one.name or "engine 1", two.name or "engine 2"]
        if names[0] == names[1] and labels and labels[0] != labels[1]:
            names = list(labels)
        if names[0] == names[1]:
            names = [f"{names[0]} (1)", f"{names[1]} (2)"]
        engines = [
            Engine(names[0], one, commands[0]),
            Engine(names[1], two, commands[1]),
        ]
        try:
            for engine in engines:
                engine.client.set_variant(variant)
            for scheduled in rounds:
                pair = (engines[scheduled.first], engines[1 - scheduled.first])
                # The first engine of the pair has the first mover's side.
                if first_colour(variant) is Color.BLACK:
                    black, white = pair
                else:
                    white, black = pair
                if scheduled.number in done:
                    _check_round(done[scheduled.number], scheduled, black.label, white.label)
                    continue
                for engine in engines:
                    if engine.label in broken:
                        engine.restart(variant)
                broken.clear()
                played = play_game(
                    scheduled.ballot,
                    black,
                    white,
                    max_plies=max_plies,
                    limits=limits,
                    tables=probe,
                )
                if played.failed and warn is not None:
                    warn(f"round {scheduled.number}: {played.termination}")
                yield _record(
                    scheduled.ballot, played, black.label, white.label, scheduled.number, level
                )
                if played.failed:
                    broken.add(played.failed)
        finally:
            # A restarted engine's program is not the one the with statement closes.
            for engine, first_client in zip(engines, (one, two), strict=True):
                if engine.client is not first_client:
                    engine.client.__exit__()


def _check_round(game: Game, scheduled: Scheduled, black: str, white: str) -> None:
    """``ValueError`` when a game read back is not the round this match would play."""
    tags = game.tags
    found = (tags.get("Opening"), tags.get("Black"), tags.get("White"))
    wanted = (scheduled.ballot.name, black, white)
    if found != wanted:
        raise ValueError(
            f"round {scheduled.number} already played is {found[0]!r}, {found[1]!r} against "
            f"{found[2]!r}; this match plays {wanted[0]!r}, {wanted[1]!r} against {wanted[2]!r} "
            "there: resume with the same openings, --games, --seed and engines"
        )


def rounds_played(games: Iterable[Game]) -> dict[int, Game]:
    """The finished games of a match read back, by round number: a game with no result, or
    no readable ``Round`` (an interrupted write), is left out to be played again."""
    out: dict[int, Game] = {}
    for game in games:
        number = (game.tags.get("Round") or "").strip()
        if not number.isdigit() or parse_result(game.tags.get("Result")) is Outcome.UNKNOWN:
            continue
        if not game.tags.get("Termination"):
            continue
        out.setdefault(int(number), game)
    return out


def match_elo(games: Iterable[Game]) -> tuple[str, str, EloDifference] | None:
    """The Elo difference of a two-engine match from its records: the engine that scored
    more first (``None`` without a finished game, or with more than two players)."""
    points: dict[str, list[int]] = {}  # wins, draws, losses
    for game in games:
        tags = game.tags
        outcome = parse_result(tags.get("Result"))
        black, white = tags.get("Black") or "?", tags.get("White") or "?"
        first_is_black = first_mover(None, game_type_of(tags.get("GameType"))) == "B"
        first, second = (black, white) if first_is_black else (white, black)
        for name in (first, second):
            points.setdefault(name, [0, 0, 0])
        if outcome is Outcome.FIRST_WINS:
            points[first][0] += 1
            points[second][2] += 1
        elif outcome is Outcome.SECOND_WINS:
            points[second][0] += 1
            points[first][2] += 1
        elif outcome is Outcome.DRAW:
            points[first][1] += 1
            points[second][1] += 1
    if len(points) != 2:
        return None
    (a, (wins, draws, losses)), (b, _) = sorted(
        points.items(), key=lambda item: (-(2 * item[1][0] + item[1][1]), item[0])
    )
    if wins + draws + losses == 0:
        return None
    return a, b, elo_difference(wins, draws, losses)
