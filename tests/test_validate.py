"""Replay of whole games: every problem code on small hand-made records."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import pdn
from pdn.engine import INTERNATIONAL, RUSSIAN
from pdn.rules.validation import validate

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def codes(text: str, variant: str | None = None) -> list[str]:
    return [p.code for p in validate(pdn.parse_game(text), variant).problems]


def only(text: str) -> pdn.Problem:
    problems = validate(pdn.parse_game(text)).problems
    assert len(problems) == 1, problems
    return problems[0]


def test_clean_game_has_no_problems_and_replays_every_ply() -> None:
    game = pdn.parse_game("1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 15x22 25x18 1/2-1/2")
    report = validate(game)
    assert report.status == "ok"
    assert report.problems == []
    assert [s.ply for s in report.mainline_steps()] == list(range(1, 9))
    assert report.final is not None
    assert report.final.fen() == ("B:W18,20,21,23,24,26,27,29,30,31,32:B1,2,3,4,5,6,7,10,11,12,13")


@pytest.mark.parametrize(
    ("round_", "code", "ply", "move"),
    [
        ("1", "missed-capture", 3, "9-13"),
        ("2", "backward-man", 3, "15-11"),
        ("3", "incomplete-capture", 1, "9x18"),
        ("4", "capture-after-crowning", 1, "11x2x9"),
        ("5", "wrong-side", 2, "15-18"),
        ("6", "empty-square", 1, "13-17"),
        ("7", "occupied-square", 1, "8-11"),
        ("8", "not-diagonal", 1, "11-14"),
        ("9", "king-too-far", 1, "1-10"),
        ("10", "ambiguous-move", 1, "27x11"),
        ("11", "move-after-game-end", 1, "28-24"),
        ("12", "illegal-move", 1, "7x16"),
    ],
)
def test_gallery_game_reports_its_code(round_: str, code: str, ply: int, move: str) -> None:
    games = {g.tags["Round"]: g for g in pdn.read_games(EXAMPLES / "illegal-moves.pdn")}
    report = validate(games[round_])
    assert report.status == "illegal"
    # (A warning may come first: a record of a few plies can fit another variant's rules.)
    first = next(p for p in report.problems if p.severity == "error")
    assert (first.code, first.ply, first.move) == (code, ply, move)
    assert first.line is not None and first.column is not None
    assert first.message


def test_problem_points_at_the_written_move() -> None:
    text = '[Event "x"]\n1. 11-15 23-19\n2. 15-11 *'
    problem = only(text)
    assert (problem.line, problem.column) == (3, 4)


def test_missed_capture_lists_the_jumps_and_keeps_going() -> None:
    # 9-13 ignores 15x22; the record goes on, and its next fault is reported too.
    report = validate(pdn.parse_game("1. 11-15 22-18 2. 9-13 18x11 3. 8x15 23-19 4. 15-11 *"))
    assert [p.code for p in report.problems] == ["missed-capture", "backward-man"]
    assert report.problems[0].legal == ("15x22",)


def test_line_stops_at_a_move_that_cannot_be_made() -> None:
    report = validate(pdn.parse_game("1. 13-17 22-18 2. 9-14 *"))
    assert [p.code for p in report.problems] == ["empty-square"]
    assert not report.complete
    assert len(report.steps) == 1


def test_full_and_short_jump_paths_both_match() -> None:
    base = '[FEN "B:W14,23,30:B9,1"] '
    assert codes(base + "1. 9x18x27 *") == []
    assert codes(base + "1. 9x27 *") == []


def test_king_circle_short_form_is_one_move() -> None:
    # Both directions round the circle take the same four men: not ambiguous.
    assert codes('[FEN "W:WK2:B6,7,14,15"] 1... 2x2 *') == []


def test_variations_are_replayed_from_their_own_position() -> None:
    text = "1. 11-15 23-19 (1... 22-18 2. 15x22 (2. 9-13) 25x18) 2. 8-11 *"
    report = validate(pdn.parse_game(text))
    assert [p.code for p in report.problems] == ["missed-capture"]
    assert report.problems[0].move == "9-13"
    assert report.problems[0].ply == 3
    assert sum(1 for s in report.steps if not s.mainline) == 4


def test_setup_command_changes_the_position() -> None:
    text = '1. 11-15 /FEN "W:W27:B15,16,24"/ 27x11 *'
    report = validate(pdn.parse_game(text))
    assert report.problems == []
    assert report.final is not None and report.final.fen() == "B:W11:B15"


def test_bad_fen_tag_is_reported_and_nothing_replayed() -> None:
    report = validate(pdn.parse_game('[FEN "B:W21:B1,1"]\n1. 1-5 *'))
    assert [p.code for p in report.problems] == ["bad-fen"]
    assert report.steps == []


def test_result_mismatch() -> None:
    assert codes('[Result "1-0"]\n1. 11-15 0-1') == ["result-mismatch"]
    # A '*' terminator after a decided game says the result is unknown: a warning (no game of
    # the shared corpus does it).
    assert codes('[Result "1-0"]\n1. 11-15 *') == ["result-mismatch"]


def test_result_impossible_when_the_winner_is_blocked() -> None:
    # White to move has no legal move: White lost, so 0-1 (White won) cannot stand.
    text = '[Result "0-1"]\n[FEN "W:W29:B25,22"]\n0-1'
    assert codes(text) == ["result-impossible"]
    assert codes('[Result "1-0"]\n[FEN "W:W29:B25,22"]\n1-0') == []


def test_threefold_repetition_notice_at_the_third_occurrence() -> None:
    moves = " ".join(["1-5 32-28 5-1 28-32"] * 3)
    report = validate(pdn.parse_game(f'[FEN "B:WK32:BK1"] {moves} *'))
    claims = [p for p in report.problems if p.code == "draw-claimable"]
    assert len(claims) == 1
    assert claims[0].ply == 8
    assert claims[0].severity == "notice"
    assert report.status == "ok"


def test_forty_move_rule_notice_after_eighty_quiet_plies() -> None:
    cycle = "1-5 30-25 5-9 25-22 9-5 22-25 5-1 25-30 2-6 31-26 6-2 26-31"
    report = validate(pdn.parse_game(f'[FEN "B:WK30,K31:BK1,K2"] {" ".join([cycle] * 7)} *'))
    quiet = [p for p in report.problems if "40-move" in p.message]
    assert [p.ply for p in quiet] == [80]


def test_unknown_and_bad_square_moves() -> None:
    unknown = validate(pdn.parse_game("1. 11-15 - - 2. 9-13 *"))
    assert [p.code for p in unknown.all_problems] == ["unknown-move"]
    assert not unknown.complete
    assert codes("1. 11-35 *", "english") == ["bad-square"]
    # Without a GameType, square 35 is evidence of the 10x10 board.
    assert validate(pdn.parse_game("1. 11-35 *")).variant is INTERNATIONAL


def test_variant_override_and_algebraic_moves() -> None:
    text = "1. c3-d4 f6-e5 2. d4xf6 g7xe5 *"
    assert codes(text, "russian") == []
    report = validate(pdn.parse_game(text), RUSSIAN)
    assert report.variant is RUSSIAN


def test_unsupported_variant_is_unchecked_not_illegal() -> None:
    report = validate(pdn.parse_game('[GameType "28"]\n1. 22-18 *'))
    assert report.status == "unchecked"
    assert [p.code for p in report.problems] == ["unsupported-variant"]


@pytest.mark.parametrize("number", ["0", "1", "99"])
def test_a_gametype_without_rules_is_unchecked_not_english(number: str) -> None:
    report = validate(pdn.parse_game(f'[GameType "{number}"]\n1. 11-15 *'))
    assert report.status == "unchecked"
    (problem,) = report.problems
    assert problem.code == "unsupported-variant"
    assert f"GameType {number} is no variant" in problem.message


def test_an_italian_game_is_replayed_under_italian_rules() -> None:
    # White moves first in Italian draughts; under English rules 22-18 would be out of turn.
    report = validate(pdn.parse_game('[GameType "22"]\n1. 21-18 11-14 *'))
    assert report.variant is not None and report.variant.name == "italian"
    assert report.status == "ok", report.problems


@pytest.mark.parametrize(
    "name", ["german-open-2004.pdn", "international-wk2007.pdn", "russian-setup.pdn"]
)
def test_bundled_clean_examples_replay_cleanly(name: str) -> None:
    for game in pdn.read_games(EXAMPLES / name):
        report = validate(game)
        errors = [p for p in report.all_problems if p.severity == "error"]
        assert errors == [], (game.index, errors)
        assert report.complete


def test_a_bug_in_one_game_becomes_a_problem_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    module = sys.modules["pdn.rules.replayer"]  # the replay of one game's lines, validate's

    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    # parse_result comes from another module, so the patch holds in the accelerated build too
    # (compiled, the module's own functions call each other directly, not through its names).
    monkeypatch.setattr(module, "parse_result", broken)
    report = validate(pdn.parse_game("1. 11-15 *"))
    assert [p.code for p in report.problems] == ["internal-error"]
    assert "boom" in report.problems[0].message
    assert report.status == "illegal"


def test_a_legal_game_nested_thousands_of_variations_deep_is_replayed() -> None:
    # Each variation opens inside the one before, as an alternative to its second move: the
    # replay must not recurse per level (it did, and gave an internal-error verdict).
    from pdn.engine import ENGLISH, Position

    start = "W:WK22:BK11"
    position = Position.from_fen(start, ENGLISH)
    words = [position.legal_moves()[0].notation()]
    depth = 3 * sys.getrecursionlimit()
    for level in range(depth):
        quiet = [m for m in position.legal_moves() if not m.is_capture]
        options = [m for m in quiet if len(position.play(m).legal_moves()) >= 2]
        move = options[level % len(options)]
        position = position.play(move)
        reply = next(m for m in position.legal_moves() if not m.is_capture)
        words.append(f"({move.notation()} {reply.notation()}")
    game = pdn.parse_game(f'[FEN "{start}"]\n' + " ".join(words) + ")" * depth + " *")
    report = validate(game)
    assert report.status == "ok" and report.problems == []
    assert len(report.steps) == 2 * depth + 1


def test_a_decisive_result_tag_with_a_star_terminator_is_a_warning() -> None:
    report = validate(pdn.parse_game('[Result "1-0"]\n1. 11-15 23-19 *'))
    (problem,) = report.problems
    assert (problem.code, problem.severity) == ("result-mismatch", "warning")
    assert "'1-0'" in problem.message and "'*'" in problem.message
    assert validate(pdn.parse_game('[Result "*"]\n1. 11-15 23-19 *')).problems == []


def test_each_variant_gets_its_own_federations_draw_rules() -> None:
    # Kings shuffling for 50 moves: English (WCDF) claims; FMJD draws (repetition, the 5-move
    # rule of king against king), and no English claim is said of it.
    shuffle = " ".join(["1-6 32-27 6-1 27-32"] * 25)
    english = validate(pdn.parse_game(f'[FEN "B:WK32:BK1"]\n{shuffle} *'))
    assert {p.code for p in english.problems} == {"draw-claimable"}
    assert all(p.message.startswith("WCDF ") for p in english.problems)
    moves = " ".join(["50-45 1-6 45-50 6-1"] * 25)
    report = validate(pdn.parse_game(f'[GameType "20"]\n[FEN "W:WK50:BK1"]\n{moves} *'))
    assert report.status == "ok", report.problems
    assert {p.code for p in report.problems} == {"draw-rule"}
    assert all(p.message.startswith("FMJD ") for p in report.problems)


def test_headings_put_the_first_mover_first() -> None:
    from pdn.collections.batch import verdict_of, verdict_text

    text = '[GameType "20"]\n[White "Wim"]\n[Black "Bart"]\n1. 32-28 32-28 *'
    heading = verdict_text(verdict_of(pdn.parse_game(text), "f.pdn")).splitlines()[0]
    assert heading.endswith("Wim vs Bart")
    english = '[White "Wim"]\n[Black "Bart"]\n1. 11-15 11-15 *'
    heading = verdict_text(verdict_of(pdn.parse_game(english), "f.pdn")).splitlines()[0]
    assert heading.endswith("Bart vs Wim")


def test_a_problem_in_a_side_line_says_which_line_and_the_status_says_so() -> None:
    # (1... 5-10) stands after White's 34-30, so it replaces it: Black cannot move there.
    game = pdn.parse_game('[GameType "20"]\n1. 34-30 (1... 5-10) 20-25 (19-23 33-28 (5-10)) *')
    report = validate(game)
    assert report.status == "illegal-variation"
    assert [(p.code, p.variation, p.ply) for p in report.problems] == [
        ("wrong-side", (1,), 1),
        ("wrong-side", (1, 1), 3),
    ]
    assert report.problems[1].where == "variation 1.1, ply 3"
    assert report.problems[1].to_dict()["variation"] == [1, 1]
    from pdn.collections.batch import verdict_of, verdict_text

    verdict = verdict_of(game, "f.pdn")
    assert verdict.has_errors
    assert "[variation 1, ply 1]" in verdict_text(verdict)
    # The same move on the main line is plainly illegal.
    mainline = validate(pdn.parse_game('[GameType "20"]\n1. 5-10 *'))
    assert mainline.status == "illegal" and mainline.problems[0].where == "ply 1"


def italian_game(plies: int = 20) -> str:
    """A game played under Italian rules (made with the engine, not written by hand)."""
    from pdn.engine import Position, get_variant

    position, words = Position.start(get_variant("italian")), []
    for ply in range(plies):
        moves = position.legal_moves()
        move = moves[(ply * 7) % len(moves)]
        words.append(move.notation())
        position = position.play(move)
    return " ".join(words) + " *"


ITALIAN_OPENING = italian_game()  # White starts: not English


def test_a_game_opened_by_the_other_side_is_tried_under_that_sides_rules() -> None:
    english = validate(pdn.parse_game(ITALIAN_OPENING), "english")
    assert english.problems[0].code == "wrong-side"  # what the guess alone would say
    report = validate(pdn.parse_game(ITALIAN_OPENING))
    assert report.variant is not None and report.variant.name == "italian"
    assert report.status == "ok"
    (guess,) = report.problems
    assert (guess.code, guess.severity) == ("variant-guess", "warning")
    assert f"first move ({ITALIAN_OPENING.split()[0]}) is White's" in guess.message
    assert '[GameType "22"]' in guess.message


def test_no_other_rules_are_tried_when_the_variant_is_known_or_the_fault_is_another() -> None:
    tagged = validate(pdn.parse_game('[GameType "21"]\n' + ITALIAN_OPENING))
    assert tagged.variant is not None and tagged.variant.name == "english"
    assert tagged.problems[0].code == "wrong-side"
    # An English game whose first move is simply impossible stays English.
    odd = validate(pdn.parse_game("1. 11-18 23-19 *"))
    assert odd.variant is not None and odd.variant.name == "english"
    assert odd.problems[0].code == "illegal-move"
    # From a set-up position the first move says nothing of the variant.
    setup = validate(pdn.parse_game('[FEN "B:W21,22:B9,10"]\n1. 22-18 *'))
    assert setup.variant is not None and setup.variant.name == "english"
    assert setup.problems[0].code == "wrong-side"
