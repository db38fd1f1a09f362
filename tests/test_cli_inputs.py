"""Where commands read from and write to: standard input when data is piped in and no FILE is
given, folders (their ``*.pdn`` files, ``--recursive`` for subfolders), and ``--in-place``
without ``-o`` rewriting each input as ``sed -i`` does (convert, annotate, fix)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn import read_games
from pdn.cli import main
from pdn.collections.batch import input_files

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
TOURNAMENT = EXAMPLES / "german-open-2004.pdn"


def run(*args: str, input: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def pdn_process(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pdn", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, **kwargs)  # type: ignore[call-overload, no-any-return]


# ------------------------------------------------------------------------ standard input


def test_piped_data_without_file_is_read() -> None:
    piped = pdn_process("validate", input=TOURNAMENT.read_text(encoding="utf-8"))
    assert piped.returncode == 0, piped.stderr
    assert "15 games: 15 clean, 0 with errors" in piped.stdout
    code, out, _ = run("convert", input="1. 11-15 24-19 *\n")
    assert code == 0 and out == "1. 11-15 24-19 *\n"


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_no_file_with_a_terminal_is_a_usage_error() -> None:
    leader, follower = os.openpty()
    try:
        done = pdn_process("validate", stdin=follower, timeout=60)
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 2
    assert "give at least one FILE" in done.stderr


# -------------------------------------------------------------------------------- folders


def test_folder_reads_its_pdn_files_in_sorted_order(tmp_path: Path) -> None:
    (tmp_path / "b.pdn").write_text('[Round "b"]\n1. 11-15 *\n', encoding="utf-8")
    (tmp_path / "A.PDN").write_text('[Round "A"]\n1. 9-13 *\n', encoding="utf-8")
    (tmp_path / "notes.txt").write_text('[Round "txt"]\n1. 9-13 *\n', encoding="utf-8")
    (tmp_path / ".hidden.pdn").write_text('[Round "hidden"]\n1. 9-13 *\n', encoding="utf-8")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "c.pdn").write_text('[Round "c"]\n1. 10-14 *\n', encoding="utf-8")
    folder = str(tmp_path)
    assert input_files([folder]) == [str(tmp_path / "A.PDN"), str(tmp_path / "b.pdn")]
    assert input_files([folder], recursive=True) == [
        str(tmp_path / "A.PDN"),
        str(tmp_path / "b.pdn"),
        str(sub / "c.pdn"),
    ]
    code, out, _ = run("convert", folder, "--to", "csv-games", "--tags", "Round")
    assert code == 0
    assert [line.split(",")[3] for line in out.splitlines()[1:]] == ["A", "b"]
    code, out, _ = run("convert", "-r", folder, "--to", "csv-games", "--tags", "Round")
    assert [line.split(",")[3] for line in out.splitlines()[1:]] == ["A", "b", "c"]
    # The same helper serves every command taking FILES.
    code, out, _ = run("select", folder, "--recursive", "--count")
    assert code == 0 and out.strip() == "3"


def test_folder_without_pdn_files_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.pdn").write_text("1. 11-15 *\n", encoding="utf-8")
    code, _, err = run("validate", str(tmp_path))
    assert code == 2
    assert "no *.pdn file in this folder" in err
    assert run("validate", "--recursive", str(tmp_path))[0] == 0


# ------------------------------------------------------------------------------ --in-place


def copies(tmp_path: Path, *names: str) -> list[Path]:
    paths = []
    for name in names:
        target = tmp_path / name
        shutil.copy(EXAMPLES / name, target)
        paths.append(target)
    return paths


def test_convert_in_place_rewrites_each_input(tmp_path: Path) -> None:
    first, second = copies(tmp_path, "german-open-2004.pdn", "russian-setup.pdn")
    expected = [run("convert", "--normalize", str(path))[1] for path in (first, second)]
    code, out, _ = run("convert", "--in-place", "--normalize", str(first), str(second))
    assert code == 0 and out == ""
    assert [path.read_text(encoding="utf-8") for path in (first, second)] == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == [first.name, second.name]  # no temp


def test_annotate_and_fix_in_place(tmp_path: Path) -> None:
    (path,) = copies(tmp_path, "german-open-2004.pdn")
    expected = run("annotate", str(path))[1]
    assert run("annotate", "--in-place", str(path))[:2] == (0, "")
    assert path.read_text(encoding="utf-8") == expected
    code, out, err = run("fix", "--in-place", "--dates", str(path))
    assert code == 0 and out == ""
    assert "15 changes in 15 games" in err
    dates = {game.tags["Date"] for game in read_games(path)}
    assert dates == {"2004.04.30", "2004.05.01"}


def test_in_place_refuses_standard_input_and_keeps_a_file_that_is_not_pdn(
    tmp_path: Path,
) -> None:
    code, _, err = run("convert", "--in-place", "-", input="1. 11-15 *\n")
    assert code == 2 and "name them" in err
    (kept,) = copies(tmp_path, "german-open-2004.pdn")
    before = kept.read_bytes()
    code, _, err = run("convert", "--in-place", "--to", "csv", str(kept))
    assert code == 2 and "give -o" in err
    assert kept.read_bytes() == before
    kept.unlink()
    binary = tmp_path / "image.pdn"
    content = bytes(range(256)) * 8
    binary.write_bytes(content)
    code, _, err = run("convert", "--in-place", "--normalize", str(binary))
    assert code != 0 and "left as it is" in err
    assert binary.read_bytes() == content
    assert [p.name for p in tmp_path.iterdir()] == ["image.pdn"]


def test_output_naming_an_input_still_needs_in_place(tmp_path: Path) -> None:
    (path,) = copies(tmp_path, "german-open-2004.pdn")
    before = path.read_text(encoding="utf-8")
    code, _, err = run("convert", str(path), "-o", str(path))
    assert code == 2 and "refusing to overwrite" in err
    assert path.read_text(encoding="utf-8") == before
    assert run("convert", "--normalize", str(path), "-o", str(path), "--in-place")[0] == 0
    assert path.read_text(encoding="utf-8") != before


# ------------------------------------------------------------------ an input of no games


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("list.json", "[]\n"),
        ("document.json", '{"schema": "pdn-json/1", "type": "games", "games": []}\n'),
        ("empty.pdn", ""),
        ("blank.pdn", "\n\n"),
    ],
)
@pytest.mark.parametrize("command", ["validate", "convert"])
def test_an_input_of_no_games_is_said_by_name(
    tmp_path: Path, command: str, name: str, content: str
) -> None:
    # Issue 33, section 7: a JSON file holding [] was accepted silently (so was an empty PDN
    # file): the run looked like all was well with nothing done.
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    game = tmp_path / "game.pdn"
    game.write_text("1. 11-15 23-19 *\n", encoding="utf-8")
    code, _, err = run(command, str(game), str(path))
    assert code == 0, err
    assert f"Warning: {path} holds no games" in err
    assert str(game) not in err  # a file of games is not said
