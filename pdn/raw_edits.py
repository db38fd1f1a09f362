"""Edits to a game's text as read (a :class:`~pdn.cutting.RawGame`'s): cut at its first error
with the rest kept in comments (:func:`cut_at_error`), or with a ``{select: ...}`` comment
where the conditions on positions were met (:func:`marked_raw`; :func:`marked_game` for a game
that has no text as read). Every other character stays as it was read.
"""

from __future__ import annotations

import re

from .cutting import RawGame
from .model import Game
from .validation import Report, validate


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

    from .model import Comment

    marked = copy.deepcopy(game)
    nodes = [marked.root, *marked.mainline()]
    for ply, options in marks.items():
        if ply < len(nodes):
            nodes[ply].comments_after.append(Comment(_mark_text(options)))
    return marked
