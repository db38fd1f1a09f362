"""Edits to a game's text as read (a :class:`~pdn.reading.cutting.RawGame`'s): cut at its first
error
with the rest kept in comments (:func:`cut_at_error`), with a ``{select: ...}`` comment
where the conditions on positions were met (:func:`marked_raw`; :func:`marked_game` for a game
that has no text as read), or with tag values and the terminator changed on their own lines
(:func:`retagged_raw`). Every other character stays as it was read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pdn.game.model import Game
from pdn.reading.cutting import RawGame
from pdn.reading.grammar import TAG_PARTS
from pdn.rules.validation import Report, validate


def cut_at_error(raw: RawGame, game: Game, report: Report | None = None) -> str | None:
    """The game's text up to its first mainline error (an illegal move or a reading error
    in the movetext), the rest kept word for word in ``;`` comment lines, then the game's
    terminator; ``None`` when the mainline has no error in the movetext. ``report`` is the
    game's replay (validated here when not given).

    Line comments are used because the rest may hold ``}``, which would end a ``{`` comment.
    """
    if report is None:
        report = validate(game)
    places = [
        (p.line, p.column, p.code, p.message)
        for p in [*game.errors, *report.problems]
        if p.severity == "error" and not p.variation and p.line is not None
    ]
    if not places:
        return None
    line, column, code, message = min(places, key=lambda place: (place[0], place[1] or 1))
    at = _offset(raw, line, column or 1)
    body = raw.body_at if raw.body_at >= 0 else len(raw.text)
    if at is None or at < body:
        return None
    # The move number written before the move goes with it, into the comment.
    number = _MOVE_NUMBER.search(raw.text, body, at)
    cut = number.start() if number is not None else at
    head = raw.text[:cut].rstrip()
    rest = raw.text[cut:].rstrip("\n").split("\n")
    notes = [f"; pdn: cut at {line}:{column or 1}, {code}: {' '.join(message.split())}"]
    notes += [f"; {part}" if part else ";" for part in rest]
    return "\n".join([head, *notes, game.terminator or "*"]) + "\n"


_MOVE_NUMBER = re.compile(r"[0-9]+\s*\.+\s*$")


def _offset(raw: RawGame, line: int, column: int) -> int | None:
    """Where an absolute (line, column) falls in ``raw.text``."""
    if line < raw.line:
        return None
    at = 0
    for _ in range(line - raw.line):
        at = raw.text.find("\n", at) + 1
        if at == 0:
            return None
    at += column - (raw.column if line == raw.line else 1)
    return at if 0 <= at <= len(raw.text) else None


def _mark_text(options: list[str]) -> str:
    return "select: " + ", ".join(options)


def marked_raw(raw: RawGame, game: Game, marks: dict[int, list[str]]) -> str | None:
    """The text as read with a ``{select: ...}`` comment after each marked move (before the
    first move for the start position); ``None`` when a place cannot be found in the text."""
    nodes = [None, *game.mainline()]
    places: list[tuple[int, str]] = []
    for ply, options in marks.items():
        comment = "{" + _mark_text(options) + "}"
        node = nodes[ply] if ply < len(nodes) else None
        if ply == 0:
            if raw.body_at < 0:
                return None
            places.append((raw.body_at, comment + " "))
            continue
        if node is None or node.line is None or node.column is None:
            return None
        at = _offset(raw, node.line, node.column)
        written = node.move if node.move is not None else None
        if at is None or written is None or not raw.text.startswith(written, at):
            return None  # a setup command, or a move written unlike its text
        at += len(written)
        if node.strength and raw.text.startswith(node.strength, at):
            at += len(node.strength)  # the mark stays glued to its move
        places.append((at, " " + comment))
    text = raw.text
    for at, insert in sorted(places, reverse=True):
        text = text[:at] + insert + text[at:]
    return text


def marked_game(game: Game, marks: dict[int, list[str]]) -> Game:
    """A copy of ``game`` with a comment after each marked mainline node."""
    import copy

    from pdn.game.model import Comment

    marked = copy.deepcopy(game)
    nodes = [marked.root, *marked.mainline()]
    for ply, options in marks.items():
        if ply < len(nodes):
            nodes[ply].comments_after.append(Comment(_mark_text(options)))
    return marked


def retagged_raw(
    raw: RawGame,
    tags: Sequence[tuple[str, str | None, str]],
    terminator: tuple[str | None, str] | None = None,
) -> str | None:
    """``raw.text`` with each tag change ``(name, old value or None to add, new value)`` made
    in its tag pair alone (a value between straight quotes keeps the pair's spacing; an added
    pair goes on a line of its own after the last one), and ``terminator`` ``(old or None,
    new)`` set after the moves; every other character as read. ``None`` when a change has no
    single place in the text, or when the text would not read back as one game with exactly
    the new tags and terminator (the caller then writes the game anew).

    >>> text = '[Date  "2019-05-03" ]\\n{[Date "x"]}\\n1. 11-15 *\\n'
    >>> raw = RawGame(text, 0, 1, 1, "result", body_at=text.index("{"))
    >>> print(retagged_raw(raw, [("Date", "2019-05-03", "2019.05.03")], ("*", "1-0")), end="")
    [Date  "2019.05.03" ]
    {[Date "x"]}
    1. 11-15 1-0
    """
    from pdn.reading.reader import parse_games
    from pdn.writing.writer import tag_line

    text = raw.text
    head = raw.body_at if raw.body_at >= 0 else len(text)
    pairs = list(TAG_PARTS.finditer(text, 0, head))
    edits: list[tuple[int, int, str]] = []  # (start, end, new text), in no order
    expected = [(pair.group(1).strip(), _value(pair)) for pair in pairs]
    for name, old, new in tags:
        found = [at for at, (key, _) in enumerate(expected) if key == name]
        if old is None:
            if found:
                return None
            end = pairs[-1].end() if pairs else 0
            line_end = text.find("\n", end)
            if pairs and text[end : line_end if line_end >= 0 else len(text)].strip():
                edits.append((end, end, " " + tag_line(name, new).rstrip("\n")))
            elif pairs:
                at = line_end + 1 if line_end >= 0 else len(text)
                edits.append((at, at, ("" if line_end >= 0 else "\n") + tag_line(name, new)))
            else:
                edits.append((0, 0, tag_line(name, new)))
            expected.append((name, new))
            continue
        if len(found) != 1 or expected[found[0]][1] != old:
            return None
        pair = pairs[found[0]]
        line = tag_line(name, new).rstrip("\n")
        if pair.group(2) is not None:
            edits.append((pair.start(2), pair.end(2), line[len(name) + 3 : -2]))
        else:
            edits.append((pair.start(), pair.end(), line))
        expected[found[0]] = (name, new)
    if terminator is not None:
        old_end, new_end = terminator
        body = text.rstrip()
        if old_end is not None:
            if not body.endswith(old_end) or len(body) - len(old_end) < head:
                return None
            edits.append((len(body) - len(old_end), len(body), new_end))
        else:
            last = body[body.rfind("\n") + 1 :]
            glue = "\n" if ";" in last or last.startswith("%") else " "
            edits.append((len(body), len(body), glue + new_end))
    for start, end, new in sorted(edits, key=lambda edit: edit[0], reverse=True):
        text = text[:start] + new + text[end:]
    read = list(parse_games(text))
    if len(read) != 1 or read[0].tags.items() != expected:
        return None
    if terminator is not None and read[0].terminator != terminator[1]:
        return None
    return text


def _value(pair: re.Match[str]) -> str:
    """The value of a tag pair as the reader reads it."""
    value, curly = pair.group(2, 3)
    if curly is not None:
        return curly
    return _UNESCAPE.sub(r"\1", value) if "\\" in value else value


# What the reader unescapes in a value between straight quotes.
_UNESCAPE = re.compile(r'\\(["\\])')
