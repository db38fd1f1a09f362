"""Openings of English checkers games: ACF three-move ballots, two-move openings, 11-man ballots.

A game is classified by the *position* after its first three plies (side to move included), never
by the written moves, so transpositions land on the right ballot: ``11-15 22-17 9-14`` reaches
the position the ACF lists as #38, ``9-14 22-17 11-15``.

>>> from pdn.engine import ENGLISH, Position
>>> def replay(moves):
...     pos, out = Position.start(ENGLISH), []
...     for text in moves.split():
...         pos = pos.play(next(m for m in pos.legal_moves() if m.notation() == text))
...         out.append(pos)
...     return out
>>> opening = classify_positions(Position.start(ENGLISH), replay("11-15 22-17 9-14"))
>>> opening.kind, opening.number, opening.moves, opening.transposed
('ballot', 38, '9-14 22-17 11-15', True)
>>> opening.label
'ACF 38: 9-14 22-17 11-15 (transposed)'

Data (package data in ``pdn/data/``, read once): ``three_move_deck.csv`` (the 174 numbered
ballots), ``three_move_positions.csv`` (all 216 positions after three plies, 42 of them not in
the ACF list), ``two_move.csv`` (the 49 two-ply openings) and ``eleven_man_english.csv`` (2,400
11-man ballot positions). See ``pdn/data/README.md`` for where they come from.
"""

from __future__ import annotations

import csv
import functools
import io
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal

from pdn.engine import ENGLISH, Color, Position
from pdn.text.results import Outcome, parse_result, scores

if TYPE_CHECKING:
    from pdn.game.model import Game

    from .validation import Report

__all__ = [
    "BallotStats",
    "Kind",
    "Opening",
    "Status",
    "ThreeMove",
    "TwoMove",
    "ballot",
    "ballot_stats",
    "ballots",
    "classify",
    "classify_positions",
    "compact_fen",
    "eleven_man_fens",
    "position_name",
    "three_move_positions",
    "two_move_openings",
]

Kind = Literal["ballot", "other", "eleven-man", "setup", "short", "illegal", "not-english"]
Status = Literal["standard", "barred"]

#: The plies a classification reads: the ACF opening is three plies (Black, White, Black).
BALLOT_PLIES = 3


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class TwoMove:
    """One of the 49 two-ply openings (Black's first move and White's reply).

    ``status`` is ``"barred"`` for the six pairs left off the historical 43-opening two-move
    list (two lose a man at once, four force an exchange), with the ``reason``.
    """

    number: int
    moves: str
    name: str | None
    status: Status
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ThreeMove:
    """One of the 216 positions after three plies, and what the ACF list says about it.

    ``number`` is the ACF ballot number 1-174 (``None`` for the 42 positions the list leaves
    out, whose ``status`` is ``"other"``); ``moves`` is the order the ACF lists it under;
    ``move_orders`` every three-ply order that reaches the position.
    """

    number: int | None
    moves: str | None
    name: str | None
    status: Literal["standard", "barred", "other"]
    move_orders: tuple[str, ...]
    fen: str
    note: str


