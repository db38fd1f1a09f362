"""The viewer as a person sees it: a real headless chromium, driven through chromium-driver by
selenium, opens a page for bundled files, steps through a game with the keyboard and checks the
board against the engine after each step, flips it, clicks a variation, opens an illegal move
and saves a screenshot that must not be blank.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them when missing:
``apt-get install -y chromium chromium-driver``) and ``selenium`` (the ``test`` extra). The
paths can be overridden with ``PDN_CHROMIUM`` and ``PDN_CHROMEDRIVER``. The machine may have no
network: every launch flag below keeps chromium from reaching for one.
"""

from __future__ import annotations

import os
import shutil
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from viewer_page import engine_boards

import pdn
from pdn.view.viewer import render_html, view_game

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
ILLEGAL = ROOT / "examples/illegal-moves.pdn"
VARIATIONS = ROOT / "tests/fixtures/corpus/wiegerw__pdn/games/succeed/nk ronde 01.pdn"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1200,1000",
)


def _program(variable: str, default: str, name: str) -> str | None:
    chosen = os.environ.get(variable)
    if chosen:
        return chosen
    if Path(default).exists():
        return default
    return shutil.which(name)


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.service import Service

    chromium = _program("PDN_CHROMIUM", "/usr/bin/chromium", "chromium")
    chromedriver = _program("PDN_CHROMEDRIVER", "/usr/bin/chromedriver", "chromedriver")
    if chromium is None or chromedriver is None:
        pytest.skip(
            "chromium and chromium-driver are not installed "
            "(apt-get install -y chromium chromium-driver; .ci/run does it)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    browser = webdriver.Chrome(service=Service(chromedriver), options=options)
    try:
        yield browser
    finally:
        browser.quit()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    games = [view_game(g, p.name) for p in (ILLEGAL, VARIATIONS) for g in pdn.read_games(str(p))]
    target = tmp_path_factory.mktemp("viewer") / "games.html"
    target.write_text(render_html(games, title="browser test"), encoding="utf-8")
    return target


_BOARD = """
const out = {};
for (const g of document.querySelectorAll('.pdnv-board svg g.piece'))
  out[g.getAttribute('data-square')] = g.getAttribute('data-piece');
return out;
"""


def _board(driver: Any, squares: int) -> str:
    found = driver.execute_script(_BOARD)
    cells = ["."] * squares
    for square, piece in found.items():
        cells[int(square) - 1] = piece
    return "".join(cells)


def _open_game(driver: Any, words: str) -> None:
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.CSS_SELECTOR, ".pdnv-filter")
    box.clear()
    box.send_keys(words)
    driver.find_element(By.CSS_SELECTOR, ".pdnv-spacer .pdnv-row").click()
    driver.find_element(By.TAG_NAME, "body").click()  # keys go to the page, not the filter


