"""File names made from tag values (``pdn split``'s files, ``pdn diagram``'s pictures).

A tag value can be anything: a path (``../../etc/passwd``), a name Windows reserves (``CON``),
control characters. :func:`safe_name` turns it into a plain file name stem, the same on Linux,
macOS and Windows: no path separator, no ``..``, no control character, no reserved name, no
leading dot (nor ``-``, ``=``, ``+``, ``@``), at most :data:`NAME_BYTES` bytes of UTF-8.

>>> safe_name("../../etc/passwd"), safe_name("CON"), safe_name("Nemets D.\\x1b[2J")
('etc_passwd', '_CON', 'Nemets_D._[2J')
"""

from __future__ import annotations

import re
import unicodedata

from .safe_text import UNSAFE

__all__ = ["NAME_BYTES", "safe_name"]

#: The longest name stem, in bytes of UTF-8 (file systems allow 255; room for a suffix).
NAME_BYTES = 100

_RESERVED = {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"} | {
    f"{kind}{n}" for kind in ("COM", "LPT") for n in [*"0123456789", "¹", "²", "³"]
}
# Separators, what Windows forbids in a name, and everything pdn.text.safe_text will not print.
_FORBIDDEN = re.compile(r'[/\\<>:"|?*]|' + UNSAFE.pattern)


def safe_name(label: str, limit: int = NAME_BYTES, *, empty: str = "unnamed") -> str:
    """A file name stem made from a tag value: safe on Linux, macOS and Windows alike;
    ``empty`` when nothing of the value is left.

    >>> safe_name(" .hidden "), safe_name("a/../b"), safe_name(""), safe_name("lpt1.txt")
    ('hidden', 'a_._b', 'unnamed', '_lpt1.txt')
    """
    text = unicodedata.normalize("NFC", label)
    text = _FORBIDDEN.sub("_", text)
    text = re.sub(r"\s+", "_", text.strip())
    text = re.sub(r"_+", "_", re.sub(r"\.{2,}", ".", text))
    text = text.strip("._ ")
    encoded = text.encode("utf-8")
    if len(encoded) > limit:
        text = encoded[:limit].decode("utf-8", "ignore").rstrip("._ ")
    if not text:
        return empty
    # A leading "-" reads as an option on command lines, "=" "+" "@" as a formula in the index.
    if text[0] in "-=+@":
        text = "_" + text[1:]
    if text.split(".")[0].upper() in _RESERVED:
        text = "_" + text
    return text
