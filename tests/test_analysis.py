"""``pdn analyse`` (issue 24): every mainline move valued against the engine's best, exactly at a
fixed depth; the verdicts on positions found by a scan of random English games with the
engine (a move that walks into a two-for-one, an only move, a shot not played); the record
written back faithfully, with the analysis added, reading back as written; JSON; the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.engine import ENGLISH, Position, minimax
from pdn.game.model import Game
from pdn.study.play.analysis import (
    BLUNDER,
    GameAnalysis,
    analyse_files,
    analyse_game,
    annotate_with_analysis,
    value_text,
)
from pdn.study.play.hub import search_for
from pdn.text.notation import move_texts
from pdn.writing.writer import write_game

ROOT = Path(__file__).resolve().parents[1]
GERMAN = ROOT / "examples" / "german-open-2004.pdn"

#: Black's 15-18 at ply 3 walks into 13x6 1x10 22x6: White wins two men for one (found by a
#: scan of random games, depth 5: 15-18 is valued -2.51 where 9-14 keeps +0.20).
BLUNDER_GAME = """[Event "A blunder"]
[White "Light"]
[Black "Dark"]
[Result "*"]
[FEN "B:W17,22,25,27,28,29,30:B1,3,4,5,8,9,15"]
{before the moves}
1. 8-11 {Dark's plan} 17-13 $1 (17-14 {the other way} 9x18) 2. 15-18 13x6 3. 1x10 22x6 *
"""

#: White to move: 19-15 holds (+1.48 at depth 5), every other move loses at least 1.42, and
#: 19-16 and 23-18 give men away.
ONLY_FEN = "W:W17,19,21,22,23,28,29,30,31:B1,2,4,7,8,10,12,13,14"

#: Black to move has a shot (tests/test_search.py's SHOTS): 11-16 wins two men by force.
SHOT_FEN = "B:W19,20,21,23,27,28,29,30,32:B2,3,4,6,7,8,11,12,14"


def analysed(text: str, depth: int = 4) -> tuple[Game, GameAnalysis]:
    game = pdn.parse_game(text)
    report = pdn.validate(game)
    return game, analyse_game(game, report, depth=depth)


def test_a_move_that_lets_two_men_go_is_a_blunder() -> None:
    _, found = analysed(BLUNDER_GAME)
    by_ply = {ply.ply: ply for ply in found.plies}
    third = by_ply[3]
    assert (third.played, third.side, third.number) == ("15-18", "Black", "2.")
    assert "blunder" in third.verdicts and third.nag == 4
    assert third.loss >= 2 * BLUNDER  # two men, about
    assert third.best != "15-18" and third.line[0] == third.best
    summary = found.summary()
    assert summary.blunders["Black"] >= 1
    assert summary.turning_point is third
    assert found.complete


def test_a_game_of_the_engines_best_moves_has_no_blunder() -> None:
    depth = 4
    search = search_for(ENGLISH)
    position = Position.start(ENGLISH)
    texts = []
    for _ in range(16):
        best = search.run(position, depth=depth).best
        assert best is not None
        legal = position.legal_moves(merge_duplicates=True)
        texts.append(move_texts(legal, ENGLISH)[legal.index(best)])
        position = position.play(best)
    _, found = analysed(" ".join(texts) + " *", depth=depth)
    assert len(found.plies) == sum(1 for _ in found.plies)
    for ply in found.plies:
        assert ply.loss == 0, ply
        assert not {"blunder", "mistake", "missed shot"} & set(ply.verdicts)


def test_values_are_exact_at_a_fixed_depth() -> None:
    # The value before each move is what minimax gives the position at that depth, and the
    # value of the move played what it gives the position after it, a ply shallower.
    depth = 3
    game, found = analysed(BLUNDER_GAME, depth=depth)
    for ply in found.plies:
        position = Position.from_fen(ply.fen, ENGLISH)
        assert ply.before == minimax(position, depth)
        moves = position.legal_moves(merge_duplicates=True)
        played = moves[move_texts(moves, ENGLISH).index(ply.played)]
        assert ply.after == -minimax(position.play(played), depth - 1)
        assert ply.depth == depth
    # Every move with a choice is there; 3. 1x10 was forced.
    assert [p.played for p in found.plies] == [m for m in game.mainline_moves() if m != "1x10"]


def test_the_only_move_played() -> None:
    _, found = analysed(f'[FEN "{ONLY_FEN}"] 1... 19-15 *', depth=5)
    (ply,) = found.plies
    assert ply.verdicts == ("only move",)
    assert ply.side == "White" and ply.number == "1..."
    assert found.summary().only_moves == {"Black": 0, "White": 1}
    # Another move there gives a man away: a blunder, and no only move.
    _, found = analysed(f'[FEN "{ONLY_FEN}"] 1... 19-16 *', depth=5)
    assert "blunder" in found.plies[0].verdicts
    assert "only move" not in found.plies[0].verdicts


def test_a_shot_not_played_is_missed() -> None:
    _, found = analysed(f'[FEN "{SHOT_FEN}"] 1. 14-18 *', depth=3)
    ply = found.plies[0]
    assert ply.best == "11-16"
    assert "missed shot" in ply.verdicts and "blunder" in ply.verdicts
    assert found.summary().missed_shots["Black"] == 1
    # The shot played: nothing missed.
    _, found = analysed(f'[FEN "{SHOT_FEN}"] 1. 11-16 *', depth=3)
    assert not {"missed shot", "blunder", "mistake"} & set(found.plies[0].verdicts)


def test_forced_moves_are_not_judged_and_illegal_moves_stop_the_analysis() -> None:
    # 2... 15x22 is the only legal move (a capture): no choice, no entry.
    _, found = analysed("1. 11-15 22-18 2. 15x22 25x18 3. 8-11 21-14 4. 4-8 *", depth=2)
    assert [p.ply for p in found.plies] == [1, 2, 4, 5]
    assert not found.complete


def test_the_pdn_record_keeps_everything_and_reads_back_as_written() -> None:
    game, found = analysed(BLUNDER_GAME)
    annotated = annotate_with_analysis(game, found)
    text = write_game(annotated)
    again = pdn.parse_game(text)
    assert write_game(again) == text  # read back, written again: the same text
    assert again == annotated
    assert game == pdn.parse_game(BLUNDER_GAME)  # the game itself is not changed
    # Everything read is still there: the tags in their order, then the Annotator's ...
    assert again.tags.items()[: len(game.tags)] == game.tags.items()
    assert again.tags["Annotator"] == "pdn analyse, depth 4"
    assert again.mainline_moves() == game.mainline_moves()
    # ... and once what the analysis added is taken away, the game as it was read.
    mainline = list(again.mainline())  # the added lines come after a node in written order
    for ply in found.plies:
        node = mainline[ply.ply - 1]
        if set(ply.verdicts) & {"blunder", "mistake"}:
            assert node.parent is not None
            added = node.parent.variations.pop()
            assert [n.move for n in [added, *added.mainline()]] == list(ply.line)
        if ply.verdicts:
            comment = node.comments_after.pop()
            assert comment.text.startswith(", ".join(ply.verdicts[:1]))
        if ply.nag is not None and ply.nag in node.nags:
            node.nags.remove(ply.nag)
    summary = again.root.comments_after.pop()
    assert summary.text.startswith("pdn analyse, depth 4: Black 1 blunder")
    del again.tags["Annotator"]
    assert again == game
    # The blunder's comment, NAG and line, as the text says them.
    text = " ".join(text.split())
    assert "2. 15-18 $4 {blunder: " in text
    third = next(p for p in found.plies if p.ply == 3)
    assert f"best: {third.best} {value_text(third.before)}}} (2. {third.best} " in text


def test_a_move_judged_already_keeps_its_own_nag() -> None:
    judged = BLUNDER_GAME.replace("2. 15-18 13x6", "2. 15-18! 13x6")
    game, found = analysed(judged)
    text = " ".join(write_game(annotate_with_analysis(game, found)).split())
    assert "15-18! {blunder" in text


def test_the_analysis_must_be_of_the_game() -> None:
    _, found = analysed(BLUNDER_GAME)
    other = pdn.parse_game("1. 11-15 23-19 *")
    with pytest.raises(ValueError):
        annotate_with_analysis(other, found)


def test_a_time_a_move_searches_as_deep_as_it_can() -> None:
    game = pdn.parse_game(BLUNDER_GAME)
    found = analyse_game(game, pdn.validate(game), movetime=0.05)
    assert found.movetime == 0.05 and found.depth is None
    assert all(ply.depth >= 1 for ply in found.plies)
    assert found.level == "0.05 s a move"
    with pytest.raises(ValueError):
        analyse_game(game, pdn.validate(game), depth=2, movetime=1.0)


def test_json_figures() -> None:
    _, found = analysed(BLUNDER_GAME)
    data = json.loads(json.dumps(found.to_dict()))
    assert set(data) == {
        "file", "index", "line", "tags", "variant", "depth", "movetime", "engine",
        "complete", "contradiction", "summary", "plies",
    }  # fmt: skip
    assert data["engine"] == {"name": "pdn"}
    assert data["variant"] == "english" and data["depth"] == 4
    assert data["tags"][0] == ["Event", "A blunder"]
    third = next(p for p in data["plies"] if p["ply"] == 3)
    assert set(third) == {
        "ply", "number", "side", "played", "best", "line", "before", "after", "loss",
        "white_after", "legal", "depth", "fen", "verdicts", "unclear", "previous", "table",
    }  # fmt: skip
    assert third["unclear"] == [] and set(third["previous"]) == {"before", "after"}
    assert third["loss"] == third["before"] - third["after"]
    assert third["white_after"] == -third["after"]  # Black moved
    assert "blunder" in third["verdicts"]
    assert data["summary"]["turning_point"] == 3
    assert data["summary"]["blunders"]["Black"] >= 1


def test_value_text() -> None:
    assert [value_text(v) for v in (150, -40, 0)] == ["+1.50", "-0.40", "0.00"]
    assert value_text(1_000_000 - 3) == "win in 3"


def test_the_files_of_a_run_in_order(tmp_path: Path) -> None:
    path = tmp_path / "two.pdn"
    path.write_text(BLUNDER_GAME + "\n" + "1. 11-15 23-19 *\n", encoding="utf-8")
    results = list(analyse_files([str(path)], depth=2, pdn=True))
    assert [(a.index, a.file) for a, _ in results] == [(1, str(path)), (2, str(path))]
    assert all(text.startswith("[") for _, text in results)


# ----------------------------------------------------------------------------- the CLI


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_cli_writes_pdn_that_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "blunder.pdn"
    path.write_text(BLUNDER_GAME, encoding="utf-8")
    out = tmp_path / "out.pdn"
    code, _ = run("analyse", str(path), "--depth", "4", "-o", str(out), "-q")
    assert code == 0
    text = out.read_text(encoding="utf-8")
    assert write_game(pdn.parse_game(text)) == text
    assert "$4 {blunder" in " ".join(text.split()) and '[Annotator "pdn analyse, depth 4"]' in text


def test_cli_json_and_jobs(tmp_path: Path) -> None:
    code, out = run("analyse", str(GERMAN), "--depth", "1", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert (data["schema"], data["type"]) == ("pdn-json/1", "analysis")
    assert len(data["games"]) == 15
    assert all(g["complete"] and g["plies"] for g in data["games"])
    code, parallel = run("analyse", str(GERMAN), "--depth", "1", "--format", "json", "-j", "2")
    assert code == 0 and parallel == out


def test_cli_refuses_a_depth_and_a_time() -> None:
    code, out = run("analyse", str(GERMAN), "--depth", "2", "--movetime", "1")
    assert code == 2 and "not both" in out
    code, out = run("analyse", str(GERMAN), "--depth", "0")
    assert code == 2


# ----------------------------------------------------------------------------- the viewer


def test_the_viewer_draws_the_values_of_an_analysed_game(tmp_path: Path) -> None:
    from pdn.view.viewer import GRAPH_RANGE, render_html, view_game

    game = pdn.parse_game(BLUNDER_GAME)
    viewed = view_game(game, "blunder.pdn", analyse=4)
    evaluation = viewed.record["evaluation"]
    assert evaluation["level"] == "depth 4" and evaluation["range"] == GRAPH_RANGE
    by_ply = {p[0]: p for p in evaluation["plies"]}
    assert by_ply[3][2] == "??" and by_ply[3][3] == "2. 15-18"
    assert by_ply[3][1] == GRAPH_RANGE or by_ply[3][1] > 100  # White is two men up
    assert all(-GRAPH_RANGE <= p[1] <= GRAPH_RANGE for p in evaluation["plies"])
    assert "drawGraph" in render_html([viewed])
    assert "evaluation" not in view_game(game, "blunder.pdn").record  # only when asked
    path = tmp_path / "blunder.pdn"
    path.write_text(BLUNDER_GAME, encoding="utf-8")
    code, _ = run("view", str(path), "--analyse", "--depth", "2", "-o", str(tmp_path / "v.html"))
    assert code == 0 and '"evaluation"' in (tmp_path / "v.html").read_text(encoding="utf-8")
    code, out = run("view", str(path), "--depth", "2")
    assert code == 2 and "--analyse" in out


def test_with_kings_the_positions_before_count_for_draws() -> None:
    # White, a king up, shuffles; so does Black, who at ply 4 draws by going back to the
    # position of the start (the search scores a position met again as a draw): each value
    # is minimax's with the positions since the last man move or capture, and the run of
    # king moves, as the game reached them. Ply 1 is the record's first move ("1...").
    fen = "W:WK14,K30:BK3"
    texts = ["14-18", "3-7", "18-14", "7-3", "14-18", "3-7"]
    game, found = analysed(f'[FEN "{fen}"] 1... ' + " ".join(texts) + " *", depth=3)
    assert found.plies[0].number == "1..." and found.plies[0].ply == 1
    assert found.plies[1].number == "2."
    rules = search_for(ENGLISH)
    position = Position.from_fen(fen, ENGLISH)
    since: list[Position] = []
    quiet = 0
    by_ply = {ply.ply: ply for ply in found.plies}
    for number, text in enumerate(texts, 1):
        moves = position.legal_moves(merge_duplicates=True)
        move = moves[move_texts(moves, ENGLISH).index(text)]
        expected = minimax(
            position,
            3,
            repetition=rules.repetition,
            quiet_plies=rules.quiet_plies,
            history=since,
            quiet=quiet,
        )
        assert by_ply[number].before == expected, number
        reversible = move.king and not move.captures
        since = [*since, position] if reversible else []
        quiet = quiet + 1 if reversible else 0
        position = position.play(move)
    # Black's 7-3 back to the start is a draw, which the moves before make it.
    assert by_ply[4].before == by_ply[4].after == 0
    assert minimax(Position.from_fen(by_ply[4].fen, ENGLISH), 3) < -100  # without them, lost
    assert len(game.mainline_moves()) == len(texts)


def test_a_game_without_rules_is_written_as_it_was() -> None:
    game = pdn.parse_game('[GameType "0"]\n1. e4 e5 *')  # chess: no draughts rules for it
    found = analyse_game(game, pdn.validate(game), depth=2)
    assert found.variant is None and not found.complete and not found.plies
    assert write_game(annotate_with_analysis(game, found)) == write_game(game)


def test_cli_says_an_input_that_is_not_pdn(tmp_path: Path) -> None:
    binary = tmp_path / "binary.pdn"
    binary.write_bytes(bytes(range(256)) * 4)
    good = tmp_path / "good.pdn"
    good.write_text("1. 11-15 23-19 *\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["analyse", str(binary), str(good), "--depth", "2"])
    assert result.exit_code == 1
    assert f"{binary}:1:1: not-pdn:" in result.output
    assert result.output.count("[Annotator") == 1  # the good file's game only


def test_a_capture_written_by_another_path_to_the_same_position() -> None:
    # The king's capture 4x43 goes round two ways; the engine keeps one move per position
    # reached, so the way written is valued as the one it keeps (found by a random scan).
    fen = "W:WK4,24,39,44,45,46,48,49,50:B1,6,7,8,9,12,14,18,21,22,38"
    game = pdn.parse_game(f'[GameType "20"] [FEN "{fen}"] 1. 4x13x2x16x32x43 *')
    report = pdn.validate(game)
    assert report.steps[0].move not in report.steps[0].before.legal_moves(merge_duplicates=True)
    (ply,) = analyse_game(game, report, depth=2).plies
    assert ply.played == "4x13x2x16x32x43" and ply.loss == 0


def test_analyse_says_reading_errors_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text('[Event "a"]\n1. 11-15 {unclosed 23-19 *\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["analyse", str(path), "--depth", "2", "--format", "json"])
    assert result.exit_code == 0
    assert f"{path}:2:10: unclosed-comment:" in result.stderr
    assert json.loads(result.stdout)["games"][0]["tags"][0] == ["Event", "a"]


def test_analysing_an_analysed_record_again_replaces_pdns_notes() -> None:
    # Issue 33 (section 7): the second analysis added a second copy of every note.
    game, found = analysed(BLUNDER_GAME)
    once = write_game(annotate_with_analysis(game, found))
    again, found_again = analysed(once)
    assert write_game(annotate_with_analysis(again, found_again)) == once
    # The user's own notes stay, and so do a NAG and a line of theirs beside pdn's.
    mine = once.replace("2. 15-18 $4", "2. 15-18 $18 $4 {my own note}").replace(
        "{before the moves}", "{before the moves} {pdn analyse, depth 4 is my note too}"
    )
    mine = mine.replace("(2. 9-14 27-23", "(2. 9-14 {mine}) (2. 9-14 27-23", 1)
    assert mine.count("{mine}") == 1
    game_mine, found_mine = analysed(mine)
    twice = write_game(annotate_with_analysis(game_mine, found_mine))
    assert pdn.parse_game(twice) == pdn.parse_game(mine)  # the same game, laid out anew


def test_an_analysis_at_another_depth_replaces_the_first(tmp_path: Path) -> None:
    path = tmp_path / "blunder.pdn"
    path.write_text(BLUNDER_GAME, encoding="utf-8")
    first, second, direct = tmp_path / "1.pdn", tmp_path / "2.pdn", tmp_path / "3.pdn"
    assert run("analyse", str(path), "--depth", "4", "-o", str(first), "-q")[0] == 0
    assert run("analyse", str(first), "--depth", "3", "-o", str(second), "-q")[0] == 0
    assert run("analyse", str(path), "--depth", "3", "-o", str(direct), "-q")[0] == 0
    assert second.read_text(encoding="utf-8") == direct.read_text(encoding="utf-8")


def test_the_progress_counts_plies_analysed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 33 (section 5): the bar sat at 100% of the bytes of a small file while the analysis
    # went on; it counts the plies done against the plies of the input, with the time left.
    path = tmp_path / "blunder.pdn"
    path.write_text(BLUNDER_GAME + "\n" + BLUNDER_GAME, encoding="utf-8")
    told: list[int] = []
    list(analyse_files([str(path)], depth=2, on_plies=told.append))
    assert told == [1] * 12  # one call a mainline ply, forced plies too, as each is done
    told.clear()
    list(analyse_files([str(path)], depth=2, jobs=2, on_plies=told.append))
    assert told == [6, 6]  # on several processes: a game's plies when it comes back

    import pdn.text.progress

    monkeypatch.setattr(pdn.text.progress, "is_terminal", lambda stream: True)
    result = CliRunner().invoke(main, ["analyse", str(path), "--depth", "2", "-o", "-"])
    assert result.exit_code == 0
    drawn = result.stderr
    assert "/12 [" in drawn and "plies/s" in drawn and "<" in drawn  # done/total, rate, left
    assert "B/s" not in drawn
