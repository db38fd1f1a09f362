"""No output replaces a file the command reads (issue 33, sections 4 and 7).

Every command's options are walked: each that reads a file must be a
:class:`pdn.cli.guard.InputPath`, each that writes one an :class:`~pdn.cli.guard.OutputPath`,
and every pair of them, on every command, is tried: the output naming the input is refused
(exit 2) and the input is left byte for byte. A new reading option that is not an InputPath,
or a command missing from :data:`BASE`, fails here. Then the spellings of one file (symbolic
and hard links, a file of a folder read) and ``-o INPUT`` with ``--in-place``.
"""

from __future__ import annotations

import os
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pdn.cli import COMMANDS, load_command, main
from pdn.cli.guard import InputPath, OutputPath

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT = ROOT / "examples" / "german-open-2004.pdn"

#: Per command, what it needs besides the files under test ({FILES}: the games read).
BASE: dict[str, list[str]] = {
    "analyse": ["--depth", "1"],
    "annotate": [],
    "convert": [],
    "dedupe": [],
    "explore": [],
    "fix": ["--dates"],
    # ENGINE_A; the games' path stands for ENGINE_B, never started: the guard refuses first.
    "match": ["pdn engine --hub --depth 1"],
    "novelty": [],
    "openings": [],
    "report": [],
    "select": [],
    "show": [],
    "validate": [],
    "view": [],
}
#: Options that need a value of their own when another pair is tried.
REQUIRED = {("novelty", "--against")}
ALIASES = "Nobody,Somebody\n"


def _commands() -> dict[str, click.Command]:
    return {name: load_command(name) for name in COMMANDS}


def _params(command: click.Command, kind: type) -> list[click.Parameter]:
    return [p for p in command.params if isinstance(p.type, kind)]


def _flag(param: click.Parameter) -> str | None:
    return None if isinstance(param, click.Argument) else max(param.opts, key=len)


def test_every_file_option_is_an_input_or_an_output() -> None:
    for name, command in _commands().items():
        for param in command.params:
            if not isinstance(param.type, click.Path):
                # A file named as plain text would escape the guard.
                assert param.metavar not in ("FILE", "ARCHIVE"), (name, param.name)
                continue
            path = param.type
            if path.exists:
                assert isinstance(path, InputPath), (name, param.name)
            elif path.file_okay:
                assert isinstance(path, OutputPath), (name, param.name)
            else:
                assert not path.file_okay and path.dir_okay, (name, param.name)  # a folder


def _pairs() -> list[tuple[str, str | None, str]]:
    pairs = []
    for name, command in _commands().items():
        outputs = _params(command, OutputPath)
        for read in _params(command, InputPath):
            for written in outputs:
                flag = _flag(written)
                assert flag is not None
                pairs.append((name, _flag(read), flag))
    return pairs


PAIRS = _pairs()


def test_every_command_that_reads_and_writes_files_is_tried() -> None:
    assert {name for name, _, _ in PAIRS} == set(BASE)
    # The options issue 33 found unguarded are among them.
    flags = {(name, read) for name, read, _ in PAIRS}
    assert {
        ("dedupe", "--against"),
        ("novelty", "--against"),
        ("annotate", "--novelties"),
        ("view", "--explorer-from"),
        ("report", "--names"),
        ("fix", "--names"),
    } <= flags


