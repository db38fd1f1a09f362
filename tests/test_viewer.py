"""The viewer page's embedded data, read back in Python and checked against the engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_paths import OCA, needs_shared
from viewer_page import engine_boards, read_page, walk

import pdn
from pdn.cli import main
from pdn.engine import INTERNATIONAL, TURKISH, board_for
from pdn.rules.validation import validate
from pdn.view.viewer import (
    board_geometry,
    game_html,
    render_html,
    report_html,
    script_json,
    view_game,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
VARIATIONS = ROOT / "tests/fixtures/corpus/wiegerw__pdn/games/succeed/nk ronde 01.pdn"


def _page(*paths: Path) -> str:
    games = [view_game(g, p.name) for p in paths for g in pdn.read_games(str(p))]
    return render_html(games)


@pytest.mark.parametrize(
    "path", [VARIATIONS, EXAMPLES / "illegal-moves.pdn", EXAMPLES / "russian-setup.pdn"]
)
def test_every_board_of_the_page_is_the_engines(path: Path) -> None:
    """Applying each move's change from the start gives the engine's board after every move,
    variations included (walked in written order, as the validator's steps)."""
    page = read_page(_page(path))
    games = list(pdn.read_games(str(path)))
    assert len(page.games) == len(games) == len(page.meta["rows"])
    checked = 0
    for record, game in zip(page.games, games, strict=True):
        ours = [board for _, board in walk(record["moves"], record["start"])]
        assert ours == engine_boards(game)
        checked += sum(board is not None for board in ours)
    assert checked > 10


def test_variations_nags_and_comments_are_kept() -> None:
    page = read_page(_page(VARIATIONS))
    moves = [move for record in page.games for move, _ in walk(record["moves"], record["start"])]
    games = list(pdn.read_games(str(VARIATIONS)))
    nodes = [node for game in games for node, _ in game.walk()]
    assert [m["s"] for m in moves] == [n.move or "" for n in nodes]
    assert sum(len(m.get("vars", [])) for m in moves) == sum(
        len(n.variations) - 1 for n in nodes if n.variations
    ) - sum(len(g.root.variations) - 1 for g in games if g.root.variations)
    assert any(m.get("g") for m in moves) and any(m.get("ca") for m in moves)


def test_an_illegal_move_carries_the_validators_problem() -> None:
    page = read_page(_page(EXAMPLES / "illegal-moves.pdn"))
    record = page.games[0]
    assert record["status"] == "illegal" and page.meta["rows"][0][7] == "illegal"
    marked = [m for m, _ in walk(record["moves"], record["start"]) if m.get("p")]
    (move,) = marked
    problem = record["problems"][move["p"][0]]
    report = validate(next(iter(pdn.read_games(str(EXAMPLES / "illegal-moves.pdn")))))
    (expected,) = [p for p in report.problems if p.severity == "error"]
    assert move["s"] == expected.move == "9-13"
    assert problem["message"] == expected.message and problem["legal"] == list(expected.legal)
    assert problem["code"] == "missed-capture" and problem["where"] == "ply 3"
    assert problem["paths"] == [[15, 22]]  # the squares of 15x22, for its arrow


def test_values_from_the_file_cannot_close_the_script_or_add_markup() -> None:
    hostile = "</script><script>alert(1)</script><!--"
    game = pdn.parse_game(
        f'[Event "{hostile}"]\n[White "a\u202eb\x1b[2J"]\n1. 11-15 {{{hostile} & more}} 23-19 *'
    )
    page = render_html([view_game(game, "<file>.pdn")])
    assert page.count("<script") == 3 and page.count("</script>") == 3
    assert "alert(1)" in page and "<!--" not in page and "\u202e" not in page
    data = read_page(page)
    assert data.meta["rows"][0][2] == hostile
    assert data.meta["rows"][0][0] == "a\\u202eb\\x1b[2J"
    assert data.games[0]["moves"][0]["ca"] == [f"{hostile} & more"]
    assert script_json("\u2028</") == '"\\u2028\\u003c/"'


def test_page_is_self_contained() -> None:
    page = _page(EXAMPLES / "german-open-2004.pdn")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "http://www.w3.org/2000/svg" in page  # the SVG namespace, a name, not a fetch
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", page)


def test_each_variant_board_geometry_is_the_engines() -> None:
    for variant in (INTERNATIONAL, TURKISH):
        geometry = board_geometry(variant)
        board = board_for(variant)
        assert (geometry["w"], geometry["h"]) == (board.width, board.height)
        assert geometry["cells"][0] == list(board.coordinates(1))
        assert len(geometry["cells"]) == board.squares
    page = read_page(_page(EXAMPLES / "international-wk2007.pdn", EXAMPLES / "illegal-moves.pdn"))
    sizes = sorted((b["w"], b["h"]) for b in page.meta["boards"])
    assert sizes == [(8, 8), (10, 10)]
    assert page.meta["boards"][page.meta["board_of"][0]]["w"] == 10


def test_game_and_report_display_in_jupyter() -> None:
    game = pdn.parse_game('[White "<i>W</i>"] 1. 11-15 23-19 2. 15-11 *')
    fragment = game._repr_html_()
    same_ids = re.compile(r"pdnv-\d+")
    assert same_ids.sub("ID", fragment) == same_ids.sub("ID", game_html(game))
    assert read_page(fragment).meta["rows"][0][0] == "<i>W</i>" and "<i>" not in fragment
    assert "<!DOCTYPE" not in fragment and 'data-keys="focus"' in fragment
    report = validate(game)
    table = report._repr_html_()
    assert table == report_html(report)
    assert "backward-man" in table and "<b>illegal</b>" in table and "ply 3" in table


def test_view_command_writes_the_page(tmp_path: Path) -> None:
    out = tmp_path / "games.html"
    result = CliRunner().invoke(
        main, ["view", str(EXAMPLES / "illegal-moves.pdn"), str(VARIATIONS), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = read_page(out.read_text(encoding="utf-8"))
    games = len(list(pdn.read_games(str(EXAMPLES / "illegal-moves.pdn"))))
    assert len(page.games) == games + 7
    # An absolute path: its base name (the page is published, the user's folders are not).
    assert page.meta["rows"][-1][8] == VARIATIONS.name
    again = CliRunner().invoke(main, ["view", str(out), "-o", str(out)])
    assert again.exit_code == 2 and "refusing to overwrite" in again.output


@needs_shared(OCA)
def test_oca_rows_hold_ballots_when_the_corpus_is_there() -> None:
    games = []
    for game in pdn.read_games(str(OCA)):
        games.append(view_game(game, OCA.name))
        if len(games) == 40:
            break
    rows = read_page(render_html(games)).meta["rows"]
    assert sum(row[6].startswith("ACF ") for row in rows) >= 30


def test_variations_nested_thousands_deep_still_make_a_page() -> None:
    depth = 3000
    game = pdn.parse_game("1. 11-15 23-19 " + "(22-18 9-13 " * depth + ")" * depth + " 2. 9-14 *")
    data = read_page(render_html([view_game(game, "deep.pdn")]))
    line, levels = data.games[0]["moves"], 0
    while True:
        inner = [m["vars"][0] for m in line if isinstance(m, dict) and m.get("vars")]
        if not inner:
            break
        line, levels = inner[0], levels + 1
    assert levels == depth
    assert [m[0] if isinstance(m, list) else m["s"] for m in line] == ["22-18", "9-13"]


def test_problems_find_their_move_in_a_game_without_file_positions() -> None:
    from pdn.writing.jsonio import game_from_dict, game_to_dict

    text = "1. 11-15 (1. 9-13 22-18 2. 13-9) 23-19 2. 15-11 *"
    game = game_from_dict(game_to_dict(pdn.parse_game(text)))
    assert all(node.line is None for node, _ in game.walk())
    record = read_page(render_html([view_game(game, "-")])).games[0]
    marked = {
        m["s"]: [record["problems"][i]["code"] for i in m["p"]]
        for m, _ in walk(record["moves"], record["start"])
        if m.get("p")
    }
    assert marked == {"13-9": ["backward-man"], "15-11": ["backward-man"]}


@pytest.mark.parametrize(("game_type", "first"), [("20,B,10,10,N2,0", "B"), ("20", "W")])
def test_the_page_starts_with_the_side_the_gametype_names(game_type: str, first: str) -> None:
    game = pdn.parse_game(f'[GameType "{game_type}"]\n1. 20-25 *')
    record = read_page(render_html([view_game(game, "black.pdn")])).games[0]
    assert (record["first"], record["turn"]) == (first, first)
