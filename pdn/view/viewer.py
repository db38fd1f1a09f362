"""The HTML game viewer: one self-contained page (no network at view time) for any number of
games, and the same viewer inline in Jupyter.

What the page holds, and why it still opens for an archive of 20,000 games:

* a game list (players, event, round, date, result, ballot, verdict), a small JSON array the
  page reads at once and draws lazily (only the rows in view exist in the document);
* each game's data as one line of an NDJSON block, decoded only when the game is opened;
* the board geometry of each variant used (the screen cell of every square, from
  :meth:`pdn.engine.Board.coordinates`), so the script draws every board (8x8, 10x10, 12x12,
  mirrored, the orthogonal Turkish one) without knowing any numbering;
* the viewer's script and style (``pdn/view/assets``), written for this project.

Positions are never computed in the page. The validator replays every line
(:func:`pdn.rules.validation.validate`, the replay :mod:`pdn.writing.jsonio` takes its FEN after
each ply from)
and each move carries the squares whose content the engine says it changed, with the side to
move after it (:func:`ply_change`); the script only applies those changes. An illegal move
carries the validator's problems (message, legal moves there) and is marked in the move list and
on the board.

Every value from a file goes through :mod:`pdn.text.safe_text` and into JSON with ``<``, ``>`` and
``&`` escaped, so no file can close a ``<script>`` or add markup; the script builds the document
with ``textContent`` only.  The whole page also carries a Content-Security-Policy that lets it
load nothing and run only its own script and style (named by their SHA-256), as the report's
page does; a notebook fragment's ids are random, so that the viewers of two kernels shown in
one page never share one.

>>> import pdn
>>> page = render_html([view_game(pdn.parse_game('[White "<b>x</b>"] 1. 11-15 23-19 *'), "-")])
>>> "<b>x</b>" in page, "\\\\u003cb\\\\u003ex" in page
(False, True)
"""

from __future__ import annotations

import html
import json
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from typing import IO, TYPE_CHECKING, Any

from pdn.collections.batch import Input, map_games, page_name
from pdn.engine import ENGLISH, Position, Variant, board_for, changes, get_variant, letters
from pdn.game.gametype import first_colour
from pdn.game.model import BEGIN_VARIATION, MOVE, Game, Node, line_events
from pdn.game.steps import Step
from pdn.rules.replays import replay_of
from pdn.rules.validation import Report
from pdn.text.notation import NotationError, parse_move, resolve_squares
from pdn.text.problems import Problem
from pdn.text.safe_text import csp_source, one_line, printable
from pdn.writing.jsonio import dumps

if TYPE_CHECKING:
    from pdn.study.play.analysis import GameAnalysis

__all__ = [
    "COLUMNS",
    "GRAPH_RANGE",
    "ViewedGame",
    "asset",
    "board_geometry",
    "board_key",
    "csp_source",
    "game_html",
    "ply_change",
    "render_html",
    "report_html",
    "script_json",
    "view_files",
    "view_game",
    "write_page",
]

#: The columns of the game list, in order (each row of ``ViewedGame.row``).
COLUMNS = ("White", "Black", "Event", "Round", "Date", "Result", "Ballot", "Verdict", "File")

_NAGS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}

JsonDict = dict[str, Any]


@dataclass(slots=True)
class ViewedGame:
    """One game as the page needs it: its list row, the variant whose board it is drawn on, and
    its data (tags, moves with the engine's changes, problems), all plain, escaped values."""

    row: list[str]
    board: str
    record: JsonDict = field(default_factory=dict)
    # An input that is not PDN at all: said by view_files, never a row of the page.
    not_pdn: Problem | None = None
    file: str = ""


def script_json(value: object) -> str:
    """JSON that is safe inside an HTML ``<script>`` element: no raw ``<``, ``>`` or ``&`` (so
    no ``</script>`` or ``<!--``), and no raw line separators; one line.

    >>> script_json({"a": "</script>"})
    '{"a":"\\\\u003c/script\\\\u003e"}'
    """
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except RecursionError:  # variations nested thousands deep: the stack-free writer
        text = dumps(value)
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def board_key(variant: Variant) -> str:
    """The name the page files a board's geometry under (one per size, layout, numbering)."""
    return f"{variant.width}x{variant.height}-{variant.layout}-{variant.numbering}"


