# ruff: noqa: RUF001, RUF002, RUF003
# (This module is about Cyrillic letters that look like Latin ones: they are meant.)
"""Names of players and events: a key that says "probably the same person", and alias lists.

Tournament files spell one player several ways: ``"Nemets D"`` and ``"Nemets D."``,
``"WYLLIE, J"`` and ``"Wyllie,  J"``, ``"Немец Д."`` in Cyrillic, or a Latin name with a
Cyrillic ``а`` typed in by a keyboard layout (it looks the same and compares different).
:func:`name_key` folds all of that away, so that names with equal keys are *likely* the same
person; nothing here ever merges names on its own: :func:`similar_names` suggests, a person
decides, and an :class:`Aliases` list (a CSV file) says what to rename.

The folds, in order (each one is a reason :func:`differences` can give):

1. ``spacing``: runs of spaces are one space; spaces after commas and around dots are dropped;
2. ``hyphen or comma``: hyphens (and dashes) and commas are spaces, so ``"Koops, Lambert-Jan"``
   is ``"Koops Lambert Jan"``;
3. ``case``: case is ignored (``casefold``);
4. ``dots``: dots are dropped (``"D."`` is ``"D"``);
5. ``look-alike letters``: in a word that mixes Latin and Cyrillic letters, the letters of one
   script that look like letters of the other (``а е о р с у х`` ... and ``a e o p c y x``
   ...) are read as those, which way being the one that leaves a word of a single script:
   ``"Kоk"`` with a Cyrillic ``о`` is the Latin ``kok``, ``"Cадовский"`` with a Latin ``C``
   is the Cyrillic ``садовский`` (when both ways do, the script of most of its letters);
6. ``transliteration``: a word written in Cyrillic only is transliterated to Latin (``Немец``
   is ``nemets``; ``х`` is ``kh``, ``ц`` ``ts``, ``ч`` ``ch``, ``ш`` ``sh``, ``ж`` ``zh``...).

And one more for :func:`similar_names` (keys with it are not equal, so it is no fold): a
``damaged letter``, the replacement character ``\ufffd`` that the reader puts where a file's
bytes were not valid text (often followed by ``?``, the rest of a broken UTF-8 letter), matches
the one letter of another spelling (``"Михальченко \ufffd?."`` is ``"Михальченко И."``) when
exactly one other spelling fits.

>>> name_key("Nemets D.") == name_key("nemets  d") == name_key("Немец Д.")
True
>>> differences("Nemets D.", "Nemets D")
['dots']
>>> differences("Kоk", "Kok")  # the first has a Cyrillic о
['look-alike letters']
"""

from __future__ import annotations

import bisect
import csv
import io
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

__all__ = [
    "ALIAS_FIELDS",
    "DISTINCT_EVENT_WORDS",
    "NAME_TAGS",
    "AliasError",
    "Aliases",
    "NameGroup",
    "Rename",
    "aliases_csv",
    "defects",
    "differences",
    "distinct_events",
    "mixed_script",
    "name_key",
    "script_of",
    "similar_names",
    "suggest_aliases",
    "word_keys",
]

#: Which tags an alias list renames by default: the players' and the event's.
NAME_TAGS: tuple[str, ...] = ("Black", "White", "Event")

#: The columns of an alias list: the name as written, the name to use, the tags it applies to
#: (``player``, ``event``, tag names separated by spaces, or empty for all of
#: :data:`NAME_TAGS`), and why (free text; :func:`similar_names` fills it in).
ALIAS_FIELDS: tuple[str, ...] = ("old", "new", "tags", "why")

# Cyrillic letters that look like Latin ones, for mixed-script words. Small letters whose
# capital is the look-alike (в of В, н of Н, м of М, т of Т) are here too: case is folded
# before this, so a capital Н typed into "Hans" arrives as н.
_LOOK_ALIKE = str.maketrans(
    "аеорсух\u0456јѕԁһԛԝвнкмтАВЕКМНОРСТУХІЈЅ",
    "aeopcyxijsdhqwbhkmtABEKMHOPCTYXIJS",
)
# The other way, for a Latin letter typed into a Cyrillic word. Case is folded before this,
# so the capitals H, B, M, T, K arrive as h, b, m, t, k and stand for Н, В, М, Т, К; capitals
# are here too for differences(), which leaves case as it is.
_LOOK_ALIKE_CYRILLIC = str.maketrans(
    "aeopcyxibhkmtABCEHIKMOPTXY", "аеорсух\u0456внкмтАВСЕН\u0406КМОРТХУ"
)

