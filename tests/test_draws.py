"""Each federation's draw rules, on positions built for each rule (issue 9)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import pdn
from pdn.engine import Color, Move, Position, Variant, board_for, get_variant, move_text
from pdn.rules.draws import DrawRules, DrawWatch, Ending, draw_rules
from pdn.rules.validation import validate


def quiet_line(variant: str, fen: str, plies: int, *, avoid_repetition: bool = True) -> str:
    """``plies`` king moves from ``fen``: no capture, no man move, none leaving a capture to
    the other side, and (by default) no position twice, so only the rule under test fires.
    The choice is deterministic: the first king move, in the engine's order, that fits."""
    rules = get_variant(variant)
    position = Position.from_fen(fen, rules)
    seen = {position}
    texts = []
    for _ in range(plies):
        for move in position.legal_moves():
            after = position.play(move)
            if move.is_capture or move.is_man_move or after.has_capture():
                continue
            if avoid_repetition and after in seen:
                continue
            break
        else:
            raise AssertionError(f"no quiet king move left after {len(texts)} plies")
        texts.append(move_text(move, rules))
        seen.add(after)
        position = after
    return " ".join(texts)


def draws(game_type: int, fen: str, moves: str) -> list[tuple[str, int | None, str]]:
    report = validate(pdn.parse_game(f'[GameType "{game_type}"]\n[FEN "{fen}"]\n{moves} *'))
    assert report.status == "ok", report.problems
    return [(p.code, p.ply, p.message) for p in report.problems if p.code.startswith("draw")]


def test_fmjd_five_move_rule_two_kings_against_one() -> None:
    fen = "W:WK46,K47:BK4"
    found = draws(20, fen, quiet_line("international", fen, 12))
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 10)]
    assert "FMJD 5-move rule" in found[0][2] and "is drawn from ply 10" in found[0][2]


def test_fmjd_sixteen_move_rule_three_kings_against_one() -> None:
    fen = "W:WK46,K47,K50:BK3"
    found = draws(20, fen, quiet_line("international", fen, 34))
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 32)]
    assert "16-move rule" in found[0][2]


def test_fmjd_twenty_five_move_rule_with_men_on_the_board() -> None:
    # Men that never move, kings that do: after 25 moves each the game is drawn.
    fen = "W:WK47,K48,36:BK3,K4,15"
    found = draws(20, fen, quiet_line("international", fen, 52))
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 50)]
    assert "FMJD 25-move rule" in found[0][2]


def test_fmjd_repetition_is_a_draw_not_a_claim() -> None:
    moves = " ".join(["50-45 1-6 45-50 6-1"] * 3)
    found = draws(20, "W:WK50,K49,48:BK1,K2,3", moves)
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 8)]
    assert "repetition rule" in found[0][2] and "occurred 3 times" in found[0][2]


def test_russian_fifteen_moves_of_kings_when_both_sides_have_kings() -> None:
    fen = "W:WKc1,Ke1,a3:BKf8,Kh8,h6"
    found = draws(25, fen, quiet_line("russian", fen, 32))
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 30)]
    assert "FShR 15-move rule" in found[0][2]


def test_russian_three_kings_against_a_lone_king() -> None:
    fen = "W:WKb2,Kc1,Ke1:BKh6"
    found = draws(25, fen, quiet_line("russian", fen, 31))
    # The king-only count and the ending count both reach 15 moves each at ply 30.
    assert sorted(ply for _, ply, _ in found) == [30, 30]
    assert any("three kings or more against a lone king" in m for _, _, m in found)


def test_czech_fifteen_moves_without_man_move_or_capture_is_a_claim() -> None:
    fen = "W:WKa1,Kc1:BKh8,Kf8"
    found = draws(29, fen, quiet_line("czech", fen, 31))
    assert [(code, ply) for code, ply, _ in found] == [("draw-claimable", 30)]
    assert "can be claimed from ply 30" in found[0][2]


