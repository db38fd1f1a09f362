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

from pdn.engine import MoveLookup, Played, Position, Variant, Written

from .notation import NotationError, parse_move, resolve_squares

#: Distinct texts remembered per variant; far above what real collections write.
_TEXTS = 4096


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
        texts = self._texts
        # Not get() with a sentinel: compiled, a tuple is a value, and `is` would never hold.
        try:
            written = texts[text]
        except KeyError:
            written = self._parse(text)
            if len(texts) >= _TEXTS:
                # Started afresh rather than trimmed: threads (a dask worker's) share this
                # table, and a rebinding cannot race the way two deletions of one key can.
                texts = self._texts = {}
            texts[text] = written
        if written is None:
            return None
        return self.lookup.match(position, written[0], written[1])

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
