"""Damaged UTF-16 reads as damaged UTF-8 does (issue 33): a broken code unit is one U+FFFD,
reported as an ``encoding`` warning with its bytes; a byte lost or gained damages the
characters around it, not the rest of the file; and ``--in-place`` leaves such a file as it
is, since its bytes cannot be written back."""

from __future__ import annotations

import codecs
import io
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main

TEXT = (
    '[Event "first"]\n[White "Ann"]\n[Black "Bob"]\n1. 11-15 23-19 2. 8-11 22-17 *\n\n'
    '[Event "second"]\n[White "Cid"]\n[Black "Dee"]\n1. 9-13 22-18 2. 10-14 24-19 *\n'
)
BOMS = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}
#: Where the damage goes: after the W of the first game's White tag name.
AT = len(BOMS["utf-16-le"]) + 2 * TEXT.index("White") + 2


def utf16(codec: str) -> bytes:
    return BOMS[codec] + TEXT.encode(codec)


def read(data: bytes) -> list[pdn.Game]:
    return list(pdn.read_games(io.BytesIO(data)))


def encoding_warnings(games: list[pdn.Game]) -> list[str]:
    return [p.message for game in games for p in game.errors if p.code == "encoding"]


@pytest.mark.parametrize("codec", sorted(BOMS))
@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[:AT] + data[AT + 1 :], id="a byte lost"),
        pytest.param(lambda data: data[:AT] + b"Q" + data[AT:], id="a byte gained"),
        pytest.param(lambda data: data[: AT + 1] + data[AT + 2 :], id="the next byte lost"),
    ],
)
def test_a_byte_lost_or_gained_damages_a_character_not_the_rest(codec: str, damage: object) -> None:
    games = read(damage(utf16(codec)))  # type: ignore[operator]
    assert len(games) == 2
    first, second = games
    # Everything after the damaged name reads as written: the moves, the other tags, game 2.
    assert first.tags["Black"] == "Bob" and first.tags["Event"] == "first"
    assert first.mainline_moves() == ["11-15", "23-19", "8-11", "22-17"]
    assert second.tags["White"] == "Cid" and second.mainline_moves()[-1] == "24-19"
    assert "White" not in first.tags  # the name itself is damaged...
    assert encoding_warnings([first])  # ...and said to be
    assert not encoding_warnings([second])


@pytest.mark.parametrize("codec", sorted(BOMS))
@pytest.mark.parametrize(
    ("unit", "where"),
    [
        pytest.param("\ud800", AT, id="a lone high surrogate"),
        pytest.param("\udc00", AT, id="a lone low surrogate"),
        pytest.param("\x00", AT, id="a NUL"),
    ],
)
def test_an_invalid_code_unit_is_one_reported_replacement(
    codec: str, unit: str, where: int
) -> None:
    bad = unit.encode(codec, "surrogatepass")
    data = utf16(codec)
    games = read(data[:where] + bad + data[where:])
    assert [game.tags.get("Black") for game in games] == ["Bob", "Dee"]
    assert "[W\ufffdhite " in pdn.write_game(games[0])
    (message,) = encoding_warnings(games)
    assert bad.hex(" ").upper() in message and "utf-16" in message


def test_an_odd_last_byte_is_reported() -> None:
    games = read(utf16("utf-16-le") + b"A")
    assert [game.tags.get("Black") for game in games[:2]] == ["Bob", "Dee"]
    assert encoding_warnings(games)


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[:AT] + data[AT + 1 :], id="a byte lost"),
        pytest.param(lambda data: data[:AT] + b"\x00\xd8" + data[AT:], id="a lone surrogate"),
    ],
)
def test_a_damaged_utf16_file_is_refused_in_place_and_kept(tmp_path: Path, damage: object) -> None:
    path = tmp_path / "damaged.pdn"
    data = damage(utf16("utf-16-le"))  # type: ignore[operator]
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["convert", "--in-place", str(path)])
    assert result.exit_code == 1 and not isinstance(result.exception, Exception)
    assert "cannot be written back" in result.output
    assert path.read_bytes() == data


