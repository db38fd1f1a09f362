"""The reader and writer on every real file of the shared corpus (``../shared/corpus``)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from roundtrip import normalised_again
from shared_paths import CORPUS, OCA, needs_shared

from pdn import parse_game, read_games, write_game
from pdn.game.model import Game
from pdn.writing.jsonio import game_from_dict, game_to_dict

STANDARD = CORPUS / "wiegerw__pdn" / "games"

pytestmark = needs_shared(CORPUS)


def corpus_files() -> list[Path]:
    """Every corpus file but the Open Checkers Archive, which has a test of its own."""
    if not CORPUS.is_dir():
        return []
    return sorted(path for path in CORPUS.rglob("*.pdn") if path.name != OCA.name)


def name(path: Path) -> str:
    return str(path.relative_to(CORPUS))


# What each file of the standard's "fail" set reports, and why the PDN 3.0 reading grammar
# rejects it.  The reader accepts these files liberally, so most findings are warnings.
FAIL_EXPECTED = {
    # a game cut off after "1. 34-29 19-23" runs into the next game's tags
    "40Camp.DamaInternazionaleAssoluto.pdn": {"missing-terminator"},
    # a stray " . " before "1-0"
    "Cat.A1.pdn": {"junk"},
    # "6." with no move before "1-0", so that game also runs into the next one's tags
    "Cat.C1.pdn": {"dangling-move-number", "missing-terminator"},
    # "1. - - 2. - - ..." unknown moves
    "abatsiev.pdn": {"unknown-move"},
    # the Delfts result "4-6" is no terminator (it reads as a move), so game 1 runs into game 2
    "delfts.pdn": {"missing-terminator"},
    # forfeits written "1. 0-2": a move number with no move
    "mrdrcd07.pdn": {"dangling-move-number"},
    "mrdrcd08.pdn": {"dangling-move-number"},
    # "{ nested { comment } }": a "{" inside a comment, then a "}" that closes nothing
    "nested_comment.pdn": {"nested-comment", "syntax-error", "missing-terminator"},
}


@pytest.mark.parametrize("path", corpus_files(), ids=name)
def test_every_file_reads_and_round_trips(path: Path) -> None:
    count = 0
    for game in read_games(path):
        count += 1
        assert isinstance(game, Game)
        for problem in game.errors:
            assert problem.line is None or problem.line >= 1
            assert problem.column is None or problem.column >= 1
        text = write_game(game)
        assert parse_game(text) == game, f"game {game.index} at line {game.line}"
        assert game_from_dict(json.loads(json.dumps(game_to_dict(game)))) == game
        normal, again = normalised_again(game)
        assert write_game(again, normalize=True) == normal
        assert again.count_moves() == game.count_moves()
    assert count > 0


@pytest.mark.parametrize(
    "path",
    sorted((STANDARD / "succeed").glob("*.pdn")) if STANDARD.is_dir() else [],
    ids=lambda p: p.name,
)
def test_succeed_files_read_without_error(path: Path) -> None:
    errors = [
        (game.index, problem.code, problem.message)
        for game in read_games(path)
        for problem in game.errors
        if problem.severity == "error"
    ]
    assert errors == []


@pytest.mark.parametrize(
    "path",
    sorted((STANDARD / "fail").glob("*.pdn")) if STANDARD.is_dir() else [],
    ids=lambda p: p.name,
)
def test_fail_files_report_located_problems(path: Path) -> None:
    problems = [p for game in read_games(path) for p in game.errors]
    serious = [p for p in problems if p.severity in ("error", "warning")]
    assert serious, "no problem found"
    assert all(p.line is not None and p.column is not None for p in serious)
    assert {p.code for p in problems} == FAIL_EXPECTED[path.name]


def test_the_standard_test_files_are_all_known() -> None:
    assert sorted(p.name for p in (STANDARD / "fail").glob("*.pdn")) == sorted(FAIL_EXPECTED)


def test_open_checkers_archive() -> None:
    data = OCA.read_bytes()
    text = data.decode("ascii")
    # An independent count with plain regular expressions: move tokens outside tags, comments
    # and results.
    outside = re.sub(r"\{[^}]*\}|^\[.*$", " ", text, flags=re.MULTILINE)
    outside = re.sub(r"(?<!\S)(?:1-0|0-1|1/2-1/2)(?!\S)", " ", outside)
    expected_moves = len(re.findall(r"(?<![\d.])\d{1,2}(?:[-x]\d{1,2})+(?![\d])", outside))
    games = moves = comments = 0
    problems: Counter[str] = Counter()
    for game in read_games(OCA):
        games += 1
        moves += game.count_moves()
        comments += len(game.root.comments_after) + sum(
            len(node.comments_before) + len(node.comments_after) for node, _ in game.walk()
        )
        problems.update(p.code for p in game.errors)
        assert game.variant == "english" and game.encoding == "utf-8"
        assert game == parse_game(write_game(game))
        if games % 10 == 0:
            assert game_from_dict(json.loads(json.dumps(game_to_dict(game)))) == game
            normal = write_game(game, normalize=True)
            assert write_game(parse_game(normal), normalize=True) == normal
    assert games == 22_621
    assert moves == expected_moves == 1_158_096
    assert comments == text.count("{") == 55
    assert problems == Counter()


def test_damaged_belarus_files() -> None:
    folder = CORPUS / "jpalaz__Draughts-Games" / "belarus64M2015"
    for round_folder in sorted(folder.iterdir()):
        path = round_folder / "index.files" / "index.pdn"
        damage = [p for game in read_games(path) for p in game.errors if p.code == "encoding"]
        lines = path.read_bytes().split(b"\n")
        if round_folder.name in ("round5", "round6"):
            assert damage == []
            continue
        assert len(damage) == 2
        for problem in damage:
            assert problem.line is not None and problem.column is not None
            assert b"\xd0?" in lines[problem.line - 1]
            assert "D0" in problem.message


def test_variants_detected_in_the_corpus() -> None:
    expectations = {
        "wiegerw__pdn/games/succeed/ussr1947.pdn": ("russian", "squares"),
        "wiegerw__pdn/games/succeed/kurnik.pdn": ("international", "gametype"),
        "wiegerw__pdn/games/succeed/beginner.pdn": ("english", "fen"),
        "rhalbersma__mobydam/book/games/babasy1.pdn": ("international", "squares"),
        "NoamFav__frisian-draught/exports/20241114_144300.pdn": ("frisian", "gametype"),
        "jpalaz__Draughts-Games/belarus64W2015/round1/index.files/index.pdn": (
            "russian",
            "gametype",
        ),
    }
    for relative, expected in expectations.items():
        game = next(read_games(CORPUS / relative))
        assert (game.variant, game.variant_source) == expected, relative
    kurnik = next(read_games(CORPUS / "wiegerw__pdn/games/succeed/kurnik.pdn"))
    assert kurnik.game_type is not None and kurnik.game_type.corner == 1
