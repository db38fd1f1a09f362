"""One position appraised: its value and best moves by pdn's search, and the endgame tables'
verdict (``pdn show --eval``)."""

from __future__ import annotations

from dataclasses import dataclass

from pdn.engine import Position, Probe
from pdn.text.notation import move_texts

from .endgame import Tables, chosen_folder, tables_for, used_prober
from .evaluators import OwnSearch, Place

__all__ = ["Appraisal", "appraise"]


@dataclass(frozen=True, slots=True)
class Appraisal:
    """A position's value for the side to move at ``depth`` plies (hundredths of a man, or a
    forced end: :func:`pdn.study.play.analysis.value_text`), its legal moves valued best first (each
    written in the variant's notation), and the tables' value (``table``; ``None`` when no
    table holds it, ``tables_built`` whether any is built for the variant)."""

    value: int
    moves: tuple[tuple[str, int], ...]
    depth: int
    table: Probe | None
    table_best: tuple[str, ...]
    tables_built: bool


def appraise(position: Position, depth: int, tables: Tables = True) -> Appraisal | None:
    """``position`` searched ``depth`` plies, every legal move valued (as ``pdn analyse``
    values them), with the endgame tables (``tables`` as :data:`pdn.study.play.endgame.Tables`)
    taken by the search and asked for their verdict; ``None`` when there is no legal move."""
    variant = position.variant
    probe = used_prober(variant, tables)
    moves = position.legal_moves(merge_duplicates=True)
    if not moves:
        return None
    search = OwnSearch(prober=probe)
    search.begin(variant)
    valued = search.value_moves(Place(position), moves, depth, None)
    texts = move_texts(moves, variant)
    ranked = sorted(range(len(moves)), key=lambda i: -valued[i].value)
    table = probe(position) if probe is not None else None
    best: tuple[str, ...] = ()
    if table is not None:
        kept = {m for m, _ in tables_for(variant, chosen_folder(tables)).best_moves(position)}
        best = tuple(texts[i] for i, m in enumerate(moves) if m in kept)
    return Appraisal(
        value=valued[ranked[0]].value,
        moves=tuple((texts[i], valued[i].value) for i in ranked),
        depth=depth,
        table=table,
        table_best=best,
        tables_built=probe is not None,
    )