# Transliteration of a Cyrillic word (Russian, Ukrainian, Belarusian letters), lower case:
# the common English-language spellings seen in draughts results.
_TRANSLIT = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh",
    "з": "z", "и": "i", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
    "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts",
    "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu",
    "я": "ya", "і": "i", "ї": "yi", "є": "ye", "ґ": "g", "ў": "u",
}  # fmt: skip

_WORD = re.compile(r"\w+")


def _is_cyrillic(ch: str) -> bool:
    return "\u0400" <= ch <= "\u052f"


def _is_latin(ch: str) -> bool:
    return (ch.isascii() and ch.isalpha()) or "\u00c0" <= ch <= "\u024f"


def script_of(ch: str) -> str | None:
    """``"Latin"`` or ``"Cyrillic"`` for a letter of those scripts, else ``None``.

    >>> script_of("C"), script_of("\u0421"), script_of("1")
    ('Latin', 'Cyrillic', None)
    """
    if _is_cyrillic(ch) and ch.isalpha():
        return "Cyrillic"
    if _is_latin(ch):
        return "Latin"
    return None


def _spacing(text: str) -> str:
    text = " ".join(text.split())
    return re.sub(r"\s*([,.])\s*", r"\1", text)


def _case(text: str) -> str:
    return text.casefold()


def _dots(text: str) -> str:
    return text.replace(".", " ").strip() if "." in text else text


def _hyphen_comma(text: str) -> str:
    # Spaces, not nothing: the key drops spaces at the end anyway, and "spacing" keeps them.
    return _HYPHEN_COMMA.sub(" ", text)


_HYPHEN_COMMA = re.compile("[,\\-\u2010-\u2015\u2212]")


def _look_alike(text: str) -> str:
    def fold(match: re.Match[str]) -> str:
        word = match.group()
        cyrillic = sum(1 for ch in word if _is_cyrillic(ch))
        latin = sum(1 for ch in word if _is_latin(ch))
        if not (cyrillic and latin):
            return word
        as_latin = word.translate(_LOOK_ALIKE)
        as_cyrillic = word.translate(_LOOK_ALIKE_CYRILLIC)
        if not any(_is_latin(ch) for ch in as_cyrillic) and (
            cyrillic > latin or any(_is_cyrillic(ch) for ch in as_latin)
        ):
            return as_cyrillic
        return as_latin

    return _WORD.sub(fold, text)


def _latin(ch: str) -> str:
    latin = _TRANSLIT.get(ch.lower(), ch)
    return latin.capitalize() if ch.isupper() else latin


def mixed_script(name: str) -> bool:
    """Whether a word of ``name`` mixes Latin and Cyrillic letters (a look-alike slipped in)."""
    return any(
        any(_is_cyrillic(ch) for ch in word) and any(_is_latin(ch) for ch in word)
        for word in _WORD.findall(name)
    )


def _transliterate(text: str) -> str:
    def fold(match: re.Match[str]) -> str:
        word = match.group()
        # A word with Latin letters too is a look-alike case, not a Cyrillic name.
        if not any(_is_cyrillic(ch) for ch in word) or any(_is_latin(ch) for ch in word):
            return word
        # Case is kept (a capital stays one), so that case is not a difference of its own.
        return "".join(_latin(ch) for ch in word)

    return _WORD.sub(fold, text)


#: The folds of :func:`name_key`, in order, with the reason each stands for.
_FOLDS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("spacing", _spacing),
    ("hyphen or comma", _hyphen_comma),
    ("case", _case),
    ("dots", _dots),
    ("look-alike letters", _look_alike),
    ("transliteration", _transliterate),
)


