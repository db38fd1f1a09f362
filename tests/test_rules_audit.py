"""The rules audit (issue 22, items 8 and 9): records without a GameType replayed under the
rules that fit them, the federations' draw rules, and the published perft tables."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_paths import WIEGERW_GAMES, needs_shared

import pdn
from pdn.cli import main
from pdn.collections.batch import validate_files
from pdn.engine import FRISIAN, INTERNATIONAL, POOL, RUSSIAN, Position, Variant, get_variant
from pdn.game.gametype import moves_evidence
from pdn.rules.validation import FileRules, _common_game
from pdn.text.notation import move_text, move_texts

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "corpus" / "wiegerw__pdn" / "games"


def random_record(
    variant: Variant, seed: int, plies: int = 40, algebraic: bool | None = None
) -> str:
    """A random legal game of ``variant`` from the start, written without any tag."""
    rng = random.Random(seed)
    position = Position.start(variant)
    texts: list[str] = []
    for _ in range(plies):
        moves = list(position.legal_moves())
        if not moves:
            break
        pick = rng.randrange(len(moves))
        texts.append(move_texts(moves, variant, algebraic=algebraic)[pick])
        position = position.play(moves[pick])
    numbered = [(f"{k // 2 + 1}. " if k % 2 == 0 else "") + text for k, text in enumerate(texts)]
    return " ".join(numbered) + " *"


def guesses(report: pdn.Report) -> list[str]:
    return [p.message for p in report.problems if p.code == "variant-guess"]


# ------------------------------------------------------------------ item 8: rules that fit


@pytest.mark.parametrize("name", ["pool", "spanish", "turkish"])
def test_a_record_without_gametype_names_or_takes_the_rules_that_replay_it(name: str) -> None:
    variant = get_variant(name)
    for seed in range(15):
        text = random_record(variant, seed)
        assert pdn.validate(pdn.parse_game(text), name).status == "ok"  # the record is legal
        report = pdn.validate(pdn.parse_game(text))
        if report.variant is variant:
            continue  # the guess, or the retry, replayed it under its own rules
        if report.status == "ok":
            # A pool record that is legal English too: nothing to say.
            assert pdn.validate(pdn.parse_game(text), "english").status == "ok"
            continue
        # Not certain (an English record with a slip could replay so too): the verdict
        # stays, and says which rules replay the game and the tag that would say so.
        assert report.status == "illegal", text
        said = guesses(report)
        assert len(said) == 1, text
        assert f"{variant.title} rules replay the whole game" in said[0]
        assert f'[GameType "{variant.game_type}"]' in said[0]


@pytest.mark.parametrize("algebraic", [True, False])
def test_turkish_records_are_replayed_as_turkish(algebraic: bool) -> None:
    # Algebraic, the squares are on no other board (a3-a4 is on no diagonal board); numeric,
    # squares above 50 with a 64-square numbering are Turkish.
    turkish = get_variant("turkish")
    adopted = 0
    for seed in range(8):
        game = pdn.parse_game(random_record(turkish, seed, algebraic=algebraic))
        report = pdn.validate(game)
        assert '[GameType "30"]' in guesses(report)[0]
        if algebraic or moves_evidence(game.mainline_moves())[1] > 50:
            assert (report.status, report.variant, report.rules_source) == (
                "ok",
                turkish,
                "replay",
            )
            adopted += 1
        else:
            # Numeric squares up to 50 fit International: the warning names Turkish only.
            assert report.status == "illegal"
            assert "Turkish draughts rules replay the whole game" in guesses(report)[0]
    assert adopted >= 5


FRAGMENTS = ["gameterminator", "linecomment", "movestrength", "string", "unicode"]


@pytest.mark.parametrize("stem", FRAGMENTS)
def test_international_fragments_are_replayed_as_international_a_stated_guess(stem: str) -> None:
    # 1.32-28 19-23 2.28x19: a wrong side as English; both 10x10 rule sets replay it, and
    # International is the common game of that board: replayed under it, as a guess that
    # names Frisian and both GameTypes (issue 33).
    game = next(pdn.read_games(SAMPLE / "succeed" / f"{stem}.pdn"))
    report = pdn.validate(game)
    assert report.variant is pdn.engine.INTERNATIONAL and report.status == "ok"
    assert report.rules_source == "replay-common"
    (said,) = guesses(report)
    assert said.startswith("replayed as International draughts")
    assert "Frisian draughts and International draughts rules replay the whole game" in said
    assert '[GameType "20"] to be sure, or [GameType "40"] for Frisian draughts' in said
    assert [p.code for p in report.problems if p.severity == "error"] == []


def test_the_fragments_validate_clean_from_the_cli() -> None:
    files = [str(SAMPLE / "succeed" / f"{stem}.pdn") for stem in FRAGMENTS]
    result = CliRunner().invoke(main, ["validate", *files])
    assert result.exit_code == 0, result.output
    assert "5 games: 5 clean, 0 with errors" in result.output
    assert "International draughts 5 (a guess: the common game of the one board" in result.output


def test_rules_on_one_board_without_its_common_game_leave_the_error() -> None:
    # Frisian alone among 10x10 rules, or pool alone among 8x8 ones, is no common game: the
    # guess's verdict stays (the English slip rule: see test_detection).
    assert _common_game([FRISIAN, INTERNATIONAL], False) is INTERNATIONAL
    assert _common_game([FRISIAN], False) is None and _common_game([POOL], False) is None
    assert _common_game([POOL, pdn.engine.ENGLISH], False) is pdn.engine.ENGLISH
    assert _common_game([INTERNATIONAL, POOL], False) is None  # two boards
    czech = get_variant("czech")
    assert _common_game([RUSSIAN, czech], True) is RUSSIAN
    # Numeric 8x8 squares are English's: Russian rules replaying them are no common game.
    assert _common_game([RUSSIAN, czech], False) is None
    wrong_side = pdn.validate(pdn.parse_game("1. 22-18 11-15 2. 18x11 *"))
    assert (wrong_side.variant, wrong_side.status) == (pdn.engine.ENGLISH, "illegal")


# Its man crowning on e1 goes on capturing as a king in Russian; Brazilian and Czech replay it.
TIE = (
    "a3-b4 f6-g5 c3-d4 b6-c5 d4xb6 a7xa3 g3-h4 e7-f6 f2-g3 d6-e5 d2-c3 c7-d6 e1-f2 b8-c7 "
    "g3-f4 e5xe1 *"
)


def test_the_earlier_games_of_a_file_break_a_tie(tmp_path: Path) -> None:
    path = tmp_path / "czech.pdn"
    czech = '[GameType "29"]\n1. c3-d4 f6-g5 *\n\n'
    path.write_text(czech * 2 + '[GameType "26"]\n1. c3-d4 *\n\n' + TIE + "\n")
    verdicts = list(validate_files([str(path)]))
    last = verdicts[-1]
    assert (last.status, last.variant, last.rules_source) == ("ok", "czech", "replay-file")
    assert "the most earlier games of this file (2)" in last.problems[0].message
    # Alone, or in a file whose earlier games do not lean one way, the guess stands.
    path.write_text(czech + '[GameType "26"]\n1. c3-d4 *\n\n' + TIE + "\n")
    last = list(validate_files([str(path)]))[-1]
    assert (last.status, last.variant) == ("illegal", "russian")
    assert "Brazilian draughts and Czech draughts rules replay" in last.problems[0].message


def test_file_rules_count_per_block_of_games() -> None:
    # Per block of games, so that one process and several (each given whole blocks) agree.
    memory = FileRules(block=3)
    assert memory.before("a.pdn", 1) == {}
    memory.add(pdn.validate(pdn.parse_game('[GameType "29"] 1. c3-d4 *')))
    memory.add(pdn.validate(pdn.parse_game('[GameType "29"] 1. c3-d4 d4-e6 *')))  # illegal
    assert memory.before("a.pdn", 3) == {"czech": 1}
    assert memory.before("a.pdn", 4) == {}
    memory.add(pdn.validate(pdn.parse_game('[GameType "29"] 1. c3-d4 *')))
    assert memory.before("b.pdn", 5) == {}


def test_the_tie_break_is_the_same_with_several_processes(tmp_path: Path) -> None:
    # 450 games, so three batches of pdn.collections.batch.BATCH_SIZE: each worker counts only its
    # block, and so does one process, which then gives the same verdicts.
    path = tmp_path / "mixed.pdn"
    czech = '[GameType "29"]\n1. c3-d4 f6-g5 *\n\n'
    path.write_text("".join(czech if k % 3 else TIE + "\n\n" for k in range(450)))

    def verdicts(jobs: int) -> list[tuple[int, str, str | None, str]]:
        found = validate_files([str(path)], jobs=jobs)
        return [(v.index, v.status, v.variant, v.rules_source) for v in found]

    alone = verdicts(1)
    assert alone == verdicts(2)
    # Only the first game, a tie with no earlier game to go by, keeps the guess.
    assert {v[0] for v in alone if v[3] == "squares"} == {1}
    assert sum(v[3] == "replay-file" for v in alone) == 149


@needs_shared(WIEGERW_GAMES / "fail" / "mrdrcd07.pdn")
def test_the_czech_game_of_a_czech_file_is_czech() -> None:
    path = WIEGERW_GAMES / "fail" / "mrdrcd07.pdn"
    verdicts = list(validate_files([str(path)]))
    sixth = verdicts[5]
    assert (sixth.status, sixth.variant, sixth.rules_source) == ("ok", "czech", "replay-file")
    assert all(v.status == "ok" for v in verdicts)


# ------------------------------------------------------------------ item 9: draw rules


def draws_of(game_type: int, fen: str, moves: str) -> list[tuple[str, int | None, str]]:
    report = pdn.validate(pdn.parse_game(f'[GameType "{game_type}"]\n[FEN "{fen}"]\n{moves} *'))
    assert report.status == "ok", report.problems
    return [(p.code, p.ply, p.message) for p in report.problems if p.code.startswith("draw")]


def mixed_line(name: str, fen: str, plies: int, man_every: int, first_seed: int = 0) -> str:
    """``plies`` moves from ``fen`` with no capture, no crowning and nothing left to capture,
    a man move every ``man_every`` plies (so the king-move count never reaches its limit),
    king moves otherwise, no position a third time: random, from the first seed that goes
    the whole way."""
    variant = get_variant(name)
    for seed in range(first_seed, first_seed + 200):
        rng = random.Random(seed)
        position = Position.from_fen(fen, variant)
        seen = {position: 1}
        texts: list[str] = []
        for ply in range(1, plies + 1):
            options = []
            for move in position.legal_moves():
                after = position.play(move)
                if move.is_capture or move.crowns or after.has_capture() or after.is_game_over():
                    continue
                if seen.get(after, 0) < 2:
                    options.append((move, after))
            wanted = [o for o in options if o[0].is_man_move == (ply % man_every == 0)]
            if not (wanted or options):
                break
            move, position = rng.choice(wanted or options)
            seen[position] = seen.get(position, 0) + 1
            texts.append(move_text(move, variant))
        else:
            return " ".join(texts)
    raise AssertionError(f"no line of {plies} plies from {fen}")


def capture_line(name: str, fen: str, before: int, after: int) -> str:
    """``before`` quiet king moves, a move that offers the other side a capture, that
    capture, then ``after`` quiet king moves (random, from the first seed that works)."""
    variant = get_variant(name)
    for seed in range(300):
        rng = random.Random(seed)
        position = Position.from_fen(fen, variant)
        texts: list[str] = []
        for ply in range(1, before + after + 3):
            legal = position.legal_moves()
            if ply == before + 1:
                options = [m for m in legal if position.play(m).has_capture()]
            elif ply == before + 2:
                options = [m for m in legal if m.is_capture]
            else:
                options = [
                    m
                    for m in legal
                    if not m.is_capture and not m.is_man_move and not position.play(m).has_capture()
                ]
            options = [m for m in options if not position.play(m).is_game_over()]
            if not options:
                break
            move = rng.choice(options)
            texts.append(move_text(move, variant))
            position = position.play(move)
        else:
            return " ".join(texts)
    raise AssertionError(f"no capture line from {fen}")


@pytest.mark.parametrize(
    ("fen", "moves", "rule"),
    [
        ("W:WKa1,c3:BKh8,f6", 30, "30-move rule"),  # 4 pieces
        ("W:WKa1,c3,e3:BKh8,f6,d6", 60, "60-move rule"),  # 6 pieces
    ],
)
def test_russian_endings_of_four_to_seven_pieces(fen: str, moves: int, rule: str) -> None:
    # Men move now and then, so the 15-move rule (kings only) never fires; nothing is
    # captured and nothing crowned, so the balance of forces stays as it was.
    line = mixed_line("russian", fen, 2 * moves + 4, 2 * 15 - 2)
    found = draws_of(25, fen, line)
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 2 * moves)]
    assert f"FShR {rule}" in found[0][2]


def test_a_russian_ending_count_starts_again_at_a_capture() -> None:
    # Five pieces for 40 plies, then a man is taken (four pieces: the same 30-move ending,
    # the balance changed): the 30 moves count from the capture, not from the start.
    russian = pdn.engine.RUSSIAN
    fen = "W:WKa1,c3,e3:BKh8,f6"
    offers = []
    for seed in range(0, 2000, 200):
        first = mixed_line("russian", fen, 40, 28, first_seed=seed)
        game = pdn.parse_game(f'[GameType "25"]\n[FEN "{fen}"]\n{first} *')
        position = pdn.validate(game).final
        assert position is not None
        for offer in position.legal_moves():
            offered = position.play(offer)
            for take in offered.legal_moves() if not offer.is_capture else ():
                taken = offered.play(take)
                kings = (taken.black & taken.kings, taken.white & taken.kings)
                one = take.is_capture and len(take.captures) == 1
                if one and all(kings) and not taken.has_capture():
                    offers.append((offer, take, taken))
        if offers:
            break
    assert offers
    offer, take, taken = offers[0]
    rest = mixed_line("russian", taken.fen(), 64, 28)
    line = f"{first} {move_text(offer, russian)} {move_text(take, russian)} {rest}"
    found = draws_of(25, fen, line)
    assert [(code, ply) for code, ply, _ in found] == [("draw-rule", 42 + 60)]
    assert "30-move rule" in found[0][2]


def test_the_fmjd_sixteen_move_count_goes_on_after_a_capture() -> None:
    # 3 kings against 1; at ply 26 the lone king takes one: 2 against 1. The 16 moves still
    # count from the start of the ending (drawn at ply 32), not 5 moves from the capture (36).
    fen = "W:WK46,K47,K50:BK3"
    line = capture_line("international", fen, 24, 16)
    found = draws_of(20, fen, line)
    assert (found[0][1], "16-move rule" in found[0][2]) == (32, True)
    assert "counted on after a capture" in found[0][2]
    # An early capture: the 5-move rule of the new ending is reached first.
    early = draws_of(20, fen, capture_line("international", fen, 4, 14))
    assert (early[0][1], "5-move rule" in early[0][2]) == (16, True)


@pytest.mark.parametrize(
    ("game_type", "name", "fen", "ply", "rule"),
    [
        (40, "frisian", "W:WK46,K47:BK3", 13, "Frisian 7-move rule"),
        (40, "frisian", "B:WK46,K47:BK3", 14, "Frisian 7-move rule"),
        (23, "pool", "W:WK25,K26,K31:BK4", 25, "APCA 13-move rule"),
        (23, "pool", "B:WK25,K26,K31:BK1", 26, "APCA 13-move rule"),
    ],
)
def test_the_stronger_side_has_so_many_moves(
    game_type: int, name: str, fen: str, ply: int, rule: str
) -> None:
    # Drawn when the side with the kings has made its 7th (13th) move in the ending without
    # winning: the 13th or the 14th ply of it, as that side moves first or second.
    found = draws_of(game_type, fen, mixed_line(name, fen, ply + 4, 10**6))
    assert [(code, at) for code, at, _ in found] == [("draw-rule", ply)]
    assert rule in found[0][2] and "by the stronger side" in found[0][2]


@pytest.mark.parametrize(
    ("game_type", "fen", "moves"),
    [
        (22, "W:WK32:B1", "32-28"),
        (24, "W:WK32:B1", "32-28"),
        (26, "W:WKa1:Bh8", "a1-b2"),
        (27, "W:WK72:B1", "72-66"),
        (30, "W:WKa1:Bh8", "a1-a2"),
        (31, "W:WK32:B1", "32-27"),
    ],
)
def test_variants_without_watched_draw_rules_say_so(game_type: int, fen: str, moves: str) -> None:
    report = pdn.validate(pdn.parse_game(f'[GameType "{game_type}"]\n[FEN "{fen}"]\n{moves} *'))
    variant = report.variant
    assert variant is not None and pdn.rules.draws.draw_rules(variant) is None
    (said,) = [p for p in report.problems if p.code == "draws-unwatched"]
    assert said.severity == "notice" and said.ply == 1
    assert said.message.startswith(f"draw rules not watched for {variant.title}")


def test_no_such_notice_before_a_king_moves_or_where_rules_are_watched() -> None:
    men_only = pdn.validate(pdn.parse_game('[GameType "22"]\n1. 21-17 12-16 *'))
    assert not [p for p in men_only.problems if p.code == "draws-unwatched"]
    watched = pdn.validate(pdn.parse_game('[GameType "20"]\n[FEN "W:WK46:B1"]\n1. 46-37 *'))
    assert not [p for p in watched.problems if p.code == "draws-unwatched"]


# ------------------------------------------------------------------ item 9: published perft

# dctl (R. Halbersma), test/src/algo/traversal/initial/board_08x08.cpp, from the "Perft for
# all recognized draughts variants" thread (damforum.nl, t=2822): perft from the initial
# position. dctl's Thai test starts from the usual 12 men each (``initial(2)``: two empty
# rows), White to move, not from Thai's 8 men each: that position is checked here; its Italian,
# Spanish, Czech and Frisian figures from the start are in tests/variant_cases.py (START_PERFT,
# checked in tests/test_engine_perft.py). Its "duplicates kept" count takes a flying king's
# straight run of landing squares once, so the engine's merged count is compared.
DCTL_THAI_TWELVE_EACH = (7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963648, 18363523, 84892793)
TWELVE_EACH = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


@pytest.mark.parametrize(
    ("depth", "count"),
    [
        # A few seconds at depth 8; 9 (the first with kings) and deeper are slow.
        pytest.param(
            depth, count, marks=[pytest.mark.slow] if depth > 7 else [], id=f"thai-{depth}"
        )
        for depth, count in enumerate(DCTL_THAI_TWELVE_EACH, start=1)
    ],
)
def test_thai_perft_from_twelve_men_each_agrees_with_dctl(depth: int, count: int) -> None:
    start = Position.from_fen(TWELVE_EACH, pdn.engine.THAI)
    assert pdn.engine.perft(start, depth, merge_duplicates=True) == count


def test_a_turkish_king_turning_back_is_told_so() -> None:
    # d6 is gone once jumped, so nothing blocks d8-d1 but the 180-degree rule.
    game = pdn.parse_game('[GameType "30"]\n[FEN "W:WKd4:Bd6,d2,a8"]\n1. d4xd8xd1 *')
    (problem,) = pdn.validate(game).problems
    assert problem.code == "illegal-move"
    assert "may not turn back along the line it came (a 180-degree turn" in problem.message
    assert "pieces in the way" not in problem.message
    # Thai kings may turn back (as in dctl's Thai rules): d4xg7, then back over d4 to a1.
    board = pdn.engine.board_for(pdn.engine.THAI)
    position = Position.from_fen("W:WKd4:Bf6,b2,h8", pdn.engine.THAI)
    paths = {tuple(board.algebraic(s) for s in m.path) for m in position.legal_moves()}
    assert ("d4", "g7", "a1") in paths
