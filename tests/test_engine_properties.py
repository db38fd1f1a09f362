"""Invariants over random games in every variant, and English cross-checked against pydraughts."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn.engine import (
    BRAZILIAN,
    CANADIAN,
    ENGLISH,
    INTERNATIONAL,
    POOL,
    RUSSIAN,
    Fault,
    Position,
    Variant,
    diagnose,
    perft,
)
from pdn.engine import VARIANTS as REGISTRY

ALL = [ENGLISH, RUSSIAN, BRAZILIAN, POOL, INTERNATIONAL, CANADIAN]
# The variants added for issue 9 go through the same invariants.
ALL += [v for v in REGISTRY.values() if v not in ALL]


def _playout(variant: Variant, seed: int, plies: int) -> list[Position]:
    """Positions along a random game; kings appear often enough after ~40 plies."""
    rng = random.Random(seed)
    pos = Position.start(variant)
    seen = [pos]
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        pos = pos.play(rng.choice(legal))
        seen.append(pos)
    return seen


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ALL), st.integers(0, 2**32), st.integers(0, 120))
def test_position_invariants_along_random_games(variant: Variant, seed: int, plies: int) -> None:
    for pos in _playout(variant, seed, plies)[-6:]:
        legal = pos.legal_moves()
        merged = pos.legal_moves(merge_duplicates=True)
        # FEN round trip, in both square styles.
        # A FEN does not carry Frisian's king-move counts; everything else must come back.
        plain = replace(pos, king_moves=(0, 0, 0, 0))
        assert Position.from_fen(pos.fen(), variant) == plain
        assert Position.from_fen(pos.fen(algebraic=True), variant) == plain
        # perft(1) is the move list, merged and not.
        assert perft(pos, 1) == len(legal)
        assert perft(pos, 1, merge_duplicates=True) == len(merged)
        assert len({pos.play(m) for m in legal}) == len(merged)
        # Capture is compulsory: all moves capture, or none does.
        assert pos.has_capture() == any(m.is_capture for m in legal)
        assert len({m.is_capture for m in legal}) <= 1
        assert pos.is_game_over() == (not legal)
        if variant.majority_capture and legal:
            assert len({len(m.captures) for m in legal}) == 1
        for m in legal:
            after = pos.play(m)
            assert after == pos.apply_unchecked(m.path, m.captures)
            assert after.turn is pos.turn.opponent
            # Every legal move written in full is recognised as itself...
            full = diagnose(pos, m.path, m.is_capture)
            assert full.ok and full.move is not None and pos.play(full.move) == after
            # ...and in short form either recognised or reported ambiguous with it listed.
            short = diagnose(pos, (m.start, m.end), m.is_capture)
            if short.ok:
                assert short.move is not None and short.move.start == m.start
            else:
                assert short.fault is Fault.AMBIGUOUS_MOVE and m in short.candidates
            # Stopping a multi-capture one landing early is an incomplete capture that a replay
            # can carry out as written.
            if len(m.path) > 2:
                early = diagnose(pos, m.path[:-1], True)
                assert early.fault is Fault.INCOMPLETE_CAPTURE and early.applied is not None
            # Captured pieces are the opponent's and are gone afterwards.
            for square in m.captures:
                piece = pos.piece_at(square)
                assert piece is not None and piece.color is pos.turn.opponent
                assert after.piece_at(square) is None


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(ALL), st.integers(0, 2**32), st.integers(0, 80), st.data())
def test_diagnose_never_crashes_on_random_squares(
    variant: Variant, seed: int, plies: int, data: st.DataObject
) -> None:
    pos = _playout(variant, seed, plies)[-1]
    squares = data.draw(
        st.lists(st.integers(-1, variant.squares + 2), min_size=1, max_size=4), label="squares"
    )
    result = diagnose(pos, squares, data.draw(st.booleans(), label="capture"))
    if result.fault is None:
        assert result.move is not None and result.move in pos.legal_moves()
    else:
        assert result.message
        if result.applied is not None:
            assert result.applied.variant is variant


def test_english_agrees_with_pydraughts_on_random_positions() -> None:
    draughts = pytest.importorskip("draughts")
    rng = random.Random(20240611)
    checked = 0
    for game in range(12):
        for pos in _playout(ENGLISH, rng.randrange(2**32), 90)[::7]:
            theirs = draughts.Board(variant="english", fen=pos.fen())
            expected = sorted(tuple(m.steps_move) for m in theirs.legal_moves())
            ours = sorted(m.path for m in pos.legal_moves())
            assert ours == expected, (game, pos.fen())
            checked += 1
    assert checked > 100
