"""Which rules a game is replayed under, and that every verdict says which and why (issue 9)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.collections.batch import Summary, verdict_of, verdict_text
from pdn.game.detection import FileEvidence, scan_file

SAMPLE = Path(__file__).parent / "fixtures" / "corpus" / "wiegerw__pdn" / "games" / "succeed"

# Three 10x10 games, the last an opening fragment whose squares are all up to 32.
TEN = """[Event "A"]
1. 32-28 18-23 2. 38-32 12-18 3. 43-38 7-12 *

[Event "B"]
1. 33-29 19-24 2. 39-33 14-19 3. 44-39 10-14 *

[Event "C"]
1. 32-28 19-23 *
"""


def test_a_short_game_in_a_10x10_file_is_read_on_that_board(tmp_path: Path) -> None:
    path = tmp_path / "ten.pdn"
    path.write_text(TEN)
    games = list(pdn.read_games(path))
    assert [g.variant for g in games] == ["international"] * 3
    assert [g.variant_source for g in games] == ["squares", "squares", "file"]
    assert (
        "the moves of this file go to squares up to 39 (3 of its about 14 moves go above 32)"
        in (games[2].variant_evidence)
    )
    report = pdn.validate(games[2])
    assert report.status == "ok"
    assert (report.rules_source, report.rules_evidence) == ("file", games[2].variant_evidence)
    # Alone, the fragment reads as English, and 32-28 is then White's move out of turn.
    alone = pdn.parse_game("1. 32-28 19-23 *")
    assert alone.variant == "english"


def test_strings_and_seekable_streams_are_scanned_pipes_are_not() -> None:
    assert [g.variant for g in pdn.parse_games(TEN)][2] == "international"
    assert [g.variant for g in pdn.read_games(io.BytesIO(TEN.encode()))][2] == "international"

    class Pipe(io.BytesIO):
        def seekable(self) -> bool:
            return False

    assert scan_file(Pipe(TEN.encode())) is None
    assert [g.variant for g in pdn.read_games(Pipe(TEN.encode()))][2] == "english"


def test_one_mistyped_square_does_not_turn_an_english_archive_to_10x10() -> None:
    games = "\n".join(f'[Event "{n}"]\n1. 11-15 23-19 2. 8-11 22-17 *\n' for n in range(30))
    typo = games + '[Event "typo"]\n1. 11-15 23-19 2. 8-11 22-47 *\n'
    evidence = scan_file(io.StringIO(typo))
    assert evidence is not None and (evidence.high, evidence.highest) == (1, 47)
    assert evidence.decide("english", "squares") is None
    games_read = list(pdn.parse_games(typo))
    assert {g.variant for g in games_read[:30]} == {"english"}
    assert games_read[30].variant == "international"  # its own squares say so


def test_tags_and_comments_are_not_squares() -> None:
    evidence = FileEvidence()
    evidence.add_text('[Event "Cup 45-50"]\n{ 33-28 was better } 1. 11-15 23-19 ; 40-35\n*\n')
    assert (evidence.moves, evidence.high) == (2, 0)


def test_a_gametype_tag_decides_only_its_own_game() -> None:
    text = '1. 11-15 23-19 *\n\n[GameType "25"]\n1. c3-d4 f6-g5 *\n'
    assert [g.variant for g in pdn.parse_games(text)] == ["english", "russian"]


def test_czech_games_without_gametype_are_replayed_as_czech() -> None:
    # mrcd2006: the 2006 Czech championship, algebraic moves and no GameType. Men capture
    # forward only in Czech draughts: replayed as Russian, 34 of its 44 games break.
    verdicts = [verdict_of(g, "mrcd2006.pdn") for g in pdn.read_games(SAMPLE / "mrcd2006.pdn")]
    assert len(verdicts) == 44
    assert all(v.status == "ok" for v in verdicts)
    czech = [v for v in verdicts if v.variant == "czech"]
    assert len(czech) == 34
    assert {v.rules_source for v in czech} == {"replay"}
    guess = czech[0].problems[0]
    assert guess.code == "variant-guess" and guess.severity == "warning"
    assert "Russian draughts rules" in guess.message and '[GameType "29"]' in guess.message
    assert {v.variant for v in verdicts if v.variant != "czech"} == {"russian"}


def test_when_several_rules_replay_the_game_none_is_chosen() -> None:
    # The black man that crowns on e1 with e5xe1 goes on capturing as a king in Russian
    # draughts; in Brazilian and Czech draughts its move ends there.
    game = pdn.parse_game(
        "a3-b4 f6-g5 c3-d4 b6-c5 d4xb6 a7xa3 g3-h4 e7-f6 f2-g3 d6-e5 d2-c3 c7-d6 e1-f2 b8-c7 "
        "g3-f4 e5xe1 *"
    )
    report = pdn.validate(game)
    assert report.status == "illegal" and report.variant is pdn.engine.RUSSIAN
    first = report.problems[0]
    assert first.code == "variant-guess"
    assert "Brazilian draughts and Czech draughts rules replay the whole game" in first.message
    assert pdn.validate(game, "czech").status == "ok"


def test_an_english_game_is_not_second_guessed_as_pool_checkers() -> None:
    # 18x20 at ply 29 is a man capturing backward: a slip in an English record, legal in pool.
    game = pdn.parse_game(
        "12-16 24-20 9-14 23-18 14x23 27x18 10-14 18x9 5x14 22-18 14x23 26x12 6-9 32-27 7-10 "
        "27-24 11-16 20x11 8x15 31-26 9-14 26-23 4-8 24-20 8-11 28-24 15-18 20-16 18x20 *"
    )
    report = pdn.validate(game)
    assert report.status == "illegal"
    # The slip stays an error; the warning only says which rules would replay the record.
    assert [p.code for p in report.problems] == ["variant-guess", "backward-man"]
    assert "American pool checkers rules replay the whole game" in report.problems[0].message
    assert '[GameType "23"]' in report.problems[0].message
    assert report.variant is pdn.engine.ENGLISH
    assert pdn.validate(game, "pool").status == "ok"


def test_from_a_setup_the_guess_stands() -> None:
    # The gallery's positions are set up with FEN: a few moves from there say little of the
    # rules, so the English verdicts stand even where Spanish rules would allow the move.
    games = list(pdn.read_games(Path(__file__).parent.parent / "examples" / "illegal-moves.pdn"))
    assert all(pdn.validate(g).variant is pdn.engine.ENGLISH for g in games)
    setups = [g for g in games if "FEN" in g.tags]
    assert setups
    assert not any(p.code == "variant-guess" for g in setups for p in pdn.validate(g).problems)


def test_the_rules_are_stated_in_text_and_json() -> None:
    tagged = pdn.parse_game('[GameType "25"]\n1. c3-d4 f6-g5 2. d4-e6 *')
    verdict = verdict_of(tagged, "r.pdn")
    assert verdict.to_dict()["rules"] == {
        "variant": "russian",
        "title": "Russian draughts",
        "source": "gametype",
        "evidence": "GameType '25'",
    }
    assert "  rules: Russian draughts (GameType '25')" in verdict_text(verdict).splitlines()
    option = pdn.validate(pdn.parse_game("1. 11-15 *"), "pool")
    assert (option.rules_source, option.rules_evidence) == ("option", "asked for: pool")
    unknown = verdict_of(pdn.parse_game('[GameType "0"]\n1. 11-15 *'), "chess.pdn")
    assert verdict.status == "illegal" and unknown.status == "unchecked"
    assert unknown.to_dict()["rules"]["variant"] is None
    assert unknown.rules_title == "GameType 0 (no draughts rules for it)"


def test_the_summary_says_the_rules_and_what_it_did_not_show(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    # An English game and a Russian one; the English one ends in a 40-move draw claim notice
    # only when it is long enough, so use an explicit notice: a result warning instead.
    path.write_text('[Result "1-0"]\n1. 11-15 23-19 *\n\n[GameType "25"]\n1. c3-d4 f6-g5 *\n')
    summary = Summary()
    for game in pdn.read_games(path):
        summary.add(verdict_of(game, str(path)))
    text = summary.text(least="error")
    assert "rules: " in text and "Russian draughts 1 (the GameType tag)" in text
    assert "English draughts / American checkers 1 (a guess from the squares" in text
    assert "by code" not in text  # the only problem is a warning, and it was not shown
    assert "not shown: 1 warning (--notices shows them)" in text
    shown = summary.text(least="warning")
    assert "by code: result-mismatch 1" in shown and "not shown" not in shown


def test_validate_command_states_the_rules(tmp_path: Path) -> None:
    path = tmp_path / "ten.pdn"
    path.write_text(TEN)
    result = CliRunner().invoke(main, ["validate", "--format", "json", str(path)])
    data = json.loads(result.output)
    assert [g["rules"]["source"] for g in data["games"]] == ["squares", "squares", "file"]
    assert data["summary"]["rules"] == [
        {"title": "International draughts", "source": "file", "games": 1},
        {"title": "International draughts", "source": "squares", "games": 2},
    ]
    text = CliRunner().invoke(main, ["validate", str(path)]).output
    assert "rules: International draughts 2 (a guess from the squares the moves use), " in text


@pytest.mark.parametrize("variant", ["english", "pool", "thai", "russian", "international"])
def test_the_heading_puts_the_first_mover_first(variant: str) -> None:
    rules = pdn.engine.get_variant(variant)
    game = pdn.parse_game('[Black "B"]\n[White "W"]\n[Result "1-0"]\n*')
    game.tags.add("GameType", str(rules.game_type))
    heading = verdict_text(verdict_of(pdn.parse_game(pdn.write_game(game)), "f.pdn"))
    first = "B vs W" if rules.first_mover.label == "Black" else "W vs B"
    assert first in heading.splitlines()[0]


def test_an_opening_fen_with_the_wrong_side_to_move_is_a_warning() -> None:
    # From CheckerBoard's Italian 11-man ballots: White to move, each side one man out, as if
    # White had begun; English (the guess from the squares) starts with Black.
    italian = '[FEN "W:W20,24,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,12,11,10,13"] *'
    report = pdn.validate(pdn.parse_game(italian))
    assert report.status == "ok" and report.variant is pdn.engine.ENGLISH
    assert [p.code for p in report.problems] == ["variant-guess"]
    assert "opening position with White to move" in report.problems[0].message
    # From the English 11-man ballots: Black to move. And an English opening after 11-15,
    # with White to move, is what English play gives: no warning for either.
    for fen in (
        "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,12,11,10,9",
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
    ):
        assert pdn.validate(pdn.parse_game(f'[FEN "{fen}"] *')).problems == []
    # An endgame with White to move is no opening.
    assert pdn.validate(pdn.parse_game('[FEN "W:W30,31:B1,2"] *')).problems == []


def test_a_game_without_squares_in_an_algebraic_file_takes_the_files_board() -> None:
    text = '1. c3-d4 f6-g5 2. b2-c3 g7-f6 *\n\n1. a3-b4 b6-a5 *\n\n[Result "0-1"]\n0-1\n'
    games = list(pdn.parse_games(text))
    assert [g.variant for g in games] == ["russian", "russian", "russian"]
    assert games[2].variant_source == "file" and "algebraic" in games[2].variant_evidence


def test_a_file_read_through_the_progress_bar_is_still_scanned(tmp_path: Path) -> None:
    # On a terminal the bar reads each file through a byte counter that cannot seek: the
    # verdicts must not depend on whether a bar is shown.
    from pdn.text.progress import Progress

    path = tmp_path / "ten.pdn"
    path.write_text(TEN)
    with Progress((str(path),), stream=io.StringIO(), large=0) as progress:
        progress.enabled = True  # as on a terminal
        opened = progress.sources([str(path)])  # the handle lives as long as the generator
        handle = next(opened)
        assert not handle.seekable()
        assert [g.variant_source for g in pdn.read_games(handle)] == ["squares", "squares", "file"]


def test_json_keeps_why_a_game_has_its_variant(tmp_path: Path) -> None:
    from pdn.writing.jsonio import game_from_dict, game_to_dict

    path = tmp_path / "ten.pdn"
    path.write_text(TEN)
    fragment = list(pdn.read_games(path))[2]
    record = json.loads(json.dumps(game_to_dict(fragment)))
    again = game_from_dict(record)
    assert (again.variant, again.variant_source, again.variant_evidence) == (
        "international",
        "file",
        fragment.variant_evidence,
    )
    # A record written before these fields: the variant it names is said to come from it,
    # not from the guess the moves alone would give (English here).
    del record["variant_source"], record["variant_evidence"]
    old = game_from_dict(record)
    assert (old.variant, old.variant_source) == ("international", "record")
    assert pdn.validate(old).rules_evidence == "the record's variant field (international)"
    # A stripped copy replays under the same rules, for the same stated reason.
    from pdn.writing.stripping import StripOptions, strip_game

    stripped = strip_game(fragment, StripOptions(comments=False))
    assert (stripped.variant_source, stripped.variant_evidence) == (
        "file",
        fragment.variant_evidence,
    )
