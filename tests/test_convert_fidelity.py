"""What a conversion may change and what it may not: a move that does not replay keeps its
text in every mode, a damaged tag line stays a tag, captures get one separator per variant,
and the normalised form writes the canonical FEN while the faithful one keeps the original."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.engine import ENGLISH, RUSSIAN
from pdn.text.notation import capture_separator
from pdn.writing.rewriting import rewrite_moves

MODES = [
    ["--normalize"],
    ["--captures", "full"],
    ["--captures", "short"],
    ["--squares", "algebraic"],
    ["--squares", "numeric"],
    ["--separator", ":"],
]


def convert(text: str, *options: str) -> str:
    result = CliRunner().invoke(main, ["convert", "-", *options], input=text)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("mode", MODES, ids=lambda mode: "_".join(mode))
def test_a_move_that_does_not_replay_keeps_its_text(mode: list[str]) -> None:
    text = '[GameType "21"]\n1. 11-15 23-19 2. 9999 22-18 3. 01- 06 *\n'
    out = convert(text, *mode)
    moves = pdn.parse_game(out).mainline_moves()
    assert moves[2:] == ["9999", "22-18", "01- 06"]  # nothing after the illegal move replays
    assert moves[:2] != ["11-15", "23-19"] or "--squares" not in mode or "numeric" in mode


def test_normalised_legal_moves_and_untouched_illegal_ones() -> None:
    game = pdn.parse_game('[GameType "21"]\n1. 11 - 15 24-19 2. 15X24 28x19 3. 2025 *\n')
    assert rewrite_moves(game, normalize=True) == 1
    assert game.mainline_moves() == ["11-15", "24-19", "15x24", "28x19", "2025"]
    # write_game works on a copy: the game read is not changed.
    game = pdn.parse_game('[GameType "21"]\n1. 11 - 15 23-19 *\n')
    assert pdn.write_game(game, normalize=True).endswith("1. 11-15 23-19 *\n")
    assert game.mainline_moves() == ["11 - 15", "23-19"]


def test_a_damaged_tag_line_stays_a_tag() -> None:
    for line in ("[Date 2025]", "[Date: 2025]", "[Date 2025"):
        out = convert(f'[Event "E"]\n{line}\n[Round "1"]\n1. 11-15 *\n', "--normalize")
        game = pdn.parse_game(out)
        assert game.tags["Date"] == "2025", line
        assert game.mainline_moves() == ["11-15"], line
    # A pair that a line end broke is read whole, in its place, and the game goes on.
    for broken, value in (
        ('[Date "\n2025"]', "2025"),
        ('[Date\n"2025"]', "2025"),
        ('[Event "World\n  Cup"]', "World Cup"),
    ):
        text = f'[Site "S"]\n{broken}\n[Round "1"]\n1. 11-15 *\n'
        games = list(pdn.parse_games(text))
        assert len(games) == 1, broken
        name = broken[1:].split()[0].split('"')[0]
        assert games[0].tags.items() == [("Site", "S"), (name, value), ("Round", "1")], broken
        assert games[0].mainline_moves() == ["11-15"], broken
        codes = [problem.code for problem in games[0].errors]
        assert codes == ["bad-tag"], broken  # the broken pair only, said once
        assert games[0].errors[0].line == 2
        assert convert(text, "--normalize").count("2025") == (value == "2025")
    # Text after the closing quote is kept in the value.
    assert pdn.parse_game('[Event "Cup" 2025]\n*\n').tags["Event"] == 'Cup" 2025'
    # A line that is no tag pair at all: whatever is read as a move keeps its text.
    out = convert('[Event "E"]\nDate 2025\n', "--normalize")
    assert "2025" in out and "20-25" not in out


def test_one_capture_separator_per_variant() -> None:
    assert capture_separator(ENGLISH) == "x" and capture_separator(RUSSIAN) == ":"
    with pytest.raises(ValueError, match="expected one of"):
        capture_separator(ENGLISH, "-")
    russian = '[GameType "25"]\n1. c3-d4 f6-e5 2. d4xf6 g7:e5 *\n'
    for mode in MODES[:-1]:
        moves = pdn.parse_game(convert(russian, *mode)).mainline_moves()
        captures = moves[2:]
        assert all(":" in move and "x" not in move for move in captures), (mode, moves)
    english = '[GameType "21"]\n1. 11-15 24-19 2. 15x24 28:19 *\n'
    assert convert(english, "--normalize").endswith("2. 15x24 28x19 *\n")
    assert convert(english, "--separator", ":").endswith("2. 15:24 28:19 *\n")
    # Faithful alone keeps each move as written.
    assert convert(english).endswith("2. 15x24 28:19 *\n")


def test_normalised_fen_is_canonical_and_faithful_keeps_the_original() -> None:
    text = '[Setup "1"]\n[FEN "W:W32,K28,21:B1,5."]\n1. 28-24 1-6 *\n'
    assert '[FEN "W:W32,K28,21:B1,5."]' in convert(text)
    assert '[FEN "W:W21,K28,32:B1,5"]' in convert(text, "--normalize")
    assert '[Setup "1"]' in convert(text, "--normalize")  # every tag is kept
    russian = '[GameType "25"]\n[FEN "W:W29,30:B1."]\n1. a1-b2 *\n'
    assert '[FEN "W:Wa1,c1:Bb8"]' in convert(russian, "--normalize")
    assert '[FEN "W:W29,30:B1"]' in convert(russian, "--normalize", "--squares", "numeric")
    # A FEN that cannot be read keeps its text.
    assert '[FEN "W:W99:B1"]' in convert('[FEN "W:W99:B1"]\n*\n', "--normalize")


@pytest.mark.parametrize("first", ["alone", "ambiguous"])
def test_a_capture_is_shortened_by_its_position_whatever_came_before(first: str) -> None:
    # Rewritten texts are remembered by the written text and the move: not a short capture,
    # which depends on the rivals in its position (here the same written capture, once the
    # only one between its squares, once beside another taking other men).
    texts = {
        "alone": '[FEN "W:W27:B15,23"]\n1... 27x18x11 *',
        "ambiguous": '[FEN "W:W27:B15,16,23,24"]\n1... 27x18x11 *',
    }
    order = [first, *(name for name in texts if name != first)] * 2
    for name in order:
        game = pdn.parse_game(texts[name])
        rewrite_moves(game, captures="short")
        expected = "27x11" if name == "alone" else "27x18x11"
        assert game.mainline_moves() == [expected], name


# ------------------------------------------ a copy written as read keeps BOM and line ends


def _run(*args: str) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout_bytes, result.stderr


def test_a_copy_as_read_keeps_the_bom_and_each_line_end(tmp_path: Path) -> None:
    # Laid out as the writer lays it out: nothing of the text changes, nor its bytes.
    text = (
        '\ufeff[Event "a"]\r\n[Black "Müller"]\r\n\r\n1. 11-15 *\r\n\r\n[Event "b"]\n\n1. 9-13 *\n'
    )
    path = tmp_path / "bom.pdn"
    path.write_bytes(text.encode("utf-8"))
    code, out, err = _run("convert", str(path))
    assert code == 0, err
    assert out == text.encode("utf-8")
    target = tmp_path / "copy.pdn"
    assert _run("convert", str(path), "-o", str(target))[0] == 0
    assert target.read_bytes() == text.encode("utf-8")


def test_a_utf16_copy_as_read_is_utf8_with_its_bom_and_crlf(tmp_path: Path) -> None:
    text = '[Event "a"]\r\n\r\n1. 11-15 *\r\n'
    path = tmp_path / "wide.pdn"
    path.write_bytes(("\ufeff" + text).encode("utf-16-le"))
    code, out, err = _run("convert", str(path))
    assert code == 0, err
    assert out == ("\ufeff" + text).encode("utf-8")


def test_each_file_of_a_copy_keeps_its_own_line_ends(tmp_path: Path) -> None:
    crlf, lf = tmp_path / "crlf.pdn", tmp_path / "lf.pdn"
    crlf.write_bytes(b'[Event "a"]\r\n\r\n1. 11-15 *\r\n')
    lf.write_bytes(b'[Event "b"]\n\n1. 9-13 *\n')
    code, out, err = _run("convert", str(crlf), str(lf))
    assert code == 0, err
    assert out.startswith(b'[Event "a"]\r\n\r\n1. 11-15 *\r\n')
    assert out.endswith(b'[Event "b"]\n\n1. 9-13 *\n')


def test_a_changed_layout_takes_the_files_line_end(tmp_path: Path) -> None:
    # The writer puts the blank line after the tags and joins the moves: CRLF still.
    path = tmp_path / "g.pdn"
    path.write_bytes(b'[Event "a"]\r\n1. 11-15\r\n23-19 *\r\n')
    code, out, err = _run("convert", str(path))
    assert code == 0, err
    assert out == b'[Event "a"]\r\n\r\n1. 11-15 23-19 *\r\n'


def test_a_damaged_byte_written_as_u_fffd_is_said(tmp_path: Path) -> None:
    path = tmp_path / "damaged.pdn"
    path.write_bytes(b'[Event "a"]\n[Black "M\xc3\xbcller \xff"]\n\n1. 11-15 *\n')
    code, out, err = _run("convert", str(path))
    assert code == 0
    assert "\ufffd".encode() in out
    assert f"{path}:2:" in err and "U+FFFD" in err and "--in-place keeps it" in err
