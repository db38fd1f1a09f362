# ruff: noqa: RUF001, RUF002, RUF003
# (A Latin C beside a Cyrillic С is the point of these tests.)
"""Look-alike names on the HTML report page are marked apart (issue 33, section 5): a browser
shows two spaces as one, and a Latin ``C`` and a Cyrillic ``С`` look the same."""

from __future__ import annotations

import html
import re

from pdn.study.tournament import build_reports, record_from_tags, render_html
from pdn.study.tournament.marks import marked_html

NAMES = ["Wyllie J", "Wyllie  J", "Садовский С", "Cадовский С", "<b>Bold</b>"]


def page() -> str:
    tags = [
        {"Event": "Look", "Round": str(i), "Black": a, "White": b, "Result": "1-0"}
        for i, (a, b) in enumerate(zip(NAMES, NAMES[1:] + NAMES[:1], strict=True), 1)
    ]
    return render_html(build_reports([record_from_tags(t) for t in tags]))


def shown(markup: str) -> str:
    """What a browser shows of a piece of the page: tags dropped, entities read, white space
    collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def test_each_spelling_reads_apart_on_the_page() -> None:
    text = page()
    rows = re.findall(r"<tr><td class=\"num\">\d+=?</td><td>(.*?)</td>", text.split("<h3>")[1])
    assert len(rows) == len(NAMES)
    assert len({shown(row) for row in rows}) == len(NAMES)  # before: two pairs read the same
    assert 'Wyllie<span class="gap" title="2 spaces">␣␣</span>J' in text
    latin_c = '<mark class="script" title="Latin C (U+0043) in a Cyrillic word">C</mark>адовский'
    assert latin_c in text
    assert "&lt;b&gt;Bold&lt;/b&gt;" in text and "<b>Bold" not in text  # still escaped
    assert "Content-Security-Policy" in text and "<script" not in text
    # A note names the two players who look alike, marked the same way.
    notes = text.split('<ul class="notes">', 1)[1].split("</ul>", 1)[0]
    assert latin_c in notes


def test_marks_only_what_the_eye_would_miss() -> None:
    assert marked_html("Wyllie J") == "Wyllie J"
    assert marked_html("Садовский С") == "Садовский С"
    assert marked_html("Nbsp\u00a0Name") == (
        'Nbsp<span class="gap" title="a space (U+00A0)">␣</span>Name'
    )
    assert marked_html(" Lead") == '<span class="gap" title="a space at the start">␣</span>Lead'
    assert marked_html("K\u043ek") == (
        'K<mark class="script" title="Cyrillic \u043e (U+043E) in a Latin word">\u043e</mark>k'
    )
