"""The round-trip contract on a vendored sample of the real corpus (``fixtures/corpus``).

These files are copies, byte for byte, of real public files (see ``fixtures/corpus/SOURCES.md``),
so the tests run on a fresh clone without ``../shared``.  For every file: it reads without an
exception, the games and moves found match a count made here independently of the reader, every
problem points inside the file, and every game round-trips three ways to the *source* model:
faithful PDN, normalised PDN (against the source after the documented normalisation) and JSON;
and the visitor replay builds an equal model.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from roundtrip import (
    difference,
    faithful_again,
    json_again,
    normalised,
    normalised_again,
    replayed,
)

from pdn import Game, read_games, write_game

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "corpus"
FILES = sorted(SAMPLE.rglob("*.pdn"))


def name(path: Path) -> str:
    return path.relative_to(SAMPLE).as_posix()


_cache: dict[Path, list[Game]] = {}


def games_of(path: Path) -> list[Game]:
    """The games of a file, read once per test session (each test only reads the models)."""
    if path not in _cache:
        _cache[path] = list(read_games(path))
    return _cache[path]


def test_the_sample_is_there() -> None:
    # A missing or emptied fixtures folder would make every parametrised test vanish silently.
    assert len(FILES) >= 25
    assert sum(path.stat().st_size for path in FILES) > 250_000
    assert (SAMPLE / "SOURCES.md").is_file()


# A row of the file table in SOURCES.md: | `path` | bytes | `sha256` | ...
_ROW = re.compile(r"^\| `([^`]+\.pdn)` \| ([0-9,]+) \| `([0-9a-f]{64})` \|", re.MULTILINE)


def test_files_are_the_vendored_bytes() -> None:
    # Byte for byte: a re-encoded file, converted line ends or an edit would change the digest.
    sources = (SAMPLE / "SOURCES.md").read_text(encoding="utf-8")
    listed = {row[0]: (int(row[1].replace(",", "")), row[2]) for row in _ROW.findall(sources)}
    found = {
        name(path): (path.stat().st_size, hashlib.sha256(path.read_bytes()).hexdigest())
        for path in FILES
    }
    assert found == listed


# --- an independent count of games and moves ------------------------------------------------

# A tag pair as the reader's grammar writes it: [Name "value"] with \" and \\ escapes.
_TAG = re.compile(r'\[[A-Za-z_][A-Za-z0-9_]*\s*"(?:\\.|[^"\\\n])*"\s*\]')
# A move: numeric squares (leading zeros, a space after the separator as in "1- 6") or
# algebraic ones ("c3-d4", "a3b4"), two or more of them.
_MOVE = re.compile(
    r"(?<![\w/])(?:\d{1,2}(?:[-xX:] ?\d{1,2})+|[a-h][1-8](?:[-xX:]?[a-h][1-8])+)(?![\w/])"
)
_RESULT_LIKE = frozenset({"1-0", "0-1", "2-0", "0-2", "1-1", "0-0"})


def _movetext_only(text: str) -> tuple[str, int]:
    """The text without comments, tag pairs and setup commands (each becomes a space), and the
    number of tag blocks (runs of tag pairs with nothing but white space between them)."""
    out: list[str] = []
    blocks = 0
    in_block = False
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "{":
            end = text.find("}", i + 1)
            i = n if end < 0 else end + 1
        elif ch in ";%":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif ch == "[" and (tag := _TAG.match(text, i)) is not None:
            if not in_block:
                blocks += 1
                in_block = True
            i = tag.end()
            continue
        elif text.startswith('/FEN "', i):
            end = text.find('"/', i + 6)
            i = n if end < 0 else end + 2
        elif ch.isspace():
            out.append(ch)
            i += 1
            continue
        else:
            out.append(ch)
            i += 1
            in_block = False
            continue
        out.append(" ")
        in_block = False
    return "".join(out), blocks


def independent_count(text: str) -> tuple[int, int]:
    """(games, moves) of a PDN text, counted without the reader: games are tag blocks (or one
    game when a file with movetext has no tags); moves are move-like tokens outside comments
    and tags, results left out."""
    movetext, blocks = _movetext_only(text)
    moves = [m for m in _MOVE.findall(movetext) if m not in _RESULT_LIKE]
    games = blocks if blocks else (1 if movetext.strip() else 0)
    return games, len(moves)


# Files where the simple count is not meaningful, and why.
COUNT_EXCEPTIONS: dict[str, str] = {}


@pytest.mark.parametrize("path", FILES, ids=name)
def test_file_reads_and_counts_agree(path: Path) -> None:
    games = games_of(path)
    assert games, "no game read"
    assert all(isinstance(game, Game) for game in games)
    if name(path) in COUNT_EXCEPTIONS:
        pytest.skip(COUNT_EXCEPTIONS[name(path)])
    # The encoding the reader chose decodes the file (with replacement for damaged bytes).
    text = path.read_bytes().decode(games[0].encoding, "replace")
    expected_games, expected_moves = independent_count(text)
    assert len(games) == expected_games
    assert sum(game.count_moves() for game in games) == expected_moves


@pytest.mark.parametrize("path", FILES, ids=name)
def test_problems_point_inside_the_file(path: Path) -> None:
    games = games_of(path)
    lines = path.read_bytes().decode(games[0].encoding, "replace").split("\n")
    for game in games:
        assert 1 <= game.line <= len(lines)
        for problem in game.errors:
            assert problem.line is not None and problem.column is not None, problem
            assert 1 <= problem.line <= len(lines), problem
            # A column may point just past the last character (a problem at the line's end).
            assert 1 <= problem.column <= len(lines[problem.line - 1]) + 1, problem


# --- the three round trips --------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=name)
def test_faithful_round_trip(path: Path) -> None:
    for game in games_of(path):
        text, again = faithful_again(game)
        assert again == game, f"game {game.index}: {difference(game, again)}\n{text}"


@pytest.mark.parametrize("path", FILES, ids=name)
def test_normalised_round_trip(path: Path) -> None:
    for game in games_of(path):
        expected = normalised(game)
        text, again = normalised_again(game)
        assert again == expected, f"game {game.index}: {difference(expected, again)}\n{text}"
        # Stable: the normalised form of what was read back is the same text.
        assert write_game(again, normalize=True) == text, f"game {game.index}"


@pytest.mark.parametrize("path", FILES, ids=name)
def test_json_round_trip(path: Path) -> None:
    for game in games_of(path):
        again = json_again(game)
        assert again == game, f"game {game.index}: {difference(game, again)}"


@pytest.mark.parametrize("path", FILES, ids=name)
def test_visitor_replay(path: Path) -> None:
    # The model replayed through the visitor events builds an equal model.
    for game in games_of(path):
        again = replayed(game)
        assert again == game, f"game {game.index}: {difference(game, again)}"
