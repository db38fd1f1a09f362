# ruff: noqa: RUF002
# (Cyrillic letters that look like Latin ones are what this module shows.)
"""Names on a report page, their look-alikes made visible.

A browser shows two spaces as one, and a Latin ``C`` beside a Cyrillic ``С`` looks the same:
two spellings that the report counts as two players would read identical on the page. So
every value of the page goes through :func:`marked_html`, which escapes it and marks what the
eye would miss: a run of spaces other than one space between words (shown as ``␣`` signs, with
a title saying how many), any other kind of space, and each letter of a word that mixes Latin
and Cyrillic letters whose script is the word's minority (highlighted, with a title naming
the letter and its script).

>>> marked_html("Wyllie  J")
'Wyllie<span class="gap" title="2 spaces">␣␣</span>J'
>>> marked_html("Cадовский <b>")
'<mark class="script" title="Latin C (U+0043) in a Cyrillic word">C</mark>адовский &lt;b&gt;'
"""

from __future__ import annotations

import re

from pdn.text.names import script_of
from pdn.text.tables import html_text

#: CSS for the marks (the page has no other source of style).
MARKS_CSS = (
    ".gap { color: #b00020; background: #fde7e9; } "
    "mark.script { background: #ffd54f; color: inherit; outline: 1px solid #b07b00; }"
)

# A space the eye cannot count: several in a row, one at an end, or one that is not U+0020.
_ODD_SPACE = re.compile(r"\s{2,}|^\s+|\s+$|[^\S ]")
_WORD = re.compile(r"\w+")


def marked_html(text: str) -> str:
    """``text`` as HTML text (:func:`pdn.text.tables.html_text`), with its odd spaces and the
    odd-script letters of its mixed words marked (see the module)."""
    out: list[str] = []
    at = 0
    for space in _ODD_SPACE.finditer(text):
        out.append(_letters(text[at : space.start()]))
        run = space.group()
        count = len(run)
        what = f"{count} spaces" if count > 1 else "a space"
        if run.strip(" ") or run != " " * count:
            names = sorted({f"U+{ord(ch):04X}" for ch in run})
            what += f" ({', '.join(names)})"
        if space.start() == 0 or space.end() == len(text):
            what += " at the " + ("start" if space.start() == 0 else "end")
        out.append(f'<span class="gap" title="{what}">{"␣" * count}</span>')
        at = space.end()
    out.append(_letters(text[at:]))
    return "".join(out)


def _letters(text: str) -> str:
    """``text`` escaped, each letter of a mixed word's minority script marked."""
    out: list[str] = []
    at = 0
    for word in _WORD.finditer(text):
        letters = [script_of(ch) for ch in word.group()]
        latin, cyrillic = letters.count("Latin"), letters.count("Cyrillic")
        if not (latin and cyrillic):
            continue
        odd, main = ("Latin", "Cyrillic") if latin < cyrillic else ("Cyrillic", "Latin")
        out.append(html_text(text[at : word.start()]))
        for ch, script in zip(word.group(), letters, strict=True):
            if script == odd:
                title = f"{odd} {ch} (U+{ord(ch):04X}) in a {main} word"
                out.append(
                    f'<mark class="script" title="{html_text(title)}">{html_text(ch)}</mark>'
                )
            else:
                out.append(html_text(ch))
        at = word.end()
    out.append(html_text(text[at:]))
    return "".join(out)
