# ruff: noqa: RUF002
# (Cyrillic names in the examples: their letters are meant.)
"""Names one letter apart: a typo that :func:`pdn.text.names.name_key` cannot fold away.

``"Ivanov, A."`` and ``"Ivenov, A."``, ``"Садовский С."`` and ``"Садовскии С."``: one letter
replaced, two swapped, one left out or added, in one word of four letters or more, the other
words the same. Compared as keys (:func:`pdn.text.names.word_keys`), so a Cyrillic name is checked
as a Latin one. Only ever suggested (:func:`pdn.text.names.suggest_aliases`), never merged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .names import NameGroup, defects, mixed_script, word_keys

__all__ = ["typo_pairs"]

#: The shortest word (as a key) in which one letter wrong is taken for a typo: in shorter
#: ones ("Kok", "Kos", an initial) one letter makes another name.
_SHORTEST_TYPO_WORD = 4


def _one_typo(a: str, b: str) -> bool:
    """Whether word keys ``a`` and ``b`` differ by one letter typed wrong: one replaced, two
    side by side swapped, or one left out or added, but not at the end (``Ivanov`` and
    ``Ivanova`` are two people).

    >>> _one_typo("ivanov", "ivenov"), _one_typo("sadovskii", "sadvoskii"), _one_typo(
    ...     "ivanov", "ivanova")
    (True, True, False)
    """
    if a == b or min(len(a), len(b)) < _SHORTEST_TYPO_WORD or not (a.isalpha() and b.isalpha()):
        return False  # short words and numbers ("Player 1001") make other names
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(diff) == 1:
            return True
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    if len(long) != len(short) + 1 or long[-1] != short[-1]:
        return False
    i = next((i for i, (x, y) in enumerate(zip(short, long, strict=False)) if x != y), len(short))
    return short[i:] == long[i + 1 :]


def typo_pairs(names: Iterable[str], counts: Counter[str]) -> list[NameGroup]:
    """Pairs of names that differ by one letter typed wrong in one word of four letters or
    more, the other words the same (keys, so a typo in a Cyrillic name is found as in a Latin
    one), each name with one such neighbour only (more is no typo, it is a family of
    names). The well-formed and more used spelling first.

    Each name's words are indexed under each word with one letter left out (and as they
    are): names one letter apart share an entry, so the work grows with the letters of the
    names, not with their pairs.
    """
    keyed = {name: word_keys(name) for name in names}
    index: dict[tuple[object, ...], list[str]] = {}
    for name, words in keyed.items():
        for at, word in enumerate(words):
            if len(word) < _SHORTEST_TYPO_WORD - 1 or not word.isalpha():
                continue
            rest = (len(words), at, words[:at], words[at + 1 :])
            for cut in {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}:
                index.setdefault((*rest, cut), []).append(name)
    neighbours: dict[str, set[str]] = {}
    for found in index.values():
        if len(found) < 2 or len(found) > 50:  # more alike than a typo would make
            continue
        for i, a in enumerate(found):
            for b in found[i + 1 :]:
                if a == b or keyed[a] == keyed[b] or len(keyed[a]) != len(keyed[b]):
                    continue
                apart = [
                    k for k, (x, y) in enumerate(zip(keyed[a], keyed[b], strict=True)) if x != y
                ]
                if len(apart) == 1 and _one_typo(keyed[a][apart[0]], keyed[b][apart[0]]):
                    neighbours.setdefault(a, set()).add(b)
                    neighbours.setdefault(b, set()).add(a)
    pairs = []
    for a in keyed:
        near = neighbours.get(a, set())
        if len(near) != 1:
            continue
        (b,) = near
        if a < b and len(neighbours[b]) == 1:
            both = [a, b]
            pair = sorted(both, key=lambda n: (mixed_script(n), defects(n, both), -counts[n]))
            pairs.append(
                NameGroup(
                    tuple(pair),
                    tuple(counts[n] for n in pair),
                    "one letter apart: check that it is the same person",
                )
            )
    return pairs
