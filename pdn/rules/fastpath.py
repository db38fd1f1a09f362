"""The replay's fast path on the PDN side: each distinct move text parsed once per run.

A collection has a few hundred distinct move texts (``11-15``, ``23x14``...) written millions of
times; :class:`FastPath` turns each into squares once, then asks the engine's
:class:`~pdn.engine.lookup.MoveLookup` for the legal move. ``None`` from :meth:`FastPath.match`
means "not the common case": the caller runs the full diagnosis, which gives the verdict (the
fast path never decides that a move is illegal, so verdicts cannot differ).

The openings of an archive repeat: a third of OCA 2.0's plies are in a line from the start
played before, move for move. :class:`FastPath` keeps the tree of the first plies of those
lines (bounded in depth and size: it answers 16%), so that a line it holds is followed from the
start without a match.

>>> from pdn.engine import ENGLISH, Position
>>> move, after = fast_path(ENGLISH).match(Position.start(ENGLISH), "11-15")
>>> move.notation(), after.fen()[:2]
('11-15', 'W:')
"""

from __future__ import annotations

from collections.abc import Sequence

from pdn.engine import MoveLookup, Played, Position, Variant, Written
from pdn.text.notation import NotationError, parse_move, resolve_squares

#: Distinct texts remembered per variant; far above what real collections write.
_TEXTS = 4096
#: Moves parsed ahead of the lookup at a time (see :meth:`FastPath.play`).
_CHUNK = 32
#: The opening tree: plies from the start it holds, and positions (measured on OCA 2.0: 12
#: plies and 8,192 positions answer 16% of its plies, in at most 4 MB; twice the positions
#: answer 18%, in twice the memory).
_TREE_PLIES = 12
_TREE_SIZE = 8192


class _Opening:
    """A position of the opening tree: how many plies from the start, and each written move
    played from it so far, with what it gave."""

    __slots__ = ("after", "ply", "position")

    def __init__(self, position: Position, ply: int) -> None:
        self.position = position  # held here, so that its id() is not reused meanwhile
        self.ply = ply
        self.after: dict[str, Played] | None = None  # most are leaves: no dict for them


class FastPath:
    """Move texts to legal moves for one variant: parsed once, matched through tables."""

    __slots__ = ("_texts", "_tree", "lookup", "variant")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.lookup = MoveLookup(variant)
        # Each text seen, parsed; None: parsed, and not for the fast path.
        self._texts: dict[str, Written | None] = {}
        # The opening tree, by the id() of each position it holds (positions compare by
        # content, which costs a hash of the whole position; the tree's are the same objects
        # from game to game).
        self._tree: dict[int, _Opening] = {}
        self._plant()

    def _plant(self) -> None:
        start = Position.start(self.variant)
        # Started afresh when full rather than trimmed, as the texts are (threads share it).
        self._tree = {id(start): _Opening(start, 0)}

    def match(self, position: Position, text: str) -> Played | None:
        """The legal move ``text`` names in ``position`` and the position after it, or
        ``None`` when the full diagnosis must decide (illegal, a remark, odd notation)."""
        played = self.play(position, (text,))
        return played[0] if played else None

    def play(self, position: Position, texts: Sequence[str], start: int = 0) -> list[Played]:
        """:meth:`match` for ``texts[start:]`` in a row, from ``position``: the moves played
        and the positions after them, until one the full diagnosis must decide (all, or
        fewer).

        >>> from pdn.engine import ENGLISH, Position
        >>> [move.notation() for move, _ in fast_path(ENGLISH).play(
        ...     Position.start(ENGLISH), ["11-15", "23-19", "15-19"])]
        ['11-15', '23-19']
        """
        played: list[Played] = []
        count = len(texts)
        tree = self._tree
        opening = tree.get(id(position))
        while opening is not None and opening.after is not None and start < count:
            known = opening.after.get(texts[start])
            if known is None:
                break
            played.append(known)
            position = known[1]
            start += 1
            opening = tree.get(id(position))
        first, begin = len(played), start
        table = self._texts
        lookup = self.lookup
        # In chunks: a line whose moves keep stopping the lookup parses only a chunk ahead
        # each time, so its cost stays linear in its length.
        while start < count:
            end = min(count, start + _CHUNK)
            written: list[Written | None] = []
            for at in range(start, end):
                text = texts[at]
                # Not get() with a sentinel: compiled, a tuple is a value, and `is` would
                # never hold.
                try:
                    parsed = table[text]
                except KeyError:
                    parsed = self._parse(text)
                    if len(table) >= _TEXTS:
                        # Started afresh rather than trimmed: threads (a dask worker's) share
                        # this table, and a rebinding cannot race the way two deletions of one
                        # key can.
                        table = self._texts = {}
                    table[text] = parsed
                if parsed is None:
                    break  # the lookup stops here
                written.append(parsed)
            more = lookup.play(position, written)
            if not more:
                break
            played.extend(more)
            if len(more) < end - start:
                break
            position = more[-1][1]
            start = end
        if opening is not None and len(played) > first:
            self._grow(opening, texts, begin, played[first:])
        return played

    def _grow(
        self, opening: _Opening, texts: Sequence[str], begin: int, played: list[Played]
    ) -> None:
        # The tree takes the plies played from ``opening`` (``texts[begin:]``), within its
        # bounds; a position it holds already (the lookup's table shares them) is kept as is.
        tree = self._tree
        for offset, known in enumerate(played):
            if opening.ply >= _TREE_PLIES:
                return
            if len(tree) >= _TREE_SIZE:
                self._plant()
                return
            if opening.after is None:
                opening.after = {}
            opening.after[texts[begin + offset]] = known
            after = known[1]
            held = tree.get(id(after))
            if held is None:
                held = tree[id(after)] = _Opening(after, opening.ply + 1)
            opening = held

    def _parse(self, text: str) -> Written | None:
        try:
            parsed = parse_move(text)
            return resolve_squares(parsed, self.variant), parsed.capture_written
        except NotationError:
            return None  # the full path reports it


_BY_VARIANT: dict[str, FastPath] = {}


def fast_path(variant: Variant) -> FastPath:
    """The process's :class:`FastPath` for ``variant`` (one per variant, shared by games)."""
    found = _BY_VARIANT.get(variant.name)
    if found is None or found.variant is not variant:
        found = _BY_VARIANT[variant.name] = FastPath(variant)
    return found
