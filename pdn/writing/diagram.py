"""Pictures of a position: a text board for the terminal, SVG and PNG diagrams, and diagram
sheets for books.

The SVG itself is drawn by :func:`pdn.engine.svg_diagram` (in the engine, so that a
``Position`` shows itself in Jupyter without the engine importing ``pdn``); this module adds what
needs a game: the positions at chosen plies with their last move and a caption, file names
built from tags (kept inside the chosen folder), PNG through the optional ``cairosvg`` and a
printable HTML sheet.

>>> from pdn.engine import ENGLISH, Position
>>> print(text_board(Position.start(ENGLISH)).splitlines()[1])
8    b   b   b   b   1-4
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pdn.engine import Color, Move, Position, board_for, letters, svg_diagram, xml_text
from pdn.game.model import Game, Node, Tags
from pdn.rules.validation import Report, locate, validate
from pdn.text.filenames import safe_name
from pdn.text.safe_text import csp_source, one_line

__all__ = [
    "PNG_INSTALL",
    "PngUnavailable",
    "Snapshot",
    "confined",
    "diagram_sheet",
    "file_stem",
    "play_written",
    "png_bytes",
    "snapshots",
    "svg_board",
    "text_board",
]

_LETTERS = "abcdefghijkl"


def text_board(position: Position) -> str:
    """The position as text: ``b``/``w`` men, ``B``/``W`` kings, ``.`` empty playing squares,
    with ranks, files, the square numbers of each row and the side to move.

    """
    variant = position.variant
    board = board_for(variant)
    marks = letters(position)
    lines = ["   " + " ".join(_LETTERS[: variant.width])]
    for row in range(variant.height):
        cells = []
        numbers = []
        for column in range(variant.width):
            square = board.square_at(column, row)
            if square is None:
                cells.append(" ")
            else:
                cells.append(marks[square - 1])
                numbers.append(square)
        rank = variant.height - row
        span = f"{min(numbers)}-{max(numbers)}" if numbers else ""
        lines.append(f"{rank:<2} " + " ".join(cells) + f"   {span}")
    mover = "Black" if position.turn is Color.BLACK else "White"
    lines.append(f"{mover} to move   FEN {position.fen()}")
    return "\n".join(lines)


def svg_board(
    position: Position,
    *,
    size: int = 360,
    numbers: bool = True,
    coordinates: bool = True,
    flip: bool = False,
    move: Move | None = None,
    caption: str | None = None,
) -> str:
    """A standalone SVG diagram of the position (see :func:`pdn.engine.svg_diagram`)."""
    return svg_diagram(
        position,
        size=size,
        numbers=numbers,
        coordinates=coordinates,
        flip=flip,
        move=move,
        caption=caption,
    )


def play_written(position: Position, text: str) -> tuple[Position, Move]:
    """The position after the written move ``text`` (``"9-13"``, ``"c3-d4"``, ``"15x22"``),
    with the legal move it is; ``ValueError`` says why when it is not legal there.

    The move is replayed by the validator, as a one-move game from ``position``, so that it is
    read and judged exactly as a move in a file is.

    >>> from pdn.engine import ENGLISH
    >>> after, move = play_written(Position.start(ENGLISH), "9-13")
    >>> move.path, after.turn.name
    ((9, 13), 'WHITE')
    """
    root = Node()
    root.variations.append(Node(move=text, parent=root))
    game = Game(tags=Tags([("SetUp", "1"), ("FEN", position.fen())]), root=root)
    report = validate(game, position.variant)
    step = report.steps[0] if report.steps else None
    if step is not None and step.move is not None and step.after is not None:
        return step.after, step.move
    problem = next((p for p in report.problems if p.severity == "error"), None)
    why = problem.message if problem is not None else "not a move"
    legal = ", ".join(problem.legal) if problem is not None and problem.legal else ""
    raise ValueError(f"{text}: {why}" + (f" (legal here: {legal})" if legal else ""))


#: How to get PNG output: pdn is installed from a clone, not from the package index, so
#: ``pip install "pdn[png]"`` cannot work.
PNG_INSTALL = 'pip install cairosvg (or, in a clone of pdn, pip install ".[png]")'


class PngUnavailable(RuntimeError):
    """PNG output needs the optional ``cairosvg`` package, which is not installed."""


def png_bytes(svg: str) -> bytes:
    """The SVG rendered as PNG by ``cairosvg`` (:data:`PNG_INSTALL`); raises
    :class:`PngUnavailable` with that advice when it is missing."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: the package is there, libcairo is not
        raise PngUnavailable(
            f"PNG output needs cairosvg ({exc}); install it with: {PNG_INSTALL}"
        ) from exc
    data = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    assert isinstance(data, bytes)
    return data


