"""Matching games against a :class:`Selection`: by tags (read without the movetext when
they decide), by the parsed game, by the positions of its replay under the rules ``pdn
validate`` chooses (:class:`pdn.rules.replays.Replays`), and by its verdict; each game is read no
further than its conditions need.

>>> import pdn, re
>>> chosen = Selection(black=re.compile("ann", re.I))
>>> chosen.tags_match(pdn.parse_game('[Black "Ann"] *').tags)
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pdn.engine import ENGLISH, Color, FenError, Position, Variant
from pdn.game.excerpts import truncate
from pdn.game.gametype import GameType, first_colour, game_type_of, variant_name
from pdn.game.model import Game, Tags
from pdn.reading.cutting import RawGame
from pdn.reading.reader import parse_game
from pdn.reading.recording import Recorded, Run, game_of, record
from pdn.rules.openings import BALLOT_PLIES, Opening, classify
from pdn.rules.replays import Replays
from pdn.rules.validation import ERROR_STATUSES, Report, validate
from pdn.text.results import Outcome, parse_result

from .criteria import Comparison, DatePart, Material, Numbers, Pattern, date_span

Verdict = Literal["clean", "broken"]


# --------------------------------------------------------------------------------- replay


def _positions(report: Report) -> Iterator[Position]:
    """The start position, then the position after each mainline ply or setup, as the replay
    reached them (what ``pdn convert --to fen`` and ``--to csv`` write)."""
    if report.start is None:
        return
    yield report.start
    for step in report.mainline_steps():
        if step.after is None:
            return
        yield step.after


#: The plies replayed first where the rules are certain (then four times as many, and so on).
_FIRST_PLIES = 8


class _Mainline:
    """The mainline positions of a game's replay, as far as a condition reads them: from its
    whole replay, or where its rules are certain (no retry can change them) from replays of
    ever longer beginnings of the game, which reach the same positions."""

    __slots__ = ("_game", "_replays", "report")

    def __init__(
        self, report: Report, game: Game | None = None, replays: Replays | None = None
    ) -> None:
        self.report = report  # the whole replay, or that of the first plies (game given)
        self._game = game
        self._replays = replays

    def positions(self) -> Iterator[Position]:
        """The start, then the position after each mainline ply or setup."""
        report, plies, done = self.report, _FIRST_PLIES, 0
        game, replays = self._game, self._replays
        total = len(game.mainline_moves()) if game is not None else 0
        while True:
            new = 0
            for index, position in enumerate(_positions(report)):
                if index >= done:
                    new += 1
                    yield position
            done += new
            if game is None or replays is None or new == 0 or plies >= total:
                return
            plies *= 4
            report = replays.first_plies(game, plies)


def _first_plies(game: Game | Recorded, plies: int) -> Game | Recorded:
    """``game`` cut after ``plies`` plies of every line, for a replay of its beginning (a game
    read for its replay alone keeps steps for them)."""
    if isinstance(game, Recorded):
        if game.runs is not None:
            runs: list[Run] = []
            for texts, numbers, lines, columns in game.runs:
                left = plies - sum(len(run[0]) for run in runs)
                if left <= 0:
                    break
                runs.append((texts[:left], numbers[:left], lines[:left], columns[:left]))
            return Recorded(game.game, runs, plies)
        game = game.game  # read as the model: whole
    return game if len(game.mainline_moves()) <= plies else truncate(game, plies)


def line_position(start: Position, moves: Sequence[str]) -> Position | None:
    """The position after playing ``moves`` from ``start`` (replayed by
    :func:`~pdn.rules.validation.validate` under ``start``'s rules); ``None`` if one is not legal.

    >>> from pdn.engine import ENGLISH, Position
    >>> line_position(Position.start(ENGLISH), ["11-15", "23-19"]).fen()[:2]
    'B:'
    >>> line_position(Position.start(ENGLISH), ["11-15", "11-15"]) is None
    True
    """
    line = parse_game(f'[FEN "{start.fen()}"]\n{" ".join(moves)} *')
    report = validate(line, start.variant)
    if not report.complete or any(p.severity == "error" for p in report.all_problems):
        return None
    return report.final


def opening_of(game: Game, report: Report | None = None) -> Opening:
    """The game's ACF ballot (or other opening kind), from its replay ``report`` (validated
    here when not given): :func:`pdn.rules.openings.classify`.

    >>> import pdn
    >>> opening_of(pdn.parse_game("1. 11-15 22-17 2. 9-14 *")).label
    'ACF 38: 9-14 22-17 11-15 (transposed)'
    """
    return classify(game, report)


def _counts(position: Position) -> tuple[int, int, int, int]:
    """Men and pieces of Black, then of White: none of them ever grows during a game."""
    black_men = (position.black & ~position.kings).bit_count()
    white_men = (position.white & ~position.kings).bit_count()
    return black_men, position.black.bit_count(), white_men, position.white.bit_count()


def _reachable(position: Position, need: tuple[int, int, int, int]) -> bool:
    return all(have >= want for have, want in zip(_counts(position), need, strict=True))


# ------------------------------------------------------------------------------- selection


@dataclass(slots=True)
class Selection:
    """The conditions a game must meet (all of them; ``invert`` keeps those that do not).

    Regular expressions are searched anywhere in the value (``re.search``); compile them as
    you like (the command line makes them case-insensitive). A condition left ``None`` (or
    empty) is not checked.
    """

    tags: list[tuple[str, re.Pattern[str]]] = field(default_factory=list)
    where: list[Comparison] = field(default_factory=list)
    where_any: bool = False  # one --where is enough (they are ORed), not all of them
    player: re.Pattern[str] | None = None
    black: re.Pattern[str] | None = None
    white: re.Pattern[str] | None = None
    event: re.Pattern[str] | None = None
    date_from: DatePart | None = None
    date_to: DatePart | None = None
    results: frozenset[Outcome] | None = None
    variant: str | None = None
    min_plies: int | None = None
    max_plies: int | None = None
    ballot: int | None = None
    fen: str | None = None
    fen_pattern: Pattern | None = None
    material: tuple[Material, Material, bool] | None = None
    material_at_any: tuple[Material, Material, bool] | None = None
    moves: tuple[str, ...] | None = None  # a line of play (parse_line); positions compared
    mark: bool = False  # a comment at the ply where each position condition was met
    verdict: Verdict | None = None
    invert: bool = False
    first: int | None = None
    games: Numbers | None = None  # the games' numbers in the order read, from 1
    cut_at_error: bool = False
    _targets: dict[str, Position | None] = field(default_factory=dict, repr=False)
    _lines: dict[tuple[str, str], Position | None] = field(default_factory=dict, repr=False)
    #: The replays of the games, under the rules pdn validate chooses (see
    # pdn.rules.replays.Replays).
    _replays: Replays = field(default_factory=Replays, repr=False)

    def has_tag_conditions(self) -> bool:
        """Whether a condition reads tags (players, event, dates, result, variant)."""
        return (
            bool(self.tags)
            or bool(self.where)
            or any(
                c is not None
                for c in (
                    self.player,
                    self.black,
                    self.white,
                    self.event,
                    self.date_from,
                    self.date_to,
                    self.results,
                    self.variant,
                )
            )
        )

    def needs_game(self) -> bool:
        """Whether a condition looks past the tags (then every game is parsed)."""
        return (
            self.min_plies is not None
            or self.max_plies is not None
            or self.needs_positions()
            or self.verdict is not None
            or self.cut_at_error
        )

    def may_parse(self) -> bool:
        """Whether some game may be parsed: a condition past the tags, or one on the result
        or the variant, which a game without the tag answers from its moves."""
        return self.needs_game() or self.results is not None or self.variant is not None

    def replays_games(self) -> bool:
        """Whether a condition replays games (positions, the verdict, the cut at an error,
        or the variant of a game without a GameType)."""
        return (
            self.needs_positions()
            or self.verdict is not None
            or self.cut_at_error
            or self.variant is not None
        )

    def replay(self, game: Game | Recorded, file: str | None = None) -> Report:
        """The replay of ``game``, the next game of ``file``, as ``pdn validate`` replays it
        (the games of each file come here in order, or to :meth:`skip`); without ``file``,
        a game on its own, with no earlier games to go by."""
        if file is None:
            return validate(game)
        return self._replays.of(game, file)

    def skip(self, game: RawGame | Game | Recorded, file: str) -> None:
        """Note a game of ``file`` that was not replayed (for the later games' rules)."""
        self._replays.skip(game, file)

    def needs_positions(self) -> bool:
        """Whether a condition replays moves."""
        return any(
            c is not None
            for c in (
                self.ballot,
                self.fen,
                self.fen_pattern,
                self.material,
                self.material_at_any,
                self.moves,
            )
        )

    # --- by tags -------------------------------------------------------------------------

    def tags_match(self, tags: Tags) -> bool | None:
        """The verdict of the tag conditions; ``None`` when one needs the game (no Result or
        GameType tag to decide by)."""
        if self.tags:
            pairs = [(name.casefold(), value) for name, value in tags.items()]
            for wanted, regex in self.tags:
                folded = wanted.casefold()  # `--tag event=...` means the Event tag
                if not any(regex.search(value) for name, value in pairs if name == folded):
                    return False
        if self.where:
            held = (comparison.holds_in(tags) for comparison in self.where)
            if not (any(held) if self.where_any else all(held)):
                return False
        black, white = tags.get("Black") or "", tags.get("White") or ""
        if self.player is not None and not (self.player.search(black) or self.player.search(white)):
            return False
        if self.black is not None and not self.black.search(black):
            return False
        if self.white is not None and not self.white.search(white):
            return False
        if self.event is not None and not self.event.search(tags.get("Event") or ""):
            return False
        if (self.date_from or self.date_to) and not self._date_fits(tags.get("Date")):
            return False
        undecided = False
        if self.results is not None:
            result = tags.get("Result")
            if result is None:
                undecided = True
            elif parse_result(result) not in self.results:
                return False
        if self.variant is not None:
            game_type = game_type_of(tags.get("GameType"))
            if game_type is None:
                undecided = True
            elif variant_name(game_type.number) != self.variant:
                return False
        return None if undecided else True

    def _date_fits(self, text: str | None) -> bool:
        span = date_span(text)
        if span is None:
            return False
        first, last = span
        if self.date_from is not None and last < self.date_from:
            return False
        return not (self.date_to is not None and first > self.date_to)

    # --- by the game ---------------------------------------------------------------------

    def game_matches(self, game: Game, file: str | None = None) -> bool:
        """The conditions that need the parsed game, its replay or its verdict (the tag
        conditions are :meth:`tags_match`'s); ``game`` is the next game of ``file`` (see
        :meth:`replay`)."""
        if self.results is not None and parse_result(game.result) not in self.results:
            return False
        if self.variant is not None and self._replays.variant_of(game, file) != self.variant:
            return False
        if not self._plies_fit(game):
            return False
        if self.ballot is not None and not self._ballot_fits(game, file):
            return False
        if self.marks(game, file) is None:
            return False
        return self._verdict_fits(game, file)

    def replay_alone(self) -> bool:
        """Whether the conditions past the tags read no more of a game than its replay and
        opening (``ballot``, the ply counts, the verdict): then :meth:`recorded_matches`
        takes the game read for its replay alone (:meth:`record`), its moves never made
        into nodes."""
        return (
            self.ballot is not None
            and not (self.mark or self.cut_at_error)
            and self.results is None
            and self.variant is None
            and all(
                condition is None
                for condition in (
                    self.fen,
                    self.fen_pattern,
                    self.material,
                    self.material_at_any,
                    self.moves,
                )
            )
        )

    def record(self, raw: RawGame) -> Recorded:
        """``raw`` read for its replay alone, for :meth:`recorded_matches`."""
        return record(raw, BALLOT_PLIES)

    def recorded_matches(self, game: Recorded, file: str) -> bool:
        """:meth:`game_matches` for a game read for its replay alone, where
        :meth:`replay_alone` says it may be."""
        if not self._plies_fit(game):
            return False
        if self.ballot is not None and not self._ballot_fits(game, file):
            return False
        return self._verdict_fits(game, file)

    def _plies_fit(self, game: Game | Recorded) -> bool:
        if self.min_plies is None and self.max_plies is None:
            return True
        plies = len(game.mainline_moves())
        if self.min_plies is not None and plies < self.min_plies:
            return False
        return self.max_plies is None or plies <= self.max_plies

    def _verdict_fits(self, game: Game | Recorded, file: str | None) -> bool:
        if self.verdict is None:
            return True
        status = self.replay(game, file).status
        if self.verdict == "broken":
            return status in ERROR_STATUSES
        return status == "ok"

    def _ballot_fits(self, game: Game | Recorded, file: str | None) -> bool:
        replays = self._replays
        model = game_of(game)
        opening = _first_plies(game, BALLOT_PLIES)
        if replays.certain(model):
            # The first plies are enough where no retry can change the rules.
            return self._on_ballot(model, validate(opening, replays.variant))
        # Only English rules have ballots, and under them the first plies decide the ballot:
        # a game they do not put on it is off it whatever rules its replay ends up under.
        # Only the few that they do put on it are replayed whole, for those rules.
        english = validate(opening, ENGLISH)
        return self._on_ballot(model, english) and self._on_ballot(model, self.replay(game, file))

    def _on_ballot(self, game: Game, report: Report) -> bool:
        opening = opening_of(game, report)
        return opening.kind == "ballot" and opening.number == self.ballot

    def _target(self, variant: Variant) -> Position | None:
        if variant.name not in self._targets:
            try:
                assert self.fen is not None
                self._targets[variant.name] = Position.from_fen(self.fen, variant)
            except FenError:
                self._targets[variant.name] = None
        return self._targets[variant.name]

    def marks(self, game: Game, file: str | None = None) -> dict[int, list[str]] | None:
        """Where the conditions on positions (``moves``, ``fen``, ``fen_pattern``,
        ``material``, ``material_at_any``) are met in the replay of ``game`` (the next game
        of ``file``, see :meth:`replay`): the index of the position (0 the start, then after
        each mainline move or setup) and the options met there; ``None`` when one of them is
        not met."""
        found: dict[int, list[str]] = {}
        checks: list[tuple[str, Callable[[_Mainline], int | None]]] = []
        if self.moves is not None:
            checks.append(("--moves", self._line_at))
        if self.fen is not None:
            checks.append(("--fen", self._fen_at))
        if self.fen_pattern is not None:
            pattern = self.fen_pattern
            checks.append(("--fen-pattern", lambda g: self._pattern_at(g, pattern)))
        if self.material_at_any is not None:
            spec = self.material_at_any
            checks.append(("--material-at-any", lambda g: _material_at(g, spec, anywhere=True)))
        if self.material is not None:
            final = self.material
            checks.append(("--material", lambda g: _material_at(g, final, anywhere=False)))
        if not checks:
            return found
        replays = self._replays
        # --material reads the final position: the whole replay, whatever the rules.
        if replays.certain(game) and self.material is None:
            line = _Mainline(replays.first_plies(game, _FIRST_PLIES), game, replays)
        else:
            line = _Mainline(self.replay(game, file))
        for option, check in checks:
            ply = check(line)
            if ply is None:
                return None
            found.setdefault(ply, []).append(option)
        return found

    def _line_at(self, line: _Mainline) -> int | None:
        assert self.moves is not None
        variant, start = line.report.variant, line.report.start
        if variant is None or start is None:
            return None
        where = (variant.name, start.fen())
        if where not in self._lines:
            self._lines[where] = line_position(start, self.moves)
        target = self._lines[where]
        if target is None:
            return None
        # Positions after as many plies as the line has: a transposition reaches the same one.
        ply = len(self.moves)
        for index, position in enumerate(line.positions()):
            if index == ply:
                return ply if position.key() == target.key() else None
        return None

    def _fen_at(self, line: _Mainline) -> int | None:
        variant = line.report.variant
        target = None if variant is None else self._target(variant)
        if target is None:
            return None
        key = target.key()
        need = _counts(target)
        for ply, position in enumerate(line.positions()):
            if position.key() == key:
                return ply
            if not _reachable(position, need):
                return None
        return None

    def _pattern_at(self, line: _Mainline, pattern: Pattern) -> int | None:
        variant = line.report.variant
        if variant is None:
            return None
        try:
            black_men, black_kings, white_men, white_kings = pattern.masks(variant)
        except IndexError:
            return None  # a square this board does not have
        need = (
            black_men.bit_count(),
            (black_men | black_kings).bit_count(),
            white_men.bit_count(),
            (white_men | white_kings).bit_count(),
        )
        for ply, p in enumerate(line.positions()):
            if (
                (pattern.turn is None or p.turn is pattern.turn)
                and p.black & ~p.kings & black_men == black_men
                and p.black & p.kings & black_kings == black_kings
                and p.white & ~p.kings & white_men == white_men
                and p.white & p.kings & white_kings == white_kings
            ):
                return ply
            if not _reachable(p, need):
                return None
        return None


def _by_colour(
    spec: tuple[Material, Material, bool], variant: Variant, game_type: GameType | None
) -> tuple[Material, Material]:
    """The material Black's side and White's side must have."""
    first, second, by_colour = spec
    if not by_colour and first_colour(variant, game_type) is Color.WHITE:
        return second, first
    return first, second


def _has(position: Position, black: Material, white: Material) -> bool:
    black_men, black_pieces, white_men, white_pieces = _counts(position)
    return black.fits(black_men, black_pieces - black_men) and white.fits(
        white_men, white_pieces - white_men
    )


def _least(material: Material) -> tuple[int, int]:
    """The fewest men and pieces a side may have and still come to ``material``."""
    if material.total is not None:
        return 0, material.total
    men = material.men or 0
    return men, men + (material.kings or 0)


def _material_at(
    line: _Mainline, spec: tuple[Material, Material, bool], *, anywhere: bool
) -> int | None:
    """The first position with this material (``anywhere``), or the final one if it has it."""
    last: tuple[int, Position] | None = None
    need: tuple[int, int, int, int] | None = None
    for ply, position in enumerate(line.positions()):
        if need is None:
            black, white = _by_colour(spec, position.variant, line.report.game.game_type)
            need = (*_least(black), *_least(white))
        if anywhere:
            if _has(position, black, white):
                return ply
            if not _reachable(position, need):
                return None  # men and pieces never grow back
        last = ply, position
    if anywhere or last is None:
        return None
    return last[0] if _has(last[1], black, white) else None
