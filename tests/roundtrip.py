"""Shared helpers of the round-trip contract tests (corpus sample and properties).

The contract: reading then writing keeps every tag, comment, variation, NAG and move as written;
the normalised writer changes exactly what :mod:`pdn.writing.writer` documents and nothing else;
JSON
keeps everything.  Each check compares with the *source* model (or with the source model after
the documented normalisation, computed here from the source), never with a copy the library
re-normalised itself, so a change the writer makes and also undoes on reading cannot hide.

pytest puts this folder on ``sys.path`` (the default "prepend" import mode, no ``__init__.py``
in ``tests/``), so the tests import it as ``from roundtrip import ...``.
"""

from __future__ import annotations

import json

from pdn import Game, GameBuilder, Node, Tags, parse_game, validate, write_game
from pdn.engine import board_for
from pdn.game.gametype import first_mover, game_type_of
from pdn.writing.jsonio import game_from_dict, game_to_dict
from pdn.writing.writer import canonical_move

# The seven standard tags in the order the normalised writer puts them first (PDN 3.0 / PGN's
# "seven tag roster"); written out here rather than imported, so the test states the rule.
SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

# Every result string of both PDN families (plus "*" and "0-0"): the normalised writer writes the
# Result tag as the terminator only when it is one of these.
RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"})


def copy_game(game: Game) -> Game:
    """A deep copy of the compared content (tags, tree, terminator) and of the variant."""
    return Game(
        tags=Tags(game.tags.items()),
        root=game.root.copy(),
        terminator=game.terminator,
        variant=game.variant,
    )


def _first_mover(game: Game) -> str:
    # The writer decides the first mover from the GameType tag, else the game's variant.
    return first_mover(game.variant, game_type_of(game.tags.get("GameType")))


def _follows_directly(node: Node) -> bool:
    """Whether ``node`` is written right after the previous move of its line, with nothing
    between them but that move's strength and NAGs (no comment, no variation, no "(")."""
    parent = node.parent
    if parent is None or parent.parent is None or parent.move is None:
        return False  # the first move of the game, or right after a setup command
    if parent.variations[0] is not node:
        return False  # an alternative: written after "("
    if parent.comments_after or node.comments_before:
        return False
    grand = parent.parent
    # When the parent is the main continuation of its own parent, the alternatives to it are
    # written between it and this node.
    return not (grand.variations[0] is parent and len(grand.variations) > 1)