@dataclass(frozen=True, slots=True)
class Opening:
    """What a game's first plies say about its opening.

    ``kind`` is one of:

    * ``"ballot"``: an ACF three-move ballot; ``number`` (1-174), ``moves`` (the ACF order),
      ``name``, ``status`` (``standard`` or ``barred``) and ``transposed`` (the game reached it
      by another order than the listed one) are set;
    * ``"other"``: a position after three plies that the ACF list leaves out (``move_orders``);
    * ``"eleven-man"``: the game starts from 11-man ballot ``number``;
    * ``"setup"``: the game starts from some other position (``fen``), or a position inside
      the first three plies does not follow from the one before it;
    * ``"short"``: fewer than three plies were played;
    * ``"illegal"``: the move at game ply ``ply`` (1-based) is illegal or could not be replayed,
      so the opening is not classified;
    * ``"not-english"``: another variant, which has no ACF ballots.

    ``played`` is the game's own opening plies (up to three) as the engine writes them; for a
    game set up after ply 1 or 2 the plies before the setup are included, since each such
    position comes from exactly one move order. ``two_move`` is set whenever the position after
    two plies is known. ``fen`` is the position after three plies (ballot, other) or the start
    (eleven-man, setup).
    """

    kind: Kind
    number: int | None = None
    moves: str | None = None
    name: str | None = None
    status: Status | None = None
    transposed: bool = False
    played: str | None = None
    move_orders: tuple[str, ...] = ()
    two_move: TwoMove | None = None
    ply: int | None = None
    fen: str | None = None
    note: str | None = None

    @property
    def label(self) -> str:
        """A one-line description, e.g. ``"ACF 3: 9-13 21-17 10-14 [barred]"``.

        >>> Opening("eleven-man", number=17).label
        '11-man ballot 17'
        """
        if self.kind == "ballot":
            name = f" {self.name}" if self.name else ""
            barred = " [barred]" if self.status == "barred" else ""
            transposed = " (transposed)" if self.transposed else ""
            return f"ACF {self.number}{name}: {self.moves}{barred}{transposed}"
        if self.kind == "other":
            order = self.played or (self.move_orders[0] if self.move_orders else "")
            return f"other: {order}".rstrip(": ")
        if self.kind == "eleven-man":
            return f"11-man ballot {self.number}"
        if self.kind == "short":
            return f"short: {self.played}" if self.played else "short"
        if self.kind == "illegal":
            return f"illegal move at ply {self.ply}"
        if self.kind == "not-english":
            return "not English"
        return "setup"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary with every field and the :attr:`label`."""
        return {
            "kind": self.kind,
            "label": self.label,
            "number": self.number,
            "moves": self.moves,
            "name": self.name,
            "status": self.status,
            "transposed": self.transposed if self.kind == "ballot" else None,
            "played": self.played,
            "move_orders": list(self.move_orders),
            "two_move": self.two_move.to_dict() if self.two_move is not None else None,
            "ply": self.ply,
            "fen": self.fen,
            "note": self.note,
        }


# ----------------------------------------------------------------------------- data


def _read_csv(name: str) -> list[dict[str, str]]:
    text = (resources.files("pdn") / "data" / name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def _status(text: str) -> Status:
    # The reference data says "lost" (the ACF's "probably lost" openings); users know them as
    # barred, which is also what the two-move list did with its six.
    return "standard" if text == "standard" else "barred"


@dataclass(frozen=True, slots=True)
class _Tables:
    start: Position
    # Positions at plies 0, 1 and 2 from the start, each with the line of positions leading to
    # it: every one of them comes from exactly one move order.
    lines: dict[Position, tuple[Position, ...]]
    # The engine's notation of the one move from a position at ply 0-2 to a child of it.
    edges: dict[tuple[Position, Position], str]
    three: dict[Position, ThreeMove]
    by_number: dict[int, ThreeMove]
    two: dict[Position, TwoMove]
    # The position after ply 2 of each ballot's ACF order, to tell transpositions.
    listed_ply2: dict[int, Position]


@functools.cache
def _tables() -> _Tables:
    start = Position.start(ENGLISH)
    lines: dict[Position, tuple[Position, ...]] = {start: (start,)}
    edges: dict[tuple[Position, Position], str] = {}
    children: dict[Position, dict[str, Position]] = {}
    frontier = [start]
    for _ in range(BALLOT_PLIES):
        following: list[Position] = []
        for position in frontier:
            for move in position.legal_moves():
                child = position.play(move)
                edges[(position, child)] = move.notation()
                children.setdefault(position, {})[move.notation()] = child
                if child not in lines:
                    lines[child] = (*lines[position], child)
                    following.append(child)
        frontier = following
    # Plies 0-2 only: a position after ply 3 is looked up in the ballot table instead.
    lines = {position: line for position, line in lines.items() if len(line) <= BALLOT_PLIES}

    names = {int(row["number"]): row["name"] or None for row in _read_csv("three_move_deck.csv")}
    three: dict[Position, ThreeMove] = {}
    by_number: dict[int, ThreeMove] = {}
    listed_ply2: dict[int, Position] = {}
    for row in _read_csv("three_move_positions.csv"):
        number = int(row["acf_number"]) if row["acf_number"] else None
        status: Literal["standard", "barred", "other"] = (
            "other" if row["status"] == "other" else _status(row["status"])
        )
        entry = ThreeMove(
            number=number,
            moves=row["acf_listed_order"] or None,
            name=names.get(number) if number is not None else None,
            status=status,
            move_orders=tuple(o.strip() for o in row["all_move_orders"].split("|")),
            fen=row["fen_after_ply3"],
            note=row["note"],
        )
        three[Position.from_fen(entry.fen, ENGLISH)] = entry
        if number is not None:
            by_number[number] = entry
            position = start
            for token in (entry.moves or "").split()[:2]:
                position = children.get(position, {}).get(token, position)
            listed_ply2[number] = position

    two: dict[Position, TwoMove] = {}
    for row in _read_csv("two_move.csv"):
        two[Position.from_fen(row["fen_after_ply2"], ENGLISH)] = TwoMove(
            number=int(row["number"]),
            moves=row["moves"],
            name=row["name"] or None,
            status=_status(row["status"]),
            reason=row["reason"] or None,
        )
    return _Tables(start, lines, edges, three, by_number, two, listed_ply2)


@functools.cache
def _eleven_man() -> tuple[tuple[str, ...], dict[Position, int]]:
    fens = tuple(row["fen"] for row in _read_csv("eleven_man_english.csv"))
    index = {Position.from_fen(fen, ENGLISH): number for number, fen in enumerate(fens, 1)}
    return fens, index


def ballots() -> tuple[ThreeMove, ...]:
    """The 174 ACF three-move ballots in ACF order (#1 first), barred ones included.

    >>> b = ballots()
    >>> len(b), b[2].moves, b[2].status
    (174, '9-13 21-17 10-14', 'barred')
    """
    by_number = _tables().by_number
    return tuple(by_number[n] for n in sorted(by_number))


def ballot(number: int) -> ThreeMove:
    """ACF ballot ``number`` (1-174); ``KeyError`` for any other number.

    >>> ballot(174).name
    'Skunk'
    """
    try:
        return _tables().by_number[number]
    except KeyError:
        raise KeyError(f"there is no ACF ballot {number}; they are numbered 1-174") from None


def three_move_positions() -> tuple[ThreeMove, ...]:
    """All 216 positions after three plies: the 174 ballots, then the 42 ``other`` ones."""
    return tuple(_tables().three.values())


def two_move_openings() -> tuple[TwoMove, ...]:
    """The 49 two-ply openings in their usual order (9-13 21-17 first)."""
    return tuple(sorted(_tables().two.values(), key=lambda t: t.number))


def eleven_man_fens() -> tuple[str, ...]:
    """The 2,400 English 11-man ballot positions (Black to move); ballot N is item N - 1."""
    return _eleven_man()[0]


def compact_fen(position: Position) -> str:
    """The FEN with squares ascending and runs of three or more men written as ranges.

    >>> compact_fen(Position.start(ENGLISH))
    'B:W21-32:B1-12'
    >>> compact_fen(Position.from_fen("W:W9,10,K11,12,13,14:B3,1,2,4", ENGLISH))
    'W:W9,10,K11,12-14:B1-4'
    """
    pieces = position.pieces()
    sections = []
    for letter, color in (("W", Color.WHITE), ("B", Color.BLACK)):
        squares = [s for s, piece in pieces.items() if piece.color is color]
        kings = {s for s in squares if pieces[s].king}
        sections.append(letter + ",".join(_square_items(squares, kings)))
    return f"{position.turn.letter}:{sections[0]}:{sections[1]}"


def _square_items(squares: Sequence[int], kings: set[int]) -> list[str]:
    items: list[str] = []
    i = 0
    while i < len(squares):
        first = squares[i]
        if first in kings:
            items.append(f"K{first}")
            i += 1
            continue
        j = i
        while (
            j + 1 < len(squares)
            and squares[j + 1] == squares[j] + 1
            and squares[j + 1] not in kings
        ):
            j += 1
        # Two adjacent squares stay a list: "9,10" is as short as "9-10" and reads plainer.
        if j - i >= 2:
            items.append(f"{first}-{squares[j]}")
            i = j + 1
        else:
            items.append(str(first))
            i += 1
    return items


# ----------------------------------------------------------------------------- classification


def position_name(position: Position) -> str | None:
    """The name of an English position that opens games: the ACF ballot of a position after
    three plies from the start, or the two-move opening of one after two; ``None`` for any
    other position (and in every other variant).

    >>> start = Position.start(ENGLISH)
    >>> line = [m for m in start.legal_moves() if m.notation() == "11-15"]
    >>> position_name(start.play(line[0])) is None
    True
    >>> position_name(Position.from_fen(ballot(1).fen, ENGLISH))
    'ACF 1: 9-13 21-17 5-9'
    """
    if position.variant.name != ENGLISH.name or position.king_moves != (0, 0, 0, 0):
        return None
    tables = _tables()
    three = tables.three.get(position)
    if three is not None:
        if three.number is None:
            return f"other three-move opening: {three.move_orders[0]}"
        return Opening(
            "ballot",
            number=three.number,
            moves=three.moves,
            name=three.name,
            status=three.status if three.status != "other" else None,
        ).label
    two = tables.two.get(position)
    if two is not None:
        return f"two-move {two.number}: {two.moves}" + (f" {two.name}" if two.name else "")
    return None


def classify_positions(
    start: Position,
    after: Sequence[Position],
    first_plies_text: Sequence[str] = (),
    illegal_ply: int | None = None,
) -> Opening:
    """Classify an opening from positions: ``after[i]`` is the position after game ply ``i + 1``.

    ``after`` holds the mainline positions that were legally replayed (more than three are
    ignored). ``first_plies_text`` is the written moves of the first plies, for messages.
    ``illegal_ply`` is the 1-based game ply of the first illegal move, if any; positions from
    that ply on are not used.

    The start decides how many plies the game itself must supply: none when it is a position
    after three plies (a ballot diagram), one or two when it is a position after ply 2 or 1,
    three from the standard start. Any other start is an 11-man ballot or a ``setup``.

    >>> from pdn.engine import ENGLISH, Position
    >>> classify_positions(Position.start(ENGLISH), []).kind
    'short'
    >>> fen = "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,11,12,13,14"
    >>> classify_positions(Position.from_fen(fen, ENGLISH), []).label
    'ACF 3: 9-13 21-17 10-14 [barred]'
    """
    if start.variant.name != ENGLISH.name:
        return Opening("not-english", note=f"{start.variant.name}: no ACF ballots")
    tables = _tables()
    entry = tables.three.get(start)
    if entry is not None:
        return _from_entry(entry, None, None, None)
    line = tables.lines.get(start)
    if line is None:
        number = _eleven_man()[1].get(start)
        if number is not None:
            return Opening("eleven-man", number=number, fen=start.fen())
        return Opening("setup", fen=start.fen())

    offset = len(line) - 1
    needed = BALLOT_PLIES - offset
    illegal = illegal_ply is not None and 1 <= illegal_ply <= needed
    usable = after[: illegal_ply - 1] if illegal and illegal_ply is not None else after
    sequence = [*line, *usable[:needed]]

    moves: list[str] = []
    for ply, (before, following) in enumerate(itertools.pairwise(sequence), 1):
        text = tables.edges.get((before, following))
        if text is None:
            # Only a setup command inside the opening can put a position here that no move of
            # the one before reaches; then the ballot is not the game's to claim.
            return Opening(
                "setup",
                played=" ".join(moves) or None,
                ply=ply - offset,
                fen=following.fen(),
                note=f"the position after ply {ply - offset} does not follow from the one before",
            )
        moves.append(text)

    played = " ".join(moves) or None
    two_move = tables.two.get(sequence[2]) if len(sequence) > 2 else None
    if illegal:
        assert illegal_ply is not None
        written = (
            first_plies_text[illegal_ply - 1] if len(first_plies_text) >= illegal_ply else None
        )
        note = f"illegal move {written} at ply {illegal_ply}" if written else None
        return Opening("illegal", played=played, two_move=two_move, ply=illegal_ply, note=note)
    if len(sequence) <= BALLOT_PLIES:
        return Opening("short", played=played, two_move=two_move)
    final = sequence[BALLOT_PLIES]
    return _from_entry(tables.three[final], played, sequence[2], two_move)


def _from_entry(
    entry: ThreeMove, played: str | None, ply2: Position | None, two_move: TwoMove | None
) -> Opening:
    if entry.number is None:
        return Opening(
            "other", played=played, move_orders=entry.move_orders, two_move=two_move, fen=entry.fen
        )
    listed = _tables().listed_ply2.get(entry.number)
    return Opening(
        "ballot",
        number=entry.number,
        moves=entry.moves,
        name=entry.name,
        status=entry.status if entry.status != "other" else None,
        transposed=ply2 is not None and ply2 != listed,
        played=played,
        move_orders=entry.move_orders,
        two_move=two_move,
        fen=entry.fen,
    )


def classify(game: Game, report: Report | None = None) -> Opening:
    """Classify a game's opening from its validation report (validated here if not given).

    Uses the report's start position, the mainline positions after plies 1-3 and the first
    error on the mainline within those plies. A setup command before the first move counts as
    the start; a move that could not be replayed (written as unknown, say) counts as illegal.

    >>> import pdn
    >>> classify(pdn.parse_game("1. 9-13 21-17 2. 10-14 *")).label
    'ACF 3: 9-13 21-17 10-14 [barred]'
    """
    if report is None:
        # validate imports the reader's model; importing it lazily keeps this module usable
        # (and importable) on its own.
        from .validation import validate

        report = validate(game)
    variant = report.variant
    if variant is None or variant.name != ENGLISH.name:
        name = variant.name if variant is not None else (game.variant or "unknown variant")
        return Opening("not-english", note=f"{name}: no ACF ballots")
    start = report.start
    if start is None:
        return Opening("setup", fen=game.fen, note="the FEN cannot be read")

    errors = {
        (p.ply, p.line, p.column)
        for p in report.problems
        if p.severity == "error" and p.ply is not None and p.ply <= BALLOT_PLIES
    }
    after: list[Position] = []
    texts: list[str] = []
    illegal: int | None = None
    for step in report.mainline_steps():
        if step.ply > BALLOT_PLIES:
            break
        node = step.node
        if node.move is None:
            # A setup command: before the first move it is the start; later it shows up as a
            # position that does not follow from the one before.
            if step.after is None:
                return Opening("setup", fen=node.setup, note="the setup FEN cannot be read")
            if not texts:
                start = step.after
            continue
        texts.append(node.move)
        if step.after is None or (step.ply, node.line, node.column) in errors:
            illegal = step.ply
            break
        after.append(step.after)
    return classify_positions(start, after, texts, illegal)


# ----------------------------------------------------------------------------- statistics


@dataclass(frozen=True, slots=True)
class BallotStats:
    """Results of the games played on one ACF ballot, counted from the first mover's side.

    ``score`` is the first mover's (Black's) points per scored game as a percentage (win 1,
    draw ½, double loss 0), ``None`` when no game has a known result.
    """

    number: int
    moves: str
    name: str | None
    status: Status
    games: int = 0
    first_wins: int = 0
    second_wins: int = 0
    draws: int = 0
    both_lose: int = 0
    unknown: int = 0
    score: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        data = asdict(self)
        data["score"] = None if self.score is None else round(self.score, 2)
        return data


def ballot_stats(
    openings_and_results: Iterable[tuple[Opening, str | Outcome | None]],
    *,
    include_unplayed: bool = False,
) -> list[BallotStats]:
    """Per-ballot results, ordered by ballot number; games that are not ballots are skipped.

    A result is a PDN result string (read with :func:`pdn.text.results.parse_result`) or an
    :class:`~pdn.text.results.Outcome`. ``include_unplayed`` adds a zero row for every ballot no
    game reached.

    >>> b3 = Opening("ballot", number=3, moves="9-13 21-17 10-14", status="barred")
    >>> [stats] = ballot_stats([(b3, "1-0"), (b3, "1/2-1/2"), (b3, "*")])
    >>> stats.games, stats.first_wins, stats.draws, stats.unknown, stats.score
    (3, 1, 1, 1, 75.0)
    """
    counts: dict[int, dict[Outcome, int]] = {}
    for opening, result in openings_and_results:
        if opening.kind != "ballot" or opening.number is None:
            continue
        outcome = result if isinstance(result, Outcome) else parse_result(result)
        tally = counts.setdefault(opening.number, {})
        tally[outcome] = tally.get(outcome, 0) + 1
    numbers = sorted(_tables().by_number if include_unplayed else counts)
    out: list[BallotStats] = []
    for number in numbers:
        entry = ballot(number)
        tally = counts.get(number, {})
        points = scored = 0.0
        for outcome, count in tally.items():
            pair = scores(outcome)
            if pair is not None:
                points += pair[0] * count
                scored += count
        out.append(
            BallotStats(
                number=number,
                moves=entry.moves or "",
                name=entry.name,
                status="barred" if entry.status == "barred" else "standard",
                games=sum(tally.values()),
                first_wins=tally.get(Outcome.FIRST_WINS, 0),
                second_wins=tally.get(Outcome.SECOND_WINS, 0),
                draws=tally.get(Outcome.DRAW, 0),
                both_lose=tally.get(Outcome.BOTH_LOSE, 0),
                unknown=tally.get(Outcome.UNKNOWN, 0),
                score=100.0 * points / scored if scored else None,
            )
        )
    return out
