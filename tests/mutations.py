"""Random damage to real PDN text, and the faithful round trip it must survive.

Shared by ``tests/test_reader_mutations.py`` (a few hundred mutants of the vendored fixtures)
and ``benchmarks/corpus/mutation_game_count.py`` (thousands over the shared corpus). pytest
puts this folder on ``sys.path``, so the tests import it as ``from mutations import ...``.
"""

from __future__ import annotations

import random
import re

from pdn import parse_games, write_game
from pdn.convert import ConvertOptions, convert_games

#: The characters whose loss, gain or doubling damages the structure of a game, in classes
#: drawn alike (so that a bracket is as likely to be hit as a digit, of which there are many).
CLASSES = ("[", "]", "{", "}", "(", ")", '"', "\n", "0123456789")
_TAG_LINE = re.compile(r"^[ \t]*\[[^\n]*", re.MULTILINE)


def _one_edit(text: str, rng: random.Random) -> tuple[str, str]:
    """``text`` with one random edit, and the edit said briefly."""
    kind = rng.choice(("delete", "insert", "double", "truncate-tag"))
    if kind == "truncate-tag":
        tags = list(_TAG_LINE.finditer(text))
        if tags:
            line = rng.choice(tags)
            cut = rng.randrange(line.start(), line.end())
            return text[:cut] + text[line.end() :], f"truncate-tag@{cut}"
        kind = "insert"
    chars = rng.choice(CLASSES)
    if kind == "insert":
        at = rng.randrange(len(text) + 1)
        char = rng.choice(chars)
        return text[:at] + char + text[at:], f"insert {char!r}@{at}"
    places = [i for i, ch in enumerate(text) if ch in chars] or list(range(len(text)))
    if not places:
        return text, "none"
    at = rng.choice(places)
    if kind == "delete":
        return text[:at] + text[at + 1 :], f"delete {text[at]!r}@{at}"
    return text[:at] + text[at] + text[at:], f"double {text[at]!r}@{at}"


def mutate(text: str, rng: random.Random, most: int = 3) -> tuple[str, list[str]]:
    """``text`` with one to ``most`` random edits (see :func:`_one_edit`), and the edits."""
    edits = []
    for _ in range(rng.randint(1, most)):
        text, edit = _one_edit(text, rng)
        edits.append(edit)
    return text, edits


def convert(text: str) -> str:
    """What ``pdn convert`` writes (a faithful PDN copy) of the games of ``text``."""
    games = (("-", game) for game in parse_games(text))
    return "".join(piece.text for piece in convert_games(games, ConvertOptions()))


def round_trip(text: str) -> tuple[int, int, bool]:
    """(games read, games read back after :func:`convert`, whether each game read back has
    the faithful text, as convert writes it, of the game it came from)."""
    games = list(parse_games(text))
    back = list(parse_games(convert(text)))
    same = len(games) == len(back) and all(
        write_game(one, separate=True) == write_game(other, separate=True)
        for one, other in zip(games, back, strict=True)
    )
    return len(games), len(back), same
