"""Games as JSON and NDJSON: one documented schema (``docs/json.md``), written and read back.

Every record carries ``"schema": "pdn-json/1"`` and a ``"type"``: ``"game"`` (a game, from
``pdn convert --to json|ndjson``), ``"verdict"`` and ``"summary"`` (from ``pdn validate
--format json|ndjson``).  A JSON document is ``{"schema": ..., "type": "games", "games":
[...]}``; NDJSON is one record per line.  Tags are ``[name, value]`` pairs in written order in
every record type, so duplicates and unknown names survive.

A game record is lossless: the tags, the comments before the tags and before the first move, the
main line as a list of moves, each with its number, comments before and after, strength, NAGs
and its alternatives (``variations``: a list of lines), setup commands and the terminator.
With a validation report, each replayed ply also carries ``ply``, ``side``, ``from``, ``to``,
``captured`` (square numbers), ``path`` (the full capture path) and ``fen`` (the position after
it).  :func:`game_from_dict` reads a record back; nothing written is lost.

Writing is a :class:`~pdn.visitor.GameVisitor` (:class:`JsonBuilder`) and reading drives one
(:func:`accept_dict`), so a record can be written straight to PDN as well.

>>> import pdn
>>> game = pdn.parse_game('{before} [Event "x"]\\n1. 11-15 (9-13 $2) {good} 23-19 *')
>>> data = game_to_dict(game)
>>> data["moves"][0]["variations"]
[[{'move': '9-13', 'nags': [2]}]]
>>> game_from_dict(data) == game
True
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any, TypeVar, cast

from mypy_extensions import mypyc_attr

from pdn.builder import GameBuilder
from pdn.engine import Color, Move, Variant
from pdn.model import Comment, Game
from pdn.problems import Problem
from pdn.validation import Report, Step
from pdn.visitor import GameStart, GameVisitor, Skip

__all__ = [
    "SCHEMA",
    "JsonBuilder",
    "JsonError",
    "accept_dict",
    "dumps",
    "game_from_dict",
    "game_to_dict",
    "loads",
    "looks_like_json",
    "read_json_games",
]

#: The schema name and version every record carries.
SCHEMA = "pdn-json/1"

JsonDict = dict[str, Any]
T = TypeVar("T")


class JsonError(ValueError):
    """A JSON record that does not follow the schema (the message says which part and why)."""


def _comments(comments: Sequence[Comment]) -> list[JsonDict]:
    return [{"text": c.text, "kind": c.kind} for c in comments]


class _Line:
    __slots__ = ("items", "last", "orphans")

    def __init__(self, items: list[JsonDict]) -> None:
        self.items = items  # the moves of this line
        self.last: JsonDict | None = None
        self.orphans: list[list[JsonDict]] = []  # variations written before any move


@mypyc_attr(allow_interpreted_subclasses=True)
class JsonBuilder(GameVisitor[JsonDict]):
    """The visitor that makes a game record; ``steps`` gives the replay of the n-th move or
    setup visited (0-based, in the order of the events), for the per-ply fields."""

    def __init__(self, steps: dict[int, Step] | None = None, report: Report | None = None) -> None:
        self.steps = steps or {}
        self.report = report

    def begin_game(self, start: GameStart) -> None:
        self.record: JsonDict = {
            "schema": SCHEMA,
            "type": "game",
            "index": start.index,
            "line": start.line,
            "tags": [],
            "comments_before_tags": [],
            "comments": [],
            "moves": [],
            "terminator": None,
        }
        self.in_tags = True
        self.tag_comments: list[JsonDict] = []
        self.lines = [_Line(self.record["moves"])]
        self.count = 0

    def visit_tag(self, name: str, value: str) -> None:
        self.record["comments_before_tags"].extend(self.tag_comments)
        self.tag_comments = []
        self.record["tags"].append([name, value])

    def end_tags(self) -> Skip | None:
        self.in_tags = False
        self.record["comments"].extend(self.tag_comments)
        self.tag_comments = []
        return None

    def visit_comment(self, comment: Comment) -> None:
        entry = {"text": comment.text, "kind": comment.kind}
        if self.in_tags:
            self.tag_comments.append(entry)
            return
        line = self.lines[-1]
        if line.last is not None:
            line.last.setdefault("comments_after", []).append(entry)
        else:
            # Before the first move: the game's (the reader never sends such a comment inside
            # a variation, whose opening comments travel with its first move).
            self.record["comments"].append(entry)

    def _node(self, data: JsonDict, number: str | None, before: Sequence[Comment]) -> None:
        if number is not None:
            data["number"] = number
        if before:
            data["comments_before"] = _comments(before)
        step = self.steps.get(self.count)
        self.count += 1
        if step is not None:
            self._replay(data, step)
        line = self.lines[-1]
        line.items.append(data)
        if line.orphans:
            data["variations"] = line.orphans
            line.orphans = []
        line.last = data

    def _replay(self, data: JsonDict, step: Step) -> None:
        variant = self.report.variant if self.report is not None else None
        if variant is None:
            return
        data["ply"] = step.ply
        if step.node.move is not None:
            data["side"] = _SIDES[step.before.turn]
        move = step.move
        if move is not None:
            data["from"] = move.path[0]
            data["to"] = move.path[-1]
            data["captured"] = list(move.captures)
            data["path"] = _path_text(move, variant)
        if step.after is not None:
            data["fen"] = step.after.fen()

    def visit_move(
        self,
        move: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self._node({"move": move}, number, before)

    def visit_setup(
        self,
        fen: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self._node({"setup": fen}, number, before)

    def visit_strength(self, strength: str) -> None:
        last = self.lines[-1].last
        if last is not None:
            last["strength"] = last.get("strength", "") + strength

    def visit_nag(self, nag: int) -> None:
        last = self.lines[-1].last
        if last is not None:
            last.setdefault("nags", []).append(nag)

    def begin_variation(self) -> Skip | None:
        self.lines.append(_Line([]))
        return None

    def end_variation(self) -> None:
        inner = self.lines.pop()
        self._close(inner)
        if not inner.items:
            return
        outer = self.lines[-1]
        if outer.last is not None:
            outer.last.setdefault("variations", []).append(inner.items)
        else:
            outer.orphans.append(inner.items)

    def _close(self, line: _Line) -> None:
        if line.orphans:
            # Variations with no move after them: the first continues the line.
            first, *others = line.orphans
            line.orphans = []
            line.items.extend(first)
            if others:
                first[0].setdefault("variations", []).extend(others)

    def visit_terminator(self, terminator: str) -> None:
        self.record["terminator"] = terminator

    def end_game(self) -> None:
        while len(self.lines) > 1:
            self.end_variation()
        self._close(self.lines[0])
        record = self.record
        for key in ("comments_before_tags", "comments"):
            if not record[key]:
                del record[key]

    def result(self) -> JsonDict:
        return self.record


def game_to_dict(game: Game, report: Report | None = None) -> JsonDict:
    """The game record of a game; with a validation report, each replayed ply also carries its
    side, squares, full path and the FEN after it, and the record its status, problems and
    start position."""
    steps: dict[int, Step] = {}
    if report is not None:
        order = game.walk_order()
        steps = {order[id(step.node)]: step for step in report.steps if id(step.node) in order}
    # (The reader's problems are listed only with a report, with the replay's.)
    record = game.accept(JsonBuilder(steps, report))
    record["variant"] = game.variant
    # Why the reader took the game for that variant: the file it came from is not read again.
    record["variant_source"] = game.variant_source
    record["variant_evidence"] = game.variant_evidence
    if report is not None:
        record["status"] = report.status
        record["problems"] = [p.to_dict() for p in report.all_problems]
        if report.start is not None:
            record["start_fen"] = report.start.fen()
    return record


# Reading back -----------------------------------------------------------------------------


def _text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise JsonError(f"{where} must be a string, not {type(value).__name__}")
    return value


def _read_comments(items: object, where: str) -> list[Comment]:
    if not isinstance(items, list):
        raise JsonError(f"{where} must be a list of comments")
    comments = []
    for item in items:
        if not isinstance(item, dict):
            raise JsonError(f"{where}: a comment must be an object with 'text' and 'kind'")
        kind = item.get("kind", "brace")
        if kind not in ("brace", "line", "percent"):
            raise JsonError(f"{where}: unknown comment kind {kind!r}")
        comments.append(Comment(_text(item.get("text"), f"{where}: text"), kind))
    return comments


def accept_dict(data: JsonDict, visitor: GameVisitor[T]) -> T:
    """Drive ``visitor`` with the events of a game record (see :func:`game_from_dict`).

    Raises :class:`JsonError` for a record that does not follow the schema.
    """
    if not isinstance(data, dict):
        raise JsonError("a game record must be a JSON object")
    schema = data.get("schema", SCHEMA)
    if schema != SCHEMA:
        raise JsonError(f"schema {schema!r} is not {SCHEMA!r}")
    if data.get("type", "game") != "game":
        raise JsonError(f"a record of type {data.get('type')!r} is not a game")
    line = data.get("line", 1)
    index = data.get("index", 1)
    visitor.begin_game(
        GameStart(line if isinstance(line, int) else 1, 1, index if isinstance(index, int) else 1)
    )
    for comment in _read_comments(data.get("comments_before_tags", []), "comments_before_tags"):
        visitor.visit_comment(comment)
    tags = data.get("tags", [])
    if not isinstance(tags, list):
        raise JsonError("tags must be a list of [name, value] pairs")
    for pair in tags:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise JsonError(f"tag {pair!r} is not a [name, value] pair")
        visitor.visit_tag(_text(pair[0], "a tag name"), _text(pair[1], "a tag value"))
    if visitor.end_tags() is None:
        for comment in _read_comments(data.get("comments", []), "comments"):
            visitor.visit_comment(comment)
        _accept_line(data.get("moves", []), visitor)
        terminator = data.get("terminator")
        if terminator is not None:
            visitor.visit_terminator(_text(terminator, "terminator"))
    visitor.end_game()
    return visitor.result()


def _accept_line(moves: object, visitor: GameVisitor[Any]) -> None:
    # Iterative: a stack of the lines being walked, so any depth of variations is fine.
    if not isinstance(moves, list):
        raise JsonError("moves must be a list")
    stack: list[tuple[Iterator[Any], bool]] = [(iter(moves), False)]
    while stack:
        items, in_variation = stack[-1]
        item = next(items, None)
        if item is None:
            stack.pop()
            if in_variation:
                visitor.end_variation()
            continue
        if not isinstance(item, dict):
            raise JsonError(f"a move must be an object, not {type(item).__name__}")
        where = f"move {item.get('move', item.get('setup'))!r}"
        number = item.get("number")
        if number is not None:
            number = _text(number, f"{where}: number")
        before = _read_comments(item.get("comments_before", []), f"{where}: comments_before")
        if "setup" in item:
            visitor.visit_setup(_text(item["setup"], where), number, before, None, None)
        else:
            visitor.visit_move(_text(item.get("move"), where), number, before, None, None)
        strength = item.get("strength")
        if strength is not None:
            visitor.visit_strength(_text(strength, f"{where}: strength"))
        for nag in item.get("nags", []):
            if not isinstance(nag, int) or isinstance(nag, bool) or nag < 0:
                raise JsonError(f"{where}: NAG {nag!r} is not a number")
            visitor.visit_nag(nag)
        for comment in _read_comments(item.get("comments_after", []), f"{where}: comments"):
            visitor.visit_comment(comment)
        variations = item.get("variations", [])
        if not isinstance(variations, list):
            raise JsonError(f"{where}: variations must be a list of lines")
        # The alternatives come after the move and before the next one, last pushed first.
        for variation in reversed(variations):
            if not isinstance(variation, list):
                raise JsonError(f"{where}: a variation must be a list of moves")
            stack.append((_opening(variation, visitor), True))


def _opening(variation: list[Any], visitor: GameVisitor[Any]) -> Iterator[Any]:
    # Opens the variation when its walk starts, so that variations open in written order.
    visitor.begin_variation()
    yield from variation


def game_from_dict(data: JsonDict) -> Game:
    """Rebuild a :class:`~pdn.model.Game` from a game record (:func:`game_to_dict` output).

    The replay fields (``ply``, ``fen``...) are not read: they follow from the moves.
    """
    game = accept_dict(data, GameBuilder())
    variant = data.get("variant")
    if isinstance(variant, str):
        source, evidence = data.get("variant_source"), data.get("variant_evidence")
        if isinstance(source, str) and isinstance(evidence, str):
            game.variant_source, game.variant_evidence = source, evidence
        elif variant != game.variant:
            # A record without them: it names a variant the moves alone did not give.
            game.variant_source = "record"
            game.variant_evidence = f"the record's variant field ({variant})"
        game.variant = variant
    return game


# JSON text without recursion ----------------------------------------------------------------
#
# The standard json module recurses once per nested container, so a game with variations nested
# a few hundred deep (each level is a move, its variations and a line) exceeds Python's recursion
# limit.  Records are written and read with an explicit stack instead; scalars go through the
# json module, so the text is the same as json.dumps(..., ensure_ascii=False) gives.

_TOKEN = re.compile(
    r'\s*(?:(?P<open>[\[{])|(?P<close>[\]}])|(?P<sep>[:,])|(?P<string>"(?:[^"\\]|\\.)*")'
    r"|(?P<scalar>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null))"
)


_SIDES = {Color.BLACK: "black", Color.WHITE: "white"}


@functools.lru_cache(maxsize=4096)
def _path_text(move: Move, variant: Variant) -> str:
    # The full path of a move; the same few thousand moves come back in every game.
    from pdn.notation import move_text

    return move_text(move, variant, full=True)


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
    """
    try:
        return json.loads(text)
    except RecursionError:
        return _loads_deep(text)  # too deep for the json module: the same grammar, with a stack


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
            value = json.loads(token)
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