@pytest.mark.parametrize("game_type", [22, 26, 30, 31, 40])
def test_variants_without_watched_draw_rules_say_nothing(game_type: int) -> None:
    rules = get_variant(pdn.game.gametype.variant_name(game_type) or "")
    position = Position.start(rules)
    text = move_text(position.legal_moves()[0], rules)
    report = validate(pdn.parse_game(f'[GameType "{game_type}"]\n1. {text} *'))
    assert not [p for p in report.problems if p.code.startswith("draw")]


# ---------------------------------------------------------------------------------------------
# The watch skips work a ply cannot need (issue 12): it must say what counting every position
# and every ending on every ply says. The oracle below is that plain counting.


def plain_watch(
    rules: DrawRules, start: Position, plies: list[tuple[Move | None, Position]]
) -> list[tuple[str, int]]:
    """(rule, ply) of each draw, found by counting everything on every ply."""
    seen = {start: 1}
    quiet = 0
    found: list[tuple[str, int]] = []
    said: set[str] = set()

    def ending_of(position: Position) -> Ending | None:
        black = (
            (position.black & ~position.kings).bit_count(),
            (position.black & position.kings).bit_count(),
        )
        white = (
            (position.white & ~position.kings).bit_count(),
            (position.white & position.kings).bit_count(),
        )
        return next(
            (e for e in rules.endings if e.applies(black, white) or e.applies(white, black)), None
        )

    def say(key: str, ply: int) -> None:
        if key not in said:
            said.add(key)
            found.append((key, ply))

    def limit(ending: Ending) -> int:
        return ending.moves if ending.stronger_only else 2 * ending.moves

    def stronger(ending: Ending | None, position: Position) -> Color | None:
        if ending is None or not ending.stronger_only:
            return None
        black = (
            (position.black & ~position.kings).bit_count(),
            (position.black & position.kings).bit_count(),
        )
        white = (
            (position.white & ~position.kings).bit_count(),
            (position.white & position.kings).bit_count(),
        )
        return Color.BLACK if ending.applies(black, white) else Color.WHITE

    ending, ending_plies = ending_of(start), 0
    strong = stronger(ending, start)
    carried: Ending | None = None
    carried_plies = 0
    for ply, (move, after) in enumerate(plies, start=1):
        quiet = 0 if move is None or move.captures or not move.king else quiet + 1
        if rules.quiet_moves and quiet >= 2 * rules.quiet_moves:
            say("quiet", ply)
        seen[after] = seen.get(after, 0) + 1
        if rules.repetition and seen[after] >= rules.repetition:
            say("repetition", ply)
        changed = move is None or bool(move.captures) or move.crowns
        now = ending_of(after)
        if carried is not None:
            if now is None:
                carried = None
            else:
                carried_plies += 1
                if carried_plies >= limit(carried):
                    say(carried.label, ply)
        if now is not ending or (changed and now is not None and now.fresh_on_change):
            captured = move is None or bool(move.captures)
            goes_on = ending is not None and ending.goes_on and now is not None
            if goes_on and captured and carried is None:
                carried, carried_plies = ending, ending_plies + 1
                if carried_plies >= limit(carried):
                    say(carried.label, ply)
            ending, ending_plies, strong = now, 0, stronger(now, after)
        elif now is not None:
            if not now.stronger_only or after.turn is not strong:
                ending_plies += 1
            if ending_plies >= limit(now):
                say(now.label, ply)
    return found


def watched(
    rules: DrawRules, start: Position, plies: list[tuple[Move | None, Position]]
) -> list[tuple[str, int]]:
    watch = DrawWatch(rules, start)
    found = []
    for ply, (move, after) in enumerate(plies, start=1):
        for message in watch.update(move, after, ply):
            if "repetition rule" in message:
                key = "repetition"
            elif "no man has moved" in message:
                key = "quiet"
            else:
                key = next(e.label for e in rules.endings if e.label in message)
            found.append((key, ply))
    return found


