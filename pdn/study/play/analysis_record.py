"""The analysis written into a game's record, and taken out again.

:func:`annotate_with_analysis` writes what :func:`pdn.study.play.analysis.analyse_game` found into a
copy
of the game (``pdn analyse``'s PDN output); :func:`forget_analysis` takes out what an earlier
run wrote, so that an analysed record analysed again carries one analysis; :func:`ply_note` is
the comment at one move (the viewer shows it too).
"""

from __future__ import annotations

import copy
import re

from pdn.game.model import Comment, Game, Node

from .analysis import _JUDGED, NAGS, GameAnalysis, PlyAnalysis, value_text
from .judgement import TABLE_VERDICTS

__all__ = ["annotate_with_analysis", "forget_analysis", "ply_note"]


def annotate_with_analysis(game: Game, analysis: GameAnalysis) -> Game:
    """A copy of ``game`` with its analysis written in: at each blunder or mistake its NAG
    (unless the move is judged already), a comment with the verdicts, the value of the move,
    the best move and its value (``{blunder: -1.10; best: 15x24 +0.20}``), and the engine's
    line as a variation; a comment at each only move; an ``Annotator`` tag (when the game has none)
    and a summary comment before the first move; the endgame tables' verdicts with their
    values, and a result they contradict at the last move. Everything of ``game`` is kept; a game
    that could not be replayed (no rules for it) is copied as it is."""
    copied = copy.deepcopy(game)
    if analysis.variant is None:
        return copied
    nodes = [node for node, _ in copied.walk()]
    placed: list[tuple[PlyAnalysis, Node]] = []
    for ply in analysis.plies:
        if ply.order >= len(nodes) or nodes[ply.order].move != ply.played:
            raise ValueError("the analysis is of another game")
        placed.append((ply, nodes[ply.order]))
    forget_analysis(copied)  # the nodes found above stay: only pdn's own lines go
    for ply, node in placed:
        note = ply_note(ply)
        if note is None:
            continue
        nag = ply.nag
        if nag is not None and node.strength is None and not _JUDGED & set(node.nags):
            node.nags.append(nag)
        node.comments_after.append(Comment(note))
        if ply.nag is not None or "missed shot" in ply.verdicts:
            _add_line(node, ply)
    if analysis.contradiction:
        mainline = list(copied.root.mainline())
        last = mainline[-1] if mainline else copied.root
        last.comments_after.append(Comment(analysis.contradiction))
    level = analysis.annotator
    if "Annotator" not in copied.tags:
        copied.tags.add("Annotator", level)
    copied.root.comments_after.append(Comment(f"{level}: {analysis.summary().text()}"))
    return copied


# What annotate_with_analysis writes, read back: a value, the search's level, each note.
_VALUE = r"(?:[+-]\d+\.\d\d|0\.00|win in \d+|loss in \d+|draw)"
_LEVEL = r"pdn analyse, (?:[^,{}]*, )?(?:depth \d+|\d+(?:\.\d+)?(?:e[+-]?\d+)? s a move)"
_VERDICT = rf"(?:blunder|mistake|missed shot|{'|'.join(TABLE_VERDICTS)})"
_TABLES_SAY = " (endgame tables)"
_JUDGED_NOTE = re.compile(
    rf"({_VERDICT}(?:, {_VERDICT})*): {_VALUE}; best: (\S+) {_VALUE}(?:{re.escape(_TABLES_SAY)})?"
)
_CONTRADICTION_NOTE = re.compile(r"the result \S+ contradicts the tables: .*", re.DOTALL)
_ONLY_NOTE = re.compile(rf"only move: {_VALUE}")
_SUMMARY_NOTE = re.compile(rf"{_LEVEL}: (?:Black|White) .*", re.DOTALL)
_ANNOTATOR = re.compile(_LEVEL)


