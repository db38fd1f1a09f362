"""The search (issue 24): exact at a fixed depth, with its table on and off, against plain
minimax on random positions of every variant; and it finds the shots that win material."""

from __future__ import annotations

import random

import pytest

from pdn_engine import VARIANTS, Position, Variant
from pdn_engine.search import WIN, Search, evaluate, minimax

RULES = [(True, 0), (True, 6), (False, 0)]  # (repetition, quiet plies)


def random_positions(
    variant: Variant, rng: random.Random, count: int
) -> list[tuple[Position, list[Position], int]]:
    """Positions from random games, each with the positions since its last irreversible move
    and the king moves in a row that led to it (what the search is told of the past)."""
    found = []
    while len(found) < count:
        position = Position.start(variant)
        since: list[Position] = []
        quiet = 0
        for _ in range(rng.randint(6, 90)):
            moves = position.legal_moves(merge_duplicates=True)
            if not moves:
                break
            move = rng.choice(moves)
            reversible = move.king and not move.captures
            since = [*since, position] if reversible else []
            quiet = quiet + 1 if reversible else 0
            position = position.play(move)
        if position.legal_moves():
            found.append((position, since, quiet))
    return found


@pytest.mark.parametrize("variant", sorted(VARIANTS.values(), key=lambda v: v.name), ids=lambda v: v.name)
def test_a_fixed_depth_search_equals_minimax(variant: Variant) -> None:
    rng = random.Random(f"search-{variant.name}")
    for position, since, quiet in random_positions(variant, rng, 6):
        for repetition, quiet_plies in RULES:
            for depth in (1, 2, 3):
                expected = minimax(
                    position,
                    depth,
                    repetition=repetition,
                    quiet_plies=quiet_plies,
                    history=since,
                    quiet=quiet,
                )
                for table in (True, False):
                    search = Search(table=table, repetition=repetition, quiet_plies=quiet_plies)
                    found = search.run(position, depth=depth, history=since, quiet=quiet)
                    assert found.value == expected, (position.fen(), depth, table)
                    # The best move is one of minimax's best.
                    assert found.best is not None
                    child = position.play(found.best)
                    reversible = found.best.king and not found.best.captures
                    value = -minimax(
                        child,
                        depth - 1,
                        repetition=repetition,
                        quiet_plies=quiet_plies,
                        history=[*since, position] if reversible else [],
                        quiet=quiet + 1 if reversible else 0,
                    )
                    if (
                        repetition
                        and reversible
                        and child.kings
                        and child.key() in [p.key() for p in since]
                    ):
                        value = 0
                    if quiet_plies and reversible and quiet + 1 >= quiet_plies:
                        value = 0
                    if abs(value) > WIN // 2:  # an end seen from the child is a ply nearer
                        value -= 1 if value > 0 else -1
                    assert value == expected, (position.fen(), depth, found.best)


def test_a_table_kept_between_searches_stays_exact() -> None:
    rng = random.Random(7)
    variant = VARIANTS["international"]
    search = Search()
    for position, since, quiet in random_positions(variant, rng, 8):
        for depth in (1, 2, 3, 2, 1):
            found = search.run(position, depth=depth, history=since, quiet=quiet)
            assert found.value == minimax(position, depth, history=since, quiet=quiet)


def test_the_evaluation_is_symmetric() -> None:
    for variant in VARIANTS.values():
        start = Position.start(variant)
        assert evaluate(start) == 0 or variant.name in {"turkish"}  # laid out symmetrically
        # The same position seen from each side: the values are opposite.
        other = start.with_turn(start.turn.opponent)
        assert evaluate(other) == -evaluate(start)


def test_a_lost_position_is_valued_as_lost() -> None:
    position = Position.from_fen("B:W32:B28", VARIANTS["english"])  # 28 cannot move
    found = Search().run(position, depth=4)
    assert (found.value, found.best, found.win_in) == (-WIN, None, 0)
    # One ply before: White to move wins by blocking (a loss in one for Black after it).
    before = Position.from_fen("W:WK27:B28", VARIANTS["english"])
    found = Search().run(before, depth=4)
    assert found.best is not None and found.best.notation() == "27-32"
    assert found.win_in == 1


def test_limits_stop_the_search() -> None:
    start = Position.start(VARIANTS["international"])
    found = Search().run(start, nodes=3000)
    assert found.best in start.legal_moves()
    assert found.nodes <= 3000 + 1
    with pytest.raises(ValueError):
        Search().run(start)
