"""The explorer's page and the viewer's explorer panel (pdn/view/explorer_page.py), read back in
Python: what they embed is the tree's own figures (``Tree.node``), the board after each reply is
the engine's, values from files are escaped, and the panel's within-tree counts what the whole
collection's tree counts at the shown games' positions."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from shared_paths import OCA, needs_shared
from viewer_page import apply, opening

import pdn
from pdn.cli import main
from pdn.engine import VARIANTS, Position, letters
from pdn.study.explore.render import shown_replies
from pdn.study.explore.tree import Figures, Tree, build
from pdn.text.notation import move_texts
from pdn.view.explorer_page import (
    MAX_NODES,
    PAGE_PLIES,
    explorer_data,
    explorer_html,
    panel_data,
    panel_key,
    panel_tree,
)
from pdn.view.viewer import board_geometry, render_html, view_game
from pdn.writing.jsonio import loads

ROOT = Path(__file__).resolve().parents[1]
GERMAN = ROOT / "examples/german-open-2004.pdn"
OPENINGS = ROOT / "tests/fixtures/openings/games.pdn"
OCA_SLICES = sorted((ROOT / "tests/fixtures/corpus/mzuluaga__checkers").glob("*.pdn"))
WK2007 = ROOT / "examples/international-wk2007.pdn"


def figures_row(figures: Figures) -> list[Any]:
    return [
        figures.win,
        figures.draw,
        figures.loss,
        figures.unknown,
        figures.score,
        figures.first_date,
        figures.last_date,
    ]


def page_data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="pdnx-data">(.*?)</script>', page)
    assert found is not None
    data: dict[str, Any] = loads(found.group(1))
    return data


def positions_of(data: dict[str, Any], root: Position) -> dict[int, Position]:
    """Each node's position, found as the page finds it: from the root along the replies,
    checking each reply's change against the engine's move."""
    found = {0: root}
    frontier = [0]
    while frontier:
        index = frontier.pop()
        position = found[index]
        for move, _, _, target, change in data["nodes"][index]["r"]:
            legal = position.legal_moves()
            texts = move_texts(legal, position.variant)
            after = position.play(legal[texts.index(move)])
            pieces, turn = apply(letters(position), change)
            assert (pieces, turn) == (letters(after), after.turn.letter)
            if target >= 0 and target not in found:
                found[target] = after
                frontier.append(target)
    return found


@pytest.mark.parametrize(("path", "min_games"), [(GERMAN, 1), (OPENINGS, 1), (OPENINGS, 2)])
def test_page_holds_the_tree_figures(path: Path, min_games: int) -> None:
    tree = build([path], players_at=[Position.start(pdn.engine.ENGLISH)])
    root = tree.start()
    assert root is not None
    data = page_data(explorer_html(tree, root, min_games=min_games, plies=6))
    assert data == explorer_data(tree, root, min_games=min_games, plies=6)
    walked = list(tree.walk(root, plies=6, min_games=min_games))
    assert len(data["nodes"]) == len(walked)
    positions = positions_of(data, root)
    assert len(positions) == len(walked)  # every node is reached by a click
    for index, position in positions.items():
        node, held = tree.node(position), data["nodes"][index]
        assert held["f"] == figures_row(node.figures)
        assert held.get("n") == node.name
        replies = shown_replies(node, min_games)
        assert [r[0] for r in held["r"]] == [r.move for r in replies]
        assert [r[1] for r in held["r"]] == [figures_row(r.figures) for r in replies]
        assert [r[2] for r in held["r"]] == [r.reached.games for r in replies]
        assert held.get("h", 0) == len(node.replies) - len(replies)
    root_players = data["nodes"][0]["pl"]
    assert root_players == [list(pair) for pair in tree.node(root).players or ()]
    assert data["board"] == board_geometry(root.variant)
    assert data["root"] == letters(root) and data["turn"] == root.turn.letter


def test_cap_and_plies_are_said() -> None:
    tree = build([GERMAN])
    root = tree.start()
    assert root is not None
    capped = explorer_data(tree, root, max_nodes=3)
    assert len(capped["nodes"]) == 3
    out = [r for node in capped["nodes"] for r in node["r"] if r[3] < 0]
    assert capped["capped"] + capped["past_plies"] == len(out) > 0
    flat = explorer_data(tree, root, plies=0)
    assert len(flat["nodes"]) == 1
    assert flat["past_plies"] == len(tree.node(root).replies) and flat["capped"] == 0
    with pytest.raises(ValueError):
        explorer_data(tree, root, max_nodes=0)


def test_values_from_files_are_escaped() -> None:
    nasty = "</script><script>alert(1)</script> & Co \u2028"
    text = f'[Black "{nasty}"]\n[White "<b>W</b>"]\n1. 11-15 23-19 *\n'
    tree = Tree(players_at=[Position.start(pdn.engine.ENGLISH)])
    tree.add_game(pdn.parse_game(text))
    root = tree.start()
    assert root is not None
    page = explorer_html(tree, root, title="<t> & more")
    assert "<script>alert" not in page and "<b>W" not in page and "\u2028" not in page
    assert "<title>&lt;t&gt; &amp; more</title>" in page
    names = dict(page_data(page)["nodes"][0]["pl"])
    assert set(names) == {pdn.text.safe_text.one_line(nasty), "<b>W</b>"}
    # The only scripts are the data block and the page's own.
    assert page.count("<script") == 2 and page.count("</script>") == 2


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_has_its_board(variant: str) -> None:
    game, positions = opening(variant, 3)
    tree = Tree()
    tree.add_game(game, variant)
    data = explorer_data(tree, positions[0])
    assert data["variant"] == variant
    assert len(data["board"]["cells"]) == len(letters(positions[0]))
    assert positions_of(data, positions[0])[len(data["nodes"]) - 1] == positions[-1]


def test_international_games() -> None:
    tree = build([WK2007])
    root = tree.start()
    assert root is not None and root.variant.name == "international"
    data = explorer_data(tree, root, plies=4)
    assert len(data["board"]["cells"]) == 50
    for index, position in positions_of(data, root).items():
        assert data["nodes"][index]["f"] == figures_row(tree.figures(position))


# ----------------------------------------------------------------------------- the command


def most_played_line(tree: Tree, root: Position, plies: int) -> list[str]:
    """From ``root``, each time the reply most games played (the first of equal ones), for
    ``plies`` plies or until no reply is left: the line a page should follow to its end."""
    line: list[str] = []
    position = root
    for _ in range(plies):
        replies = tree.node(position).replies
        if not replies:
            break
        best = max(replies, key=lambda reply: reply.figures.games)
        line.append(best.move)
        position = best.position
    return line


def followed(data: dict[str, Any], line: list[str]) -> int:
    """How many plies of ``line`` the page holds as nodes, from its root."""
    at = 0
    for ply, move in enumerate(line):
        (reply,) = [r for r in data["nodes"][at]["r"] if r[0] == move]
        if reply[3] < 0:
            return ply
        at = reply[3]
    return len(line)


def test_the_budget_goes_along_the_most_played_line_first() -> None:
    # 167 OCA games: the most played line narrows from 69 games to 3 by ply 6; within 10
    # plies lie 504 positions, most of them side lines near the root played once.
    tree = build(OCA_SLICES)
    root = tree.start()
    assert root is not None
    line = most_played_line(tree, root, 10)
    assert len(line) == 10
    data = explorer_data(tree, root, plies=10, max_nodes=150)
    assert len(data["nodes"]) == 150
    assert followed(data, line) == 10
    # What was left out is said: replies to positions past the cap.
    assert data["capped"] > 0


@needs_shared(OCA)
def test_oca_most_played_line_is_followed_to_the_page_s_last_ply() -> None:
    tree = build([OCA], jobs=2)
    root = tree.start()
    assert root is not None
    line = most_played_line(tree, root, PAGE_PLIES)
    data = explorer_data(tree, root)
    assert len(data["nodes"]) == MAX_NODES
    assert followed(data, line) == len(line) == PAGE_PLIES


def test_explore_html_command(tmp_path: Path) -> None:
    target = tmp_path / "tree.html"
    args = ["explore", str(GERMAN), "--format", "html", "--moves", "11-15 22-18", "-o"]
    result = CliRunner().invoke(main, [*args, str(target), "--plies", "3"])
    assert result.exit_code == 0, result.output
    data = page_data(target.read_text("utf-8"))
    tree = build([GERMAN])
    start = tree.start()
    assert start is not None
    root = pdn.collections.filtering.line_position(start, ("11-15", "22-18"))
    assert root is not None
    assert data["root"] == letters(root) and data["line"] == "11-15 22-18"
    assert data["nodes"][0]["f"] == figures_row(tree.figures(root))
    assert data["plies"] == 3 and data["max_nodes"] == 5000
    bad = CliRunner().invoke(main, ["explore", str(GERMAN), "--format", "html", "--moves", "1-2"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


# ----------------------------------------------------------------------------- the panel


def _mainline(game: pdn.Game) -> list[Position]:
    report = pdn.validate(game)
    assert report.start is not None
    return [report.start] + [s.after for s in report.mainline_steps() if s.after is not None]


def test_panel_counts_as_the_whole_tree() -> None:
    depth = 12
    tree, asked = panel_tree([GERMAN], depth=depth)
    whole = build([GERMAN], depth)
    data = panel_data(tree, asked)
    assert data["depth"] == depth
    for game in pdn.read_games(str(GERMAN)):
        for ply, position in enumerate(_mainline(game)[: depth + 1]):
            held = data["nodes"][panel_key(position)]
            node = whole.node(position)
            assert held["f"] == figures_row(node.figures), ply
            assert [r[0] for r in held["r"]] == [r.move for r in node.replies]
            assert [r[1] for r in held["r"]] == [figures_row(r.figures) for r in node.replies]
            assert [r[2] for r in held["r"]] == [r.reached.games for r in node.replies]
            for reply, (_, _, _, change) in zip(node.replies, held["r"], strict=True):
                assert apply(letters(position), change)[0] == letters(reply.position)
    # The positions asked, each once: the shown games' first plies, nothing past the depth.
    assert len(data["nodes"]) == len({panel_key(p) for p in asked})


def test_panel_with_an_archive() -> None:
    tree, asked = panel_tree([GERMAN], archives=[OPENINGS], depth=8)
    whole = build([GERMAN, OPENINGS], 8)
    for position in asked:
        assert tree.node(position) == whole.node(position)
    assert tree.variants() == whole.variants()
    # Only the shown games' positions (and the moves from them) were counted.
    assert sum(1 for _ in tree.positions()) < sum(1 for _ in whole.positions())


def test_viewer_page_carries_the_panel_only_when_asked() -> None:
    games = [view_game(g, GERMAN.name) for g in pdn.read_games(str(GERMAN))]
    assert not re.search(r'id="pdnv-\d+-explorer"', render_html(games))
    tree, asked = panel_tree([GERMAN], depth=4)
    from io import StringIO

    out = StringIO()
    pdn.view.viewer.write_page(games, out, explorer=panel_data(tree, asked))
    page = out.getvalue()
    found = re.search(
        r'<script type="application/json" id="pdnv-\d+-explorer">(.*?)</script>', page
    )
    assert found is not None and loads(found.group(1)) == panel_data(tree, asked)


def test_view_explorer_command(tmp_path: Path) -> None:
    target = tmp_path / "view.html"
    args = ["view", str(GERMAN), "--explorer-from", str(OPENINGS), "--explorer-depth", "6"]
    result = CliRunner().invoke(main, [*args, "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert re.search(r'id="pdnv-\d+-explorer"', target.read_text("utf-8"))
    piped = CliRunner().invoke(main, ["view", "-", "--explorer"], input=GERMAN.read_bytes())
    assert piped.exit_code == 2 and "standard input" in piped.output
