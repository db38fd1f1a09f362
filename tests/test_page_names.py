"""Published pages name files, not the user's folders (issue 33, section 3).

A page pdn writes for others (``report`` in HTML and Markdown, ``view``, ``explore --format
html``) names a file as the user gave it when the path is relative, by its base name when it is
absolute (:func:`pdn.collections.inputs.page_name`); the messages on standard error keep the full
path.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn.cli import main
from pdn.collections.inputs import page_name

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT = ROOT / "examples" / "german-open-2004.pdn"


def _files(folder: Path) -> tuple[Path, Path]:
    """A file whose games repeat (the report warns, naming it) and one that is not PDN."""
    folder.mkdir(parents=True, exist_ok=True)
    twice = folder / "round3.pdn"
    twice.write_bytes(TOURNAMENT.read_bytes() * 2)
    junk = folder / "junk.pdn"
    junk.write_text("garbage\n")
    return twice, junk


def test_the_rule() -> None:
    assert page_name("/home/someone/club/2025/round3.pdn") == "round3.pdn"
    assert page_name("2025/round3.pdn") == "2025/round3.pdn"
    assert page_name("../club/round3.pdn") == "../club/round3.pdn"
    assert page_name("-") == "-"


@pytest.mark.parametrize("fmt", ["html", "markdown"])
def test_a_report_page_names_an_absolute_file_by_its_base_name(tmp_path: Path, fmt: str) -> None:
    twice, junk = _files(tmp_path / "club" / "2025")
    result = CliRunner().invoke(main, ["report", "--format", fmt, str(twice), str(junk)])
    page = result.stdout
    assert str(tmp_path) not in page
    assert "round3.pdn:" in page and "repeats round3.pdn:1 " in page
    assert "junk.pdn:1:1: not-pdn" in page
    # The terminal keeps the full path.
    assert f"{twice}:" in result.stderr and f"{junk}:1:1: not-pdn" in result.stderr


def test_a_report_page_keeps_a_relative_name_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _files(tmp_path / "club" / "2025")
    monkeypatch.chdir(tmp_path / "club")
    result = CliRunner().invoke(main, ["report", "--format", "html", "2025/round3.pdn"])
    assert "2025/round3.pdn:" in result.stdout and "repeats 2025/round3.pdn:1 " in result.stdout


def test_the_viewer_names_an_absolute_file_by_its_base_name(tmp_path: Path) -> None:
    twice, _ = _files(tmp_path / "club" / "2025")
    illegal = tmp_path / "club" / "illegal.pdn"
    illegal.write_bytes((ROOT / "examples" / "illegal-moves.pdn").read_bytes())
    result = CliRunner().invoke(main, ["view", "--explorer", str(twice), str(illegal)])
    page = result.stdout
    assert result.exit_code == 0, result.output
    assert str(tmp_path) not in page
    assert "<title>round3.pdn, illegal.pdn</title>" in page
    assert '"round3.pdn"]' in page and '"illegal.pdn"]' in page  # each row's file column


def test_the_explorer_page_names_an_absolute_file_by_its_base_name(tmp_path: Path) -> None:
    twice, _ = _files(tmp_path / "club" / "2025")
    result = CliRunner().invoke(main, ["explore", "--format", "html", str(twice)])
    assert result.exit_code == 0, result.output
    assert str(tmp_path) not in result.stdout
    assert "Explorer: round3.pdn" in result.stdout