def board_geometry(variant: Variant) -> JsonDict:
    """The board as the script draws it: width, height, layout and the ``[column, row]`` of
    each square (square 1 first, row 0 at the top seen from White)."""
    board = board_for(variant)
    return {
        "w": board.width,
        "h": board.height,
        "layout": board.layout,
        "cells": [list(board.coordinates(s)) for s in range(1, board.squares + 1)],
    }


def ply_change(before: Position, after: Position) -> str:
    """What a move (or setup) changed, for the page: the side to move after it (``B``/``W``)
    then ``<square><piece>`` for every square whose content changed (``.`` empty, ``b``/``w``
    men, ``B``/``W`` kings).

    >>> from pdn.engine import ENGLISH
    >>> start = Position.start(ENGLISH)
    >>> ply_change(start, start.play(start.legal_moves()[0]))
    'W9.13b'
    """
    return after.turn.letter + "".join(
        f"{square}{letter}" for square, letter in changes(before, after)
    )


def _comments(node_comments: Sequence[Any]) -> list[str]:
    return [printable(c.text, layout=True) for c in node_comments]


# The longest variation path a problem's ``where`` spells in full on the page.
_WHERE_DEPTH = 8


def _where(problem: Problem) -> str:
    """``problem.where``, with the path of a side line nested deeper than eight levels cut to
    its two ends: spelled in full, variations nested thousands deep, each with a problem,
    would repeat their path for every level (quadratic in the depth)."""
    path = problem.variation
    if len(path) <= _WHERE_DEPTH:
        return problem.where
    half = _WHERE_DEPTH // 2
    ends = ".".join(map(str, path[:half])) + " ... " + ".".join(map(str, path[-half:]))
    return f"variation {ends} ({len(path)} deep), ply {problem.ply}"


def _problem(problem: Problem, variant: Variant | None) -> JsonDict:
    data: JsonDict = {
        "code": problem.code,
        "severity": problem.severity,
        "message": printable(problem.message),
        "where": _where(problem),
        "at": problem.location,
        "legal": [one_line(m) for m in problem.legal],
        "move": one_line(problem.move or ""),
    }
    if problem.legal and variant is not None:
        # The squares of each legal move, for arrows on the board (the texts are the engine's).
        paths = []
        for text in problem.legal:
            try:
                paths.append(list(resolve_squares(parse_move(text), variant)))
            except NotationError:
                continue
        data["paths"] = paths
    return data


def _move(node: Node, step: Step | None, problems: list[int], note: JsonDict | None = None) -> Any:
    """A move of the list: ``[text, change]`` for a plain one (``[text]`` if not replayed),
    else an object with what it carries (``an``: what the analysis says of it)."""
    change = None
    if step is not None and step.after is not None:
        change = ply_change(step.before, step.after)
    text = one_line(node.move) if node.move is not None else ""
    plain = not (node.nags or node.comments_before or node.comments_after or node.strength)
    if plain and not problems and node.setup is None and note is None:
        return [text] if change is None else [text, change]
    data: JsonDict = {"s": text}
    if change is not None:
        data["d"] = change
    if node.setup is not None:
        data["setup"] = one_line(node.setup)
    if node.strength:
        data["st"] = one_line(node.strength)
    if node.nags:
        data["g"] = [_NAGS.get(n, f"${n}") for n in node.nags]
    if node.comments_before:
        data["cb"] = _comments(node.comments_before)
    if node.comments_after:
        data["ca"] = _comments(node.comments_after)
    if problems:
        data["p"] = problems
    if note is not None:
        data["an"] = note
    return data


def _moves(
    game: Game,
    report: Report,
    problem_indices: dict[int, list[int]],
    notes: dict[int, JsonDict] | None = None,
) -> list[Any]:
    """The move tree as nested lists: a move's ``vars`` are its alternatives (each a list);
    ``notes`` are the analysis's, by the move's place in written order."""
    notes = notes or {}
    steps = [step for _, step in report.walk()]
    top: list[Any] = []
    lines: list[list[Any]] = [top]
    order = 0  # the written-order place of the next move
    for event, node in line_events(game.root):
        if event == MOVE:
            assert node is not None
            problems = problem_indices.get(order, [])
            lines[-1].append(_move(node, steps[order], problems, notes.get(order)))
            order += 1
        elif event == BEGIN_VARIATION:
            inner: list[Any] = []
            current = lines[-1]
            if current:
                last = current[-1]
                if isinstance(last, list):  # a plain move gains an alternative: an object now
                    last = current[-1] = {"s": last[0], **({"d": last[1]} if len(last) > 1 else {})}
                last.setdefault("vars", []).append(inner)
            lines.append(inner)
        else:
            lines.pop()
    return top


