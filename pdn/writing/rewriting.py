"""Rewriting a replayed game's moves and positions: square names, capture paths, the capture
separator, and the canonical FEN of the normalised form.

Only what replays legally is rewritten. An illegal move has no single meaning (``9999`` is no
square pair on any board; ``2025`` may be a damaged tag line's year), so it keeps the text it
was written with, in every mode, and is counted so that the caller can say so. Every rewriting
writes captures with one separator per variant (:func:`pdn.text.notation.capture_separator`), so the
normalised form, ``--captures`` and ``--squares`` never disagree on it.

>>> import pdn
>>> game = pdn.parse_game("1. 11-15 24-19 2. 15x24 28x19 *")
>>> rewrite_moves(game, squares="algebraic")
0
>>> [node.move for node in game.mainline()]
['f6-e5', 'g3-f4', 'e5xg3', 'h2xf4']
>>> game = pdn.parse_game("1. 11-15 9999 *")
>>> rewrite_moves(game, normalize=True), [node.move for node in game.mainline()]
(1, ['11-15', '9999'])
"""

from __future__ import annotations

import functools

from pdn.engine import move_text
from pdn.game.model import Game
from pdn.game.steps import Step
from pdn.rules.validation import Report, validate
from pdn.text.notation import capture_separator, parse_move

__all__ = ["normalize_positions", "rewrite_moves"]


def rewrite_moves(
    game: Game,
    report: Report | None = None,
    *,
    squares: str | None = None,
    captures: str | None = None,
    separator: str | None = None,
    normalize: bool = False,
) -> int:
    """Rewrite the move texts of every legally replayed move in place; returns how many moves
    needed rewriting but could not be (illegal moves keep their text).

    ``squares``: ``"numeric"`` or ``"algebraic"``; ``captures``: ``"full"`` paths, or
    ``"short"`` (the full path is kept where the short form would be ambiguous); ``separator``:
    ``"x"`` or ``":"`` for captures (default: the variant's). ``None`` keeps each aspect as
    written. ``normalize`` writes every legal move in the PDN 3.0 form (lower case, no inner
    spaces or leading zeros, the variant's separator); it and ``squares`` also write the FEN
    tag and setup commands in canonical form (:func:`normalize_positions`), in the squares
    asked for (else the variant's notation). Nothing is done when nothing is asked.
    """
    if squares is None and captures is None and separator is None and not normalize:
        return 0
    report = validate(game) if report is None else report
    variant = report.variant
    if variant is None:
        return sum(1 for node, _ in game.walk() if node.move is not None)
    if squares is not None and game.variant_source != "gametype" and "GameType" not in game.tags:
        # Without it, a reader would guess the variant from the new squares (algebraic squares
        # suggest Russian) and misread the game.
        game.tags.add("GameType", str(variant.game_type))
    sep = capture_separator(variant, separator)
    # Where men jump forward only, a man's one jump is the only capture between its squares.
    single_hops = variant.men_jump_forward_only
    known = _known_texts(variant.name, squares, captures, sep)
    skipped = 0
    setups: list[Step] = []
    for step in report.steps:
        node = step.node
        text = node.move
        if text is None:
            setups.append(step)
            continue
        move = step.move
        if move is None:  # illegal: it has no single meaning to rewrite
            skipped += 1
            continue
        key = (text, move.path, move.captures, move.king)
        rewritten = known.get(key)
        if rewritten is not None:
            node.move = rewritten
            continue
        algebraic, written_full = _written_form(text)
        if squares is not None:
            algebraic = squares == "algebraic"
        full = captures == "full" or (captures is None and written_full)
        alone = True  # the text follows from the key alone
        if (
            move.captures
            and not full
            and not (single_hops and len(move.path) == 2 and not move.king)
        ):
            # The short form names one capture only when no other legal capture between the
            # same squares takes other pieces (PDN 3.0); else the full path is written.
            rivals = step.before.legal_moves(between=(move.start, move.end))
            full = len({frozenset(m.captures) for m in rivals}) > 1
            alone = False  # it depends on the position too
        rewritten = move_text(move, variant, full=full, algebraic=algebraic, separator=sep)
        if alone and len(known) < _KNOWN:
            known[key] = rewritten
        node.move = rewritten
    if normalize or squares is not None:
        # A FEN names squares too: left numeric beside algebraic moves, a reader has to guess
        # its numbering (pydraughts guesses wrong).
        algebraic = variant.notation == "algebraic" if squares is None else squares == "algebraic"
        _normalize_positions(game, report, setups, algebraic)
    return skipped


#: The rewritten text of a legal move by its written text and what it is (path, captures,
#: whether a king moved), per variant and way of rewriting: a collection writes the same few
#: thousand moves again and again. Only texts that follow from those alone are kept (not a
#: short capture checked against its rivals in the position), a bounded number.
_KNOWN_TEXTS: dict[
    tuple[str, str | None, str | None, str],
    dict[tuple[str, tuple[int, ...], tuple[int, ...], bool], str],
] = {}
_KNOWN = 1 << 16


def _known_texts(
    variant: str, squares: str | None, captures: str | None, separator: str
) -> dict[tuple[str, tuple[int, ...], tuple[int, ...], bool], str]:
    way = (variant, squares, captures, separator)
    known = _KNOWN_TEXTS.get(way)
    if known is None:
        known = _KNOWN_TEXTS[way] = {}
    return known


@functools.lru_cache(maxsize=4096)
def _written_form(text: str) -> tuple[bool, bool]:
    # (algebraic squares, more than two squares) of a move text; an archive writes a few
    # hundred distinct texts millions of times.
    written = parse_move(text)
    return written.algebraic, len(written.squares) > 2


def normalize_positions(game: Game, report: Report, *, algebraic: bool = False) -> None:
    """Write the ``FEN`` tag and the setup commands that were read as positions in canonical
    form (``W:W18,21:B1,K2``: White first, squares ascending, no spaces or trailing dot; with
    ``algebraic`` the squares named as the moves of an algebraic variant are, ``W:Wa1,c1``,
    which leaves no doubt about the numbering); one that could not be read keeps its text."""
    setups = [step for step in report.steps if step.node.move is None]
    _normalize_positions(game, report, setups, algebraic)


def _normalize_positions(game: Game, report: Report, setups: list[Step], algebraic: bool) -> None:
    """:func:`normalize_positions`, the steps of the setup commands given."""
    fen = game.tags.get("FEN")
    if fen is not None and report.start is not None:
        game.tags["FEN"] = report.start.fen(algebraic=algebraic)
    for step in setups:
        if step.node.setup is not None and step.after is not None:
            step.node.setup = step.after.fen(algebraic=algebraic)
