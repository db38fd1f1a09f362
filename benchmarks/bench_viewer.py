"""The viewer page on big files: how long ``pdn view`` takes, how large the page is, and how long
a headless chromium takes to open it, filter the list and open a game.

Run from the repository root (needs chromium, chromium-driver and selenium, see
tests/test_viewer_browser.py)::

    python benchmarks/bench_viewer.py                  # OCA 2.0 and the WK 2007 (10x10) file
    python benchmarks/bench_viewer.py FILE... --jobs 2

Load time is chromium's own navigation timing (``loadEventEnd``: the HTML parsed, the list
drawn and the first game opened, since the viewer starts in the page's last script).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _support import CORPUS, OCA

from pdn.view.viewer import view_files

DEFAULT = [
    OCA,
    CORPUS / "bas080__dammen/t/all.pdn",
]
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

_TIMING = """
const n = performance.getEntriesByType('navigation')[0];
return [n.domContentLoadedEventEnd, n.loadEventEnd];
"""
_ACTIONS = """
const root = document.querySelector('.pdn-viewer');
const v = root.pdnViewer;
let t = performance.now();
v.filter(arguments[0]);
const filtered = performance.now() - t;
const shown = v.filtered.length;
v.filter('');
t = performance.now();
v.open(v.meta.rows.length - 1);
const last = performance.now() - t;
t = performance.now();
v.toEnd();
const end = performance.now() - t;
return [filtered, shown, last, end, v.meta.rows.length];
"""


def main() -> None:
    """Build and time the page for each file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--filter", default="Tinsley", help="Words typed into the filter box.")
    args = parser.parse_args()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    folder = Path(tempfile.mkdtemp(prefix="bench-viewer-"))
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={folder / 'profile'}")
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        for path in args.files:
            if not path.exists():
                print(f"{path}: missing, skipped")
                continue
            page = folder / (path.stem + ".html")
            start = time.perf_counter()
            with page.open("w", encoding="utf-8") as out:
                games = view_files([str(path)], out, jobs=args.jobs, title=path.name)
            built = time.perf_counter() - start
            size = page.stat().st_size
            start = time.perf_counter()
            browser.get(page.as_uri())
            wall = time.perf_counter() - start
            ready, loaded = browser.execute_script(_TIMING)
            filtered, shown, last, end, rows = browser.execute_script(_ACTIONS, args.filter)
            print(
                f"{path.name}: {games} games, {path.stat().st_size / 1e6:.1f} MB of PDN -> "
                f"page {size / 1e6:.1f} MB built in {built:.1f} s (--jobs {args.jobs}); "
                f"chromium: DOMContentLoaded {ready / 1000:.2f} s, load {loaded / 1000:.2f} s "
                f"(driver.get {wall:.2f} s); filter {args.filter!r} {filtered:.0f} ms "
                f"({shown} of {rows}); open the last game {last:.0f} ms, its end {end:.0f} ms"
            )
    finally:
        browser.quit()


if __name__ == "__main__":
    main()