def _problems_per_node(game: Game, report: Report, problems: list[Problem]) -> dict[int, list[int]]:
    """Which problems (indices into ``problems``) are about which move (its place in written
    order).

    A replay problem names its move by place in the file, ply, line of play and text, as the
    step's node does; the place alone would do for a file, not for a game built in code (or
    read from JSON) whose nodes have none.
    """
    if not any(p.ply is not None for p in problems):
        return {}
    # The variation path of every node, as the validator numbers lines, as a number: 0 for the
    # main line, one more for each distinct path, known by its parent's and the number of the
    # alternative taken. A tuple per node would cost the depth for each of them, quadratic in
    # variations nested thousands deep.
    paths: list[int] = []  # of each node, in written order
    branches: dict[tuple[int, int], int] = {}  # (parent path, number) -> path
    # Of each line open in the walk: its path and how many alternatives to its last move
    # have opened so far.
    lines: list[list[int]] = [[0, 0]]
    for event, _ in line_events(game.root):
        if event == MOVE:
            line = lines[-1]
            paths.append(line[0])
            line[1] = 0
        elif event == BEGIN_VARIATION:
            line = lines[-1]
            line[1] += 1
            path = branches.setdefault((line[0], line[1]), len(branches) + 1)
            lines.append([path, 0])
        else:
            lines.pop()
    places = {
        (s.node.line, s.node.column, s.ply, paths[s.order], s.node.move): s.order
        for s in report.steps
    }
    per_node: dict[int, list[int]] = {}
    for index, p in enumerate(problems):
        if p.ply is None:
            continue
        found = 0
        for number in p.variation:  # as long as the problem's own path
            branch = branches.get((found, number))
            if branch is None:
                break
            found = branch
        else:
            node = places.get((p.line, p.column, p.ply, found, p.move))
            if node is not None:
                per_node.setdefault(node, []).append(index)
    return per_node


def _variant_of(game: Game, report: Report) -> Variant:
    if report.variant is not None:
        return report.variant
    try:
        return get_variant(game.variant or "english")
    except KeyError:
        return ENGLISH  # rules unknown: an empty 8x8 board, the moves listed unplayed


#: The value an evaluation graph reaches at its top (White) or bottom (Black): 4 men.
GRAPH_RANGE = 400


def view_game(
    game: Game, file: str, variant: str | None = None, analyse: int | None = None
) -> ViewedGame:
    """Validate one game and keep what the viewer shows of it; with ``analyse`` (a depth),
    also analyse it (:func:`pdn.study.play.analysis.analyse_game`) for the graph of its values drawn
    under the board."""
    from pdn.rules.openings import classify

    unreadable = next((p for p in game.errors if p.code == "not-pdn"), None)
    if unreadable is not None:
        return ViewedGame([], "", not_pdn=unreadable, file=file)

    report = replay_of(game, file, variant)
    board_variant = _variant_of(game, report)
    problems = report.all_problems
    per_node = _problems_per_node(game, report, problems)
    linked = {i for indices in per_node.values() for i in indices}
    ballot = ""
    if report.variant is not None and report.variant.name == "english":
        opening = classify(game, report)
        if opening.kind == "ballot":
            ballot = f"ACF {opening.number}"
    tags = game.tags
    row = [one_line(tags.get(name) or "") for name in COLUMNS[:5]]
    # The page is published: it names the file, not the user's folders.
    row += [one_line(game.result or ""), ballot, report.status, one_line(page_name(file))]
    start = report.start
    first = first_colour(board_variant, game.game_type)  # a GameType may name it ("20,B")
    record: JsonDict = {
        "tags": [[one_line(k), one_line(v)] for k, v in tags],
        "variant": report.variant.name if report.variant is not None else (game.variant or ""),
        "first": first.letter,
        "start": letters(start) if start is not None else "." * board_for(board_variant).squares,
        "turn": (start.turn if start is not None else first).letter,
        "status": report.status,
        "problems": [_problem(p, report.variant) for p in problems],
        "general": [i for i in range(len(problems)) if i not in linked],
        "comments": _comments([*game.root.comments_before, *game.root.comments_after]),
        "moves": [],
        "terminator": one_line(game.terminator or ""),
    }
    found = None
    if analyse is not None:
        from pdn.study.play.analysis import (
            analyse_game,  # the engine's search: only for a page that asks
        )

        found = analyse_game(game, report, depth=analyse)
    record["moves"] = _moves(game, report, per_node, _notes(found))
    if found is not None:
        record["evaluation"] = _evaluation(found)
    return ViewedGame(row, board_variant.name, record)


