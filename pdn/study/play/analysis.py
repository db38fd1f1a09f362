"""A game analysed by an engine (pdn's own by default): each mainline move valued against the
best one.

For every legal move of the mainline, every legal move of the position before it is valued by
the engine (:mod:`pdn.engine`'s search, with the draw rules of the game's federation:
:func:`pdn.study.play.hub.search_for`), as ``-search(child, depth - 1)``, one search kept across the
game
so that its table serves the next ply. The best value is the value of the position, exactly
as a search of ``depth`` plies would give it, and the move played is valued from the same
list: the verdicts do not depend on the order the moves were searched in, nor on the table.

Values are in hundredths of a man, from the side to move's view (a man is 100; a forced win
found in ``n`` plies is ``1_000_000 - n``, a loss the opposite). ``loss`` is the best value
less the value of the move played. The verdicts:

* ``blunder`` (NAG ``$4``, ``??``): the move loses :data:`BLUNDER` (90, about a man) or more;
* ``mistake`` (``$2``, ``?``): it loses :data:`MISTAKE` (40) or more, less than a blunder;
* ``missed shot``: no capture was pending, the best move wins at least :data:`SHOT` (90)
  over the position's static value (a man won by force, seen in the search), and the move
  played loses at least :data:`MISTAKE` against it;
* ``only move``: the move played is the one move that does not lose :data:`ONLY` (90) or
  more against the best, among two or more legal moves.

A verdict is given only when the search stands by it (:func:`pdn.study.play.judgement.judge`,
the one function for every engine): it holds at the last two depths completed (``d`` and
``d - 1``), or the loss is proven (the move played is a forced loss and the best is not).
Otherwise the move is ``unclear`` (in JSON, with what the last depth alone claimed), and
gets no NAG nor comment.
Where the endgame tables built by ``pdn endgame build`` hold a position (the data folder's,
or another: ``tables``), the search takes their exact values, and what they prove is said
whatever the engine (:func:`pdn.study.play.judgement.by_the_tables`): a move that ``throws away a
win`` or ``throws away a draw`` (NAG ``$4``), one that ``misses a win`` the tables hold, and
a result the game's last position contradicts (:attr:`GameAnalysis.contradiction`); these
stand at any depth. Without tables nothing of this is said, and the values are the search's.
The moves may be valued by an outside engine instead (:mod:`pdn.study.play.evaluators`: any
program speaking the Hub protocol, ``pdn analyse --engine``), judged the same way.

A move that is the only legal one is not judged (there was no choice). The turning point of a
game is its ply of the largest loss (the largest swing against the side that moved).

>>> import pdn
>>> game = pdn.parse_game('[FEN "B:W19,20,21,23,27,28,29,30,32:B2,3,4,6,7,8,11,12,14"] 1. 14-18 *')
>>> report = pdn.validate(game)
>>> ply = analyse_game(game, report, depth=3).plies[0]
>>> ply.best, ply.verdicts
('11-16', ('blunder', 'missed shot'))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from pdn.collections.batch import (
    Input,
    WorkerDiedError,
    map_games,
    named_games,
    process_pool,
    usable_cores,
)
from pdn.engine import Color, Move, Position, Prober, Variant, evaluate
from pdn.game.gametype import first_colour
from pdn.game.model import Game, Node
from pdn.rules.replays import Replays, replay_of
from pdn.rules.validation import Report
from pdn.text.notation import move_texts
from pdn.text.problems import Problem
from pdn.writing.writer import write_game

from .endgame import Tables, used_prober
from .evaluators import Evaluator, OwnSearch, Place, end_of
from .hub import HubError
from .judgement import (
    BLUNDER,
    MISTAKE,
    ONLY,
    SHOT,
    TABLE_VERDICTS,
    VERDICTS,
    by_the_tables,
    judge,
    result_against_tables,
)

if (
    TYPE_CHECKING
):  # given on use, by __getattr__ below: pdn.study.play.analysis_record builds on this
    from .analysis_record import annotate_with_analysis, forget_analysis, ply_note

__all__ = [
    "BLUNDER",
    "DEPTH",
    "MISTAKE",
    "ONLY",
    "SHOT",
    "AnalysisStopped",
    "GameAnalysis",
    "PlyAnalysis",
    "Summary",
    "analyse_files",
    "analyse_game",
    "annotate_with_analysis",
    "forget_analysis",
    "judge",
    "ply_note",
    "value_text",
]

#: The depth used when none is given: a 60-ply English game in about 20 s, pure build (depth
#: 9 takes twice as long).
DEPTH = 8

#: The NAG of each verdict that has one.
NAGS = {"blunder": 4, "mistake": 2, **dict.fromkeys(TABLE_VERDICTS, 4)}
#: The tables' verdicts as the summary counts them.
_TABLE_COUNTED = {
    "throws away a win": ("win thrown away", "wins thrown away"),
    "throws away a draw": ("draw thrown away", "draws thrown away"),
    "misses a win": ("win missed", "wins missed"),
}
#: NAGs that already judge a move (good, poor, very good, very poor, speculative, dubious).
_JUDGED = frozenset(range(1, 7))


def value_text(value: int) -> str:
    """A value as the analysis writes it: men with a sign, or a forced end in plies.

    >>> value_text(120), value_text(-5), value_text(0), value_text(999_993), value_text(-999_996)
    ('+1.20', '-0.05', '0.00', 'win in 7', 'loss in 4')
    """
    end = end_of(value)
    if end is not None:
        return f"win in {end}" if end > 0 else f"loss in {-end}"
    if value == 0:
        return "0.00"
    return f"{value / 100:+.2f}"


class AnalysisStopped(Exception):
    """An outside engine failed (stopped, hung, answered garbage or an illegal move): the
    message says the game and the ply."""


@dataclass(slots=True)
class PlyAnalysis:
    """One mainline move analysed: ``ply`` (1 for the first move of the game), ``order`` its
    node's place in written order (as :meth:`pdn.game.model.Game.walk` counts), ``number`` the move
    number a variation at it is written with (``"12."``, ``"12..."``), ``side`` (``"Black"``,
    ``"White"``), ``played`` the move as written, ``best`` the engine's best move and ``line``
    its expected line (written in the variant's notation), ``before`` the value of the
    position (the best move's), ``after`` the value of the move played, both for the side
    that moved, ``legal`` the number of legal moves, ``depth`` the depth searched, ``fen`` the
    position before the move, and ``verdicts`` (see the module; ``unclear`` when the last
    depth alone claims one); ``previous`` the values ``before`` and ``after`` at the depth
    before (``None``: none done), ``unclear`` what the last depth alone claims; ``table``
    what the endgame tables prove (``verdict``, ``after``: the move played's value such as
    ``"draw"``, ``best`` and ``best_value`` such as ``"win in 31"``), ``None`` when
    nothing."""

    ply: int
    order: int
    number: str
    side: str
    played: str
    best: str
    line: tuple[str, ...]
    before: int
    after: int
    legal: int
    depth: int
    fen: str
    verdicts: tuple[str, ...] = ()
    previous: tuple[int, int] | None = None
    unclear: tuple[str, ...] = ()
    table: dict[str, str] | None = None

    @property
    def loss(self) -> int:
        """What the move played loses against the best (0 when it is one of the best)."""
        return self.before - self.after

    @property
    def nag(self) -> int | None:
        """The NAG of the verdict (``$4`` a blunder, ``$2`` a mistake), or ``None``."""
        return next((NAGS[v] for v in self.verdicts if v in NAGS), None)

    @property
    def white_after(self) -> int:
        """The value after the move from White's view (what a graph of the game draws)."""
        return self.after if self.side == "White" else -self.after

    def to_dict(self) -> dict[str, object]:
        """The figures as JSON takes them (``pdn-json/1``, ``docs/json.md``)."""
        return {
            "ply": self.ply,
            "number": self.number,
            "side": self.side,
            "played": self.played,
            "best": self.best,
            "line": list(self.line),
            "before": self.before,
            "after": self.after,
            "loss": self.loss,
            "white_after": self.white_after,
            "legal": self.legal,
            "depth": self.depth,
            "fen": self.fen,
            "verdicts": list(self.verdicts),
            "unclear": list(self.unclear),
            "table": None if self.table is None else dict(self.table),
            "previous": None
            if self.previous is None
            else {"before": self.previous[0], "after": self.previous[1]},
        }


@dataclass(slots=True)
class Summary:
    """The verdicts of a game counted per side (``{"Black": n, "White": n}``), and its turning
    point: the ply of the largest loss, ``None`` when no move lost anything."""

    blunders: dict[str, int]
    mistakes: dict[str, int]
    missed_shots: dict[str, int]
    only_moves: dict[str, int]
    turning_point: PlyAnalysis | None
    unclear: dict[str, int] = field(default_factory=lambda: {"Black": 0, "White": 0})
    #: The endgame tables' verdicts counted per side: ``{"throws away a win": {...}}``.
    tables: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """The summary as JSON takes it (the turning point as its ply)."""
        turning = self.turning_point
        return {
            "blunders": dict(self.blunders),
            "mistakes": dict(self.mistakes),
            "missed_shots": dict(self.missed_shots),
            "only_moves": dict(self.only_moves),
            "unclear": dict(self.unclear),
            "tables": {name: dict(sides) for name, sides in self.tables.items()},
            "turning_point": None if turning is None else turning.ply,
        }

    def text(self) -> str:
        """One line: the counts per side and the turning point."""
        parts = []
        for side in ("Black", "White"):
            counts = [
                _counted(self.blunders[side], "blunder"),
                _counted(self.mistakes[side], "mistake"),
            ]
            if self.missed_shots[side]:
                counts.append(_counted(self.missed_shots[side], "missed shot"))
            if self.unclear[side]:
                counts.append(f"{self.unclear[side]} unclear")
            for name, sides in self.tables.items():
                if sides[side]:
                    one, many = _TABLE_COUNTED[name]
                    counts.append(f"{sides[side]} {one if sides[side] == 1 else many}")
            parts.append(f"{side} {', '.join(counts)}")
        turning = self.turning_point
        if turning is not None:
            parts.append(f"turning point {turning.number} {turning.played}")
        return "; ".join(parts)


def _counted(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass(slots=True)
class GameAnalysis:
    """A game analysed: where it is (``file``, ``index``, ``line``), its ``tags``, the rules
    it was replayed under (``variant``, ``None`` when it could not be), the ``depth`` or
    ``movetime`` asked, its analysed ``plies`` and whether they reach the end of its mainline
    (``complete``: not when an illegal move stops the replay, nor when the game could not be
    replayed at all)."""

    file: str
    index: int
    line: int
    tags: list[tuple[str, str]]
    variant: str | None
    depth: int | None
    movetime: float | None
    plies: list[PlyAnalysis] = field(default_factory=list)
    complete: bool = True
    #: The input was not PDN at all (its one game says so): nothing to analyse or write.
    not_pdn: Problem | None = None
    #: The game's reading errors (the game is analysed as far as it was read and is legal).
    errors: tuple[Problem, ...] = ()
    #: The mainline plies gone through (forced ones too, which are not judged): what a
    #: progress bar counts.
    moves: int = 0
    #: The engine, when not pdn's own search: its name, version and settings in words ...
    engine: str = ""
    #: ... and as the engine said them (JSON's ``engine``).
    settings: dict[str, str] = field(default_factory=lambda: {"name": "pdn"})
    #: The sentence saying the game's result contradicts the endgame tables (``""``: it
    #: does not, or no table holds the game's last position), and the ply it is said at.
    contradiction: str = ""
    contradiction_ply: int = 0

    def summary(self) -> Summary:
        """The verdicts counted per side, and the turning point."""
        counts: dict[str, dict[str, int]] = {
            name: {"Black": 0, "White": 0} for name in (*VERDICTS, *TABLE_VERDICTS, "unclear")
        }
        turning: PlyAnalysis | None = None
        for ply in self.plies:
            for verdict in ply.verdicts:
                counts[verdict][ply.side] += 1
            if ply.loss > 0 and (turning is None or ply.loss > turning.loss):
                turning = ply
        return Summary(
            counts["blunder"],
            counts["mistake"],
            counts["missed shot"],
            counts["only move"],
            turning,
            counts["unclear"],
            {name: counts[name] for name in TABLE_VERDICTS if any(counts[name].values())},
        )

    @property
    def level(self) -> str:
        """The search asked, in words (``"depth 8"``, ``"0.5 s a move"``)."""
        if self.movetime is not None:
            return f"{self.movetime:g} s a move"
        return f"depth {self.depth}"

    @property
    def annotator(self) -> str:
        """Who analysed, as the ``Annotator`` tag says it (``"pdn analyse, depth 8"``,
        ``"pdn analyse, Scan 3.1 (variant=normal), depth 8"``)."""
        engine = f"{self.engine}, " if self.engine else ""
        return f"pdn analyse, {engine}{self.level}"

    def to_dict(self) -> dict[str, object]:
        """The analysis as JSON takes it (``pdn-json/1``, ``docs/json.md``)."""
        return {
            "file": self.file,
            "index": self.index,
            "line": self.line,
            "tags": [list(pair) for pair in self.tags],
            "variant": self.variant,
            "depth": self.depth,
            "movetime": self.movetime,
            "engine": dict(self.settings),
            "complete": self.complete,
            "contradiction": self.contradiction or None,
            "summary": self.summary().to_dict(),
            "plies": [ply.to_dict() for ply in self.plies],
        }


def _texts(position: Position, line: Iterable[Move], variant: Variant) -> tuple[str, ...]:
    """A line of moves from ``position`` written in ``variant``'s notation."""
    texts: list[str] = []
    for move in line:
        legal = position.legal_moves(merge_duplicates=True)
        if move not in legal:
            break  # a table's line may go past a position it no longer fits
        texts.append(move_texts(legal, variant)[legal.index(move)])
        position = position.play(move)
    return tuple(texts)


def analyse_game(
    game: Game,
    report: Report,
    *,
    depth: int | None = None,
    movetime: float | None = None,
    file: str = "",
    on_plies: Callable[[int], None] | None = None,
    evaluator: Evaluator | None = None,
    tables: Tables = True,
) -> GameAnalysis:
    """Analyse the mainline of ``game`` as replayed in ``report`` (the one replay:
    :meth:`pdn.rules.replays.Replays.of`), each legal move against the best at ``depth`` plies
    (default :data:`DEPTH`), or at the deepest depth done in ``movetime`` seconds a move,
    by ``evaluator`` (default pdn's own search, :class:`~pdn.study.play.evaluators.OwnSearch`).
    ``file`` is only recorded; ``on_plies(1)`` is called after each mainline ply (a progress
    bar's). The analysis stops at the first illegal move. An outside engine that fails raises
    :class:`AnalysisStopped`, saying the game and the ply. ``tables``: the endgame tables
    used (:data:`Tables`; the data folder's by default, when any are built there)."""
    if depth is not None and movetime is not None:
        raise ValueError("give a depth or a time, not both")
    if depth is None and movetime is None:
        depth = DEPTH
    if depth is not None and depth < 1:
        raise ValueError("the depth must be at least 1")
    variant = report.variant
    probe = used_prober(variant, tables) if variant is not None else None
    engine = OwnSearch(prober=probe) if evaluator is None else evaluator
    found = GameAnalysis(
        file=file,
        index=game.index,
        line=game.line,
        tags=game.tags.items(),
        variant=variant.name if variant is not None else None,
        depth=depth,
        movetime=movetime,
        errors=tuple(p for p in game.errors if p.severity == "error" and p.code != "not-pdn"),
    )
    if variant is None or report.start is None:
        found.complete = False
        return found
    first = first_colour(variant, game.game_type)
    # A game set up with the second mover to move numbers its first move "1...".
    offset = 0 if report.start.turn is first else 1
    where = f"{file or 'game'}: game {game.index} (line {game.line})"
    try:
        engine.begin(variant)
        found.engine, found.settings = engine.describe(), engine.settings()
    except HubError as exc:
        raise AnalysisStopped(f"{where}: {exc}") from None
    place = Place(report.start)
    count = 0  # mainline plies so far
    for step in report.mainline_steps():
        if step.node.move is None:  # a setup command: the game goes on from its position
            place = Place(step.before)
            continue
        if step.move is None:
            found.complete = False
            break
        count += 1
        position, move = step.before, step.move
        place.position = position
        moves = position.legal_moves(merge_duplicates=True)
        if len(moves) > 1:
            at = _Place(step.node, count, count + offset, step.order, first)
            chosen = _among(position, moves, move)
            try:
                ply = _ply(engine, at, place, moves, chosen, variant, depth, movetime, probe)
            except HubError as exc:
                said = f"ply {count} ({step.node.move})"
                raise AnalysisStopped(f"{where}, {said}: {exc}") from None
            found.plies.append(ply)
        place = Place(position.play(move), place.history.after(position, move))
        found.moves = count
        if on_plies is not None:
            on_plies(1)
    if probe is not None and found.complete:  # the game's last position, as it ended
        value = probe(place.position)
        if value is not None:
            turn = place.position.turn
            against = result_against_tables(game.result, value, turn, first, count)
            if against is not None:
                found.contradiction, found.contradiction_ply = against, count
    return found


def _among(position: Position, moves: list[Move], move: Move) -> Move:
    """The move of ``moves`` (one per position reached) that stands for ``move``: another
    path to the same position (a king's capture taken the other way round) is the same."""
    if move in moves:
        return move
    reached = position.play(move).key()
    return next(m for m in moves if position.play(m).key() == reached)


@dataclass(slots=True)
class _Place:
    node: Node
    ply: int
    counted: int  # the ply as move numbers count it (from the first mover's first move)
    order: int
    first: Color


def _ply(
    engine: Evaluator,
    at: _Place,
    place: Place,
    moves: list[Move],
    move: Move,
    variant: Variant,
    depth: int | None,
    movetime: float | None,
    probe: Prober | None = None,
) -> PlyAnalysis:
    position = place.position
    valued = engine.value_moves(place, moves, depth, movetime)
    best = max(valued, key=lambda v: v.value)  # the first of the best, in the legal order
    played = next(v for v in valued if v.move == move)
    number = (at.counted - 1) // 2 + 1
    held, unclear = judge(evaluate(position, None), moves[0].is_capture, valued, played)
    proven = None if probe is None else by_the_tables(probe, position, moves, move)
    table = None
    if proven is not None:  # exact: it stands whatever the depths say
        held = (*held, proven.verdict)
        table = {
            "verdict": proven.verdict,
            "after": proven.after.text,
            "best": _texts(position, (proven.best,), variant)[0],
            "best_value": proven.best_value.text,
        }
    before = [v.previous for v in valued]
    previous = None
    if played.previous is not None and all(v is not None for v in before):
        previous = (max(v for v in before if v is not None), played.previous)
    return PlyAnalysis(
        ply=at.ply,
        order=at.order,
        number=f"{number}." if position.turn is at.first else f"{number}...",
        side=position.turn.label,
        played=at.node.move or "",
        best=_texts(position, (best.move,), variant)[0],
        line=_texts(position, best.line, variant),
        before=best.value,
        after=played.value,
        legal=len(moves),
        depth=depth if depth is not None else min(v.depth for v in valued),
        fen=position.fen(),
        verdicts=held + (("unclear",) if unclear and proven is None else ()),
        previous=previous,
        unclear=unclear,
        table=table,
    )


# ----------------------------------------------------------------------------- files


def analysed(
    game: Game,
    file: str,
    *,
    depth: int | None = None,
    movetime: float | None = None,
    variant: str | None = None,
    pdn: bool = False,
    on_plies: Callable[[int], None] | None = None,
    evaluator: Evaluator | None = None,
    tables: Tables = True,
) -> tuple[GameAnalysis, str]:
    """One game of ``file`` analysed, replayed as ``pdn validate`` replays it
    (:func:`pdn.rules.replays.replay_of`), with the PDN text of the game annotated with it when
    ``pdn`` (else ``""``): what a worker of :func:`analyse_files` sends back. ``on_plies``,
    ``evaluator`` and ``tables`` as :func:`analyse_game` takes them."""
    unreadable = next((p for p in game.errors if p.code == "not-pdn"), None)
    if unreadable is not None:
        tags = game.tags.items()
        lost = GameAnalysis(file, game.index, game.line, tags, None, depth, movetime)
        lost.complete, lost.not_pdn = False, unreadable
        return lost, ""
    report = replay_of(game, file, variant)
    found = analyse_game(
        game,
        report,
        depth=depth,
        movetime=movetime,
        file=file,
        on_plies=on_plies,
        evaluator=evaluator,
        tables=tables,
    )
    text = ""
    if pdn:
        from .analysis_record import annotate_with_analysis  # builds on this module

        text = write_game(annotate_with_analysis(game, found))
    return found, text


def analyse_files(
    sources: Iterable[Input],
    *,
    depth: int | None = None,
    movetime: float | None = None,
    variant: str | None = None,
    pdn: bool = False,
    jobs: int = 1,
    encoding: str | None = None,
    on_plies: Callable[[int], None] | None = None,
    evaluator: Evaluator | None = None,
    tables: Tables = True,
) -> Iterator[tuple[GameAnalysis, str]]:
    """:func:`analysed` for every game of every source, in order, on ``jobs`` processes;
    ``on_plies(n)`` is told the mainline plies analysed as they are done (on one process,
    ply by ply; on several, a game's plies when its analysis comes back). An ``evaluator``
    (an outside engine, one program) analyses every game, on this process; ``tables`` as
    :func:`analyse_game` takes them.

    On one, through :func:`pdn.collections.batch.map_games`. On several, game by game rather than in
    map_games' batches of 200 (an analysis takes seconds a game: a tournament's file is worth
    spreading): this process replays each game (:class:`pdn.rules.replays.Replays`, the rules
    ``pdn validate`` chooses, which take the earlier games of the file into account) and a
    worker replays it again under those rules, the same steps, and analyses it."""
    work = partial(
        analysed, depth=depth, movetime=movetime, variant=variant, pdn=pdn, tables=tables
    )
    if evaluator is not None:
        work = partial(work, evaluator=evaluator)
    if jobs <= 1 or evaluator is not None:
        here = partial(work, on_plies=on_plies)  # on this process: the callback is called
        return map_games(here, sources, jobs=1, encoding=encoding)
    spread = _spread(sources, jobs, variant, encoding, partial(_under, work))
    return spread if on_plies is None else _told(spread, on_plies)


def _told(
    results: Iterator[tuple[GameAnalysis, str]], on_plies: Callable[[int], None]
) -> Iterator[tuple[GameAnalysis, str]]:
    for found, text in results:
        on_plies(found.moves)
        yield found, text


def plies_in(sources: Iterable[Input], encoding: str | None = None) -> int:
    """The mainline plies of every game of ``sources`` (what an analysis of them goes
    through): one quick pass of reading, for a progress bar's total."""
    return sum(len(game.mainline_moves()) for _, game in named_games(sources, encoding=encoding))


def _under(
    work: Callable[..., tuple[GameAnalysis, str]], game: Game, file: str, rules: str | None
) -> tuple[GameAnalysis, str]:
    """``work`` for a game whose rules are known (``None``: as replay chooses them)."""
    return work(game, file, variant=rules) if rules is not None else work(game, file)


def _spread(
    sources: Iterable[Input],
    jobs: int,
    variant: str | None,
    encoding: str | None,
    work: Callable[[Game, str, str | None], tuple[GameAnalysis, str]],
) -> Iterator[tuple[GameAnalysis, str]]:
    replays = Replays(variant)
    workers = min(jobs, usable_cores())
    try:
        with process_pool(workers) as pool:
            pending: deque[Future[tuple[GameAnalysis, str]]] = deque()
            for name, game in named_games(sources, encoding=encoding):
                chosen = replays.of(game, name).variant
                rules = chosen.name if chosen is not None else variant
                pending.append(pool.submit(work, game, name, rules))
                while len(pending) >= 2 * workers:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
    except BrokenProcessPool as exc:
        raise WorkerDiedError(
            "a worker process died (killed by the system, out of memory?); "
            "run again with fewer --jobs, or -j 1"
        ) from exc


#: The names of :mod:`pdn.study.play.analysis_record` (the analysis written into a record, and taken
# out
#: again) that this module gives too: it builds on this one, so they are looked up on use.
_RECORD_NAMES = frozenset(("annotate_with_analysis", "forget_analysis", "ply_note"))


def __getattr__(name: str) -> Any:
    """``annotate_with_analysis``, ``forget_analysis`` and ``ply_note``, from
    :mod:`pdn.study.play.analysis_record`."""
    if name in _RECORD_NAMES:
        from . import analysis_record

        return getattr(analysis_record, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