def test_keyboard_steps_flip_variation_and_illegal_move(
    driver: Any, page: Path, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(page.as_uri())
    total = len(list(pdn.read_games(str(ILLEGAL)))) + len(list(pdn.read_games(str(VARIATIONS))))
    count = driver.find_element(By.CSS_SELECTOR, ".pdnv-count").text
    assert count == f"{total} of {total} games"
    # Only the rows in view exist: the list is drawn lazily.
    assert len(driver.find_elements(By.CSS_SELECTOR, ".pdnv-spacer .pdnv-row")) < total

    # A 10x10 game with variations: step along the main line with the arrow key.
    game = next(iter(pdn.read_games(str(VARIATIONS))))
    white = game.tags.get("White") or ""
    _open_game(driver, white.split(",")[0])
    nodes = [node for node, _ in game.walk()]
    boards = engine_boards(game)
    mainline = [boards[nodes.index(node)] for node in game.mainline()]
    start = pdn.validate(game).start
    assert start is not None
    from pdn_engine.picture import letters

    assert _board(driver, 50) == letters(start)
    body = driver.find_element(By.TAG_NAME, "body")
    for ply, expected in enumerate(mainline[:14], start=1):
        body.send_keys(Keys.ARROW_RIGHT)
        assert _board(driver, 50) == expected, f"after ply {ply}"
    body.send_keys(Keys.ARROW_LEFT)
    assert _board(driver, 50) == mainline[12]

    # Flip: the same pieces, square 1 now at the bottom.
    square_one = ".pdnv-board svg rect.square[data-square='1']"
    top = float(driver.find_element(By.CSS_SELECTOR, square_one).get_attribute("y"))
    body.send_keys("f")
    flipped = driver.find_element(By.CSS_SELECTOR, ".pdnv-board svg")
    assert flipped.get_attribute("data-flipped") == "1"
    assert float(driver.find_element(By.CSS_SELECTOR, square_one).get_attribute("y")) > top
    assert _board(driver, 50) == mainline[12]
    body.send_keys("f")

    # A click on the first move of a variation shows the engine's board there.
    first_side = next(i for i, node in enumerate(nodes) if not node.is_mainline())
    driver.find_element(By.CSS_SELECTOR, ".pdnv-variation .pdnv-move").click()
    assert _board(driver, 50) == boards[first_side]
    current = driver.find_element(By.CSS_SELECTOR, ".pdnv-move.pdnv-current")
    assert current.text == nodes[first_side].move

    # An illegal move: its message and the legal moves, and the board is marked.
    _open_game(driver, "Missed")
    driver.find_element(By.CSS_SELECTOR, ".pdnv-move.pdnv-illegal").click()
    report = pdn.validate(next(iter(pdn.read_games(str(ILLEGAL)))))
    (problem,) = [p for p in report.problems if p.severity == "error"]
    message = driver.find_element(By.CSS_SELECTOR, ".pdnv-message").text
    assert problem.message in message and "Legal moves here: " + ", ".join(problem.legal) in message
    assert driver.find_elements(By.CSS_SELECTOR, ".pdnv-board rect.illegal-frame")
    arrows = driver.find_elements(By.CSS_SELECTOR, ".pdnv-board polyline.legal")
    assert len(arrows) == len(problem.legal)
    verdict = driver.find_element(By.CSS_SELECTOR, ".pdnv-verdict").text
    assert "illegal" in verdict and problem.message in verdict

    shot = tmp_path / "viewer.png"
    assert driver.save_screenshot(str(shot))
    colours = _colours(shot.read_bytes())
    assert len(colours) > 20, "the screenshot is (nearly) blank"
    assert driver.get_log("browser") == []  # no script errors


def _colours(png: bytes) -> set[bytes]:
    """The distinct pixel values of an 8-bit RGB/RGBA PNG (what chromium writes)."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    at, data, width, height, channels = 8, b"", 0, 0, 0
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            data += body
        at += 12 + length
    raw = zlib.decompress(data)
    stride = width * channels
    previous = bytearray(stride)
    seen: set[bytes] = set()
    for row in range(height):
        kind = raw[row * (stride + 1)]
        line = bytearray(raw[row * (stride + 1) + 1 : (row + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                guess = min(
                    (abs(p - left), 0, left), (abs(p - up), 1, up), (abs(p - corner), 2, corner)
                )
                line[i] = (line[i] + guess[2]) & 0xFF
        if row % 4 == 0:  # every fourth row is plenty to tell a blank page
            seen.update(bytes(line[i : i + 3]) for i in range(0, stride, channels * 4))
        previous = line
    return seen


def test_variations_nested_thousands_deep_open(driver: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    depth = 3000
    game = pdn.parse_game("1. 11-15 23-19 " + "(22-18 9-13 " * depth + ")" * depth + " 2. 9-14 *")
    target = tmp_path / "deep.html"
    target.write_text(render_html([view_game(game, "deep.pdn")]), encoding="utf-8")
    driver.get(target.as_uri())
    moves = driver.find_elements(By.CSS_SELECTOR, ".pdnv-move")
    assert len(moves) == 3 + 2 * depth
    assert driver.get_log("browser") == []
    driver.execute_script("arguments[0].click()", moves[-2])  # the deepest line's 9-13
    assert driver.find_element(By.CSS_SELECTOR, ".pdnv-move.pdnv-current").text == "9-13"


def test_the_evaluation_graph_of_an_analysed_game(driver: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game = pdn.parse_game(
        '[FEN "B:W17,22,25,27,28,29,30:B1,3,4,5,8,9,15"] 1. 8-11 17-13 2. 15-18 13x6 *'
    )
    target = tmp_path / "analysed.html"
    target.write_text(render_html([view_game(game, "blunder.pdn", analyse=4)]), encoding="utf-8")
    driver.get(target.as_uri())  # one game: opened at once, no list
    points = driver.find_element(By.CSS_SELECTOR, ".pdnv-graph polyline").get_attribute("points")
    assert points is not None and len(points.split()) == 4  # the four moves, each with a choice
    marks = driver.find_elements(By.CSS_SELECTOR, ".pdnv-graph .pdnv-graph-mark")
    tips = [m.find_element(By.TAG_NAME, "title").get_attribute("textContent") for m in marks]
    assert len(tips) == 1 and tips[0].startswith("2. 15-18??: ") and "; best 9-14 " in tips[0]
    # Issue 33: the graph is labelled, the move list shows the verdict and the analysis comment.
    labels = [t.text for t in driver.find_elements(By.CSS_SELECTOR, ".pdnv-graph text")]
    assert "White +4" in labels and "Black +4" in labels
    nag = driver.find_element(By.CSS_SELECTOR, ".pdnv-moves .pdnv-analysis-nag")
    assert nag.text == "??"
    comments = driver.find_elements(By.CSS_SELECTOR, ".pdnv-moves .pdnv-analysis-comment")
    assert comments[0].text.startswith("blunder: ") and "best: 9-14" in comments[0].text
    assert not driver.find_elements(By.CSS_SELECTOR, ".pdnv-graph .pdnv-graph-now")  # the start
    body = driver.find_element(By.TAG_NAME, "body")
    body.click()
    body.send_keys(Keys.ARROW_RIGHT)
    assert driver.find_elements(By.CSS_SELECTOR, ".pdnv-graph .pdnv-graph-now")
    body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    line = driver.find_element(By.CSS_SELECTOR, ".pdnv-analysis").text
    assert "2. 15-18??: " in line and "best 9-14" in line and "blunder" in line
    # A click at the right end goes to the last ply.
    graph = driver.find_element(By.CSS_SELECTOR, ".pdnv-graph svg")
    width = graph.size["width"]
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).move_to_element_with_offset(graph, width // 2 - 2, 0).click().perform()
    current = driver.find_element(By.CSS_SELECTOR, ".pdnv-moves .pdnv-current").text
    assert current == "13x6"