def normalised(game: Game) -> Game:
    """The source model changed exactly as :func:`pdn.writing.writer.write_game` documents for
    ``normalize=True``, and nothing else:

    * the seven standard tags first, in the standard order (duplicates kept in their order),
      then the other tags as written;
    * move numbers regenerated: ``N.`` before each move of the first mover, ``N...`` before the
      other side's move unless it directly follows its pair; a setup command gets no number
      (unless comments stand before it) and passes the turn to its FEN's side (the number goes
      on from there);
    * each move that replays legally (:func:`pdn.validate`) in
    :func:`~pdn.writing.writer.canonical_move`
      form with the variant's capture separator (``x``, ``:`` for Russian), a path of three or
      more squares as the full path of the move played; every other move exactly as written;
    * the FEN tag and each setup command that was read as a position in canonical form (the
      engine's FEN of that position, algebraic squares for an algebraic variant);
    * the terminator always written: the terminator, else the ``Result`` tag when it is a
      result, else ``*``.
    """
    out = copy_game(game)
    report = validate(game)
    steps = {id(step.node): step for step in report.steps}
    variant = report.variant
    for (node, _), (copied, _) in zip(game.walk(), out.walk(), strict=True):
        step = steps.get(id(node))
        if step is None or variant is None:
            continue
        if node.setup is not None and step.after is not None:
            copied.setup = step.after.fen(algebraic=variant.notation == "algebraic")
        if node.move is None or step.move is None:
            continue
        text = canonical_move(node.move)
        if "x" in text:
            if text.count("x") > 1:  # the written path, as the path played
                board = board_for(variant)
                algebraic = text[0].isalpha()
                names = [board.algebraic(sq) if algebraic else str(sq) for sq in step.move.path]
                text = "x".join(names)
            text = text.replace("x", variant.capture_separator)
        copied.move = text
    if report.start is not None and variant is not None and "FEN" in out.tags:
        out.tags["FEN"] = report.start.fen(algebraic=variant.notation == "algebraic")
    pairs = out.tags.items()
    standard = [pair for name in SEVEN_TAGS for pair in pairs if pair[0] == name]
    others = [pair for pair in pairs if pair[0] not in SEVEN_TAGS]
    out.tags = Tags(standard + others)

    first = _first_mover(game)
    second = "B" if first == "W" else "W"
    fen = (game.tags.get("FEN") or "").strip()[:1].upper()
    start = (1, fen if fen in ("W", "B") else first)
    # Iterative walk: each child starts from the state after its parent (an alternative starts
    # where the move it replaces starts).  State = (move number, side to move).
    stack: list[tuple[Node, tuple[int, str]]] = [
        (child, start) for child in reversed(out.root.variations)
    ]
    while stack:
        node, (number, side) = stack.pop()
        if node.move is None:
            node.number = None
            if node._before:  # only a number keeps comments before the command
                node.number = f"{number}." if side == first else f"{number}..."
            wanted = (node.setup or "").strip()[:1].upper()
            if wanted in ("W", "B") and wanted != side:
                if wanted == first:  # the second mover's turn is skipped: the number goes on
                    number += 1
                side = wanted
            after = (number, side)
        else:
            if side == first:
                node.number = f"{number}."
            else:
                node.number = None if _follows_directly(node) else f"{number}..."
            after = (number, second) if side == first else (number + 1, first)
        stack.extend((child, after) for child in reversed(node.variations))

    if out.terminator is None:
        result = (game.tags.get("Result") or "").strip()
        out.terminator = result if result in RESULTS else "*"
    return out


# The three round trips -------------------------------------------------------------------------


def faithful_again(game: Game) -> tuple[str, Game]:
    """The faithful text of ``game`` and the game read back from it."""
    text = write_game(game)
    return text, parse_game(text)


def normalised_again(game: Game) -> tuple[str, Game]:
    """The normalised text of ``game`` and the game read back from it.

    The game is read back under the variant it was read under: a game alone does not carry
    the evidence of the other games of its file (``pdn.game.detection``), which decides the move
    numbers of a game without a GameType tag in a 10x10 file."""
    text = write_game(game, normalize=True)
    again = parse_game(text)
    if game.variant_source == "file":
        again.variant, again.variant_source = game.variant, game.variant_source
    return text, again


def json_again(game: Game) -> Game:
    """``game`` through JSON text and back."""
    return game_from_dict(json.loads(json.dumps(game_to_dict(game))))


def replayed(game: Game) -> Game:
    """``game`` replayed through the visitor events into a new model."""
    return game.accept(GameBuilder())


# Describing a difference -----------------------------------------------------------------------


def _node_fields(node: Node) -> dict[str, object]:
    return {
        "move": node.move,
        "setup": node.setup,
        "number": node.number,
        "strength": node.strength,
        "nags": list(node.nags),
        "comments_before": [(c.kind, c.text) for c in node.comments_before],
        "comments_after": [(c.kind, c.text) for c in node.comments_after],
        "children": len(node.variations),
    }


def difference(expected: Game, got: Game) -> str:
    """Where two games first differ, in words (for assertion messages); "" if they are equal."""
    if expected.tags != got.tags:
        return f"tags: expected {expected.tags.items()!r}, got {got.tags.items()!r}"
    if expected.terminator != got.terminator:
        return f"terminator: expected {expected.terminator!r}, got {got.terminator!r}"
    stack: list[tuple[Node, Node, str]] = [(expected.root, got.root, "root")]
    while stack:
        a, b, where = stack.pop()
        fa, fb = _node_fields(a), _node_fields(b)
        if fa != fb:
            fields = {k: (fa[k], fb[k]) for k in fa if fa[k] != fb[k]}
            return f"at {where} ({a.move or a.setup!r}): expected/got {fields!r}"
        for i in reversed(range(len(a.variations))):
            stack.append((a.variations[i], b.variations[i], f"{where}.{i}"))
    return ""
