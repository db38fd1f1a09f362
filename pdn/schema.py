"""The name and version every JSON record of pdn carries, and how an input of such records is
told from PDN by its first bytes.

Apart from :mod:`pdn.jsonio` (which reads and writes the game records), so that a command
writing verdicts or reading PDN knows the schema without loading the JSON reader and writer.

>>> SCHEMA, looks_like_json(b'{"schema": "pdn-json/1"}'), looks_like_json("{a comment}")
('pdn-json/1', True, False)
"""

from __future__ import annotations

__all__ = ["SCHEMA", "looks_like_json"]

#: The schema name and version every record carries.
SCHEMA = "pdn-json/1"


def looks_like_json(head: bytes | str) -> bool:
    """Whether an input starts as the records of this schema do (``{"schema"``): a PDN file
    could start with a brace comment, but not with that one."""
    text = head.decode("utf-8", "replace") if isinstance(head, bytes) else head
    return text.lstrip("\ufeff \t\r\n").startswith('{"schema"')
