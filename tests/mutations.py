"""Random damage to real PDN text and to pdn's own JSON, and the round trip it must survive.

Three kinds of mutant: text edits of the characters that carry a game's structure
(:func:`mutate`), damaged bytes of a file in one of the encodings PDN files come in
(:func:`mutate_pdn_bytes`: flips, deletions, insertions, splices, re-encodings, then tag and
bracket edits), and structural edits of the records ``pdn convert --to json`` writes
(:func:`mutate_json`: a field set to a value of another kind, a deeply nested one, a huge
one, a field or record dropped or doubled, the layout changed).

Shared by ``tests/test_reader_damage.py``, ``tests/test_fuzz_cli.py`` (a few hundred
mutants of the vendored fixtures, through the CLI: :mod:`fuzzing`),
``benchmarks/corpus/mutation_game_count.py`` and ``benchmarks/fuzz_cli.py`` (thousands over
the shared corpus). pytest puts this folder on ``sys.path``, so the tests import it as
``from mutations import ...``.
"""

from __future__ import annotations

import codecs
import json
import random
import re
from typing import Any

from pdn import parse_games, write_game
from pdn.writing.convert import ConvertOptions, convert_games

#: The characters whose loss, gain or doubling damages the structure of a game, in classes
#: drawn alike (so that a bracket is as likely to be hit as a digit, of which there are many).
CLASSES = ("[", "]", "{", "}", "(", ")", '"', "\n", "0123456789")
_TAG_LINE = re.compile(r"^[ \t]*\[[^\n]*", re.MULTILINE)


def _one_edit(text: str, rng: random.Random) -> tuple[str, str]:
    """``text`` with one random edit, and the edit said briefly."""
    kind = rng.choice(("delete", "insert", "double", "truncate-tag"))
    if kind == "truncate-tag":
        tags = list(_TAG_LINE.finditer(text))
        if tags:
            line = rng.choice(tags)
            cut = rng.randrange(line.start(), line.end())
            return text[:cut] + text[line.end() :], f"truncate-tag@{cut}"
        kind = "insert"
    chars = rng.choice(CLASSES)
    if kind == "insert":
        at = rng.randrange(len(text) + 1)
        char = rng.choice(chars)
        return text[:at] + char + text[at:], f"insert {char!r}@{at}"
    places = [i for i, ch in enumerate(text) if ch in chars] or list(range(len(text)))
    if not places:
        return text, "none"
    at = rng.choice(places)
    if kind == "delete":
        return text[:at] + text[at + 1 :], f"delete {text[at]!r}@{at}"
    return text[:at] + text[at] + text[at:], f"double {text[at]!r}@{at}"


def mutate(text: str, rng: random.Random, most: int = 3) -> tuple[str, list[str]]:
    """``text`` with one to ``most`` random edits (see :func:`_one_edit`), and the edits."""
    edits = []
    for _ in range(rng.randint(1, most)):
        text, edit = _one_edit(text, rng)
        edits.append(edit)
    return text, edits


def convert(text: str) -> str:
    """What ``pdn convert`` writes (a faithful PDN copy) of the games of ``text``."""
    games = (("-", game) for game in parse_games(text))
    return "".join(piece.text for piece in convert_games(games, ConvertOptions()))


def round_trip(text: str) -> tuple[int, int, bool]:
    """(games read, games read back after :func:`convert`, whether each game read back has
    the faithful text, as convert writes it, of the game it came from)."""
    games = list(parse_games(text))
    back = list(parse_games(convert(text)))
    same = len(games) == len(back) and all(
        write_game(one, separate=True) == write_game(other, separate=True)
        for one, other in zip(games, back, strict=True)
    )
    return len(games), len(back), same


# =============================================================================================
# Damaged bytes
# =============================================================================================

#: The encodings a mutant is written in before its bytes are damaged: UTF-8 most often, then
#: what old exports write (UTF-16 with a BOM either way round, UTF-8 with a BOM, code pages).
ENCODINGS = (
    ("utf-8", 8),
    ("utf-16", 3),  # little-endian with a BOM (Python's "utf-16" on this machine order)
    ("utf-16-be-bom", 2),
    ("utf-8-sig", 1),
    ("cp1252", 1),
    ("cp1251", 1),
)

