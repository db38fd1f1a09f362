"""The name and version every JSON record of pdn carries, and how an input of such records is
told from PDN by its name or first bytes.

Apart from :mod:`pdn.writing.jsonio` (which reads and writes the game records), so that a command
writing verdicts or reading PDN knows the schema without loading the JSON reader and writer.

>>> SCHEMA, looks_like_json(b'{"schema": "pdn-json/1"}'), looks_like_json("{a comment}")
('pdn-json/1', True, False)
"""

from __future__ import annotations

import os
from typing import IO

__all__ = ["JSON_SUFFIXES", "SCHEMA", "is_json", "looks_like_json"]

#: The schema name and version every record carries.
SCHEMA = "pdn-json/1"


def looks_like_json(head: bytes | str) -> bool:
    """Whether an input starts as the records of this schema do (``{"schema"``): a PDN file
    could start with a brace comment, but not with that one."""
    text = head.decode("utf-8", "replace") if isinstance(head, bytes) else head
    return text.lstrip("\ufeff \t\r\n").startswith('{"schema"')


#: File name endings of JSON inputs (pdn convert --to json|ndjson writes them).
JSON_SUFFIXES = (".json", ".ndjson", ".jsonl")


def is_json(source: str | os.PathLike[str] | IO[str] | IO[bytes]) -> bool:
    """Whether a source holds JSON game records: by its name, else by its first bytes (a
    file, or a stream that can be peeked at such as standard input)."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path.lower().endswith(JSON_SUFFIXES):
            return True
        if not os.path.isfile(path):
            return False  # a FIFO or a device: peeking would eat what it gives
        try:
            with open(path, "rb") as handle:
                return looks_like_json(handle.read(64))
        except OSError:
            return False  # the reader reports it
    peek = getattr(source, "peek", None)
    if callable(peek):
        return looks_like_json(peek(64)[:64])
    if getattr(source, "seekable", lambda: False)():
        at = source.tell()
        head = source.read(64)
        source.seek(at)
        return looks_like_json(head)
    return False
