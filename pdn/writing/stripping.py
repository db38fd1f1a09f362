"""Leaving out what a reader does not need: comments, variations, NAGs, tags.

:class:`Stripper` is a filter visitor (like :class:`pdn.writing.annotate.Annotator`): it passes a
game's events on to another visitor without the parts :class:`StripOptions` names, so one
filter serves every output (PDN faithful or normalised, JSON, CSV); :func:`strip_game` builds
the stripped model. Nothing is left out unless asked.

Tags that say how to read the moves are never left out: ``FEN`` (the start position) and
``GameType`` (the rules and the board) are kept by ``keep_tags`` whatever it lists, and naming
them in ``drop_tags`` is an error: without them the moves would mean something else.

>>> import pdn
>>> game = pdn.parse_game('[Event "E"]\\n[Site "S"]\\n1. 11-15 {good} $1 (9-13) 23-19 *')
>>> print(pdn.write_game(strip_game(game, StripOptions(comments=False, variations=False,
...     nags=False, keep_tags=("Event",)))), end="")
[Event "E"]
<BLANKLINE>
1. 11-15 23-19 *
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from pdn.game.model import Comment, Game
from pdn.game.visitor import SKIP, GameFilter, GameVisitor, Skip
from pdn.reading.builder import GameBuilder

__all__ = ["PROTECTED_TAGS", "StripOptions", "Stripper", "strip_game", "strip_games", "tag_list"]

T = TypeVar("T")

#: Tags that are part of the moves' meaning and are never stripped.
PROTECTED_TAGS: tuple[str, ...] = ("FEN", "GameType")


@dataclass(frozen=True, slots=True)
class StripOptions:
    """What to keep. ``keep_tags``: only these tag names (and :data:`PROTECTED_TAGS`), in the
    order they are written; ``drop_tags``: every tag but these. Names match ignoring case.
    ``nags`` covers move-strength marks (``!``, ``?!``...) too, which PDN's NAGs ``$1``-``$6``
    stand for."""

    comments: bool = True
    variations: bool = True
    nags: bool = True
    keep_tags: tuple[str, ...] | None = None
    drop_tags: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        protected = {name.casefold() for name in PROTECTED_TAGS}
        named = [name for name in self.drop_tags if name.casefold() in protected]
        if named:
            raise ValueError(
                f"{', '.join(named)} cannot be dropped: the moves are read from it "
                "(FEN is the start position, GameType the rules)"
            )

    @property
    def strips(self) -> bool:
        """Whether anything at all is left out."""
        return not (
            self.comments
            and self.variations
            and self.nags
            and self.keep_tags is None
            and not self.drop_tags
        )

    def keeps_tag(self, name: str) -> bool:
        """Whether a tag of this name is kept."""
        key = name.casefold()
        if key in {p.casefold() for p in PROTECTED_TAGS}:
            return True
        if self.keep_tags is not None and key not in {k.casefold() for k in self.keep_tags}:
            return False
        return key not in {d.casefold() for d in self.drop_tags}


def tag_list(text: str) -> tuple[str, ...]:
    """Tag names from ``"Event,Date, Round"`` (commas or spaces)."""
    return tuple(name for name in text.replace(",", " ").split() if name)


class Stripper(GameFilter[T]):
    """Passes a game's events on to ``inner`` without what ``options`` leaves out."""

    def __init__(self, inner: GameVisitor[T], options: StripOptions) -> None:
        super().__init__(inner)
        self.options = options

    def visit_tag(self, name: str, value: str) -> None:
        if self.options.keeps_tag(name):
            self.inner.visit_tag(name, value)

    def visit_comment(self, comment: Comment) -> None:
        if self.options.comments:
            self.inner.visit_comment(comment)

    def _before(self, before: Sequence[Comment]) -> Sequence[Comment]:
        return before if self.options.comments else ()

    def visit_move(
        self,
        move: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self.inner.visit_move(move, number, self._before(before), line, column)

    def visit_setup(
        self,
        fen: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self.inner.visit_setup(fen, number, self._before(before), line, column)

    def visit_strength(self, strength: str) -> None:
        if self.options.nags:
            self.inner.visit_strength(strength)

    def visit_nag(self, nag: int) -> None:
        if self.options.nags:
            self.inner.visit_nag(nag)

    def begin_variation(self) -> Skip | None:
        # Whoever drives the events skips a variation on SKIP (and its end_variation).
        if not self.options.variations:
            return SKIP
        return self.inner.begin_variation()


def strip_game(game: Game, options: StripOptions) -> Game:
    """A new game without what ``options`` leaves out; what the reader learnt about the
    game (its variant, GameType, line and reading problems) is kept as it was, so that the
    stripped game replays under the same rules. ``game`` itself is not changed."""
    if not options.strips:
        return game
    stripped = game.accept(Stripper(GameBuilder(), options))
    stripped.variant = game.variant
    stripped.variant_source = game.variant_source
    stripped.variant_evidence = game.variant_evidence
    stripped.game_type = game.game_type
    stripped.errors = list(game.errors)
    return stripped


def strip_games(games: Iterable[Game], options: StripOptions) -> Iterable[Game]:
    """:func:`strip_game` on each game, streaming."""
    return (strip_game(game, options) for game in games)