# Few pieces, kings on both sides: king runs, repetitions, captures into the endings all happen.
WATCH_STARTS = {
    "english": ("W:WK29,K32,21:BK1,K4,12", "W:WK29,K32:BK1,12"),
    # ... and endings with men in them, or about to crown into one.
    "international": (
        "W:WK46,K47,36:BK4,K3,15",
        "W:WK46,K47,K48:BK3",
        "W:WK46,K47:BK3,15",
        "W:WK46,36,37:BK4",
        "W:WK46,8,9:BK40",
    ),
    "russian": (
        "W:WKa1,Kc1,g3:BKh8,Kf8,b6",
        "W:WKa1,Kc1,Ke1:BKh8",
        "W:WKa1,Kc1,g7:BKh2",
        "W:WKa1,g3:BKh8,b6",
        "W:WKa1,Kc1,g3,e3:BKh8,b6,d6",
    ),
    "czech": ("W:WKa1,Kc1,g3:BKh8,Kf8,b6", "W:WKa1,Kc1:BKh8,b6"),
    "pool": ("W:WK29,K30,K31:BK4", "W:WK29,K30,10:BK4", "B:WK29,K30,K31:BK4,12"),
    "frisian": ("W:WK46,K47:BK3", "W:WK46,9:BK3", "B:WK46,K47:BK3,40"),
}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(WATCH_STARTS)),
    seed=st.integers(0, 2**32),
    twice=st.booleans(),
)
def test_the_watch_says_what_counting_everything_says(name: str, seed: int, twice: bool) -> None:
    # Long random lines from a seed (hypothesis's own draws favour short ones). ``twice``: a
    # draw at the second occurrence, so that any position counted wrongly shows.
    rng = random.Random(seed)
    variant = get_variant(name)
    rules = draw_rules(variant)
    assert rules is not None
    if twice:
        rules = dataclasses.replace(rules, repetition=2)
    position = start = Position.from_fen(rng.choice(WATCH_STARTS[name]), variant)
    plies: list[tuple[Move | None, Position]] = []
    last: dict[bool, Move] = {}  # each side's last move, to undo it and so repeat positions
    for _ in range(200):
        legal = position.legal_moves()
        if not legal:
            break
        kind = rng.choices(["back", "legal", "illegal"], [10, 6, 6])[0]
        side = position.turn is Color.WHITE
        undo = last.get(side)
        back = [m for m in legal if undo and m.path == undo.path[::-1] and not m.captures]
        # Mostly moves that leave nothing to capture, or flying kings end the line at once.
        safe = [m for m in legal if not position.play(m).has_capture()] or legal
        choice = back[0] if kind == "back" and back else None
        move: Move | None = choice or rng.choice(safe if rng.random() < 0.9 else legal)
        if move is not None and kind != "illegal":
            after = position.play(move)
            last[side] = move
        else:
            # An illegal move the replay went past (a step of any piece of the side to move,
            # a man backwards too), so positions of before a man move can come back.
            steps = []
            for square in range(1, board_for(variant).squares + 1):
                piece = position.piece_at(square)
                if piece is None or piece.color is not position.turn:
                    continue
                for target in neighbours(variant, square):
                    if position.piece_at(target) is None:
                        steps.append((square, target))
            if not steps:
                break
            a, b = rng.choice(steps)
            # Most often the side's last move taken back, a man's too: the surest way for a
            # position of before a man move to come back.
            taken_back = undo is not None and not undo.captures and position.piece_at(undo.end)
            if undo is not None and taken_back and rng.random() < 0.7:
                a, b = undo.end, undo.start
            after = position.apply_unchecked((a, b), ())
            move = None
        plies.append((move, after))
        position = after
    expected = plain_watch(rules, start, plies)
    event(f"{name}: {sorted({key.split(' ')[0] for key, _ in expected})}")
    assert watched(rules, start, plies) == expected


def neighbours(variant: Variant, square: int) -> list[int]:
    board = board_for(variant)
    x, y = board.coordinates(square)
    out = []
    for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        found = board.square_at(x + dx, y + dy)
        if found is not None:
            out.append(found)
    return out