def test_convert_keeps_both_games_of_a_damaged_utf16_file(tmp_path: Path) -> None:
    path, out = tmp_path / "damaged.pdn", tmp_path / "out.pdn"
    data = utf16("utf-16-le")
    path.write_bytes(data[:AT] + data[AT + 1 :])
    result = CliRunner().invoke(main, ["convert", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert [game.tags.get("Event") for game in pdn.read_games(out)] == ["first", "second"]


@pytest.mark.parametrize("codec", sorted(BOMS))
@pytest.mark.parametrize(
    "start",
    [pytest.param(b"", id="no BOM"), pytest.param(b"\xfe\xfe", id="a damaged BOM")],
)
def test_a_utf16_file_that_lost_its_bom_is_utf16_not_binary(
    tmp_path: Path, codec: str, start: bytes
) -> None:
    data = start + TEXT.encode(codec)
    games = read(data)
    assert [game.tags.get("Event") for game in games] == ["first", "second"]
    assert {game.encoding for game in games} == {codec}
    assert not [p for game in games for p in game.errors if p.code in ("not-pdn", "encoding")]
    # In place it stays UTF-16 in its byte order, not UTF-8.
    path = tmp_path / "nobom.pdn"
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["convert", "--in-place", str(path)])
    assert result.exit_code == 0, result.output
    written = path.read_bytes().decode(codec)
    assert '[Event "first"]' in written and start.decode(codec) in written  # (kept as junk)
    assert [game.tags.get("Black") for game in pdn.read_games(path)] == ["Bob", "Dee"]


def test_binary_data_with_nul_bytes_on_one_side_is_still_binary() -> None:
    data = bytes(range(1, 250)) * 8  # no text: control bytes, high bytes
    wide = b"".join(bytes([byte, 0]) for byte in data)
    (game,) = read(wide)
    assert [p.code for p in game.errors] == ["not-pdn"]


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"\xff\xfe1\x00\x00\x00a\x00\x13\x00b\x004.", id="a NUL and a control"),
        pytest.param(codecs.BOM_UTF16_LE + "1. 11-15 \x01\x02 *\n".encode("utf-16-le"), id="two"),
        pytest.param(
            codecs.BOM_UTF16_BE + "[Event \x01]\n1. 9-13 *\n".encode("utf-16-be"), id="one"
        ),
    ],
)
def test_control_characters_in_utf16_count_as_in_utf8(tmp_path: Path, data: bytes) -> None:
    # The fuzz round's finding: a small UTF-16 file holding control characters was read as a
    # game, and what convert wrote of it (UTF-8) was judged binary: a game lost. Both are
    # judged by the same characters now, so convert writes what reads back.
    path, out = tmp_path / "small.pdn", tmp_path / "out.pdn"
    path.write_bytes(data)
    as_utf8 = tmp_path / "utf8.pdn"
    as_utf8.write_bytes(data.decode("utf-16").encode())
    binary = [any(p.code == "not-pdn" for p in g.errors) for g in pdn.read_games(path)]
    assert binary == [any(p.code == "not-pdn" for p in g.errors) for g in pdn.read_games(as_utf8)]
    result = CliRunner().invoke(main, ["convert", str(path), "-o", str(out)])
    assert not isinstance(result.exception, Exception)
    games = [g for g in pdn.read_games(out) if not any(p.code == "not-pdn" for p in g.errors)]
    assert len(games) == binary.count(False)


@pytest.mark.parametrize(
    "unit",
    [
        pytest.param(b"a\x00\x00\xd8", id="lone surrogates"),
        pytest.param('abcdefghij[Event "x"]'.encode("utf-16-le")[1:], id="a byte lost each"),
    ],
)
def test_damage_costs_linear_work(monkeypatch: pytest.MonkeyPatch, unit: bytes) -> None:
    # Bytes handed to the codec at n and 2n damaged units: linear (it was the rest of the
    # block again after each damaged unit).
    from pdn.text import decoding

    work = [0]

    def counted(decode: Any) -> Any:
        def run(data: bytes, errors: str, final: bool) -> tuple[str, int]:
            work[0] += len(data)
            return decode(data, errors, final)  # type: ignore[no-any-return]

        return run

    for name, decode in list(decoding._WIDE_DECODERS.items()):
        monkeypatch.setitem(decoding._WIDE_DECODERS, name, counted(decode))
    head = codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le")
    spent = []
    for n in (3000, 6000):
        work[0] = 0
        decoded = decoding.decode_bytes(io.BytesIO(head + unit * n))
        assert sum(len(block) for block in decoded.blocks) > n
        spent.append(work[0])
    assert spent[1] <= 2.3 * spent[0], spent


@pytest.mark.parametrize("codec", sorted(BOMS))
@pytest.mark.parametrize("lost", [1, 41, 346, 1881])
def test_a_damaged_bom_and_a_byte_lost_in_the_head_still_read_as_utf16(
    codec: str, lost: int
) -> None:
    # The fuzz round's finding: a byte lost within the first KiB put the NULs of the rest on
    # the other side, and the file without its BOM was judged binary: every game hidden.
    data = b"\xfa\xff" + (TEXT * 8).encode(codec)
    games = read(data[:lost] + data[lost + 1 :])
    assert not [p for game in games for p in game.errors if p.code == "not-pdn"]
    black = [game.tags.get("Black") for game in games if game.tags]
    assert black[-4:] == ["Bob", "Dee", "Bob", "Dee"]  # (an odd last byte: one more, damaged)
