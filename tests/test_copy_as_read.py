"""Issue 33, section 7: what ``select``, ``split`` and ``dedupe`` write "as read" keeps the
input's BOM and each line's own line end (byte for byte the games' text as read), writes a
UTF-16 file's games in UTF-8 with a note, and says each damaged byte written as U+FFFD with
FILE:LINE:COL, as ``convert`` does (:mod:`pdn.collections.copying`)."""

from __future__ import annotations

import io
from pathlib import Path

from click.testing import CliRunner

from pdn.cli import main
from pdn.collections.copying import AsRead
from pdn.reading.reader import split_games

# Three games of a CRLF archive with a BOM: the blank lines between them, a comment line
# before the second, and a line of the third that ends in LF alone (a mixed file).
GAMES = [
    '[Event "a"]\r\n[Black "Ann"]\r\n\r\n1. 11-15 23-19 *\r\n',
    '{before b}\r\n[Event "b"]\r\n[Black "Bob"]\r\n\r\n1. 9-13 22-18 *\r\n',
    '[Event "c"]\n[Black "Ann"]\r\n\r\n1. 11-15 23-19 2. 8-11 *\r\n',
]
BOM = "\ufeff"


def _archive(tmp_path: Path, name: str = "archive.pdn", encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes((BOM + "\r\n".join(GAMES)).encode(encoding))
    return path


def _run(*args: str) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout_bytes, result.stderr


def _expected(*numbers: int) -> bytes:
    return (BOM + "\r\n".join(GAMES[n] for n in numbers)).encode("utf-8")


# ------------------------------------------------------------------------------ select


def test_select_writes_its_games_byte_for_byte_as_read(tmp_path: Path) -> None:
    path = _archive(tmp_path)
    code, out, err = _run("select", "--black", "Ann", str(path))
    assert code == 0, err
    assert out == _expected(0, 2)
    code, out, err = _run("select", str(path))
    assert out == path.read_bytes()


def test_select_rest_and_output_file_are_as_read(tmp_path: Path) -> None:
    path = _archive(tmp_path)
    kept, rest = tmp_path / "kept.pdn", tmp_path / "rest.pdn"
    code, _, err = _run("select", "--event", "b", "--rest", str(rest), "-o", str(kept), str(path))
    assert code == 0, err
    assert kept.read_bytes() == _expected(1)
    assert rest.read_bytes() == _expected(0, 2)


def test_a_utf16_archive_is_selected_into_utf8_with_its_bom_and_a_note(tmp_path: Path) -> None:
    path = _archive(tmp_path, "wide.pdn", "utf-16-le")
    code, out, err = _run("select", "--black", "Ann", str(path))
    assert code == 0, err
    assert out == _expected(0, 2)
    assert f"note: {path} is UTF-16-LE: its games are written in UTF-8" in err


def test_select_says_a_damaged_byte_written_as_u_fffd(tmp_path: Path) -> None:
    path = tmp_path / "damaged.pdn"
    path.write_bytes(b'[Event "a"]\r\n[Black "M\xc3\xbcller \xff"]\r\n\r\n1. 11-15 *\r\n')
    code, out, err = _run("select", str(path))
    assert code == 0, err  # as convert: said, not an error
    assert out == '[Event "a"]\r\n[Black "Müller \ufffd"]\r\n\r\n1. 11-15 *\r\n'.encode()
    assert f"{path}:2:16: encoding: byte FF" in err and "U+FFFD in the output" in err


def test_a_game_ending_on_the_line_the_next_starts_takes_no_later_line_end(
    tmp_path: Path,
) -> None:
    # "1. 9-13 *" ends game 1 on the line game 2 starts on; the same text is a whole line of
    # game 3 (with LF): game 1's last line must not take that line's end.
    path = tmp_path / "shared.pdn"
    path.write_bytes(b'1. 9-13 * 1. 10-14 *\r\n\r\n[Event "c"]\n1. 9-13 *\n')
    code, out, err = _run("select", "--games", "1,3", str(path))
    assert code == 0, err
    assert out == b'1. 9-13 *\r\n\r\n[Event "c"]\n1. 9-13 *\n'


# ------------------------------------------------------------------------------- split


def test_split_writes_each_file_as_read(tmp_path: Path) -> None:
    path = _archive(tmp_path)
    folder = tmp_path / "out"
    code, _, err = _run("split", "--by", "player", "-o", str(folder), str(path))
    assert code == 0, err
    assert (folder / "Ann.pdn").read_bytes() == _expected(0, 2)
    assert (folder / "Bob.pdn").read_bytes() == _expected(1)


def test_split_says_damage_and_a_utf16_input(tmp_path: Path) -> None:
    wide = _archive(tmp_path, "wide.pdn", "utf-16-le")
    damaged = tmp_path / "damaged.pdn"
    damaged.write_bytes(b'[Event "d"]\n[Black "M\xc3\xbcller \xff"]\n1. 11-15 *\n')
    folder = tmp_path / "out"
    code, _, err = _run("split", "--by", "event", "-o", str(folder), str(wide), str(damaged))
    assert code == 0, err
    assert (folder / "a.pdn").read_bytes() == _expected(0)
    assert f"{damaged}:2:16: encoding: byte FF" in err
    assert f"note: {wide} is UTF-16-LE" in err


# ------------------------------------------------------------------------------ dedupe


def test_dedupe_writes_the_games_and_the_repeats_as_read(tmp_path: Path) -> None:
    path = _archive(tmp_path)
    repeats = tmp_path / "repeats.pdn"
    code, out, err = _run("dedupe", "--duplicates-to", str(repeats), str(path))
    assert code == 0, err
    # Game 3 begins as game 1 but goes on: no repeat; write the first game twice to make one.
    assert out == path.read_bytes()
    twice = tmp_path / "twice.pdn"
    twice.write_bytes(path.read_bytes() + b"\r\n" + GAMES[0].encode())
    code, out, err = _run("dedupe", "--duplicates-to", str(repeats), str(twice))
    assert code == 0, err
    assert out == path.read_bytes()
    # An output starts with the BOM of its first game's file.
    assert repeats.read_bytes() == (BOM + GAMES[0]).encode()


def test_dedupe_says_a_damaged_byte(tmp_path: Path) -> None:
    path = tmp_path / "damaged.pdn"
    path.write_bytes(b'[Event "a"]\n[Black "M\xc3\xbcller \xff"]\n1. 11-15 *\n')
    code, out, err = _run("dedupe", str(path))
    assert code == 0, err
    assert out == '[Event "a"]\n[Black "Müller \ufffd"]\n1. 11-15 *\n'.encode()
    assert f"{path}:2:16: encoding: byte FF" in err


# --------------------------------------------------------------------------- the library


def test_as_read_follows_each_file_and_keeps_its_line_ends(tmp_path: Path) -> None:
    crlf = _archive(tmp_path)
    lf = tmp_path / "lf.pdn"
    lf.write_bytes(b'[Event "x"]\n1. 11-15 *\n')
    copy, out = AsRead(), io.StringIO()
    for path in (crlf, lf):
        copy.follow(str(path))
        for raw in split_games(str(path)):
            out.write(copy.separator if out.tell() else copy.bom)
            out.write(copy.game(raw.text, raw.line))
    copy.close()
    assert out.getvalue() == BOM + "\r\n".join(GAMES) + "\n" + '[Event "x"]\n1. 11-15 *\n'
