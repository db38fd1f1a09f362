"""The replay's fast path gives the verdicts of the full diagnosis, move for move.

``pdn.validate`` asks :class:`pdn.rules.fastpath.FastPath` first and runs ``engine.diagnose`` only
when
the fast path declines. These tests replay every game twice, once with the fast path declining
everything (so every move goes through ``diagnose``), and compare the whole reports: status,
every problem with its position and listed moves, every step's move and position, the final
position. Always on the vendored sample; on the whole shared corpus when it is present (slow).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_paths import CORPUS, needs_shared

from pdn import read_games
from pdn.engine import (
    ENGLISH,
    INTERNATIONAL,
    Color,
    Piece,
    Position,
    Variant,
    board_for,
    diagnose,
    get_variant,
)
from pdn.rules.fastpath import FastPath
from pdn.rules.validation import Report, validate
from pdn_engine.lookup import MoveLookup

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "corpus"


def fingerprint(report: Report) -> tuple[Any, ...]:
    """Everything a report says, in comparable form."""
    problems = [
        (p.code, p.severity, p.message, p.line, p.column, p.ply, p.move, p.legal, p.variation)
        for p in report.problems
    ]
    steps = [
        (
            s.ply,
            s.mainline,
            None if s.move is None else (s.move.path, s.move.captures, s.move.king, s.move.crowns),
            None if s.after is None else (s.after.fen(), s.after.king_moves),
        )
        for s in report.steps
    ]
    final = None if report.final is None else report.final.fen()
    variant = None if report.variant is None else report.variant.name
    return report.status, variant, report.complete, final, problems, steps


def compare_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """Replay every game of ``path`` both ways; the number of games and of fast-path answers."""
    games = list(read_games(path))
    answered = 0
    original = FastPath.play

    def counting(self: FastPath, position: Position, texts: Any, start: int = 0) -> Any:
        nonlocal answered
        played = original(self, position, texts, start)
        answered += len(played)
        return played

    with monkeypatch.context() as patch:
        patch.setattr(FastPath, "play", counting)
        fast = [fingerprint(validate(game)) for game in games]
    with monkeypatch.context() as patch:
        patch.setattr(FastPath, "play", lambda self, position, texts, start=0: [])
        full = [fingerprint(validate(game)) for game in games]
    for index, (mine, theirs) in enumerate(zip(fast, full, strict=True)):
        assert mine == theirs, f"{path.name}: game {index + 1} differs"
    return len(games), answered


SAMPLE_FILES = sorted(SAMPLE.rglob("*.pdn"))


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.relative_to(SAMPLE).as_posix())
def test_fast_path_matches_full_diagnosis_on_the_sample(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compare_file(path, monkeypatch)


def test_the_fast_path_answers_most_moves_of_the_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    # Equal verdicts would also hold if the fast path never answered; it must carry the load.
    total = answered = 0
    for path in SAMPLE_FILES:
        _, count = compare_file(path, monkeypatch)
        answered += count
    for path in SAMPLE_FILES:
        total += sum(len(game.mainline_moves()) for game in read_games(path))
    assert len(SAMPLE_FILES) >= 25
    assert answered > 0.8 * total


@pytest.mark.slow
@needs_shared(CORPUS)
@pytest.mark.parametrize(
    "path",
    sorted(CORPUS.rglob("*.pdn")) if CORPUS.is_dir() else [],
    ids=lambda p: p.relative_to(CORPUS).as_posix(),
)
def test_fast_path_matches_full_diagnosis_on_the_corpus(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compare_file(path, monkeypatch)


@needs_shared(CORPUS)
def test_the_corpus_check_skips_cleanly_when_absent() -> None:
    assert any(CORPUS.rglob("*.pdn"))


def test_lookup_declines_what_diagnose_remarks_on_or_rejects() -> None:
    start = Position.start(ENGLISH)
    lookup = MoveLookup(ENGLISH)
    # Legal, but written with a capture sign: diagnose accepts it with a remark.
    assert diagnose(start, (11, 15), True).message
    assert lookup.match(start, (11, 15), True) is None
    # Not a step, an empty square, the other side's piece, an occupied target.
    for squares in [(11, 18), (15, 19), (22, 18), (8, 12)]:
        assert not diagnose(start, squares, False).ok
        assert lookup.match(start, squares, False) is None
    # An ambiguous short capture (two paths taking different pieces).
    pos = Position.from_fen("W:W27:B15,16,23,24", ENGLISH)
    assert diagnose(pos, (27, 11), True).fault is not None
    assert lookup.match(pos, (27, 11), True) is None
    # ... and the full path of one of them is the move diagnose finds.
    move, after = lookup.match(pos, (27, 18, 11), True) or (None, None)
    assert move == diagnose(pos, (27, 18, 11), True).move
    assert after == pos.play(move)


def test_lookup_remembers_and_stays_bounded() -> None:
    lookup = MoveLookup(INTERNATIONAL, capacity=8)
    start = Position.start(INTERNATIONAL)
    for move in start.legal_moves():  # quiet steps: checked each time, never stored
        assert lookup.match(start, move.path, False) == (move, start.play(move))
    assert not lookup._recent and not lookup._older
    # Captures other than a man's hops are stored: a second ask gives the very same answers.
    for fen in ["W:WK27:B15,16,23,24", "W:WK28:B23,24", "B:W22,23:BK17,K18"]:
        position = Position.from_fen(fen, ENGLISH)
        english = MoveLookup(ENGLISH, capacity=2)
        for move in position.legal_moves():
            played = english.match(position, move.path, True)
            assert played is not None and played == (move, position.play(move))
            # The stored position itself, not one played again (the pair is compared by
            # identity of its parts: compiled by mypyc, a tuple is a value with no identity).
            again = english.match(position, move.path, True)
            assert again is not None and again[1] is played[1] and again[0] is played[0]
            assert len(english._recent) + len(english._older) <= 2


def test_move_texts_are_parsed_once_and_the_table_stays_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pdn.rules.fastpath

    monkeypatch.setattr(pdn.rules.fastpath, "_TEXTS", 4)
    fast = FastPath(ENGLISH)
    start = Position.start(ENGLISH)
    written = {
        "11-15": (11, 15, False),
        "11 - 15": (11, 15, False),
        "11x15": (11, 15, True),  # legal, with a remark on the separator: declined
        "09-13": (9, 13, False),
        "9-13": (9, 13, False),
        "12-16": (12, 16, False),
        "11-16": (11, 16, False),
        "21-17": (21, 17, False),  # White's man, Black to move: declined
    }
    for text, (a, b, capture) in [*written.items(), *written.items()]:
        played = fast.match(start, text)
        full = diagnose(start, (a, b), capture)
        if played is None:
            assert full.message or not full.ok
        else:
            assert full.ok and not full.message
            assert played == (full.move, start.play(full.move))
        assert len(fast._texts) <= 4
    assert fast.match(start, "not a move") is None


def test_lines_played_before_come_from_the_opening_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    import pdn.rules.fastpath

    monkeypatch.setattr(pdn.rules.fastpath, "_TREE_PLIES", 3)
    fast = FastPath(ENGLISH)
    start = Position.start(ENGLISH)
    line = ["11-15", "23-19", "8-11", "22-17", "9-13"]
    first = fast.play(start, line)
    again = fast.play(start, line)
    assert [move for move, _ in again] == [move for move, _ in first]
    assert [after.fen() for _, after in again] == [after.fen() for _, after in first]
    # The tree's plies are the very positions of the first time (quiet steps are otherwise
    # played afresh each time, never stored); past its depth they are played again.
    assert [a is b for (_, a), (_, b) in zip(first, again, strict=True)] == [
        True,
        True,
        True,
        False,
        False,
    ]
    # A line that leaves the tree goes on from where it leaves, and grows it.
    other = fast.play(start, ["11-15", "23-19", "9-13", "22-18"])
    assert other[1][1] is first[1][1] and other[2][0].path == (9, 13)
    assert fast.play(start, ["11-15", "23-19", "9-13"])[2][1] is other[2][1]
    # From elsewhere than the start (a setup), nothing comes from the tree.
    setup = Position.from_fen(start.fen(), ENGLISH)
    assert setup is not start and fast.play(setup, line)[0][1] is not first[0][1]


def test_the_opening_tree_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import pdn.rules.fastpath

    monkeypatch.setattr(pdn.rules.fastpath, "_TREE_SIZE", 4)
    fast = FastPath(ENGLISH)
    start = Position.start(ENGLISH)
    for text in ["11-15", "11-16", "10-14", "10-15", "9-13", "9-14", "12-16"]:
        played = fast.play(start, [text, "22-18", "15-19" if text == "11-15" else "12-16"])
        assert played and len(fast._tree) <= 4
    # Started afresh when full: what it holds now still answers.
    again = fast.play(start, ["12-16", "22-18"])
    assert [move.path for move, _ in again] == [(12, 16), (22, 18)]


def test_a_mans_hops_are_answered_without_the_table() -> None:
    lookup = MoveLookup(ENGLISH)
    position = Position.from_fen("B:W14,15,22,23:B9,10,18", ENGLISH)
    for move in position.legal_moves():
        assert lookup.match(position, move.path, True) == (move, position.play(move))
    assert not lookup._recent and not lookup._older


def _random_position(rng: random.Random, variant: Variant) -> Position:
    squares = rng.sample(range(1, board_for(variant).squares + 1), rng.randint(3, 14))
    pieces = {}
    for square in squares:
        color = rng.choice([Color.BLACK, Color.WHITE])
        crown = board_for(variant).bit[square] & (
            board_for(variant).bottom_row if color is Color.BLACK else board_for(variant).top_row
        )
        pieces[square] = Piece(color, king=bool(crown) or rng.random() < 0.2)
    return Position.from_pieces(variant, rng.choice([Color.BLACK, Color.WHITE]), pieces)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), name=st.sampled_from(["english", "italian", "russian"]))
def test_the_lookup_never_answers_what_diagnose_would_not(seed: int, name: str) -> None:
    # Random positions, every legal move written hop by hop and by its ends, and written
    # hops that are not legal: an answer is always diagnose's own move, without a remark.
    rng = random.Random(seed)
    variant = get_variant(name)
    position = _random_position(rng, variant)
    lookup = MoveLookup(variant)
    legal = position.legal_moves()
    written = {(m.path, bool(m.captures)) for m in legal}
    written |= {((m.path[0], m.path[-1]), bool(m.captures)) for m in legal}
    board = board_for(variant)
    for _ in range(10):  # hops that may be illegal: any square two diagonals away
        path = [rng.randint(1, board.squares)]
        for _ in range(rng.randint(1, 3)):
            x, y = board.coordinates(path[-1])
            dx, dy = rng.choice([(2, 2), (2, -2), (-2, 2), (-2, -2)])
            found = board.square_at(x + dx, y + dy)
            if found is None:
                break
            path.append(found)
        if len(path) > 1:
            written.add((tuple(path), True))
    answered = 0
    for squares, capture in sorted(written):
        played = lookup.match(position, squares, capture)
        if played is None:
            continue
        answered += 1
        diagnosis = diagnose(position, squares, capture)
        assert diagnosis.ok and not diagnosis.message, (position.fen(), squares)
        assert played == (diagnosis.move, position.play(played[0]))
    if name == "english":
        # Every legal move has an answer here (no ambiguity in English but a king's).
        assert answered >= sum(1 for m in legal if not m.king)
