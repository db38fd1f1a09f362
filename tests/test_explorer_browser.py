"""The explorer's page and the viewer's explorer panel in a real headless chromium (driven as
tests/test_viewer_browser.py drives it, and skipped exactly as it is when chromium is absent):
a click on a reply shows the engine's position after it with that position's figures, the
back button and the breadcrumb step back, every variant's board draws, and the viewer's panel
at ply k lists what ``Tree.node`` says there, a click on the game's move steps the game and a
click on another reply shows its position off the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_viewer_browser import _board, driver  # noqa: F401  (the same chromium, same skip)
from viewer_page import opening

import pdn
from pdn.engine import VARIANTS, Position, letters
from pdn.study.explore.tree import Tree, build
from pdn.view.explorer_page import explorer_data, explorer_html, panel_data, panel_tree
from pdn.view.viewer import view_game, write_page

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
GERMAN = ROOT / "examples/german-open-2004.pdn"
OPENINGS = ROOT / "tests/fixtures/openings/games.pdn"


def _games_line(figures: Any) -> str:
    score = "" if figures.score is None else f", score {figures.score:.1f}%"
    return (
        f"{figures.games}: {figures.win} won, {figures.draw} drawn, {figures.loss} lost, "
        f"{figures.unknown} unknown{score}"
    )


def _info(browser: Any) -> str:
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.CSS_SELECTOR, ".pdnx-info").text)


def _click_reply(browser: Any, move: str, box: str = ".pdnx-info") -> None:
    from selenium.webdriver.common.by import By

    browser.find_element(By.CSS_SELECTOR, f"{box} .pdnx-reply[data-move='{move}']").click()


def test_click_through_the_tree(driver: Any, tmp_path: Path) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    tree = build([GERMAN, OPENINGS], players_at=[Position.start(pdn.engine.ENGLISH)])
    root = tree.start()
    assert root is not None
    target = tmp_path / "tree.html"
    target.write_text(explorer_html(tree, root, plies=6, max_nodes=40), encoding="utf-8")
    driver.get(target.as_uri())
    node = tree.node(root)
    assert _board(driver, 32) == letters(root)
    assert _games_line(node.figures) in _info(driver)
    assert node.players is not None and f"{node.players[0][0]} {node.players[0][1]}" in _info(
        driver
    )
    rows = driver.find_elements(By.CSS_SELECTOR, ".pdnx-info .pdnx-reply")
    assert [r.get_attribute("data-move") for r in rows] == [r.move for r in node.replies]

    # Two plies down the most played line: the engine's board and the tree's figures each time.
    line = []
    for _ in range(2):
        reply = node.replies[0]
        _click_reply(driver, reply.move)
        line.append(reply.move)
        node = tree.node(reply.position)
        assert _board(driver, 32) == letters(reply.position)
        info = _info(driver)
        assert _games_line(node.figures) in info
        assert node.name is None or node.name in info
        cells = driver.find_elements(By.CSS_SELECTOR, ".pdnx-info .pdnx-reply")
        first = cells[0].find_elements(By.TAG_NAME, "td")
        assert [c.text for c in first[:3]] == [
            node.replies[0].move,
            str(node.replies[0].figures.games),
            str(node.replies[0].figures.win),
        ]
    crumbs = driver.find_elements(By.CSS_SELECTOR, ".pdnx-line .pdnx-crumb")
    assert [c.text for c in crumbs] == ["Root", *line]
    assert driver.current_url.endswith("#" + "%20".join(line))

    # The browser's back button, then the breadcrumb's root.
    driver.back()
    after_one = letters(tree.node(root).replies[0].position)
    WebDriverWait(driver, 10).until(lambda d: _board(d, 32) == after_one)  # hashchange
    driver.find_element(By.CSS_SELECTOR, ".pdnx-line .pdnx-crumb").click()
    assert _board(driver, 32) == letters(root)

    # A reply whose position the page left out (40 nodes at most): its board, its games.
    data = explorer_data(tree, root, plies=6, max_nodes=40)
    path, out = _path_to_left_out(data)
    for move in path:
        _click_reply(driver, move)
    data_out = driver.find_elements(By.CSS_SELECTOR, ".pdnx-info .pdnx-reply.pdnx-out")
    assert [r.get_attribute("data-move") for r in data_out][:1] == [out]
    data_out[0].click()
    assert "replies are not in the page" in _info(driver)
    foot = driver.find_element(By.CSS_SELECTOR, ".pdnx-foot").text
    assert data["capped"] and f"{data['capped']} replies lead to positions left out" in foot
    # The left arrow steps back one ply; f flips the board, the same pieces on it.
    before = _board(driver, 32)
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    crumbs = driver.find_elements(By.CSS_SELECTOR, ".pdnx-line .pdnx-crumb")
    assert [c.text for c in crumbs] == ["Root", *path]
    shown = _board(driver, 32)
    assert shown != before
    body.send_keys("f")
    assert (
        driver.find_element(By.CSS_SELECTOR, ".pdnv-board svg").get_attribute("data-flipped") == "1"
    )
    assert _board(driver, 32) == shown
    assert driver.get_log("browser") == []


def _path_to_left_out(data: dict[str, Any]) -> tuple[list[str], str]:
    """The clicks from the root to a node with a reply the page left out, and that reply."""
    paths: dict[int, list[str]] = {0: []}
    queue = [0]
    while queue:
        index = queue.pop(0)
        for move, _, _, target, _ in data["nodes"][index]["r"]:
            if target < 0:
                return paths[index], move
            if target not in paths:
                paths[target] = [*paths[index], move]
                queue.append(target)
    raise AssertionError("the page left nothing out")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_draws(driver: Any, tmp_path: Path, variant: str) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    game, positions = opening(variant, 2)
    tree = Tree()
    tree.add_game(game, variant)
    target = tmp_path / f"{variant}.html"
    target.write_text(explorer_html(tree, positions[0]), encoding="utf-8")
    driver.get(target.as_uri())
    squares = len(letters(positions[0]))
    assert len(driver.find_elements(By.CSS_SELECTOR, ".pdnv-board rect.square")) == squares
    assert _board(driver, squares) == letters(positions[0])
    for position in positions[1:]:
        driver.find_element(By.CSS_SELECTOR, ".pdnx-info .pdnx-reply").click()
        assert _board(driver, squares) == letters(position)
        assert _games_line(tree.figures(position)) in _info(driver)
    assert driver.get_log("browser") == []


# ----------------------------------------------------------------------------- the panel


def _panel_rows(browser: Any) -> list[list[str]]:
    from selenium.webdriver.common.by import By

    rows = browser.find_elements(By.CSS_SELECTOR, ".pdnx-panel .pdnx-reply")
    return [[td.text for td in row.find_elements(By.TAG_NAME, "td")] for row in rows]


def test_viewer_panel(driver: Any, tmp_path: Path) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    depth = 12
    tree, asked = panel_tree([GERMAN], archives=[OPENINGS], depth=depth)
    games = [view_game(g, GERMAN.name) for g in pdn.read_games(str(GERMAN))]
    target = tmp_path / "view.html"
    with target.open("w", encoding="utf-8") as out:
        write_page(games, out, explorer=panel_data(tree, asked))
    driver.get(target.as_uri())

    game = next(iter(pdn.read_games(str(GERMAN))))  # the page opens the first game
    report = pdn.validate(game)
    assert report.start is not None
    positions = [report.start] + [s.after for s in report.mainline_steps() if s.after]
    body = driver.find_element(By.TAG_NAME, "body")
    for ply in range(depth + 1):
        node = tree.node(positions[ply])
        expected = [
            [r.move, str(r.figures.games), str(r.figures.win), str(r.figures.draw)]
            for r in node.replies
        ]
        assert [row[:4] for row in _panel_rows(driver)] == expected, f"ply {ply}"
        head = driver.find_element(By.CSS_SELECTOR, ".pdnx-panel .pdnx-panel-head").text
        assert head.startswith(f"{node.figures.games} game")
        if ply < depth:
            body.send_keys(Keys.ARROW_RIGHT)

    # Back to a ply where the collection played more than the game's move.
    ply = next(k for k in range(1, depth) if len(tree.node(positions[k]).replies) > 1)
    driver.find_element(By.CSS_SELECTOR, ".pdnv-first").click()
    for _ in range(ply):
        body.send_keys(Keys.ARROW_RIGHT)
    assert _board(driver, 32) == letters(positions[ply])
    replies = tree.node(positions[ply]).replies
    game_move = next(r for r in replies if r.position == positions[ply + 1])
    other = next(r for r in replies if r.position != positions[ply + 1])

    # The game's move: the game steps there (the move list follows).
    _click_reply(driver, game_move.move, ".pdnx-panel")
    assert _board(driver, 32) == letters(positions[ply + 1])
    current = driver.find_element(By.CSS_SELECTOR, ".pdnv-move.pdnv-current")
    assert current.get_attribute("data-ply") == str(ply + 1)
    body.send_keys(Keys.ARROW_LEFT)

    # Another reply: its position, off the game; the back arrow returns to the game.
    _click_reply(driver, other.move, ".pdnx-panel")
    assert _board(driver, 32) == letters(other.position)
    assert "Off the game" in driver.find_element(By.CSS_SELECTOR, ".pdnv-message").text
    assert not driver.find_elements(By.CSS_SELECTOR, ".pdnv-move.pdnv-current")
    body.send_keys(Keys.ARROW_LEFT)
    assert _board(driver, 32) == letters(positions[ply])
    current = driver.find_element(By.CSS_SELECTOR, ".pdnv-move.pdnv-current")
    assert current.get_attribute("data-ply") == str(ply)
    assert driver.get_log("browser") == []