def _notes(found: GameAnalysis | None) -> dict[int, JsonDict]:
    """What the move list shows of the analysis at each move it judges, by the move's place
    in written order: ``m`` the ``?``/``??`` of its verdict, ``c`` the comment ``pdn analyse``
    writes there (:func:`pdn.study.play.analysis_record.ply_note`)."""
    if found is None:
        return {}
    from pdn.study.play.analysis_record import ply_note

    notes: dict[int, JsonDict] = {}
    for ply in found.plies:
        note = ply_note(ply)
        if note is not None:
            mark = _NAGS.get(ply.nag, "") if ply.nag is not None else ""
            notes[ply.order] = {"m": mark, "c": one_line(note)}
    return notes


def _evaluation(found: GameAnalysis) -> JsonDict:
    """The values of the mainline for the graph and the line under it: each analysed ply as
    ``[ply, value, mark, label, value, best, best's value, verdicts]``: its value after the
    move for White held within :data:`GRAPH_RANGE` (for the graph), the NAG of its verdict,
    the move as ``"12. 15-18"``, then in words the value after the move for White, the
    engine's best move and its value for White, and the verdicts."""
    from pdn.study.play.analysis import value_text

    plies = []
    for ply in found.plies:
        value = max(-GRAPH_RANGE, min(GRAPH_RANGE, ply.white_after))
        mark = _NAGS.get(ply.nag, "") if ply.nag is not None else ""
        best = ply.before if ply.side == "White" else -ply.before
        plies.append(
            [
                ply.ply,
                value,
                mark,
                one_line(f"{ply.number} {ply.played}"),
                value_text(ply.white_after),
                one_line(ply.best),
                value_text(best),
                ", ".join(ply.verdicts),
            ]
        )
    return {"level": found.level, "range": GRAPH_RANGE, "plies": plies}


def asset(name: str) -> str:
    """The text of one of the pages' scripts or styles (``pdn/view/assets``)."""
    return resources.files("pdn.view").joinpath("assets").joinpath(name).read_text("utf-8")


def write_page(
    games: Iterable[ViewedGame],
    out: IO[str],
    *,
    title: str = "Games",
    standalone: bool = True,
    explorer: JsonDict | None = None,
) -> int:
    """Write the viewer for ``games`` to ``out``, streaming (each game's data is written as it
    comes, the list after), and return how many games it holds. ``standalone`` makes a whole
    HTML document whose arrow keys work anywhere on the page; otherwise a fragment (for
    Jupyter) that takes keys when it has the focus. ``explorer`` (made by
    :func:`pdn.view.explorer_page.panel_data`) adds the explorer's panel: the collection's replies
    at each position of a game."""
    # Random, not a count: notebook fragments of two kernels (two processes) can share a page.
    ident = f"pdnv-{secrets.randbits(64)}"
    style = asset("viewer.css") + (asset("explorer.css") if explorer is not None else "")
    # The board is drawn by the script the explorer's page shares (board.js).
    script = f"{asset('board.js')}\n{asset('viewer.js')}\nPdnViewer.mount({json.dumps(ident)});"
    if standalone:
        # The data blocks are not scripts the browser runs, so the policy need not name them.
        policy = (
            f"default-src 'none'; style-src {csp_source(style)}; script-src {csp_source(script)}"
        )
        out.write(
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(printable(title))}</title>\n"
        )
    out.write(f"<style>{style}</style>\n")
    if standalone:
        out.write("</head><body>\n")
    listen = "page" if standalone else "focus"
    out.write(f'<div class="pdn-viewer" id="{ident}" data-keys="{listen}" tabindex="0"></div>\n')
    out.write(f'<script type="application/x-ndjson" id="{ident}-games">\n')
    rows: list[list[str]] = []
    boards: dict[str, JsonDict] = {}  # by board_key: variants of one board share it
    keys: dict[str, str] = {}  # variant name -> board key
    keys_of_games: list[str] = []
    for game in games:
        out.write(script_json(game.record) + "\n")
        rows.append(game.row)
        if game.board not in keys:
            variant = get_variant(game.board)
            keys[game.board] = board_key(variant)
            boards.setdefault(keys[game.board], board_geometry(variant))
        keys_of_games.append(keys[game.board])
    out.write("</script>\n")
    names = sorted(boards)
    meta = {
        "columns": list(COLUMNS),
        "rows": rows,
        "boards": [boards[k] for k in names],
        "board_of": [names.index(k) for k in keys_of_games],
    }
    out.write(f'<script type="application/json" id="{ident}-meta">{script_json(meta)}</script>\n')
    if explorer is not None:
        data = script_json(explorer)
        out.write(f'<script type="application/json" id="{ident}-explorer">{data}</script>\n')
    out.write(f"<script>{script}</script>\n")
    if standalone:
        out.write("</body></html>\n")
    return len(rows)