#: Bytes an insertion draws from: those that break a UTF-8 or UTF-16 sequence, NUL, CR.
_HOSTILE_BYTES = b'\x00\r\n\x80\xbf\xc0\xc3\xd8\xdc\xdf\xe2\xef\xf0\xfe\xff[]{}()"'


def encode(text: str, encoding: str) -> bytes:
    """``text`` written in ``encoding`` (one of :data:`ENCODINGS`; what a code page cannot
    hold becomes ``?``)."""
    if encoding == "utf-16":
        return codecs.BOM_UTF16_LE + text.encode("utf-16-le")
    if encoding == "utf-16-be-bom":
        return codecs.BOM_UTF16_BE + text.encode("utf-16-be")
    return text.encode(encoding, "replace")


def _byte_edit(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """``data`` with one random byte-level edit, and the edit said briefly."""
    kind = rng.choice(("flip", "delete", "delete-run", "insert", "splice", "swap"))
    if not data:
        return bytes([rng.randrange(256)]), "insert-into-empty"
    # One edit in ten hits the first bytes, where a BOM or the first tag decides how the
    # whole file is read.
    at = rng.randrange(min(len(data), 4) if rng.random() < 0.1 else len(data))
    if kind == "flip":
        bit = 1 << rng.randrange(8)
        return data[:at] + bytes([data[at] ^ bit]) + data[at + 1 :], f"flip {bit:#x}@{at}"
    if kind == "delete":
        return data[:at] + data[at + 1 :], f"delete-byte@{at}"
    if kind == "delete-run":
        size = rng.randint(2, 64)
        return data[:at] + data[at + size :], f"delete-bytes {size}@{at}"
    if kind == "insert":
        size = rng.randint(1, 3)
        extra = bytes(rng.choice(_HOSTILE_BYTES) for _ in range(size))
        return data[:at] + extra + data[at:], f"insert {extra!r}@{at}"
    if kind == "splice":
        # A piece of the file written again elsewhere (a botched concatenation or copy).
        start = rng.randrange(len(data))
        piece = data[start : start + rng.randint(1, 400)]
        return data[:at] + piece + data[at:], f"splice {len(piece)} from {start}@{at}"
    other = rng.randrange(len(data))
    low, high = sorted((at, other))
    if low == high:
        return data, "none"
    swapped = data[:low] + data[high : high + 1] + data[low + 1 : high] + data[low : low + 1]
    return swapped + data[high + 1 :], f"swap {low},{high}"


def mutate_pdn_bytes(text: str, rng: random.Random) -> tuple[bytes, list[str]]:
    """The bytes of a damaged PDN file made from ``text``, and the edits: up to two text edits
    (:func:`mutate`: brackets, quotes, tags), the text written in an encoding drawn from
    :data:`ENCODINGS`, then up to three byte edits (at least one edit in all)."""
    edits: list[str] = []
    if rng.random() < 0.5:
        text, edits = mutate(text, rng, most=2)
    names = [name for name, _ in ENCODINGS]
    encoding = rng.choices(names, weights=[weight for _, weight in ENCODINGS])[0]
    data = encode(text, encoding)
    edits.append(f"as {encoding}")
    for _ in range(rng.randint(0 if len(edits) > 1 else 1, 3)):
        data, edit = _byte_edit(data, rng)
        edits.append(edit)
    return data, edits


# =============================================================================================
# Structural edits of pdn's JSON
# =============================================================================================


def deep(depth: int, rng: random.Random) -> Any:
    """A value nested ``depth`` deep: lists, objects or both (built without recursion)."""
    value: Any = rng.choice((1, "x", None, [], {}))
    kind = rng.choice(("list", "dict", "mixed"))
    for level in range(depth):
        as_list = kind == "list" or (kind == "mixed" and level % 2 == 0)
        value = [value] if as_list else {"move": value}
    return value


def hostile_value(rng: random.Random) -> Any:
    """A value of a kind no field expects, or of the right kind but extreme."""
    kind = rng.randrange(14)
    if kind == 0:
        return deep(rng.choice((50, 900, 3_000, 20_000, 50_000)), rng)
    if kind == 1:
        return "x" * rng.choice((1, 1_000, 200_000))
    if kind == 2:
        return int("9" * rng.choice((20, 4_000)))  # huge, but within what int writes
    return rng.choice(
        (None, True, False, 0, -1, 1.5, "", "\n", "}", "\ud800", [], {}, [[]], {"a": 1})
    )


def _containers(value: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) of ``value``, parents before children."""
    places: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key in item:
                places.append((item, key))
                stack.append(item[key])
        elif isinstance(item, list):
            for index in range(len(item)):
                places.append((item, index))
                stack.append(item[index])
    return places


def _edit_record(record: dict[str, Any], rng: random.Random) -> str:
    """One structural edit of a game record, in place; the edit said briefly."""
    places = _containers(record)
    if not places:
        record["moves"] = hostile_value(rng)
        return "moves=hostile"
    container, key = rng.choice(places)
    kind = rng.choice(("set", "set", "set", "drop", "double", "unknown-key"))
    if kind == "drop":
        del container[key]
        return f"drop {key!r}"
    if kind == "double" and isinstance(container, list):
        container.insert(key, container[key])
        return f"double [{key}]"
    if kind == "unknown-key" and isinstance(container, dict):
        container[rng.choice(("x", "moves", "tags", "variations", "nag"))] = hostile_value(rng)
        return "unknown-key"
    value = hostile_value(rng)
    container[key] = value
    return f"set {key!r} to {type(value).__name__}"


#: How a mutant's records are laid out: as convert writes a document (a record a line), as
#: NDJSON, as one document on one line, as a bare list.
LAYOUTS = ("document", "document", "ndjson", "whole", "list")


def _lay_out(records: list[Any], layout: str) -> str:
    from pdn.text.json_text import dumps  # any depth

    if layout == "ndjson":
        return "".join(dumps(record) + "\n" for record in records)
    if layout == "whole":
        return dumps({"schema": "pdn-json/1", "type": "games", "games": records}) + "\n"
    if layout == "list":
        return dumps(records) + "\n"
    head = '{"schema": "pdn-json/1", "type": "games", "games": ['
    lines = [dumps(record) for record in records]
    return head + "\n" + ",\n".join(lines) + ("\n" if lines else "") + "]}\n"


def mutate_json(records: list[dict[str, Any]], rng: random.Random) -> tuple[str, list[str]]:
    """The JSON text of ``records`` (game records as ``pdn convert --to json`` writes them)
    with one to three structural edits, laid out in one of :data:`LAYOUTS`; and the edits.
    ``records`` is left as it was."""
    records = json.loads(json.dumps(records))  # a copy to edit
    edits: list[str] = []
    for _ in range(rng.randint(1, 3)):
        what = rng.random()
        if what < 0.08 and records:
            del records[rng.randrange(len(records))]
            edits.append("drop a record")
        elif what < 0.12:
            records.insert(rng.randrange(len(records) + 1), hostile_value(rng))
            edits.append("a record that is no object")
        elif any(isinstance(record, dict) for record in records):
            at = rng.choice([i for i, record in enumerate(records) if isinstance(record, dict)])
            edits.append(f"record {at}: {_edit_record(records[at], rng)}")
    layout = rng.choice(LAYOUTS)
    edits.append(f"as {layout}")
    # A lone surrogate (a hostile value) is written as its JSON escape, as UTF-8 can hold it.
    text = _lay_out(records, layout).encode("utf-8", "backslashreplace").decode("utf-8")
    if rng.random() < 0.1:
        data, edit = _byte_edit(text.encode("utf-8"), rng)
        text = data.decode("utf-8", "replace")
        edits.append(edit)
    return text, edits