def _key(text: str, skip: str | tuple[str, ...] | None = None) -> str:
    skipped = (skip,) if isinstance(skip, str) else skip or ()
    text = unicodedata.normalize("NFKC", text)
    for name, fold in _FOLDS:
        if name not in skipped:
            text = fold(text)
    # After the dots fold "d." and "d" differ only by the spaces it leaves.
    return "".join(text.split()) if "spacing" not in skipped else text


def word_keys(name: str) -> tuple[str, ...]:
    """The key of each word of ``name`` (``name_key`` joins them).

    >>> word_keys("Немец, Д.")
    ('nemets', 'd')
    """
    return tuple(k for k in (_key(w) for w in _WORD_SPLIT.split(name)) if k)


_WORD_SPLIT = re.compile(r"[\s,.\-\u2010-\u2015\u2212]+")


def name_key(name: str) -> str:
    """The key under which spellings of one name meet (see the module's folds).

    >>> name_key("Wyllie,  J."), name_key("WYLLIE, J"), name_key("Koops, Lambert-Jan")
    ('wylliej', 'wylliej', 'koopslambertjan')
    """
    return _key(name)


# What a damaged letter became: the replacement character, and the "?" often written for
# the second byte of a broken two-byte letter.
_DAMAGE = re.compile("\ufffd\\??")


def _damage_fits(damaged: str, key: str) -> bool:
    """Whether the key ``damaged`` (holding replacement characters) is ``key`` with one
    letter (up to four transliterated ones) in the place of each damaged one."""
    parts = [re.escape(part) for part in _DAMAGE.split(damaged)]
    return re.fullmatch(".{1,4}".join(parts), key) is not None


def differences(a: str, b: str) -> list[str]:
    """Why two names that are probably one are written differently: the folds without which
    their keys would differ, or ``damaged letter`` (empty when they are equal, or not alike)."""
    if a == b:
        return []
    key_a, key_b = _key(a), _key(b)
    if key_a != key_b:
        damaged = ("\ufffd" in key_a) != ("\ufffd" in key_b)
        if damaged and _damage_fits(*((key_a, key_b) if "\ufffd" in key_a else (key_b, key_a))):
            return ["damaged letter"]
        return []
    found = [name for name, _ in _FOLDS if _key(a, skip=name) != _key(b, skip=name)]
    if not found:
        # Two folds that each undo the difference ("Tinsley ,M." and "Tinsley, M.": spacing,
        # and commas read as spaces): the first of them, in the order of the folds.
        names = [name for name, _ in _FOLDS]
        found = next(
            (
                [first]
                for i, first in enumerate(names)
                for second in names[i + 1 :]
                if _key(a, skip=(first, second)) != _key(b, skip=(first, second))
            ),
            [],
        )
    # Equal keys but no fold needed: the difference is only in Unicode forms.
    return found or ["Unicode form"]


@dataclass(frozen=True, slots=True)
class NameGroup:
    """Names that are probably one (same :func:`name_key`), most used first, with counts."""

    names: tuple[str, ...]
    counts: tuple[int, ...]
    #: Why the names are grouped when it is not a difference :func:`differences` names.
    reason: str = ""

    @property
    def preferred(self) -> str:
        """The spelling to use: one without damaged or look-alike letters, the most used of
        those, the first written on a tie."""
        return self.names[0]

    def why(self, name: str) -> str:
        """How ``name`` differs from :attr:`preferred`, as ``"case, dots"``."""
        return ", ".join(differences(name, self.preferred)) or self.reason


def similar_names(names: Iterable[str]) -> list[NameGroup]:
    """Groups of names (each occurrence counted) that are probably one person or one event,
    in order of first appearance; names seen in one spelling only are left out.

    >>> [g.names for g in similar_names(["Nemets D", "Ann", "Nemets D.", "Nemets D"])]
    [('Nemets D', 'Nemets D.')]
    """
    counts: Counter[str] = Counter()
    order: dict[str, list[str]] = {}
    for name in names:
        if not name.strip() or name.strip() == "?":
            continue
        counts[name] += 1
        spellings = order.setdefault(name_key(name), [])
        if name not in spellings:
            spellings.append(name)
    for key in [k for k in order if "\ufffd" in k]:
        fits = [other for other in order if "\ufffd" not in other and _damage_fits(key, other)]
        if len(fits) == 1:
            order[fits[0]] += order.pop(key)
    groups = []
    for spellings in order.values():
        if len(spellings) > 1:
            # A spelling with no damaged or look-alike letters first (however rarely used:
            # those are mistakes), then the best formed, then the most used; sorted() is
            # stable, so the first written wins a remaining tie.
            ranked = sorted(
                spellings,
                key=lambda n: ("\ufffd" in n, mixed_script(n), defects(n, spellings), -counts[n]),
            )
            groups.append(NameGroup(tuple(ranked), tuple(counts[n] for n in ranked)))
    return groups