def looks_like_json(head: bytes | str) -> bool:
    """Whether an input starts as the records of this schema do (``{"schema"``): a PDN file
    could start with a brace comment, but not with that one."""
    text = head.decode("utf-8", "replace") if isinstance(head, bytes) else head
    return text.lstrip("\ufeff \t\r\n").startswith('{"schema"')


def read_json_games(stream: IO[str]) -> Iterator[Game]:
    """The games of a JSON document or an NDJSON stream of game records.

    Never raises for bad input: a record that cannot be read becomes an empty game carrying a
    ``syntax-error`` problem with its line (and column), and reading goes on with the next
    line of an NDJSON stream.
    """
    first = ""
    number = 0
    while not first.strip():
        first = stream.readline()
        number += 1
        if not first:
            return
    try:
        record = loads(first)
    except json.JSONDecodeError:
        record = None
    if isinstance(record, dict) and record.get("type", "game") == "game" and "games" not in record:
        # NDJSON: one record per line.
        yield _game(record, number)
        for at, line in enumerate(stream, start=number + 1):
            if line.strip():
                yield _game_of_line(line, at)
        return
    text = first + stream.read()
    try:
        document = loads(text)
    except json.JSONDecodeError as exc:
        yield _unreadable(f"not valid JSON: {exc.msg}", exc.lineno + number - 1, exc.colno)
        return
    games = document.get("games") if isinstance(document, dict) else document
    if not isinstance(games, list):
        yield _unreadable("a JSON document of games must hold a list 'games'", number, 1)
        return
    for position, item in enumerate(games, start=1):
        yield _game(item, number, f"game {position} of the document: ")


def _unreadable(message: str, line: int, column: int) -> Game:
    problem = Problem("syntax-error", f"{message} (at {line}:{column})", line=line, column=column)
    return Game(line=line, errors=[problem], variant=None)


def _game_of_line(line: str, number: int) -> Game:
    try:
        record = loads(line)
    except json.JSONDecodeError as exc:
        return _unreadable(f"not valid JSON: {exc.msg}", number, exc.colno)
    return _game(record, number)


def _game(record: object, line: int, where: str = "") -> Game:
    try:
        return game_from_dict(cast(JsonDict, record))
    except JsonError as exc:
        return _unreadable(f"{where}{exc}", line, 1)
