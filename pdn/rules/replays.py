"""The one replay of each game that every command uses: the rules ``pdn validate`` chooses.

A game is replayed under its GameType, else the reader's guess, retried when the guess fails
on the mainline (:func:`pdn.rules.validation.validate`); a tie between rules that all replay it is
broken by what the earlier games of its file replayed cleanly under, counted per block of
:data:`BLOCK` games, so that a file validated in one process, in batches by several
(:func:`pdn.collections.batch.map_games`) or in pieces on a cluster (:mod:`pdn.dask`) gets the same
verdicts. :class:`Replays` keeps that memory for one stream of files; validate, select,
openings, convert, annotate, view, report, show and dedupe all take their replays from it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from pdn.engine import Variant
from pdn.game.excerpts import truncate
from pdn.game.model import Game
from pdn.reading.cutting import RawGame
from pdn.reading.reader import parse_raw
from pdn.reading.recording import Recorded, game_of

from .validation import FileRules, Report, validate

#: The games of a file counted together for a tie (the batch a worker process is given).
BLOCK = 200


class Replays:
    """The replay of each game of a stream of files, under the rules :func:`validate` chooses
    once for it: its GameType, else the guess, retried when the guess fails on the mainline,
    a tie broken by what the earlier games of its file replayed cleanly under (``file_rules``,
    counted per block of :data:`BLOCK` games as :class:`~pdn.rules.validation.FileRules`
    counts them). Every command gets its replays here, so that they all agree with
    ``pdn validate``; ``variant`` (a ``--variant`` option) replays every game under those rules.

    Give it the games of each file in order: :meth:`of` those to replay, :meth:`skip` the
    others (those a condition on tags left out), whose verdicts are worked out only when a
    later game of their block needs the counts. Workers given whole blocks
    (:func:`pdn.collections.batch.map_games`) and one process give the same replays.

    >>> import pdn
    >>> replays = Replays()
    >>> replays.of(pdn.parse_game("1. 11-15 23-19 *"), "a.pdn").variant.name
    'english'
    """

    __slots__ = ("_last", "_memory", "_skipped", "_waiting", "replayed", "variant")

    def __init__(self, variant: str | Variant | None = None) -> None:
        self.variant = variant
        #: How many games :meth:`of` has replayed (a caller can tell whether a step did).
        self.replayed = 0
        self._memory = FileRules(block=BLOCK)
        # The games of the current block since the counts were last brought up to date, in
        # order: one not replayed yet, or the rules of one replayed cleanly (None: not clean).
        self._waiting: list[RawGame | Game | Recorded | str | None] = []
        self._last: tuple[Game | Recorded, Report] | None = None
        # The game last noted by :meth:`skip`, the last of ``_waiting``: noted once, and taken
        # back if :meth:`of` replays it after all.
        self._skipped: RawGame | Game | Recorded | None = None

    def of(self, game: Game | Recorded, file: str) -> Report:
        """The report of ``game``, the next game of ``file`` (the same game asked again: the
        same report); ``game`` may be read for its replay alone (:mod:`pdn.reading.recording`)."""
        if self._last is not None and self._last[0] is game:
            return self._last[1]
        if self.variant is not None:
            report = validate(game, self.variant)
        else:
            if self._skipped is game:  # noted as skipped, replayed after all
                self._waiting.pop()
            else:
                self._enter(file, game_of(game).index)
            self._skipped = None
            report = validate(game, file_rules=_EarlierGames(self))
            clean = report.variant.name if report.variant and report.status == "ok" else None
            if self._waiting:
                self._waiting.append(clean)
            else:
                self._memory.add(report)
        self.replayed += 1
        self._last = (game, report)
        return report

    def certain(self, game: Game) -> bool:
        """Whether the rules of ``game`` are certain (a GameType, or ``variant``): then no
        retry can change them, and :meth:`first_plies` gives the steps :meth:`of` would."""
        return self.variant is not None or game.variant_source == "gametype"

    def variant_of(self, game: Game, file: str | None) -> str | None:
        """The name of the rules ``game``, the next game of ``file``, is replayed under, as
        ``pdn validate`` says (:attr:`Report.variant_name`): its GameType's without a replay,
        the game then noted as :meth:`skip` does (:meth:`of` may still replay it), else its
        replay's (a failing guess is retried, a tie broken by the earlier games); a game of
        no file (``None`` or ``""``) on its own, with no earlier games to go by.

        >>> import pdn
        >>> Replays().variant_of(pdn.parse_game("1. 21-18 11-15 2. 22-19 15x22 *"), "a.pdn")
        'italian'
        """
        if self.variant is None and game.variant_source == "gametype":
            if file:
                self.skip(game, file)
            return game.variant
        if not file:
            return validate(game, self.variant).variant_name
        return self.of(game, file).variant_name

    def first_plies(self, game: Game, plies: int) -> Report:
        """The replay of a copy of ``game`` cut after ``plies`` plies (every line), for a
        caller that needs only its beginning and whose rules are :meth:`certain`. It is no
        replay of the game: :meth:`skip` it, or replay it whole with :meth:`of`."""
        if not self.certain(game):
            raise ValueError("the rules are not certain: replay the whole game")
        short = len(game.mainline_moves()) <= plies  # then its mainline is all there
        return validate(game if short else truncate(game, plies), self.variant)

    def skip(self, game: RawGame | Game | Recorded, file: str) -> None:
        """Note the next game of ``file``, which the caller does not replay (a game already
        noted or replayed is not noted again)."""
        last = self._last[0] if self._last is not None else None
        if self.variant is None and game is not self._skipped and game is not last:
            self._enter(file, game.index if isinstance(game, RawGame) else game_of(game).index)
            self._waiting.append(game)
            self._skipped = game

    def _enter(self, file: str, index: int) -> None:
        if not file:
            raise ValueError("a game's replay needs the name of its file")
        if self._memory.enter(file, index):
            self._waiting.clear()

    def counts(self) -> dict[str, int]:
        """What the earlier games of the current block replayed cleanly under, the games
        skipped replayed now, in order, as :func:`validate` would have replayed them."""
        memory = self._memory
        for item in self._waiting:
            if isinstance(item, str):
                memory.counts[item] = memory.counts.get(item, 0) + 1
            elif item is not None:
                game = parse_raw(item) if isinstance(item, RawGame) else item
                memory.add(validate(game, file_rules=memory.counts))
        self._waiting.clear()
        return memory.counts


class _EarlierGames(Mapping[str, int]):
    """The counts of :meth:`Replays.counts`, worked out only if the replay reads them (only
    a guess that fails where several other rules replay the whole game does)."""

    __slots__ = ("_replays",)

    def __init__(self, replays: Replays) -> None:
        self._replays = replays

    def __getitem__(self, name: str) -> int:
        return self._replays.counts()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._replays.counts())

    def __len__(self) -> int:
        return len(self._replays.counts())


#: The replays of this process's ``pdn validate`` (see :func:`verdict_of`).
_REPLAYS = Replays()


def replay_of(game: Game | Recorded, file: str | None, variant: str | None = None) -> Report:
    """The replay of ``game``, the next game of ``file`` in this process, as ``pdn validate``
    makes it (see :class:`Replays`; :func:`pdn.collections.batch.verdict_of` is its verdict); a game
    of
    no file (``None`` or ``""``) on its own, with no earlier games to go by."""
    if variant is not None or not file:
        return validate(game, variant)
    return _REPLAYS.of(game, file)


def beginning_of(game: Game, file: str | None, plies: int, variant: str | None = None) -> Report:
    """The replay of ``game``'s first ``plies`` plies (``0``: the whole game), as
    :func:`replay_of` replays them: where the rules are certain (a GameType, or ``variant``)
    only a copy cut after those plies is replayed (:meth:`Replays.first_plies`), which
    reaches the same positions; otherwise the whole game, since only its whole mainline says
    whether the guess stands. Its ``game`` may be that copy: read tags from ``game``."""
    if variant is not None or not file:
        short = not plies or len(game.mainline_moves()) <= plies
        return validate(game if short else truncate(game, plies), variant)
    if plies and _REPLAYS.certain(game):
        _REPLAYS.skip(game, file)
        return _REPLAYS.first_plies(game, plies)
    return _REPLAYS.of(game, file)