def defects(name: str, spellings: Iterable[str]) -> int:
    """How badly formed a spelling is beside the others of its group: written all in capitals,
    spaced irregularly (doubled, at an end, before a comma or none after it), or without the
    comma another spelling has. A file's ALL-CAPS or comma-less form is often its most
    frequent one, and still not the one to keep.

    >>> group = ["WYLLIE J", "Wyllie, J", "Wyllie J"]
    >>> [defects(n, group) for n in group]
    [2, 0, 1]
    """
    letters = [ch for ch in name if ch.isalpha()]
    capitals = len(letters) > 3 and all(ch.isupper() for ch in letters)
    spaced = " ".join(name.split()) != name or bool(_BAD_COMMA.search(name))
    comma = "," not in name and any("," in other for other in spellings)
    return capitals + spaced + comma


_BAD_COMMA = re.compile(r"\s,|,(?=\S)")


class AliasError(ValueError):
    """An alias list that cannot be read (the message says file and line)."""


@dataclass(frozen=True, slots=True)
class Rename:
    """One change of a tag value by an alias list."""

    tag: str
    old: str
    new: str


@dataclass(slots=True)
class Aliases:
    """What to rename: ``(tag, old value) -> new value``; values match exactly (after
    removing surrounding spaces), so only what a person listed is renamed.

    >>> aliases = Aliases.from_text("old,new,tags\\nNemets D.,Nemets D,player\\n")
    >>> from pdn.game.model import Tags
    >>> tags = Tags([("Black", "Nemets D."), ("White", "Kok")])
    >>> aliases.rename(tags), tags["Black"]
    ([Rename(tag='Black', old='Nemets D.', new='Nemets D')], 'Nemets D')
    """

    table: dict[tuple[str, str], str] = field(default_factory=dict)

    @classmethod
    def from_text(cls, text: str, source: str = "aliases") -> Aliases:
        """Read an alias list in CSV (columns :data:`ALIAS_FIELDS`; ``tags`` and ``why`` may
        be left out; a first row ``old,new,...`` is a header; blank lines and lines starting
        with ``#`` are skipped)."""
        aliases = cls()
        for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
            if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
                continue
            if number == 1 and [c.strip().lower() for c in row[:2]] == ["old", "new"]:
                continue
            if len(row) < 2 or not row[0].strip() or not row[1].strip():
                raise AliasError(f"{source}:{number}: expected old,new[,tags[,why]]: {row!r}")
            old, new = _unguarded(row[0].strip()), _unguarded(row[1].strip())
            for tag in _alias_tags(row[2] if len(row) > 2 else "", f"{source}:{number}"):
                previous = aliases.table.get((tag, old))
                if previous is not None and previous != new:
                    raise AliasError(
                        f"{source}:{number}: {old!r} in {tag} is already renamed to {previous!r}"
                    )
                aliases.table[(tag, old)] = new
        return aliases

    @classmethod
    def from_file(cls, path: str | Path) -> Aliases:
        """Read an alias list from a CSV file (UTF-8, a BOM allowed)."""
        return cls.from_text(Path(path).read_text(encoding="utf-8-sig"), str(path))

    def __len__(self) -> int:
        return len(self.table)

    def lookup(self, tag: str, value: str) -> str | None:
        """The new value of ``tag``'s ``value``, or ``None`` when the list does not rename it."""
        new = self.table.get((tag, value.strip()))
        return None if new is None or new == value else new

    def rename(self, tags: _MutableTags) -> list[Rename]:
        """Rename the tag values of ``tags`` in place (every pair, duplicates included);
        returns the changes made, in tag order."""
        changes = []
        for tag, value in tags.items():
            new = self.lookup(tag, value)
            if new is not None:
                changes.append(Rename(tag, value, new))
        for change in changes:
            tags[change.tag] = change.new
        return changes


