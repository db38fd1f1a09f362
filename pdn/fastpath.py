"""The replay's fast path on the PDN side: each distinct move text parsed once per run.

A collection has a few hundred distinct move texts (``11-15``, ``23x14``...) written millions of
times; :class:`FastPath` turns each into squares once, then asks the engine's
:class:`~pdn.engine.lookup.MoveLookup` for the legal move. ``None`` from :meth:`FastPath.match`
means "not the common case": the caller runs the full diagnosis, which gives the verdict (the
fast path never decides that a move is illegal, so verdicts cannot differ).

>>> from pdn.engine import ENGLISH, Position
>>> move, after = fast_path(ENGLISH).match(Position.start(ENGLISH), "11-15")
>>> move.notation(), after.fen()[:2]
('11-15', 'W:')
"""

from __future__ import annotations

from collections.abc import Sequence

from pdn.engine import MoveLookup, Played, Position, Variant, Written

from .notation import NotationError, parse_move, resolve_squares

#: Distinct texts remembered per variant; far above what real collections write.
_TEXTS = 4096
#: Moves parsed ahead of the lookup at a time (see :meth:`FastPath.play`).
_CHUNK = 32


class FastPath:
    """Move texts to legal moves for one variant: parsed once, matched through tables."""

    __slots__ = ("_texts", "lookup", "variant")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.lookup = MoveLookup(variant)
        # Each text seen, parsed; None: parsed, and not for the fast path.
        self._texts: dict[str, Written | None] = {}

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
        table = self._texts
        lookup = self.lookup
        played: list[Played] = []
        count = len(texts)
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
            if played:
                played.extend(more)
            else:
                played = more
            if len(more) < end - start:
                break
            position = more[-1][1]
            start = end
        return played

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
