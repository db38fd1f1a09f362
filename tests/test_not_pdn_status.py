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
    from pdn.cutting import MAX_GAME_CHARS

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