@pytest.mark.parametrize(("command", "read", "written"), PAIRS)
def test_no_output_is_a_file_read(
    tmp_path: Path, command: str, read: str | None, written: str
) -> None:
    games = tmp_path / "games.pdn"
    games.write_bytes(TOURNAMENT.read_bytes())
    target = tmp_path / ("names.csv" if read == "--names" else "read.pdn")
    target.write_bytes(ALIASES.encode() if read == "--names" else TOURNAMENT.read_bytes())
    before = target.read_bytes()
    args = [command, *BASE[command]]
    if read is None:  # the FILES (or FILE) themselves
        args.append(str(target))
    else:
        args += [str(games), read, str(target)]
    for name, option in REQUIRED:
        if name == command and option != read:
            args += [option, str(games)]
    args += [written, str(target)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, (args, result.output)
    assert "refusing to overwrite a file pdn reads" in result.stderr
    assert "Traceback" not in result.output
    assert target.read_bytes() == before


def _archive_copy(tmp_path: Path) -> tuple[Path, Path]:
    games = tmp_path / "games.pdn"
    games.write_bytes(TOURNAMENT.read_bytes())
    archive = tmp_path / "archive.pdn"
    archive.write_bytes(TOURNAMENT.read_bytes()[:2000])
    return games, archive


@pytest.mark.parametrize("how", ["symlink", "hardlink", "spelling"])
def test_another_name_of_an_archive_is_refused(tmp_path: Path, how: str) -> None:
    games, archive = _archive_copy(tmp_path)
    before = archive.read_bytes()
    other = tmp_path / "other.pdn"
    if how == "symlink":
        other.symlink_to(archive)
    elif how == "hardlink":
        os.link(archive, other)
    else:
        other = tmp_path / "sub" / ".." / "archive.pdn"
        (tmp_path / "sub").mkdir()
    result = CliRunner().invoke(
        main, ["dedupe", str(games), "--against", str(archive), "-o", str(other)]
    )
    assert result.exit_code == 2 and "refusing to overwrite" in result.stderr
    assert archive.read_bytes() == before


def test_a_file_of_an_archive_folder_is_refused_before_any_work(tmp_path: Path) -> None:
    games, _ = _archive_copy(tmp_path)
    folder = tmp_path / "archive"
    folder.mkdir()
    inside = folder / "old.pdn"
    inside.write_bytes(TOURNAMENT.read_bytes())
    args = ["annotate", str(games), "--novelties", str(folder), "-o", str(inside)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "read by --novelties" in result.stderr
    assert "novelty" not in result.stderr.replace("--novelties", "")  # refused before the work
    assert inside.read_bytes() == TOURNAMENT.read_bytes()
    # A new file in that folder is no file read: written.
    fresh = folder / "new.pdn"
    result = CliRunner().invoke(
        main, ["annotate", str(games), "--novelties", str(folder), "-o", str(fresh)]
    )
    assert result.exit_code == 0 and fresh.exists()


def test_a_diagram_never_replaces_a_file_read(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.html"  # a PDN file that happens to bear the sheet's name
    sheet.write_bytes(TOURNAMENT.read_bytes())
    args = ["diagram", str(sheet), "--plies", "0", "--sheet", "-o", str(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "refusing to overwrite" in result.stderr
    assert sheet.read_bytes() == TOURNAMENT.read_bytes()


# -------------------------------------------------------------- -o INPUT with --in-place


def test_output_naming_the_one_input_is_in_place(tmp_path: Path) -> None:
    path = tmp_path / "cp.pdn"
    text = TOURNAMENT.read_text(encoding="utf-8").replace("Oliphant", "Oliphänt")
    data = text.replace("\n", "\r\n").encode("cp1252")
    path.write_bytes(data)
    args = ["convert", "--in-place", "--normalize", str(path), "-o", str(path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    written = path.read_bytes()
    assert written != data  # normalised...
    assert "Oliphänt".encode("cp1252") in written  # ...in its own encoding
    assert b"\r\n" in written and b"\n" not in written.replace(b"\r\n", b"")  # and line ends


def test_output_naming_one_of_several_inputs_is_refused(tmp_path: Path) -> None:
    one, two = tmp_path / "one.pdn", tmp_path / "two.pdn"
    for path in (one, two):
        path.write_bytes(TOURNAMENT.read_bytes())
    args = ["convert", "--in-place", str(one), str(two), "-o", str(one)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "--in-place without -o" in result.stderr
    assert one.read_bytes() == two.read_bytes() == TOURNAMENT.read_bytes()


def test_the_guard_is_linear_in_the_number_of_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pdn.cli import guard

    calls = 0
    real = guard._identity

    def counted(path: str) -> tuple[int, int] | None:
        nonlocal calls
        calls += 1
        return real(path)

    monkeypatch.setattr(guard, "_identity", counted)
    files = []
    for n in range(200):
        path = tmp_path / f"g{n}.pdn"
        path.write_text("1. 11-15 23-19 *\n")
        files.append(str(path))
    out = tmp_path / "out.txt"
    out.write_text("")  # there already: every file is checked against it
    counts = []
    for n in (100, 200):
        calls = 0
        # -o first: each FILE is checked as it is parsed, against the output.
        result = CliRunner().invoke(main, ["validate", "-o", str(out), *files[:n]])
        assert result.exit_code == 0, result.output
        counts.append(calls)
    assert counts[1] <= 2.2 * counts[0], counts
