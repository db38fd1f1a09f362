"""Tag repairs a person asks for, each one listed: names, results, dates, GameType.

Nothing is repaired unless asked, and every change is returned as a :class:`Change` (the CLI
lists them on standard error or in a log file). :func:`fix_source` gives each game's text: a
game that no repair changed keeps the very text it was read with (its
:class:`~pdn.reading.cutting.RawGame` text: layout, junk and all); a changed game keeps it too, with
each change made in its own line (:func:`pdn.collections.raw_edits.retagged_raw`: a tag's value, an
added tag's line, the terminator), so a date fix changes the date's line alone. Only when a
change has no single place in that text is the game written by the faithful writer.

- ``aliases``: player and event renames from an alias list (:class:`pdn.text.names.Aliases`);
- ``result_from_terminator``: where the ``Result`` tag and the result written after the moves
  (the terminator) say different things, the tag takes the terminator's (a missing tag is
  added); ``terminator_from_result`` is the reverse (a missing terminator is added). Two
  spellings of the same outcome (``1-1`` and ``1/2-1/2``) do not disagree;
- ``dates``: ``Date`` (and ``EventDate``) written as ``YYYY.MM.DD``, unknown parts kept as
  ``??`` (:func:`normalise_date`); a date that cannot be read for certain is left and said;
- ``add_gametype``: a ``GameType`` tag where there is none and the moves replay cleanly under
  exactly one of the rule sets for their board (:func:`certain_variant`); otherwise nothing is
  added and the note says which rules fit.

>>> import pdn
>>> game = pdn.parse_game('[Result "*"]\\n[Date "2019-05-03"]\\n1. 11-15 23-19 1-0')
>>> [c.text() for c in fix_game(game, FixOptions(result_from_terminator=True, dates=True))]
['Result: "*" -> "1-0"', 'Date: "2019-05-03" -> "2019.05.03"']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from pdn.engine import VARIANTS, get_variant, same_board
from pdn.game.model import Game
from pdn.reading.cutting import RawGame
from pdn.rules.replays import Replays
from pdn.rules.validation import validate
from pdn.text.names import Aliases
from pdn.text.results import CANONICAL, TERMINATORS, Outcome, parse_result

from .batch import Input, is_json, iter_games

__all__ = [
    "Change",
    "FixOptions",
    "Fixed",
    "certain_variant",
    "fix_game",
    "fix_source",
    "normalise_date",
]

#: The tags :func:`normalise_date` is applied to.
DATE_TAGS: tuple[str, ...] = ("Date", "EventDate")

#: The name a change of the terminator is listed under.
TERMINATOR = "(terminator)"


@dataclass(frozen=True, slots=True)
class FixOptions:
    """Which repairs to make; all off by default."""

    aliases: Aliases | None = None
    result_from_terminator: bool = False
    terminator_from_result: bool = False
    dates: bool = False
    add_gametype: bool = False

    def __post_init__(self) -> None:
        if self.result_from_terminator and self.terminator_from_result:
            raise ValueError("choose one of result-from-terminator and terminator-from-result")


@dataclass(frozen=True, slots=True)
class Change:
    """One change (``old``/``new`` ``None`` for a tag added/left), or a repair that was asked
    for but not made (``new`` ``None`` and a ``note`` saying why), at the game's line."""

    line: int
    tag: str
    old: str | None
    new: str | None
    note: str = ""

    @property
    def made(self) -> bool:
        """Whether the game was changed (a note alone changes nothing)."""
        return self.new is not None

    def text(self) -> str:
        """``Tag: "old" -> "new"``, ``Tag: added "new"``, or ``Tag: "old" left: why``."""
        if self.new is None:
            return (
                f"{self.tag}: {self.note}"
                if self.old is None
                else (f'{self.tag}: "{self.old}" left: {self.note}')
            )
        if self.old is None:
            return f'{self.tag}: added "{self.new}"'
        return f'{self.tag}: "{self.old}" -> "{self.new}"'


@dataclass(slots=True)
class Fixed:
    """One game of a source after the repairs: the game, its text, and the changes listed."""

    game: Game
    text: str  # ends with a line end
    changes: list[Change] = field(default_factory=list)
    #: What stands between the text of the game before and this one (the blank lines of the
    #: file as read, its first line end left out: that text ends with it).
    before: str = "\n"

    @property
    def made(self) -> int:
        """How many changes were made (notes of repairs not made are not counted)."""
        return sum(change.made for change in self.changes)


