"""The rules audit (issue 22, items 8 and 9): records without a GameType replayed under the
rules that fit them, the federations' draw rules, and the published perft tables."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import pdn
from pdn.batch import validate_files
from pdn.engine import Position, Variant, get_variant
from pdn.gametype import moves_evidence
from pdn.notation import move_texts
from pdn.validation import FileRules

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "corpus" / "wiegerw__pdn" / "games"
CORPUS = (
    Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus" / "wiegerw__pdn" / "games"
).resolve()


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


@pytest.mark.parametrize(
    "stem", ["gameterminator", "linecomment", "movestrength", "string", "unicode"]
)
def test_international_fragments_name_the_10x10_rules(stem: str) -> None:
    # 1.32-28 19-23 2.28x19: a wrong side as English; both 10x10 rule sets replay it and
    # nothing tells them apart, so the verdict stays and names both.
    game = next(pdn.read_games(SAMPLE / "succeed" / f"{stem}.pdn"))
    report = pdn.validate(game)
    assert report.variant is pdn.engine.ENGLISH and report.status == "illegal"
    (said,) = guesses(report)
    assert "Frisian draughts and International draughts rules replay the whole game" in said
    assert '[GameType "40"] or [GameType "20"]' in said


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


def test_the_czech_game_of_a_czech_file_is_czech() -> None:
    path = CORPUS / "fail" / "mrdrcd07.pdn"
    if not path.is_file():
        pytest.skip("the shared corpus is not here")
    verdicts = list(validate_files([str(path)]))
    sixth = verdicts[5]
    assert (sixth.status, sixth.variant, sixth.rules_source) == ("ok", "czech", "replay-file")
    assert all(v.status == "ok" for v in verdicts)