def forget_analysis(game: Game) -> None:
    """Take out of ``game`` (in place) what an earlier :func:`annotate_with_analysis` wrote:
    its comments, the NAG it gave a move its comment judges, the engine's line it added after
    that move, the summary, and an ``Annotator`` tag that names only pdn's analysis. So an
    analysed record analysed again carries one analysis, the new one. Everything else stays:
    the user's own comments, NAGs, variations and tags.

    A comment counts as pdn's only when it is exactly what pdn writes (spaces and line breaks
    aside: a long comment may have been wrapped); a line counts as the engine's only when it
    follows such a comment, starts with the best move the comment names and holds nothing but
    moves.

    >>> import pdn
    >>> game = pdn.parse_game('[Annotator "pdn analyse, depth 4"] {mine} '
    ...     '{pdn analyse, depth 4: Black 0 blunders} 1. 11-15 $2 {mistake: -0.50; best: 9-13 '
    ...     '+0.10} {kept} (1. 9-13 22-18) (1. 10-14) *')
    >>> forget_analysis(game)
    >>> print(pdn.write_game(game).strip())
    {mine} 1. 11-15 {kept} (1. 10-14) *
    """
    if _ANNOTATOR.fullmatch(game.tags.get("Annotator") or ""):
        del game.tags["Annotator"]
    root = game.root
    if root._after:
        root.comments_after = [
            c
            for c in root._after
            if not _SUMMARY_NOTE.fullmatch(_flat(c)) and not _CONTRADICTION_NOTE.fullmatch(_flat(c))
        ]
    for node in root.mainline():
        if node._after:
            _forget_notes(node)


def _flat(comment: Comment) -> str:
    return " ".join(comment.text.split())


def _forget_notes(node: Node) -> None:
    kept: list[Comment] = []
    for comment in node.comments_after:
        text = _flat(comment)
        judged = _JUDGED_NOTE.fullmatch(text)
        if judged is None:
            if not _ONLY_NOTE.fullmatch(text) and not _CONTRADICTION_NOTE.fullmatch(text):
                kept.append(comment)
            continue
        verdicts = judged.group(1).split(", ")
        nag = next((NAGS[v] for v in verdicts if v in NAGS), None)
        if nag is not None and nag in node.nags:
            node.nags.remove(nag)
        if nag is not None:  # a line was added only for a blunder or a mistake
            _forget_line(node, judged.group(2))
    node.comments_after = kept


def _forget_line(node: Node, best: str) -> None:
    parent = node.parent
    assert parent is not None
    for index in range(len(parent.variations) - 1, 0, -1):
        line = parent.variations[index]
        if line.move == best and all(_bare(n) for n in (line, *line.mainline())):
            del parent.variations[index]
            return


def _bare(node: Node) -> bool:
    """Whether a node is a plain move as the engine's line writes it."""
    return (
        node.move is not None
        and len(node.variations) <= 1
        and not node._nags
        and not node._before
        and not node._after
        and node.strength is None
    )


def ply_note(ply: PlyAnalysis) -> str | None:
    """The comment the analysis writes at a move it judges (``None`` where it says nothing):
    the verdicts, the value of the move, the best move and its value, or that it was the only
    move.

    >>> found = PlyAnalysis(3, 2, "2.", "Black", "15-18", "9-14", ("9-14",), 20, -254, 9, 4,
    ...     "B:", ("blunder",))
    >>> ply_note(found)
    'blunder: -2.54; best: 9-14 +0.20'
    """
    judged = [v for v in ply.verdicts if v not in ("only move", "unclear")]
    if judged and ply.table is not None:  # the tables' values: exact, with their distance
        table = ply.table
        said = f"{', '.join(judged)}: {table['after']}; best: {table['best']}"
        return f"{said} {table['best_value']}{_TABLES_SAY}"
    if judged:
        said = f"{', '.join(judged)}: {value_text(ply.after)}"
        return f"{said}; best: {ply.best} {value_text(ply.before)}"
    if "only move" in ply.verdicts:
        return f"only move: {value_text(ply.after)}"
    return None


def _add_line(node: Node, ply: PlyAnalysis) -> None:
    """The engine's line, an alternative to ``node``, its move numbers written as the
    game's first mover counts them."""
    parent = node.parent
    assert parent is not None
    line = ply.line
    if ply.table is not None and ply.table["best"] != ply.best:
        line = (ply.table["best"],)  # the move the note names, as the note names it
    full, _, mark = ply.number.partition(".")
    number = int(full)
    first_moves = not mark  # the first mover plays the line's first move
    at = parent
    for index, text in enumerate(line):
        by_first = first_moves == (index % 2 == 0)
        if by_first:
            written = f"{number}."
        elif index == 0:
            written = f"{number}..."
        else:
            written = None
        at = at.add_variation(text, number=written)
        if not by_first:
            number += 1