def fix_source(
    source: Input, options: FixOptions, *, encoding: str | None = None
) -> Iterator[Fixed]:
    """Each game of ``source`` (PDN, or JSON records) repaired as ``options`` ask, streaming.

    A PDN game that no repair changed keeps the text it was read with, so a file with no
    change is written back as it was read (stray ``)`` and ``}``, layout and all); a changed
    game keeps that text with each change made in its own line (see the module docstring).
    A changed game whose changes have no single place there, and every JSON record, is
    written by the faithful writer; then a game without a terminator that the next game's
    text would join on reading (it has no moves, or the next game does not start with its
    tag pairs) gets the terminator ``*``, a change listed.
    ``encoding`` forces the codec of PDN bytes (else it is detected).
    """
    from pdn.reading.grammar import patterns
    from pdn.reading.reader import parse_raw, split_games
    from pdn.writing.writer import write_game

    from .inputs import display_name

    # The rules of each game are those pdn validate replays it under, read only where a
    # repair needs them; every game is noted, for the ties of the later games.
    name, replays = display_name(source), Replays()

    def fixed(game: Game) -> list[Change]:
        changes = fix_game(game, options, lambda g: replays.variant_of(g, name))
        replays.skip(game, name)  # (nothing when its rules were read)
        return changes

    if is_json(source):
        for game in iter_games(source, encoding=encoding):
            changes = fixed(game)
            yield Fixed(game, write_game(game, separate=True), changes)
        return
    held: tuple[Game, list[Change], str] | None = (
        None  # a changed game, written when the next comes
    )
    tags = patterns().tags
    previous: RawGame | None = None
    for raw in split_games(source, encoding=encoding):
        before = _between(previous, raw)
        previous = raw
        if held is not None:
            game, changes, held_before = held
            if game.terminator is None and (
                not game.root.variations or tags.match(raw.text) is None
            ):
                game.terminator = "*"  # else the next game's text would join this one
                changes.append(Change(game.line, TERMINATOR, None, "*"))
            yield Fixed(game, write_game(game), changes, held_before)
            held = None
        game = parse_raw(raw)
        changes = fixed(game)
        made = [change for change in changes if change.made]
        edited = _edited(raw, made) if made and raw.problem is None else None
        if edited is not None:
            yield Fixed(game, _ended(edited), changes, before)
        elif made or raw.problem is not None:
            held = game, changes, before
        else:
            yield Fixed(game, _ended(raw.text), changes, before)
    if held is not None:
        yield Fixed(held[0], write_game(held[0]), held[1], held[2])


