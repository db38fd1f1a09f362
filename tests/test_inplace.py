"""Never lose a byte on big or odd input (issue 22, items 1's guard, 2 and 7): --in-place keeps
the file's encoding, line ends, damaged bytes and owner, or refuses and leaves the file as it
was; -o into standard output's file; a dead worker, SIGTERM in split, a full disk, alias lists
that are not UTF-8, and CSV formulas after a separator."""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn import read_games
from pdn.cli import main
from pdn.collections.batch import usable_cores
from pdn.collections.inplace import InPlaceRefused, as_read, file_form, rewrite
from pdn.reading.cutting import MAX_GAME_CHARS
from pdn.reading.reader import split_games
from pdn.text.atomic import atomic_writer
from pdn.text.safe_text import csv_cell

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT = ROOT / "examples" / "german-open-2004.pdn"


def run(*args: str, input: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def pdn_process(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pdn", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, **kwargs)  # type: ignore[call-overload, no-any-return]


def game(black: str, white: str = "Bo", moves: str = "1. 11-15 23-19 *") -> str:
    return f'[Event "E"]\n[Black "{black}"]\n[White "{white}"]\n\n{moves}\n'


# --------------------------------------------------------------- encodings and damaged bytes


def test_cp1252_file_stays_cp1252_with_its_crlf(tmp_path: Path) -> None:
    path = tmp_path / "cp.pdn"
    text = game("Kléber \u2018Zé\u2019") + "\n" + game("Øre")
    path.write_bytes(text.replace("\n", "\r\n").encode("cp1252"))
    assert (file_form(path).encoding, file_form(path).newline) == ("cp1252", "\r\n")
    code, _, err = run("annotate", "--in-place", str(path))
    assert code == 0, err
    new = path.read_bytes()
    assert b"Kl\xe9ber \x91Z\xe9\x92" in new and b"\xd8re" in new  # the bytes as they were
    assert b"\xc3" not in new  # not re-encoded to UTF-8
    assert new.count(b"\r\n") == new.count(b"\n")  # every line end still CRLF
    assert new.count(b"PlyCount") == 2  # and the rewrite did happen
    assert [g.tags["Black"] for g in read_games(path)] == ["Kléber \u2018Zé\u2019", "Øre"]


def test_a_byte_cp1252_leaves_undefined_is_written_back(tmp_path: Path) -> None:
    # Decided cp1252 from the first 64 kB; a later 0x81 is read as Latin-1, and kept.
    path = tmp_path / "cp.pdn"
    head = "\n".join(game(f"Kléber {n}") for n in range(1500)).encode("cp1252")
    path.write_bytes(head + b"\n" + game("x_y").encode().replace(b"_", b"\x81"))
    assert file_form(path).encoding == "cp1252"
    assert run("convert", "--in-place", str(path))[0] == 0
    new = path.read_bytes()
    assert b"x\x81y" in new and new.count(b"Kl\xe9ber") == 1500


def test_mixed_utf8_and_latin1_keeps_the_latin1_bytes(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    utf8 = (game("Müller") + "\n" + game("Łukasz") + "\n").encode("utf-8")
    latin = game("Kléber", "Dupré").encode("latin-1")
    comment = game("Ann", moves="1. 11-15 {bien jou\xe9} 23-19 *").encode("latin-1")
    path.write_bytes(utf8 + latin + b"\n" + comment)
    code, _, err = run("convert", "--in-place", "--normalize", str(path))
    assert code == 0, err
    new = path.read_bytes()
    assert "\ufffd".encode() not in new  # no U+FFFD written over the bytes
    assert b"Kl\xe9ber" in new and b"Dupr\xe9" in new and b"jou\xe9}" in new
    assert "Müller".encode() in new and "Łukasz".encode() in new
    # The rewrite read back gives the same games as the original.
    assert [g.tags.items() for g in read_games(path)] == [
        g.tags.items() for g in read_games(tmp_path / "mixed.pdn")
    ]


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_a_file_in_written_form_comes_back_byte_for_byte(tmp_path: Path, bom: bytes) -> None:
    written = run("convert", str(TOURNAMENT))[1].replace('"Reutlingen"', '"R_utlingen"')
    written = written.replace("German Open", "German Öpen")  # UTF-8 in every game
    data = written.replace("\n", "\r\n").encode("utf-8").replace(b"R_utlingen", b"R\xfcutlingen")
    path = tmp_path / "g.pdn"
    path.write_bytes(bom + data)
    assert data.count(b"R\xfcutlingen") > 1  # damage in a UTF-8 file, in several games
    assert file_form(path).encoding == ("utf-8-sig" if bom else "utf-8")
    code, _, err = run("convert", "--in-place", str(path))
    assert code == 0, err
    assert path.read_bytes() == bom + data


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_keeps_its_byte_order_and_mark(tmp_path: Path, codec: str) -> None:
    path = tmp_path / "g.pdn"
    path.write_bytes(("\ufeff" + game("Ärger")).replace("\n", "\r\n").encode(codec))
    assert run("annotate", "--in-place", str(path))[0] == 0
    text = ("\ufeff" + run("annotate", str(path))[1]).replace("\n", "\r\n")
    assert "PlyCount" in text and path.read_bytes() == text.encode(codec)


def test_changing_a_damaged_value_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_bytes((game("Müller") + "\n").encode() + game("Kl\xe9ber").encode("latin-1"))
    before = path.read_bytes()
    aliases = tmp_path / "aliases.csv"
    aliases.write_text("Kl\ufffdber,Kleber\n", encoding="utf-8")
    code, _, err = run("fix", "--in-place", "--names", str(aliases), str(path))
    assert code == 1 and "left as it is" in err and f"{path}:" in err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["aliases.csv", "mixed.pdn"]


def test_text_the_file_encoding_cannot_hold_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cp.pdn"
    path.write_bytes(game("Kléber").encode("cp1252"))
    before = path.read_bytes()
    aliases = tmp_path / "aliases.csv"
    aliases.write_text("Kléber,Клебер\n", encoding="utf-8")
    code, _, err = run("fix", "--in-place", "--names", str(aliases), str(path))
    assert code == 1 and "cp1252" in err and "left as it is" in err
    assert path.read_bytes() == before


def test_a_literal_replacement_character_stays_one(tmp_path: Path) -> None:
    path = tmp_path / "u.pdn"
    path.write_bytes(game("A\ufffdB").encode())
    assert run("annotate", "--in-place", str(path))[0] == 0
    assert "A\ufffdB".encode() in path.read_bytes()
    # Beside damage in the same block the reader cannot tell which is which: refused.
    path.write_bytes((game("A\ufffdB") + "\n").encode() + game("C\xe9D").encode("latin-1"))
    before = path.read_bytes()
    code, _, err = run("annotate", "--in-place", str(path))
    assert code == 1 and "left as it is" in err and path.read_bytes() == before


# ------------------------------------------------------------------- the guard against loss


def test_a_game_cut_for_its_size_is_never_written_back(tmp_path: Path) -> None:
    big = tmp_path / "big.pdn"
    filler = ("x" * 99 + "\n") * (MAX_GAME_CHARS // 100 + 10)
    big.write_text(game("A", moves="1. 11-15 {" + filler + "} 23-19 *") + "\n" + game("B"))
    small = tmp_path / "small.pdn"
    small.write_text(game("C"))
    before = big.read_bytes()
    code, _, err = run("convert", "--in-place", "--normalize", str(big), str(small))
    assert code == 1 and f"{big}:" in err and "left as it is" in err
    assert big.read_bytes() == before  # byte for byte
    assert small.read_text() != game("C")  # the other file is still rewritten
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.pdn", "small.pdn"]


def test_text_the_reader_could_not_read_is_kept_when_rewritten(tmp_path: Path) -> None:
    # A "}" closing nothing is kept in the game (as a line comment), so the rewrite loses
    # nothing: the file is rewritten, and reading it back gives the same game and its "}".
    path = tmp_path / "g.pdn"
    path.write_text(game("A", moves="1. 11-15 } 23-19 *"))
    for command in (["convert"], ["annotate"], ["fix", "--dates"]):
        code, _, err = run(*command, "--in-place", str(path))
        assert code == 0, err
        (again,) = read_games(path)
        first = next(again.mainline())
        assert [c.text for c in first.comments_after] == ["}"]
        assert again.mainline_moves() == ["11-15", "23-19"]


def test_fewer_games_written_than_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "two.pdn"
    path.write_text(game("A") + "\n" + game("B"))
    before = path.read_bytes()
    with pytest.raises(InPlaceRefused, match="1 game where 2 were read"), rewrite(path) as out:
        out.write(game("A"))
    assert path.read_bytes() == before
    with rewrite(path) as out:  # the same two games, another form
        out.write(game("A").replace("\n\n", "\n") + "\n" + game("B"))
    assert [g.tags["Black"] for g in read_games(path)] == ["A", "B"]


def test_a_junk_chunk_of_its_own_is_not_dropped(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(game("A") + "[Empty]\n")  # read as a second game of its own
    code, _, err = run("convert", "--in-place", str(path))
    assert code == 0, err
    assert "[Empty]" in path.read_text() and len(list(read_games(path))) == 2


def test_fix_in_place_refuses_a_json_file(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    code, out, _ = run("convert", "--to", "json", str(TOURNAMENT))
    path.write_text(out, encoding="utf-8")
    before = path.read_bytes()
    for command in (["fix", "--dates"], ["convert"], ["annotate"]):
        code, _, err = run(*command, "--in-place", str(path))
        assert code == 1 and "JSON" in err and "left as it is" in err
        assert path.read_bytes() == before
    json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_in_place_as_root_keeps_the_owner_and_mode(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(game("A"))
    os.chown(path, 12345, 23456)
    os.chmod(path, 0o640)
    assert run("annotate", "--in-place", str(path))[0] == 0
    info = path.stat()
    assert (info.st_uid, info.st_gid, info.st_mode & 0o777) == (12345, 23456, 0o640)
    assert "PlyCount" in path.read_text()
    out = tmp_path / "out.pdn"
    out.write_text("old")
    os.chown(out, 12345, 23456)
    assert run("convert", str(path), "-o", str(out))[0] == 0
    assert (out.stat().st_uid, out.stat().st_gid) == (12345, 23456)


# --------------------------------------------------------- -o into standard output's file


@pytest.mark.parametrize("stream", ["/dev/stdout", "/proc/thread-self/fd/1"])
def test_output_through_a_link_to_stdout_appends_to_the_log(tmp_path: Path, stream: str) -> None:
    if not Path(stream).exists():
        pytest.skip(f"no {stream} here")
    link = tmp_path / "out.pdn"
    link.symlink_to(stream)
    log = tmp_path / "log"
    log.write_text("earlier\n")
    inode = log.stat().st_ino
    with open(log, "a") as appended:
        proc = subprocess.run(
            [sys.executable, "-m", "pdn", "convert", str(TOURNAMENT), "-o", str(link)],
            stdout=appended,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
    assert proc.returncode == 0, proc.stderr
    assert log.stat().st_ino == inode  # the same file, not a replacement
    text = log.read_text()
    assert text.startswith("earlier\n[Event") and text.count("[Event") == 15
    assert link.is_symlink()


def test_output_naming_the_file_stdout_writes_to_appends(tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.write_text("earlier\n")
    with open(log, "a") as appended:
        proc = subprocess.run(
            [sys.executable, "-m", "pdn", "convert", str(TOURNAMENT), "-o", str(log)],
            stdout=appended,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
    assert proc.returncode == 0, proc.stderr
    assert log.read_text().startswith("earlier\n[Event")


# ------------------------------------------------------------------------ full disk, workers


def test_no_space_left_names_the_file(tmp_path: Path) -> None:
    target = tmp_path / "out.pdn"
    with pytest.raises(OSError) as caught, atomic_writer(target) as out:
        out.write("x")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert caught.value.filename == str(target) and caught.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []


def test_no_space_left_in_the_cli_is_one_line_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pdn.text.atomic

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(pdn.text.atomic.os, "fsync", full)
    target = tmp_path / "out.pdn"
    result = CliRunner().invoke(main, ["convert", str(TOURNAMENT), "-o", str(target)])
    assert result.exit_code == 1
    assert f"{target}: No space left on device" in result.stderr
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_no_space_left_while_split_spools_names_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pdn.collections import splitting

    def full(self: object, name: str, text: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(splitting._Spool, "write", full)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    path = tmp_path / "g.pdn"
    path.write_text(game("A"))
    out = str(tmp_path / "out")
    result = CliRunner().invoke(main, ["split", str(path), "--by", "player", "-o", out])
    assert result.exit_code == 1
    assert f"{tmp_path}{os.sep}pdn-split-" in result.stderr
    assert "No space left on device" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.pdn", "out"]  # no spool left


@pytest.mark.skipif(usable_cores() < 2, reason="one core: no worker is started")
def test_a_killed_worker_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "many.pdn"
    path.write_text("\n".join([game("A")] * 1000))
    script = textwrap.dedent(
        f"""
        import os, signal, sys
        from pdn.collections import pool
        from pdn.cli import main
        parent = os.getpid()
        real = pool.record  # what validate's workers read with
        def parse(raw, first_steps=0, whole=False):
            if os.getpid() != parent:
                os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer does
            return real(raw, first_steps, whole=whole)
        pool.record = parse
        sys.argv = ["pdn", "validate", "-j", "2", {str(path)!r}]
        main()
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: a worker process died"), lines


def test_sigterm_in_split_removes_the_spool_folder(tmp_path: Path) -> None:
    path = tmp_path / "many.pdn"
    path.write_text("\n".join(game(f"P{n}") for n in range(300)))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    ready = tmp_path / "ready"
    script = textwrap.dedent(
        f"""
        import time
        from pathlib import Path
        from pdn.collections import splitting
        real = splitting._Spool.write
        def write(self, name, text):
            real(self, name, text)
            if len(self.paths) == 5:
                Path({str(ready)!r}).touch()
                time.sleep(60)  # SIGTERM arrives here
        splitting._Spool.write = write
        splitting.split_files([{str(path)!r}], {str(tmp_path / "out")!r}, "player")
        """
    )
    env = {**os.environ, "TMPDIR": str(scratch)}
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env=env)
    try:
        for _ in range(600):
            if ready.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert ready.exists() and any(scratch.iterdir())  # the spool folder is there
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == -signal.SIGTERM  # died of the signal, as before
    finally:
        if proc.poll() is None:
            proc.kill()
    assert list(scratch.iterdir()) == []


def test_sigterm_in_split_inside_an_atomic_write_removes_both(tmp_path: Path) -> None:
    # An atomic write's handler installed (a program writing its log while it splits): the
    # signal must still end the split through its with blocks, then the write's cleanup.
    path = tmp_path / "many.pdn"
    path.write_text("\n".join(game(f"P{n}") for n in range(300)))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    ready = tmp_path / "ready"
    log = tmp_path / "log.txt"
    script = textwrap.dedent(
        f"""
        import signal, time
        from pathlib import Path
        from pdn.collections import splitting
        from pdn.text.atomic import atomic_writer
        real = splitting._Spool.write
        def write(self, name, text):
            real(self, name, text)
            if len(self.paths) == 5:
                Path({str(ready)!r}).touch()
                time.sleep(60)  # SIGTERM arrives here
        splitting._Spool.write = write
        with atomic_writer({str(log)!r}) as out:
            out.write("splitting\\n")
            assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
            splitting.split_files([{str(path)!r}], {str(tmp_path / "out")!r}, "player")
        """
    )
    env = {**os.environ, "TMPDIR": str(scratch)}
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env=env)
    try:
        for _ in range(600):
            if ready.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert ready.exists() and any(scratch.iterdir())  # the spool folder is there
        assert list(tmp_path.glob(".log.txt.*.tmp"))  # and the log being written
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == -signal.SIGTERM  # died of the signal, as before
    finally:
        if proc.poll() is None:
            proc.kill()
    assert list(scratch.iterdir()) == []
    assert not list(tmp_path.glob(".log.txt.*")) and not log.exists()


# -------------------------------------------------------------------- alias lists, CSV cells


def test_names_list_in_cp1252_is_read(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(game("Müller"), encoding="utf-8")
    aliases = tmp_path / "aliases.csv"
    aliases.write_bytes("Müller,Mueller\n".encode("cp1252"))
    code, out, err = run("fix", "--names", str(aliases), str(path))
    assert code == 0 and '[Black "Mueller"]' in out, err


def test_names_list_with_damage_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(game("A"), encoding="utf-8")
    aliases = tmp_path / "aliases.csv"
    aliases.write_bytes("Müller,Mü\n".encode() + b"A\x00,B\n")
    code, _, err = run("fix", "--names", str(aliases), str(path))
    assert code == 2 and "--names" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("Ann;=HYPERLINK(1)", "Ann;'=HYPERLINK(1)"),
        ("Ann; @SUM(A1)", "Ann; '@SUM(A1)"),
        ("Ann\t+1+1", "Ann\t'+1+1"),
        ("Ann,-2+3", "Ann,'-2+3"),
        ("Ann\n=1", "Ann\n'=1"),
        ("=a;=b", "'=a;'=b"),
        ("Kok; -1", "Kok; -1"),  # a number stays a number
        ("1-0, -", "1-0, -"),
        ("Ann = Bo; x-y", "Ann = Bo; x-y"),
    ],
)
def test_csv_guard_covers_what_spreadsheets_split_on(cell: str, written: str) -> None:
    assert csv_cell(cell) == written


def test_report_csv_guards_a_payload_after_a_semicolon(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(game("Ann;=cmd()", moves="1. 11-15 23-19 1-0"), encoding="utf-8")
    code, out, _ = run("report", "--format", "csv", str(path))
    assert code == 0 and "Ann;'=cmd()" in out and ";=cmd" not in out


def test_in_place_writes_back_in_the_encoding_given(tmp_path: Path) -> None:
    # Read as cp1252 (as the user said), the UTF-8 bytes are mojibake; written back in cp1252
    # they are the same bytes again: only the repaired date changes.
    path = tmp_path / "u.pdn"
    path.write_bytes('[Event "Тест"]\n[Date "2024-01-02"]\n\n1. 11-15 23-19 *\n'.encode())
    code, _, err = run("fix", "--dates", "--encoding", "cp1252", "--in-place", str(path))
    assert code == 0, err
    assert path.read_bytes() == '[Event "Тест"]\n[Date "2024.01.02"]\n\n1. 11-15 23-19 *\n'.encode()


def test_fix_in_place_goes_on_after_a_refused_file(tmp_path: Path) -> None:
    first, refused, last = (tmp_path / f"{n}.pdn" for n in ("a", "b", "c"))
    for path in (first, last):
        path.write_text('[Event "E"]\n[Date "2024-01-02"]\n\n1. 11-15 23-19 *\n')
    refused.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    code, _, err = run("fix", "--dates", "--in-place", str(first), str(refused), str(last))
    assert code == 1 and "left as it is" in err
    assert "2 changes in 2 games" in err
    assert all("2024.01.02" in path.read_text() for path in (first, last))


# ------------------------------------------------- each line keeps its own line end (issue 33)


def test_mixed_crlf_and_lf_lines_keep_their_own_ends(tmp_path: Path) -> None:
    # Laid out as the writer lays it out: convert --in-place changes no line, so every line
    # keeps its own end (the majority was LF: the CRLF lines became LF).
    text = (
        b'[Event "a"]\r\n[Date "2019.05.03"]\n\r\n1. 11-15 23-19 *\r\n\r\n'
        b'[Event "b"]\n\n1. 9-13 22-18 *\n\n[Event "c"]\r\n\r\n1. 10-14 *\n'
    )
    path = tmp_path / "mixed.pdn"
    path.write_bytes(text)
    assert run("convert", "--in-place", str(path))[0] == 0
    assert path.read_bytes() == text


def test_a_changed_line_takes_the_end_of_the_lines_around_it(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_bytes(b'[Event "a"]\n\n1. 11-15 *\n\n[Event "b"]\r\n\r\n1. 9-13 *\r\n')
    assert run("annotate", "--in-place", str(path))[0] == 0
    lines = path.read_bytes().split(b"\n")
    second = lines.index(b'[Event "b"]\r')
    assert all(line.endswith(b"\r") for line in lines[second:-1])  # PlyCount ... too
    assert not any(line.endswith(b"\r") for line in lines[:second])


def test_unchanged_games_keep_literal_backslash_r_and_line_ends(tmp_path: Path) -> None:
    # The reader drops the text "\r" before a line end, and reads a lone CR as a line end:
    # the unchanged second game keeps both, byte for byte, while the first is fixed.
    fixed = b'[Event "a"]\n[Date "2019-05-03"]\n\n1. 11-15 *\n\n'
    kept = b'[Event "b"]\\r\r\n[Date "2019.05.04"]\\r\\r\n\r1. 9-13 {x}\\r\r22-18 *\\r'
    path = tmp_path / "cr.pdn"
    path.write_bytes(fixed + kept)
    code, _, err = run("fix", "--dates", "--in-place", str(path))
    assert code == 0, err
    new = path.read_bytes()
    assert new.endswith(b"\n\n" + kept)
    assert new.startswith(b'[Event "a"]\n[Date "2019.05.03"]\n')


def test_line_ends_are_read_lazily_and_kept_across_blocks(tmp_path: Path) -> None:
    # A CRLF cut by the end of a read block, lone CRs, and a file ending without a line end:
    # the file's own text (line ends read as LF) written back is the file, byte for byte.
    from pdn.text.decoding import BLOCK_SIZE

    one = b'[Event "n"]\n1. 11-15 *\n\n'
    games = (BLOCK_SIZE - 40) // len(one)
    head = one * games + b'[Event "a"]\n{'
    head += b"x" * (BLOCK_SIZE - 2 - len(head)) + b"}"
    assert len(head) == BLOCK_SIZE - 1
    text = head + b'\r\n1. 11-15 *\r\n\r\n[Event "b"]\r1. 9-13 *'
    path = tmp_path / "blocks.pdn"
    path.write_bytes(text)
    with open(path, encoding="utf-8") as handle:
        as_read = handle.read()  # universal newlines: what the reader reads
    assert "\r" not in as_read
    with rewrite(path) as out:
        out.write(as_read)
    assert path.read_bytes() == text


def test_a_changed_line_keeps_the_end_of_the_line_it_replaces(tmp_path: Path) -> None:
    text = b'[Event "a"]\r\n[Date "2019-05-03"]\n[Round "1"]\r\n\r\n1. 11-15 *\r\n'
    path = tmp_path / "g.pdn"
    path.write_bytes(text)
    assert run("fix", "--dates", "--in-place", str(path))[0] == 0
    assert path.read_bytes() == text.replace(b"2019-05-03", b"2019.05.03")


# ------------------------------------------- no game written in place is cut on reading again


def _long_game(chars: int) -> str:
    """A game of ``chars`` characters, most of them one comment (read fast)."""
    head, tail = '[Event "E"]\n1. 11-15 {', "} 23-19 *\n"
    rest = chars - len(head) - len(tail)
    return head + ("x" * 99 + "\n") * (rest // 100) + "y" * (rest % 100) + tail


def test_a_game_written_too_long_to_read_back_is_kept_as_read(tmp_path: Path) -> None:
    # Read whole (just over the limit, under where the reader cuts), annotate's tags would
    # push it past: every later read would cut it. It is kept as read, and said; the other
    # game is annotated.
    path = tmp_path / "long.pdn"
    long = _long_game(MAX_GAME_CHARS + 20)
    path.write_text(game("A") + "\n" + long, encoding="utf-8")
    code, _, err = run("annotate", "--in-place", str(path))
    assert code == 0, err
    assert f"{path}:7: game 2 would be longer than {MAX_GAME_CHARS} characters" in err
    new = path.read_text(encoding="utf-8")
    assert new.endswith("\n" + long) and new.count("PlyCount") == 1
    assert [raw.end for raw in split_games(path)] == ["result", "result"]


def test_a_rewrite_that_would_be_cut_on_reading_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(game("A"), encoding="utf-8")
    with pytest.raises(InPlaceRefused, match="game 1 would be longer than"), rewrite(path) as out:
        out.write(_long_game(MAX_GAME_CHARS + 5000))
    assert path.read_text(encoding="utf-8") == game("A")


def test_as_read_gives_a_game_back_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    text = b'[Event "a"]\r\n1. 11-15 *\r\n\r\n[Event "b"]\\r\n1.  9-13\r*\n'
    path.write_bytes(text)
    with rewrite(path) as out:
        out.write(as_read(out, 1) + "\n" + as_read(out, 2))  # type: ignore[operator]
    assert path.read_bytes() == text
    assert as_read(io.StringIO(), 1) is None


@pytest.mark.stress
def test_convert_in_place_keeps_a_junk_game_it_would_push_past_the_limit(tmp_path: Path) -> None:
    # Issue 33: junk words are written as comments, 786 kB grew to 1.3 MB, and every later
    # read cut the game. A run of junk is one comment now; a junk word between dangling move
    # numbers still grows ("ab 1. " is written "{ab} {1.} ": 6 characters become 10).
    path = tmp_path / "junk.pdn"
    text = '[Event "j"]\n1. 11-15 ' + "ab 1. " * (MAX_GAME_CHARS // 6 - 100) + "23-19 *\n"
    path.write_text(text, encoding="utf-8")
    code, _, err = run("convert", "--in-place", str(path))
    assert code == 0, err
    assert "game 1 would be longer than" in err and "kept as it was read" in err
    assert path.read_text(encoding="utf-8") == text


def test_a_last_line_ending_in_crlf_keeps_it(tmp_path: Path) -> None:
    # The file is read in one block: its final CRLF is no CR waiting for its LF.
    path = tmp_path / "g.pdn"
    text = b'[Event "a"]\n\n1. 11-15 *\n\n[Event "b"]\n\n1. 9-13 *\r\n'
    path.write_bytes(text)
    assert run("convert", "--in-place", str(path))[0] == 0
    assert path.read_bytes() == text


# --------------------------------- what no writer gives back is kept as read, in place


@pytest.mark.parametrize(
    "rest", ["(2. 9-13)", "((2. 9-13))", "((9-13) 22-18)"], ids=["one", "two", "inner"]
)
@pytest.mark.parametrize("command", ["convert", "annotate"])
def test_a_variation_after_the_result_keeps_its_parentheses(
    tmp_path: Path, command: str, rest: str
) -> None:
    # Read as a game of its own whose moves are all in a variation: the writer wrote it as a
    # main line ("((" became "(", or none), exit 0.
    path = tmp_path / "v.pdn"
    path.write_text(f'[Event "a"]\n1. 11-15 23-19 * {rest}\n', encoding="utf-8")
    code, _, err = run(command, "--in-place", str(path))
    assert code == 0, err
    assert f"{path}:2: game 2 would be written without what lone-variation says" in err
    assert path.read_text(encoding="utf-8").endswith(f"*\n\n{rest}\n")


def test_a_copy_says_a_lone_variation_loses_its_parentheses(tmp_path: Path) -> None:
    path = tmp_path / "v.pdn"
    path.write_text('[Event "a"]\n1. 11-15 23-19 * (2. 9-13)\n', encoding="utf-8")
    code, out, err = run("convert", str(path))
    assert code == 0 and out.endswith("\n2. 9-13 *\n")
    assert f"{path}:2:22: lone-variation:" in err  # (at its first move)


# ------------------------------------- a tag pair line inside a closed comment (issue 33)

QUOTED = '[Event "a"]\n1. 11-15 {a comment\n[Event "x"]\n[Date "2019.05.03"]\n} 23-19 *\n'
# An unclosed comment, the next game's moves before a "}": still cut at the tag line.
FORGOTTEN = '[Event "a"]\n1. 11-15 {forgot to close\n[Event "next"]\n1. 9-14 } *\n'
FORGOTTEN_FAR = '[Event "a"]\n1. 11-15 {forgot\n[Event "next"]\n' + "x y\n" * 1200 + "} *\n"


def _games_by_line(text: str) -> list[pdn.Game]:
    handle = io.StringIO(text)
    games = []
    while (one := pdn.read_game(handle)) is not None:
        games.append(one)
    return games


@pytest.mark.parametrize(
    ("text", "count"), [(QUOTED, 1), (FORGOTTEN, 2), (FORGOTTEN_FAR, 2)], ids=str
)
def test_a_tag_line_splits_a_comment_only_when_a_game_follows(text: str, count: int) -> None:
    # Read whole or line by line: the same games.
    whole = list(pdn.parse_games(text))
    assert len(whole) == len(_games_by_line(text)) == count
    assert [g.mainline_moves() for g in whole] == [g.mainline_moves() for g in _games_by_line(text)]
    if count == 1:
        (game,) = whole
        assert game.mainline_moves() == ["11-15", "23-19"] and not game.errors
        comment = next(game.mainline()).comments_after[0].text
        assert comment == 'a comment\n[Event "x"]\n[Date "2019.05.03"]\n'


@pytest.mark.parametrize("command", ["convert", "annotate"])
def test_a_tag_line_in_a_closed_comment_is_not_made_a_split_in_place(
    tmp_path: Path, command: str
) -> None:
    path = tmp_path / "c.pdn"
    path.write_text(QUOTED, encoding="utf-8")
    code, _, err = run(command, "--in-place", str(path))
    assert code == 0, err
    (game,) = read_games(path)
    assert game.mainline_moves() == ["11-15", "23-19"]
    assert '[Event "x"]' in next(game.mainline()).comments_after[0].text