class _Tags(Protocol):
    """Tag pairs in order (:class:`pdn.game.model.Tags` has them)."""

    def items(self) -> list[tuple[str, str]]:
        """The pairs in order."""
        ...


class _MutableTags(_Tags, Protocol):
    """What :meth:`Aliases.rename` needs of tags (:class:`pdn.game.model.Tags` has it)."""

    def __setitem__(self, name: str, value: str, /) -> None: ...


def _unguarded(cell: str) -> str:
    """A cell as it was before :func:`pdn.text.safe_text.csv_cell` guarded it against formulas
    (so a list written by :func:`aliases_csv` reads back the names it holds)."""
    from .safe_text import FORMULA_STARTS

    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell


def _alias_tags(text: str, where: str) -> tuple[str, ...]:
    words = text.replace(",", " ").split()
    if not words:
        return NAME_TAGS
    tags: list[str] = []
    for word in words:
        if word.lower() == "player":
            tags += ["Black", "White"]
        elif word.lower() == "event":
            tags.append("Event")
        elif re.fullmatch(r"[A-Za-z0-9_]+", word):
            tags.append(word)
        else:
            raise AliasError(f"{where}: {word!r} is not a tag name")
    return tuple(dict.fromkeys(tags))


def suggest_aliases(tag_sets: Iterable[_Tags]) -> list[tuple[str, NameGroup]]:
    """Likely aliases among the players (``Black``, ``White``) and events (``Event``) of
    games' tags: ``("player" | "event", group)`` pairs for :func:`aliases_csv`.

    >>> from pdn.game.model import Tags
    >>> games = [Tags([("Event", "Open"), ("Black", "Kok"), ("White", "Кок")])]
    >>> [(kind, group.names) for kind, group in suggest_aliases(games)]
    [('player', ('Kok', 'Кок'))]
    """
    players: list[str] = []
    events: list[str] = []
    for tags in tag_sets:
        players += [value for name, value in tags.items() if name in ("Black", "White")]
        events += [value for name, value in tags.items() if name == "Event"]
    event_groups = similar_names(events)
    player_groups = similar_names(players)
    from .name_typos import typo_pairs  # builds on this module's keys

    # A typo between the names left once the spellings are grouped: their preferred ones.
    renamed = {name for group in player_groups for name in group.names[1:]}
    counts = Counter(players)
    for group in player_groups:
        counts[group.preferred] = sum(group.counts)
    kept = [name for name in counts if name not in renamed and name.strip() not in ("", "?")]
    return (
        [("player", group) for group in player_groups]
        + [("player", group) for group in typo_pairs(kept, counts)]
        + [("event", group) for group in event_groups]
        + [("event", group) for group in _extended_events(events, event_groups)]
    )


#: The shortest event name another may extend (shorter ones, "Open", say too little).
_SHORTEST_EXTENDED = 8

#: Words that make an event another one: a name extended by one of them (``"Championship
#: 2015 (women)"``, ``"Чемпионат России (юниоры)"``) is a different event, never suggested as
#: a rename. Each is the start of a word, so inflected forms count (``женщин`` is also
#: ``женщины``, ``junior`` also ``juniors`` and ``junioren``): who plays (women, girls, boys,
#: juniors, veterans... in English, Russian, Ukrainian, Dutch, French and German), and how
#: (blitz, rapid, team). Age groups such as ``U-16``, ``U16``, ``under 16``, ``до 16`` are
#: different events too. ``men`` is not here: the men's event is often the one named without
#: a word, and a file that adds "(men)" between rounds renames it.
DISTINCT_EVENT_WORDS: tuple[str, ...] = (
    # who plays
    "women", "woman", "ladies", "female", "girl", "boy", "junior", "youth", "cadet",
    "veteran", "senior", "children", "kids", "school", "student",
    "женщин", "женск", "девуш", "девоч", "юниор", "юнош", "мальчик", "кадет", "ветеран",
    "сеньор", "детск", "дети", "молодеж", "молодёж", "школьн", "студен",
    "жінк", "жіноч", "дівч", "юніор", "юнак", "хлопц",
    "vrouwen", "dames", "meisjes", "jeugd", "aspirant", "pupil", "welp",
    "femmes", "féminin", "feminin", "jeunes", "minimes", "benjamin",
    "frauen", "damen", "jugend", "mädchen", "madchen",
    # how
    "blitz", "rapid", "team", "блиц", "быстр", "рапид", "команд", "snel",
)  # fmt: skip

