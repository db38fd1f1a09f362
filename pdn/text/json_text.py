"""JSON text at any depth, and long listings in constant memory: the JSON writing and reading
every format of pdn shares (the game schema itself is :mod:`pdn.writing.jsonio`).

The standard json module recurses once per nested container, so a game with variations nested
a few hundred deep (each level is a move, its variations and a line) exceeds Python's recursion
limit. Such values are written and read with an explicit stack instead; scalars go through the
json module, so the text is the same as ``json.dumps(..., ensure_ascii=False)`` gives.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

__all__ = ["TooLong", "dumps", "dumps_listing", "loads"]

_TOKEN = re.compile(
    r'\s*(?:(?P<open>[\[{])|(?P<close>[\]}])|(?P<sep>[:,])|(?P<string>"(?:[^"\\]|\\.)*")'
    r"|(?P<scalar>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null))"
)


def dumps(value: object) -> str:
    """``value`` (dicts, lists, strings, numbers, booleans, None) as JSON text, at any depth.

    >>> dumps({"a": [1, {"b": None}], "c": "é"})
    '{"a": [1, {"b": null}], "c": "é"}'
    """
    try:
        return json.dumps(value, ensure_ascii=False)  # in C; fails only on very deep nesting
    except RecursionError:
        return _dumps_deep(value)


def dumps_listing(key: str, items: Iterable[object]) -> Iterator[str]:
    """``{key: [items...]}`` as ``json.dumps(..., indent=2, ensure_ascii=False)`` writes it,
    in pieces, one item at a time: a listing of any length in constant memory.

    >>> "".join(dumps_listing("games", [{"a": 1}, 2])) == json.dumps(
    ...     {"games": [{"a": 1}, 2]}, indent=2)
    True
    """
    head = f"{{\n  {json.dumps(key, ensure_ascii=False)}: ["
    opening = head
    for item in items:
        text = json.dumps(item, indent=2, ensure_ascii=False)
        # Each item's own lines, indented to their place in the list.
        yield opening + "\n    " + text.replace("\n", "\n    ")
        opening = ","
    yield "\n  ]\n}" if opening == "," else head + "]\n}"


def _dumps_deep(value: object) -> str:
    out: list[str] = []
    stack: list[Iterator[object] | str] = [iter([value])]
    while stack:
        top = stack[-1]
        if isinstance(top, str):  # a closing bracket
            out.append(stack.pop())  # type: ignore[arg-type]
            continue
        item = next(top, _END)
        if item is _END:
            stack.pop()
            continue
        if isinstance(item, _Separated):
            out.append(item.text)
            item = item.value
        if isinstance(item, dict):
            out.append("{")
            stack.append("}")
            stack.append(_members(item))
        elif isinstance(item, list):
            out.append("[")
            stack.append("]")
            stack.append(_Separated(", ", v) if i else v for i, v in enumerate(item))
        else:
            out.append(json.dumps(item, ensure_ascii=False))
    return "".join(out)


_END = object()


class _Separated:
    """A value with the text (", " or "key: ") that comes before it."""

    __slots__ = ("text", "value")

    def __init__(self, text: str, value: object) -> None:
        self.text = text
        self.value = value


def _members(mapping: dict[str, Any]) -> Iterator[object]:
    for i, (key, value) in enumerate(mapping.items()):
        name = json.dumps(key, ensure_ascii=False)
        yield _Separated(f"{name}: " if not i else f", {name}: ", value)


def loads(text: str) -> Any:
    """JSON text to Python values, at any depth (:class:`json.JSONDecodeError` if it is not
    JSON).

    >>> loads('{"a": [1, {"b": null}], "c": "\\u00e9"}')
    {'a': [1, {'b': None}], 'c': 'é'}

    An integer too long for Python's ``int`` (4,300 digits by default) is not an error of the
    text: it comes back as an object that is no ``int``, which the record's checks refuse.
    """
    try:
        return _loads_flat(text)
    except RecursionError:
        return _loads_deep(text)  # too deep for the json module: the same grammar, with a stack


def _loads_flat(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:
        # Python's limit on the digits of an integer string; read again with each such integer
        # set aside (only then: a hook for every integer slows every record down).
        return json.loads(text, parse_int=_integer)


class TooLong:
    """An integer of the JSON text too long for :class:`int` to read."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"<an integer of {self.digits} digits>"


def _integer(text: str) -> int | TooLong:
    try:
        return int(text)
    except ValueError:
        return TooLong(len(text.lstrip("-")))


def _loads_deep(text: str) -> Any:
    stack: list[Any] = []  # the containers being filled
    keys: list[str | None] = []  # the key waiting for its value, per open object
    result: Any = _END
    position = 0
    expect_key = False
    while True:
        found = _TOKEN.match(text, position)
        if found is None:
            if text[position:].strip() == "" and result is not _END and not stack:
                return result
            raise json.JSONDecodeError("unexpected text", text, position)
        position = found.end()
        kind = found.lastgroup or ""
        token = found.group(kind)
        if result is not _END:
            raise json.JSONDecodeError("extra data", text, found.start(kind))
        if kind == "sep":
            expect_key = token == "," and bool(stack) and isinstance(stack[-1], dict)
            continue
        if kind == "close":
            if not stack or isinstance(stack[-1], dict) != (token == "}"):
                raise json.JSONDecodeError(f"unexpected {token!r}", text, found.start(kind))
            value = stack.pop()
            keys.pop()
        elif kind == "open":
            container: Any = {} if token == "{" else []
            stack.append(container)
            keys.append(None)
            expect_key = token == "{"
            continue
        else:
            value = json.loads(token, parse_int=_integer)
            if expect_key:
                keys[-1] = value
                expect_key = False
                continue
        if not stack:
            result = value
        elif isinstance(stack[-1], dict):
            stack[-1][keys[-1]] = value
        else:
            stack[-1].append(value)
