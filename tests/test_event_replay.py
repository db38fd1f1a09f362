"""A game replayed from the reader's events gives what its model gives.

``pdn validate`` (and the dask bag of verdicts) read each game for its replay alone
(:func:`pdn.reading.recording.record`): one line of plain moves is replayed from the reader's lists,
with no tree. These tests read every game both ways, through the same :class:`Replays` as the
commands (so the earlier games of a file break ties the same way), and compare everything the
report says: status, rules and where they came from, every problem (reader's and replay's),
the start and final positions, and the verdict's JSON record. Always on the vendored sample and
the examples; on the whole shared corpus in the ``corpus`` tier.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from shared_paths import CORPUS, needs_shared

import pdn
from pdn.collections.verdicts import validate_files, verdict_of_report
from pdn.game.model import Game, Node
from pdn.reading.reader import parse_raw, split_games
from pdn.reading.recording import record
from pdn.rules.replays import Replays
from pdn.rules.validation import Report, validate

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_FILES = sorted((ROOT / "tests" / "fixtures").rglob("*.pdn")) + sorted(
    (ROOT / "examples").glob("*.pdn")
)


def said(report: Report) -> tuple[Any, ...]:
    """Everything a report says but its steps (a game read for its replay has none)."""
    return (
        report.status,
        None if report.variant is None else report.variant.name,
        report.rules_source,
        report.rules_evidence,
        report.complete,
        None if report.start is None else (report.start.fen(), report.start.king_moves),
        None if report.final is None else (report.final.fen(), report.final.king_moves),
        [problem.to_dict() for problem in report.all_problems],
        verdict_of_report(report, "f").to_dict(),
    )


def compare_file(path: Path) -> tuple[int, int]:
    """Both ways over every game of ``path``: how many games, and how many had no tree."""
    from_model, from_events = Replays(), Replays()
    games = plain = 0
    for raw in split_games(path):
        recorded = record(raw)
        plain += recorded.runs is not None
        mine = said(from_events.of(recorded, path.name))
        theirs = said(from_model.of(parse_raw(raw), path.name))
        assert mine == theirs, f"{path.name}: game {raw.index} differs"
        games += 1
    return games, plain


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_events_and_model_agree_on_the_sample(path: Path) -> None:
    compare_file(path)


def test_most_sample_games_are_replayed_without_a_tree() -> None:
    # Equal reports would also hold if every game fell back to the model: the event path must
    # carry the load, and the fallback must be exercised too.
    counts = [compare_file(path) for path in SAMPLE_FILES]
    games = sum(count for count, _ in counts)
    plain = sum(count for _, count in counts)
    assert games > 400
    assert 0.5 * games < plain < games


@pytest.mark.slow
@needs_shared(CORPUS)
@pytest.mark.parametrize(
    "path",
    sorted(CORPUS.rglob("*.pdn")) if CORPUS.is_dir() else [],
    ids=lambda p: p.relative_to(CORPUS).as_posix(),
)
def test_events_and_model_agree_on_the_corpus(path: Path) -> None:
    compare_file(path)


def _shape(node: Node) -> list[tuple[Any, ...]]:
    return [
        (n.move, n.setup, n.number, n.line, n.column, depth, len(n.variations))
        for n, depth in node.walk()
    ]


def _model_without_annotations(raw: Any) -> Game:
    game = parse_raw(raw)
    for node, _ in game.root.walk():
        node.strength = None
        node.nags.clear()
        node.comments_before.clear()
        node.comments_after.clear()
    game.root.comments_before.clear()
    game.root.comments_after.clear()
    return game


@pytest.mark.parametrize(
    "text",
    [
        '[Event "a"]\n1. 11-15 23-19 2. 8-11 22-17 1-0',
        "1. 11-15 {a} 23-19 $1 2. 8-11! 22-17 *",
        "1. 11-15 (1. 10-14 22-18) 23-19 (22-18) 2. 8-11 *",
        "( 9-13 ) 1. 11-15 23-19 *",
        '1. 11-15 /FEN "W:W21,22:B1,2"/ 21-17 *',
        "1.11-15 23-19 2.8-11 *",
        "1. 11-15 23-19 ( 2. 9-13 ) *",
    ],
)
def test_the_model_of_a_recorded_game_is_the_readers(text: str) -> None:
    [raw] = split_games(io.StringIO(text))
    recorded = record(raw)
    mine, theirs = recorded.model(), _model_without_annotations(raw)
    assert _shape(mine.root) == _shape(theirs.root)
    assert mine.tags.items() == theirs.tags.items()
    assert [p.to_dict() for p in mine.errors] == [p.to_dict() for p in theirs.errors]
    assert (mine.variant, mine.variant_source, mine.terminator) == (
        theirs.variant,
        theirs.variant_source,
        theirs.terminator,
    )
    assert said(validate(recorded.model())) == said(validate(theirs))


def test_a_plain_game_keeps_the_readers_lists_and_a_variation_makes_the_model() -> None:
    [plain] = split_games(io.StringIO("1. 11-15 23-19 2. 8-11 *"))
    [branched] = split_games(io.StringIO("1. 11-15 (9-13) 23-19 *"))
    assert record(plain).runs is not None
    assert record(plain).game.root.variations == []
    assert record(branched).runs is None
    assert record(branched).game.mainline_moves() == ["11-15", "23-19"]


def test_an_illegal_guess_is_retried_on_the_model() -> None:
    # No GameType, and a man moving backwards: the guess (English) fails, so the other rules
    # of the board are tried, which read the moves as nodes.
    text = "1. 11-15 23-19 2. 15-11 *"
    [raw] = split_games(io.StringIO(text))
    recorded = record(raw)
    mine = validate(recorded)
    assert recorded.runs is None  # the model was made for the retry
    assert said(mine) == said(validate(pdn.parse_game(text)))


def test_validate_files_reads_each_game_for_its_replay(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text("1. 11-15 23-19 2. 15-11 *\n\n1. 11-15 (9-13) 23-19 *\n", encoding="utf-8")
    verdicts = list(validate_files([path]))
    assert [v.status for v in verdicts] == ["illegal", "ok"]
    assert [p.code for p in verdicts[0].problems] == ["backward-man"]
    assert verdicts[0].problems[0].line == 1
