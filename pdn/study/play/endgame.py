"""pdn's endgame tables in the user's data folder: where they go, and probing them.

The tables are built and read by the engine (:mod:`pdn_engine.endgame`, through
``pdn.engine``); this module knows the folder (``$XDG_DATA_HOME/pdn/endgame``, else
``~/.local/share/pdn/endgame``) and keeps the tables read once per process, so that a search
or an analysis can ask :func:`probe` of every position it meets.
"""

from __future__ import annotations

import os
from pathlib import Path

from pdn.engine import EndgameTables, Position, Probe, Prober, Variant

__all__ = ["Tables", "chosen_folder", "data_folder", "probe", "prober", "tables_for", "used_prober"]

#: Which endgame tables a search, an analysis or a match uses: ``True`` the data folder's,
#: ``False`` none, or a folder.
Tables = bool | str | os.PathLike[str]

_OPEN: dict[tuple[str, str], EndgameTables] = {}


def data_folder() -> Path:
    """The folder the tables are built into and read from by default."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "pdn" / "endgame"


def tables_for(variant: Variant, directory: str | os.PathLike[str] | None = None) -> EndgameTables:
    """The tables of ``variant`` in ``directory`` (the data folder by default), opened once."""
    folder = Path(directory) if directory is not None else data_folder()
    key = (str(folder), variant.name)
    found = _OPEN.get(key)
    if found is None:
        found = _OPEN[key] = EndgameTables(folder, variant)
    return found


def probe(position: Position, directory: str | os.PathLike[str] | None = None) -> Probe | None:
    """The table value of ``position`` (win, draw or loss for the side to move, with the plies
    to the end), or ``None`` when no table built holds it."""
    return tables_for(position.variant, directory).probe(position)


def prober(variant: Variant, directory: str | os.PathLike[str] | None = None) -> Prober | None:
    """What a search asks the tables of ``variant`` in ``directory`` (the data folder by
    default): :meth:`~pdn.engine.EndgameTables.probe`, or ``None`` when no table of the
    variant is built there (or the variant has none: Frisian), so that a search without
    tables is the search it always was."""
    if variant.king_move_limit:
        return None
    tables = tables_for(variant, directory)
    return tables.probe if tables.most else None


def chosen_folder(tables: Tables) -> str | os.PathLike[str] | None:
    """The folder ``tables`` names (``None``: the data folder)."""
    return None if isinstance(tables, bool) else tables


def used_prober(variant: Variant, tables: Tables) -> Prober | None:
    """The prober of ``variant``'s tables as ``tables`` chooses them: ``None`` for none
    (``False``, or none built there)."""
    return None if tables is False else prober(variant, chosen_folder(tables))
