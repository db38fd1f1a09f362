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


@pytest.mark.parametrize(
    "variant", sorted(VARIANTS.values(), key=lambda v: v.name), ids=lambda v: v.name
)
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


#: Shots found by a scan of random positions (a quiet move after which every reply must take
#: one man and then a capture of GAIN + 1 men follows), in each family of rules: (variant,
#: men won, FEN, the shot).
SHOTS = [
    ("english", 1, "B:W17,18,19,22,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,9,11,12,20", "9-14"),
    ("english", 2, "B:W19,20,21,23,27,28,29,30,32:B2,3,4,6,7,8,11,12,14", "11-16"),
    (
        "international",
        1,
        "B:W22,23,31,32,35,36,38,41,42,43,45,46,47,48,49,50:B1,2,3,4,5,6,8,9,10,11,13,16,20",
        "13-18",
    ),
    ("russian", 1, "W:W9,13,17,20,24,25,26,28,29,30,31,32:B2,3,4,5,6,7,8,12", "25-21"),
    (
        "turkish",
        1,
        "B:W34,39,40,41,43,45,47,49,50,51,52,53,54,55,56:B9,10,11,12,13,14,15,16,18,20,22,24,25,27,37",
        "25-26",
    ),
    (
        "frisian",
        1,
        "B:W24,27,35,36,37,38,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,13,16,17,18",
        "18-23",
    ),
    (
        "frisian",
        2,
        "W:W34,35,38,39,40,42,43,44,45,46,47,48,49,50:B2,3,4,5,7,8,9,10,11,13,14,15,17,18,20,21,24",
        "34-29",
    ),
    ("italian", 1, "W:W17,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,11,18,19", "26-22"),
    ("italian", 2, "W:W23,25,28,30,32:B1,6,13,14,16,27", "23-20"),
    ("thai", 1, "W:W20,21,22,24,26,27,28,29:B4,5,7,8,9,10,12,14", "20-16"),
]


@pytest.mark.parametrize(
    ("name", "gain", "fen", "shot"), SHOTS, ids=[f"{s[0]}-{s[1]}" for s in SHOTS]
)
@pytest.mark.parametrize("depth", [1, 3])
def test_the_search_finds_the_shot(name: str, gain: int, fen: str, shot: str, depth: int) -> None:
    position = Position.from_fen(fen, VARIANTS[name])
    shots = [m for m in position.legal_moves() if m.notation() == shot]
    assert shots and not shots[0].captures  # a sacrifice, not a capture
    # One ply is enough: after the sacrifice, captures are pending to the end of the shot.
    found = Search().run(position, depth=depth)
    assert found.value - evaluate(position) >= 80 * gain
    assert found.best is not None and not found.best.captures
    # The move found wins as much as the shot: searched after each, the same value.
    after = Search().run(position.play(found.best), depth=depth + 2)
    after_shot = Search().run(position.play(shots[0]), depth=depth + 2)
    assert -after.value >= -after_shot.value - 30


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


def test_a_board_full_of_flying_kings_is_searched_in_few_nodes() -> None:
    # 20 kings a side face each other: every quiet move offers a king, and the exchanges that
    # follow ran ~40 plies deep, every branch searched (no depth 1 in minutes). Captures are
    # now followed QUIESCENCE_PLIES past the horizon, and depth 2 completes within its nodes.
    kings = "B:W" + ",".join(f"K{s}" for s in range(31, 51))
    position = Position.from_fen(
        kings + ":B" + ",".join(f"K{s}" for s in range(1, 21)), VARIANTS["international"]
    )
    found = Search().run(position, depth=2, nodes=20_000)
    assert found.depth == 2 and found.best in position.legal_moves()
    assert minimax(position, 1) == Search().run(position, depth=1).value