_DISTINCT_EVENT = re.compile(
    r"(?<!\w)(?:" + "|".join(map(re.escape, DISTINCT_EVENT_WORDS)) + r")"
    r"|(?<!\w)(?:u|under|до)\s*-?\s*\d{1,2}(?!\d)",
    re.IGNORECASE,
)


def distinct_events(a: str, b: str) -> bool:
    """Whether two event names differ by a word of :data:`DISTINCT_EVENT_WORDS` (or an age
    group): then they are two events, whatever else they share.

    >>> distinct_events("Championship 2015", "Championship 2015 (women)")
    True
    >>> distinct_events("Championship 2015", "Championship 2015 (men)")
    False
    """

    def marks(name: str) -> set[str]:
        found = {m.group().casefold() for m in _DISTINCT_EVENT.finditer(name)}
        return {"".join(ch for ch in mark if ch.isalnum()) for mark in found}

    return marks(a) != marks(b)


def _extended_events(events: list[str], grouped: list[NameGroup]) -> list[NameGroup]:
    """Pairs of event names where one extends the other (``"Championship 2015"`` and
    ``"Championship 2015 (men)"``: files that rename an event between rounds), the more used
    first. Only a suggestion, and never where the longer adds a word of
    :data:`DISTINCT_EVENT_WORDS` (``"Championship 2015 (women)"`` is another event)."""
    counts = Counter(events)
    renamed = {name for group in grouped for name in group.names[1:]}
    names = [name for name in counts if name not in renamed and name.strip() not in ("", "?")]
    # Spacing and case folded only: where the words end must still show ("game 2" is not
    # extended by "game 20").
    keys = {name: " ".join(name.split()).casefold() for name in names}

    def extends(longer: str, short: str) -> bool:
        key, prefix = keys[longer], keys[short]
        return len(key) > len(prefix) and key.startswith(prefix) and not key[len(prefix)].isalnum()

    # Sorted, the names a prefix starts are one run: found by bisection, not by pairs.
    ordered = sorted(names, key=lambda n: keys[n])
    sorted_keys = [keys[n] for n in ordered]
    found = []
    for short in names:
        prefix = keys[short]
        if len(prefix) < _SHORTEST_EXTENDED:
            continue
        longer = []
        for index in range(bisect.bisect_right(sorted_keys, prefix), len(ordered)):
            if not sorted_keys[index].startswith(prefix):
                break
            if extends(ordered[index], short):
                longer.append(ordered[index])
        # A women's (junior...) event beside it is another event, and it still makes the short
        # name ambiguous: "Championship" with "(men)" and "(women)" may be either.
        if len(longer) == 1 and not distinct_events(longer[0], short):
            pair = sorted((short, longer[0]), key=lambda n: -counts[n])
            found.append(
                NameGroup(
                    tuple(pair),
                    tuple(counts[n] for n in pair),
                    "one name extends the other: check that it is the same event",
                )
            )
    return found


def aliases_csv(groups: Iterable[tuple[str, NameGroup]]) -> str:
    """An alias list (CSV, :data:`ALIAS_FIELDS`) that renames every other spelling of each
    group to its preferred one; ``groups`` pairs each group with the ``tags`` it applies to
    (``player`` or ``event``). Cells go through :func:`pdn.text.safe_text.csv_cell`."""
    from .safe_text import csv_cell

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(ALIAS_FIELDS)
    for tags, group in groups:
        for name, count in zip(group.names[1:], group.counts[1:], strict=True):
            why = f"{group.why(name)}; {count} vs {group.counts[0]} games"
            writer.writerow([csv_cell(name), csv_cell(group.preferred), tags, why])
    return buffer.getvalue()
