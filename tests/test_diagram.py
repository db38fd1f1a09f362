"""SVG and PNG diagrams, checked against the engine's positions, and the show/diagram commands."""

from __future__ import annotations

import ast
import builtins
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.engine import (
    ENGLISH,
    INTERNATIONAL,
    ITALIAN,
    RUSSIAN,
    TURKISH,
    Color,
    Position,
    Variant,
    board_for,
    svg_diagram,
)
from pdn.rules.validation import validate
from pdn.writing.diagram import (
    PngUnavailable,
    diagram_sheet,
    file_stem,
    png_bytes,
    snapshots,
    svg_board,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SVG = "{http://www.w3.org/2000/svg}"


def _pieces_and_squares(svg: str) -> tuple[dict[int, str], dict[int, tuple[float, float, float]]]:
    """{square: piece letter} of the drawn pieces, checked to sit inside their square's rect,
    and {square: (x, y, size)} of the squares."""
    tree = ET.fromstring(svg)
    squares: dict[int, tuple[float, float, float]] = {}
    for rect in tree.iter(f"{SVG}rect"):
        if rect.get("class") == "square":
            squares[int(rect.get("data-square", "0"))] = (
                float(rect.get("x", "0")),
                float(rect.get("y", "0")),
                float(rect.get("width", "0")),
            )
    pieces: dict[int, str] = {}
    for group in tree.iter(f"{SVG}g"):
        if group.get("class") != "piece":
            continue
        square = int(group.get("data-square", "0"))
        pieces[square] = group.get("data-piece", "")
        circle = group.find(f"{SVG}circle")
        assert circle is not None
        x, y, size = squares[square]
        cx, cy = float(circle.get("cx", "0")), float(circle.get("cy", "0"))
        assert x < cx < x + size and y < cy < y + size, f"piece of {square} is off its square"
    return pieces, squares


def _expected(position: Position) -> dict[int, str]:
    out = {}
    for square, piece in position.pieces().items():
        letter = "w" if piece.color is Color.WHITE else "b"
        out[square] = letter.upper() if piece.king else letter
    return out


def _played(variant: Variant, plies: int) -> Position:
    """A position some plies into a game (always the first legal move: captures happen)."""
    position = Position.start(variant)
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(moves[len(moves) // 2])
    return position


@pytest.mark.parametrize("variant", [ENGLISH, RUSSIAN, INTERNATIONAL, ITALIAN, TURKISH])
@pytest.mark.parametrize("plies", [0, 9, 30])
@pytest.mark.parametrize("flip", [False, True])
def test_svg_pieces_are_the_engines_on_the_right_squares(
    variant: Variant, plies: int, flip: bool
) -> None:
    position = _played(variant, plies)
    pieces, squares = _pieces_and_squares(svg_diagram(position, flip=flip))
    assert pieces == _expected(position)
    board = board_for(variant)
    assert len(squares) == board.squares
    # Each square is drawn at its board cell: same column and row order as Board.coordinates.
    size = next(iter(squares.values()))[2]
    left = min(x for x, _, _ in squares.values())
    for square, (x, y, _) in squares.items():
        column, row = board.coordinates(square)
        if flip:
            column, row = board.width - 1 - column, board.height - 1 - row
        assert round((x - left) / size) == column and round(y / size) == row


def test_square_one_is_top_left_unflipped_and_bottom_right_flipped() -> None:
    # English: 1 is b8 (top row, second column); flipped it is at the bottom, second from right.
    _, squares = _pieces_and_squares(svg_diagram(Position.start(ENGLISH)))
    _, flipped = _pieces_and_squares(svg_diagram(Position.start(ENGLISH), flip=True))
    assert squares[1][1] == 0 and flipped[1][1] == max(y for _, y, _ in flipped.values())


def test_kings_from_a_fen_are_drawn_as_kings() -> None:
    position = Position.from_fen("W:WK18,22:BK9,11", ENGLISH)
    pieces, _ = _pieces_and_squares(svg_diagram(position))
    assert pieces == {18: "W", 22: "w", 9: "B", 11: "b"}


def test_last_move_arrow_captures_and_side_to_move() -> None:
    before = Position.from_fen("W:W26:B22,14", ENGLISH)
    (move,) = before.legal_moves()
    svg = svg_diagram(before.play(move), move=move)
    tree = ET.fromstring(svg)
    crossed = sorted(int(p.get("data-square", "0")) for p in tree.iter(f"{SVG}path"))
    assert crossed == sorted(move.captures) == [14, 22]
    arrow = next(p for p in tree.iter(f"{SVG}polyline") if p.get("class") == "arrow")
    assert len(arrow.get("points", "").split()) == len(move.path) == 3
    highlighted = {
        int(r.get("data-square", "0"))
        for r in tree.iter(f"{SVG}rect")
        if r.get("class") == "square" and r.get("fill") == "#f2d649"
    }
    assert highlighted == {move.start, move.end}
    turn = next(c for c in tree.iter(f"{SVG}circle") if c.get("class") == "turn")
    assert turn.get("data-turn") == "B"


def test_coordinates_and_numbers_can_be_left_out() -> None:
    position = Position.start(INTERNATIONAL)
    full = ET.fromstring(svg_diagram(position))
    bare = ET.fromstring(svg_diagram(position, numbers=False, coordinates=False))
    texts = [t.text for t in full.iter(f"{SVG}text")]
    assert "50" in texts and "a" in texts and "10" in texts
    assert not list(bare.iter(f"{SVG}text"))


def test_caption_and_title_are_escaped() -> None:
    svg = svg_board(Position.start(ENGLISH), caption='<script>alert("x")</script>')
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    ET.fromstring(svg)  # still well-formed


def test_position_repr_svg_is_the_diagram_and_engine_does_not_import_pdn() -> None:
    position = Position.start(RUSSIAN)
    assert position._repr_svg_() == svg_diagram(position)
    tree = ast.parse((ROOT / "engine" / "pdn_engine" / "picture.py").read_text(encoding="utf-8"))
    imported = [
        node.module or ""
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 0
    ] + [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    assert not any(name == "pdn" or name.startswith("pdn.") for name in imported)


def test_png_is_a_png_when_cairosvg_is_installed() -> None:
    pytest.importorskip("cairosvg", reason="cairosvg (the png extra) is not installed")
    data = png_bytes(svg_diagram(Position.start(ENGLISH)))
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000


def test_png_without_cairosvg_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def refuse(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "cairosvg":
            raise ImportError("No module named 'cairosvg'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    with pytest.raises(PngUnavailable, match=r'pip install "\.\[png\]"'):
        png_bytes("<svg/>")
    result = CliRunner().invoke(main, ["show", "--fen", "B:W18:B9", "--png", "-o", "-"])
    assert result.exit_code == 1 and 'pip install ".[png]"' in result.output
    assert "Traceback" not in result.output


# ------------------------------------------------------------------------------ commands


def test_show_draws_a_fen_without_a_file() -> None:
    result = CliRunner().invoke(main, ["show", "--fen", "W:W18,K22:B9-11", "--svg", "--flip"])
    assert result.exit_code == 0
    pieces, _ = _pieces_and_squares(result.output)
    assert pieces == {18: "w", 22: "W", 9: "b", 10: "b", 11: "b"}
    text = CliRunner().invoke(main, ["show", "--fen", "B:W18:B9", "--variant", "russian"])
    assert text.exit_code == 0 and "Black to move" in text.output


def test_show_needs_a_file_or_a_fen_and_reports_a_bad_fen() -> None:
    result = CliRunner().invoke(main, ["show"])
    assert result.exit_code == 2 and "FILE or --fen" in result.output
    bad = CliRunner().invoke(main, ["show", "--fen", "W:W99:B1"])
    assert bad.exit_code == 2 and "--fen" in bad.output and "Traceback" not in bad.output


def test_show_from_a_file_marks_the_last_move() -> None:
    game = pdn.read_games(str(EXAMPLES / "german-open-2004.pdn"))
    first = next(iter(game))
    result = CliRunner().invoke(
        main, ["show", str(EXAMPLES / "german-open-2004.pdn"), "--ply", "5", "--svg"]
    )
    assert result.exit_code == 0
    steps = [s for s in validate(first).mainline_steps() if s.after is not None]
    assert steps[4].move is not None and steps[4].after is not None
    pieces, _ = _pieces_and_squares(result.output)
    assert pieces == _expected(steps[4].after)
    tree = ET.fromstring(result.output)
    assert any(p.get("class") == "arrow" for p in tree.iter(f"{SVG}polyline"))


def test_diagram_writes_one_file_per_position_inside_the_folder(tmp_path: Path) -> None:
    source = tmp_path / "hostile.pdn"
    source.write_text(
        '[White "../../../evil"]\n[Black "/etc/passwd"]\n1. 11-15 23-19 2. 8-11 22-17 *\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["diagram", str(source), "--plies", "0,2,4,9", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in out.iterdir())
    assert written == [f"game0001-evil-etc_passwd-ply{n:03d}.svg" for n in (0, 2, 4)]
    assert "only 4 replayable plies, not 9" in result.output
    assert not list(tmp_path.parent.glob("evil*"))
    game = next(iter(pdn.read_games(str(source))))
    after_two = [s.after for s in validate(game).mainline_steps()][1]
    assert after_two is not None
    pieces, _ = _pieces_and_squares((out / written[1]).read_text(encoding="utf-8"))
    assert pieces == _expected(after_two)


def test_diagram_sheet_has_captions_and_escapes(tmp_path: Path) -> None:
    source = tmp_path / "g.pdn"
    source.write_text('[White "<img src=x>"]\n[Event "E&E"]\n1. 11-15 23-19 *\n', "utf-8")
    result = CliRunner().invoke(
        main, ["diagram", str(source), "--plies", "1,2", "--sheet", "-o", str(tmp_path / "d")]
    )
    assert result.exit_code == 0, result.output
    sheet = (tmp_path / "d" / "sheet.html").read_text(encoding="utf-8")
    assert sheet.count("<figure") == 2 and "after ply 2 23-19" in sheet
    assert "<img" not in sheet and "&lt;img src=x&gt;" in sheet and "E&amp;E" in sheet


def test_snapshot_captions_and_file_names() -> None:
    game = pdn.parse_game('[White "A B"][Black "C"] 1. 11-15 23-19 *')
    found, missing = snapshots(validate(game), [1, 7])
    assert [s.ply for s in found] == [1] and missing
    assert found[0].caption == "A B - C: after ply 1 11-15 (White to move)"
    assert file_stem(found[0]) == "game0001-A_B-C-ply001"
    assert "<figure" in diagram_sheet(found)


def test_diagram_png_files(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg", reason="cairosvg (the png extra) is not installed")
    result = CliRunner().invoke(
        main,
        [
            "diagram",
            str(EXAMPLES / "russian-setup.pdn"),
            "--plies",
            "1",
            "--png",
            "-o",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    files = list(tmp_path.glob("*.png"))
    assert files and all(f.read_bytes().startswith(b"\x89PNG") for f in files)


def test_show_fen_with_a_move_marks_it_and_refuses_an_illegal_one() -> None:
    result = CliRunner().invoke(main, ["show", "--fen", "W:W26:B22,14", "--move", "26x10", "--svg"])
    assert result.exit_code == 0, result.output
    tree = ET.fromstring(result.output)
    crossed = sorted(int(p.get("data-square", "0")) for p in tree.iter(f"{SVG}path"))
    assert crossed == [14, 22]
    pieces, _ = _pieces_and_squares(result.output)
    assert pieces == {10: "w"}
    bad = CliRunner().invoke(main, ["show", "--fen", "W:W26:B22,14", "--move", "26-23"])
    assert bad.exit_code == 2 and "legal here: 26x10" in bad.output
    assert "Traceback" not in bad.output
    alone = CliRunner().invoke(
        main, ["show", str(EXAMPLES / "illegal-moves.pdn"), "--move", "9-13"]
    )
    assert alone.exit_code == 2 and "--move goes with --fen" in alone.output
