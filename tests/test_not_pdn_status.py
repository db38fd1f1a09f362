"""An input that is not PDN at all is said, the rest of the run goes on, and the exit status
says it (1): convert, annotate, fix, openings and view (issue 22, item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn import parse_games
from pdn.cli import main

GOOD = '[Event "E"]\n1. 11-15 23-19 *\n'


def inputs(tmp_path: Path) -> list[str]:
    not_games = tmp_path / "report.json"
    not_games.write_text('{"games": 3, "clean": 3}\n')
    binary = tmp_path / "image.pdn"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10")
    good = tmp_path / "good.pdn"
    good.write_text(GOOD)
    return [str(not_games), str(binary), str(good)]


@pytest.mark.parametrize("command", [["convert"], ["annotate"], ["fix", "--dates"]])
def test_an_input_that_is_not_pdn_ends_the_run_with_status_1(
    tmp_path: Path, command: list[str]
) -> None:
    files = inputs(tmp_path)
    result = CliRunner().invoke(main, [*command, *files], catch_exceptions=False)
    assert result.exit_code == 1
    said = [line for line in result.stderr.splitlines() if "not-pdn" in line]
    assert [line.split(":")[0] for line in said] == files[:2]
    # The good file was still written.
    assert [g.tags["Event"] for g in parse_games(result.stdout)] == ["E"]


def test_pdn_input_alone_keeps_status_0(tmp_path: Path) -> None:
    good = inputs(tmp_path)[2]
    for command in (["convert"], ["annotate"], ["fix", "--dates"]):
        result = CliRunner().invoke(main, [*command, good], catch_exceptions=False)
        assert result.exit_code == 0, (command, result.stderr)


@pytest.mark.parametrize("command", [["openings"], ["view"]])
def test_reports_say_an_input_that_is_not_pdn(tmp_path: Path, command: list[str]) -> None:
    files = inputs(tmp_path)
    result = CliRunner().invoke(main, [*command, *files], catch_exceptions=False)
    assert result.exit_code == 1
    assert [line.split(":")[0] for line in result.stderr.splitlines() if "not-pdn" in line] == (
        files[:2]
    )


def test_the_viewer_page_has_no_row_for_an_input_that_is_not_pdn(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    files = inputs(tmp_path)
    result = CliRunner().invoke(main, ["view", *files, "-o", str(page)], catch_exceptions=False)
    assert "1 games written" in result.stderr
    assert "not-pdn" not in page.read_text()  # (the title names every input)


def test_a_game_cut_for_its_length_makes_the_status_1(tmp_path: Path) -> None:
    from pdn.reading.cutting import MAX_GAME_CHARS

    path = tmp_path / "long.pdn"
    path.write_text(
        '[Event "L"]\n1. 11-15 {' + "x " * (MAX_GAME_CHARS // 2 + 10) + "} 23-19 *\n\n" + GOOD
    )
    result = CliRunner().invoke(main, ["convert", str(path)], catch_exceptions=False)
    assert result.exit_code == 1 and "game-too-long" in result.stderr
    assert [g.tags["Event"] for g in parse_games(result.stdout)] == ["L", "E"]


@pytest.mark.parametrize(("written", "forced"), [("utf-16-le", "utf-16"), ("utf-32-be", "utf-32")])
def test_a_forced_wide_codec_without_bom_takes_the_bytes_order(
    tmp_path: Path, written: str, forced: str
) -> None:
    path = tmp_path / "wide.pdn"
    path.write_bytes('[Event "aé"]\n[Date "2024-01-02"]\n\n1. 11-15 23-19 *\n'.encode(written))
    result = CliRunner().invoke(
        main, ["fix", "--dates", "--encoding", forced, "--in-place", str(path)]
    )
    assert result.exit_code == 0, result.stderr
    text = path.read_bytes().decode(written)
    assert text == '[Event "aé"]\n[Date "2024.01.02"]\n\n1. 11-15 23-19 *\n'


CHESS = '[Event "x"]\n1. e4 e5 2. Nf3 Nc6 1-0\n'


def test_a_chess_game_is_not_pdn_and_validate_exits_1() -> None:
    """Every word of its movetext is junk and it has no move: not a clean draughts game."""
    result = CliRunner().invoke(main, ["validate"], input=CHESS, catch_exceptions=False)
    assert result.exit_code == 1
    assert "1 games: 0 clean, 1 with errors" in result.stdout
    (said,) = [line for line in result.stdout.splitlines() if ": not-pdn: " in line]
    assert said.strip() == (
        "-:2:4: not-pdn: the game holds no draughts move at all, its 4 words "
        "('e4 e5 Nf3 Nc6') are chess moves: a chess game, not draughts; kept as comments"
    )


def test_a_chess_game_among_draughts_games_is_said_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text(GOOD + "\n" + CHESS)
    result = CliRunner().invoke(main, ["convert", str(path)], catch_exceptions=False)
    assert result.exit_code == 1
    assert [line.split(": ")[0] for line in result.stderr.splitlines() if "not-pdn" in line] == [
        f"{path}:5:4"
    ]
    kept = list(parse_games(result.stdout))
    assert [g.tags["Event"] for g in kept] == ["E", "x"]
    assert "{e4 e5}" in result.stdout and "{Nf3 Nc6}" in result.stdout


def test_tags_and_prose_without_a_move_are_not_pdn() -> None:
    (game,) = parse_games('[Event "x"]\nsome notes on the day *\n')
    (problem,) = [p for p in game.errors if p.code == "not-pdn"]
    assert problem.message == (
        "the game holds no draughts move at all, only 5 words that are not PDN "
        "('some notes on the day'); kept as comments"
    )


@pytest.mark.parametrize(
    "text",
    [
        '[Event "x"]\n*\n',  # tags alone: a game with no moves, nothing else
        '[Event "x"]\n1. 11-15 what a move *\n',  # junk beside a move
        '[Event "x"]\n1. 11-15 *\n\nThe end of the file\n',  # trailing prose: no game
        '[Event "x"]\n1. {only a comment} *\n',
    ],
)
def test_games_with_a_move_or_without_junk_are_not_said_to_be_not_pdn(text: str) -> None:
    for game in parse_games(text):
        assert all(p.code != "not-pdn" for p in game.errors), game.errors