def render_html(games: Iterable[ViewedGame], *, title: str = "Games") -> str:
    """The whole viewer page as one string (see :func:`write_page`)."""
    from io import StringIO

    buffer = StringIO()
    write_page(games, buffer, title=title)
    return buffer.getvalue()


def view_files(
    sources: Iterable[Input],
    out: IO[str],
    *,
    variant: str | None = None,
    jobs: int = 1,
    title: str = "Games",
    encoding: str | None = None,
    on_problem: Callable[[str, Problem], None] | None = None,
    explorer: JsonDict | None = None,
    analyse: int | None = None,
) -> int:
    """Validate every game of ``sources`` (on ``jobs`` processes, in order) and write the
    viewer page to ``out``; returns the number of games. ``encoding`` forces the codec of PDN
    bytes (else it is detected). An input that is not PDN at all is no game of the page:
    ``on_problem(file, problem)`` is told of it. ``explorer``: the explorer's panel, as
    :func:`write_page` takes it; ``analyse`` (a depth) adds each game's evaluation graph
    (:func:`view_game`)."""
    viewed: Iterator[ViewedGame] = map_games(
        partial(view_game, variant=variant, analyse=analyse), sources, jobs=jobs, encoding=encoding
    )

    def shown() -> Iterator[ViewedGame]:
        for game in viewed:
            if game.not_pdn is None:
                yield game
            elif on_problem is not None:
                on_problem(game.file, game.not_pdn)

    return write_page(shown(), out, title=title, explorer=explorer)


def game_html(game: Game, variant: str | None = None) -> str:
    """The viewer for one game as an HTML fragment (what ``Game._repr_html_`` shows)."""
    from io import StringIO

    buffer = StringIO()
    write_page([view_game(game, "", variant)], buffer, standalone=False)
    return buffer.getvalue()


def report_html(report: Report) -> str:
    """A validation report as an HTML table (what ``Report._repr_html_`` shows): the verdict,
    then each problem with where it is, its code, message and the legal moves there."""
    status = html.escape(report.status)
    rules = html.escape(report.variant.name if report.variant is not None else "unknown")
    parts = [
        '<div class="pdn-report">',
        f"<p><b>{status}</b> under {rules} rules; "
        f"{sum(1 for _ in report.mainline_steps())} mainline plies replayed.</p>",
    ]
    problems = report.all_problems
    if problems:
        parts.append(
            "<table><thead><tr><th>at</th><th>where</th><th>severity</th><th>code</th>"
            "<th>message</th><th>legal moves</th></tr></thead><tbody>"
        )
        for p in problems:
            cells = [p.location, p.where, p.severity, p.code, p.message, ", ".join(p.legal)]
            parts.append(
                "<tr>" + "".join(f"<td>{html.escape(one_line(c))}</td>" for c in cells) + "</tr>"
            )
        parts.append("</tbody></table>")
    parts.append("</div>")
    return "\n".join(parts)