def _ended(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _between(previous: RawGame | None, raw: RawGame) -> str:
    """The blank lines between two games of a file, after the line end that ends the first
    (its :class:`Fixed` text ends with one), from where the cutter put them: the reader keeps
    only white space there. Spaces before the second game on its line are kept, those at the
    end of a line are not."""
    if previous is None:
        return "\n"
    text = previous.text
    ended = text.endswith("\n")
    line = previous.line + text.count("\n")  # where the text ends (after its line end)
    if raw.line == line and not ended:
        return ""  # on the line the first ended: the line end added stands between them
    return "\n" * (raw.line - line - (not ended)) + " " * (raw.column - 1)


def _edited(raw: RawGame, made: list[Change]) -> str | None:
    """The game's text as read with the changes made in their lines alone (a tag pair's
    value, an added pair's line, the terminator), or ``None`` when one has no place there."""
    from .raw_edits import retagged_raw

    tags: list[tuple[str, str | None, str]] = []
    terminator: tuple[str | None, str] | None = None
    for change in made:
        assert change.new is not None
        if change.tag == TERMINATOR:
            terminator = (change.old, change.new)
        else:
            tags.append((change.tag, change.old, change.new))
    return retagged_raw(raw, tags, terminator)


def fix_game(
    game: Game, options: FixOptions, variant_of: Callable[[Game], str | None] | None = None
) -> list[Change]:
    """Make the repairs ``options`` asks for in ``game`` (in place); returns every change
    made, and every repair asked for that could not be made, in tag order.

    ``variant_of`` gives the rules the game is replayed under, asked only where a repair
    needs them (:meth:`pdn.rules.replays.Replays.variant_of`, as :func:`fix_source` does for the
    games of a file); by default the game's own replay, with no earlier games to go by."""
    rules = variant_of or (lambda g: Replays().variant_of(g, None))
    changes: list[Change] = []
    line = game.line
    if options.aliases is not None:
        for rename in options.aliases.rename(game.tags):
            changes.append(Change(line, rename.tag, rename.old, rename.new))
    if options.result_from_terminator or options.terminator_from_result:
        changes += _fix_result(game, options.result_from_terminator, rules)
    if options.dates:
        for tag in DATE_TAGS:
            old = game.tags.get(tag)
            if old is None:
                continue
            new = normalise_date(old)
            if new is None:
                changes.append(Change(line, tag, old, None, "not a date that reads for certain"))
            elif new != old:
                game.tags[tag] = new
                changes.append(Change(line, tag, old, new))
    if options.add_gametype and "GameType" not in game.tags:
        found, fitting = certain_variant(game, rules(game))
        if found is None:
            why = f"the moves fit {', '.join(fitting)}" if fitting else "no rules fit the moves"
            changes.append(Change(line, "GameType", None, None, f"not added (not certain): {why}"))
        else:
            number = str(get_variant(found).game_type)
            game.tags.add("GameType", number)
            changes.append(Change(line, "GameType", None, number))
    return changes


def _fix_result(
    game: Game, from_terminator: bool, rules: Callable[[Game], str | None]
) -> list[Change]:
    line = game.line
    tag = game.tags.get("Result")
    terminator = game.terminator
    if tag is not None and terminator is not None and parse_result(tag) is parse_result(terminator):
        return []
    if from_terminator:
        if terminator is None or (tag is not None and tag.strip() == terminator):
            return []
        if tag is not None and parse_result(terminator) is Outcome.UNKNOWN:
            # A known result is never replaced by "unknown".
            note = f"the result after the moves is {terminator} (unknown)"
            return [Change(line, "Result", tag, None, note)]
        game.tags["Result"] = terminator
        return [Change(line, "Result", tag, terminator)]
    if tag is None:
        return []
    if terminator is not None and parse_result(tag) is Outcome.UNKNOWN:
        note = f'the Result tag is "{tag}" (unknown)'
        return [Change(line, TERMINATOR, terminator, None, note)]
    new = _terminator_for(tag, game, rules)
    if new is None:
        note = "the Result tag is not a result PDN can write after the moves"
        return [Change(line, TERMINATOR, terminator, None, note)]
    if new == terminator:
        return []
    game.terminator = new
    return [Change(line, TERMINATOR, terminator, new)]


def _terminator_for(tag: str, game: Game, rules: Callable[[Game], str | None]) -> str | None:
    """The terminator that says what the Result tag says: the tag itself when PDN writes it
    so, else the outcome in the result family of the rules the game is replayed under."""
    text = tag.strip()
    if text in TERMINATORS:
        return text
    outcome = parse_result(text)
    if outcome is Outcome.UNKNOWN:
        return "*" if text in ("", "?") else None
    family, variant = "default", rules(game)
    if variant in VARIANTS:
        family = get_variant(variant).result_family
    return CANONICAL[family][outcome]


_PART = r"(\d{1,4}|\?{1,4})"
_DATE = re.compile(rf"\s*{_PART}(?:\s*[./-]\s*{_PART})?(?:\s*[./-]\s*{_PART})?\s*")


def normalise_date(text: str) -> str | None:
    """``text`` as a PDN date ``YYYY.MM.DD`` (unknown parts ``????``/``??``), or ``None`` when
    it is not a date that can be read for certain.

    Year first (``2019-05-03``, ``2019/5/3``, ``2019.05``, ``2019``) is always read; day first
    with dots or dashes (``03.05.2019``) is read as European files write it; with slashes only
    when one of the first two numbers is above 12 (``05/03/2019`` could be either).

    >>> normalise_date("2019-5-3"), normalise_date("3.05.2019"), normalise_date("2019.??.??")
    ('2019.05.03', '2019.05.03', '2019.??.??')
    >>> normalise_date("1987"), normalise_date("05/03/2019"), normalise_date("25/03/2019")
    ('1987.??.??', None, '2019.03.25')
    """
    match = _DATE.fullmatch(text)
    if match is None:
        return None
    parts = [part for part in match.groups() if part is not None]
    separators = set(re.findall(r"[./-]", text))
    if len(parts[0]) == 4 or parts[0] == "????":
        year, month, day = [*parts, "??", "??"][:3]
    elif len(parts) == 3 and len(parts[2]) == 4:
        first, second, year = parts
        if separators == {"/"}:
            numbers = [int(p) for p in (first, second) if p.isdigit()]
            if len(numbers) < 2 or (numbers[0] <= 12 and numbers[1] <= 12 and first != second):
                return None  # month and day could be either way round
            day, month = (first, second) if int(first) > 12 else (second, first)
        else:
            day, month = first, second
    else:
        return None
    return _checked(year, month, day)


def _checked(year: str, month: str, day: str) -> str | None:
    if not ((len(year) == 4 and year.isdigit()) or set(year) == {"?"}):
        return None
    out = ["????" if not year.isdigit() else year]
    for part, highest in ((month, 12), (day, 31)):
        if part.isdigit():
            if not 1 <= int(part) <= highest:
                return None
            out.append(f"{int(part):02d}")
        else:
            out.append("??")
    return ".".join(out)


def certain_variant(game: Game, variant: str | None = None) -> tuple[str | None, list[str]]:
    """``(variant, fitting)``: the rules of the game's board under which its moves replay
    cleanly, and the one among them when there is exactly one (else ``None``). The board is
    that of ``variant``, the rules the game is replayed under (by default its own replay's,
    :attr:`~pdn.rules.replay_report.Report.variant_name`). A game with no moves fits none. Rules
    that read the same board (English and American pool, both 8x8 and Black first) often
    both fit a game that never used what tells them apart: that is not certain, and nothing
    is claimed."""
    if not game.mainline_moves():
        return None, []
    if variant is None:
        variant = validate(game).variant_name
    if variant not in VARIANTS:
        return None, []
    board = get_variant(variant)
    fitting = [
        name
        for name, rules in VARIANTS.items()
        if same_board(rules, board) and validate(game, name).status == "ok"
    ]
    return (fitting[0] if len(fitting) == 1 else None), fitting
