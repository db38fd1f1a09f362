"""Pickling of frozen records by their fields: the same in the pure and the compiled build.

Compiled by mypyc (pdn's accelerated build), a frozen dataclass would unpickle by setting its
attributes one by one, which its frozen ``__setattr__`` refuses (and a record with its own
``__init__`` would be made by calling it with no arguments); worker processes (``--jobs``,
``pdn.dask``) and users' own pickles need them. Registered with :mod:`copyreg`, such a record
pickles as a call to its constructor with its fields, in both builds.

>>> import pickle
>>> from pdn.engine import ENGLISH, Position
>>> pickle.loads(pickle.dumps(Position.start(ENGLISH))) == Position.start(ENGLISH)
True
"""

from __future__ import annotations

import copyreg
from dataclasses import fields
from typing import Any


def _by_fields(record: Any) -> tuple[type, tuple[Any, ...]]:
    cls = type(record)
    return cls, tuple(getattr(record, field.name) for field in fields(cls) if field.init)


def pickle_by_fields(*classes: type) -> None:
    """Make each dataclass in ``classes`` pickle as its constructor called with its fields."""
    for cls in classes:
        copyreg.pickle(cls, _by_fields)