@dataclass(slots=True)
class Snapshot:
    """One chosen position of a game: after ``ply`` mainline plies, the move that led there
    (``None`` at the start or after a setup), and a caption naming game and move."""

    game: Game
    ply: int
    position: Position
    move: Move | None
    caption: str


def _players(game: Game) -> str:
    white = one_line(game.tags.get("White") or "?")
    black = one_line(game.tags.get("Black") or "?")
    return f"{white} - {black}"


def snapshots(report: Report, plies: Iterable[int]) -> tuple[list[Snapshot], list[str]]:
    """The positions of a validated game after each of ``plies`` mainline plies, and a sentence
    for each ply the game does not reach."""
    game = report.game
    found: list[Snapshot] = []
    missing: list[str] = []
    for ply in plies:
        located = locate(report, ply)
        if located.position is None:
            missing.append(located.reason)
            continue
        step = _mainline_node(report, ply)
        number = f"{step} " if step else ""
        mover = located.position.turn.label
        caption = f"{_players(game)}: after ply {ply} {number}({mover} to move)"
        found.append(Snapshot(game, ply, located.position, located.move, caption))
    return found, missing


def _mainline_node(report: Report, ply: int) -> str:
    """The written move of mainline ply ``ply`` (empty at the start)."""
    steps = [s for s in report.mainline_steps() if s.after is not None]
    if not 1 <= ply <= len(steps):
        return ""
    node = steps[ply - 1].node
    return one_line(node.move or "setup")


def file_stem(snapshot: Snapshot) -> str:
    """A file name (without extension) for a diagram, from the game's number, players and ply,
    each player's name made safe by :func:`pdn.text.filenames.safe_name` (at most 30 bytes), so
    that it always names a file inside the chosen folder.

    >>> import pdn
    >>> from pdn.rules.validation import validate
    >>> game = pdn.parse_game('[White "../../etc"][Black "A/B"] 1. 11-15 *')
    >>> file_stem(snapshots(validate(game), [1])[0][0])
    'game0001-etc-A_B-ply001'
    """
    game = snapshot.game
    players = []
    for tag in ("White", "Black"):
        players.append(safe_name(game.tags.get(tag) or "", 30, empty="unknown"))
    return f"game{game.index:04d}-{players[0]}-{players[1]}-ply{snapshot.ply:03d}"


def confined(directory: Path, name: str) -> Path:
    """``directory / name``, refusing any name that would land outside ``directory``."""
    target = (directory / name).resolve()
    if target.parent != directory.resolve():
        raise ValueError(f"{name!r} is not a plain file name")
    return target


_SHEET_STYLE = (
    "body{font-family:sans-serif;margin:1cm}"
    ".sheet{display:flex;flex-wrap:wrap;gap:1cm}"
    "figure.diagram{margin:0;break-inside:avoid;page-break-inside:avoid;width:8.5cm}"
    "figure.diagram svg{width:100%;height:auto}"
    "figcaption{font-size:10pt;text-align:center}"
    "@media print{body{margin:0}}"
)


def diagram_sheet(items: Sequence[Snapshot], *, title: str = "Diagrams", flip: bool = False) -> str:
    """A printable HTML page of diagrams with captions (two per row on A4; every value from
    the file is escaped, and a character XML does not allow is shown as ``\\uNNNN``). Print
    it to PDF from the browser."""
    cards = []
    for item in items:
        svg = svg_board(item.position, size=300, flip=flip, move=item.move)
        event = one_line(item.game.tags.get("Event") or "")
        cards.append(
            '<figure class="diagram">'
            + svg
            + f"<figcaption>{xml_text(item.caption)}"
            + (f"<br><small>{xml_text(event)}</small>" if event else "")
            + "</figcaption></figure>"
        )
    # As strict as the viewer's: no script, and only this page's own style (by its hash).
    policy = f"default-src 'none'; style-src {csp_source(_SHEET_STYLE)}"
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
            f"<title>{xml_text(title)}</title>",
            f"<style>{_SHEET_STYLE}</style></head><body>",
            f"<h1>{xml_text(title)}</h1>",
            '<div class="sheet">',
            *cards,
            "</div></body></html>",
            "",
        ]
    )
