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

Writing is a :class:`~pdn.game.visitor.GameVisitor` (:class:`JsonBuilder`) and reading drives one
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

import itertools
import json
import re
from collections.abc import Iterator, Sequence
from typing import IO, Any, TypeVar, cast

from mypy_extensions import mypyc_attr

from pdn.engine import VARIANTS, Color, Move, Variant
from pdn.game.detection import source_sentence
from pdn.game.model import Comment, Game, Node
from pdn.game.steps import Step
from pdn.game.visitor import GameStart, GameVisitor, Skip
from pdn.reading.builder import GameBuilder
from pdn.rules.validation import Report
from pdn.text.json_text import TooLong, dumps, dumps_listing, loads
from pdn.text.problems import Problem
from pdn.text.results import TERMINATORS
from pdn.text.schema import SCHEMA as SCHEMA  # re-exported: its home is apart, for light imports
from pdn.text.schema import looks_like_json as looks_like_json

__all__ = [
    "SCHEMA",
    "JsonBuilder",
    "JsonError",
    "accept_dict",
    "dumps",
    "dumps_listing",
    "game_from_dict",
    "game_json",
    "game_to_dict",
    "loads",
    "looks_like_json",
    "read_json_games",
]

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
    """The visitor that makes a game record; driven with ``report`` (``game.accept(builder,
    report)``), the per-ply fields of each replayed move come from its step."""

    def __init__(self, report: Report | None = None) -> None:
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
        line = self.lines[-1]
        line.items.append(data)
        if line.orphans:
            data["variations"] = line.orphans
            line.orphans = []
        line.last = data

    def visit_step(self, step: Step) -> None:
        data = self.lines[-1].last
        variant = self.report.variant if self.report is not None else None
        if data is None or variant is None:
            return
        data["ply"] = step.ply
        if step.node.move is not None:
            data["side"] = _SIDES[step.before.turn]
        move = step.move
        if move is not None:
            data["from"] = move.path[0]
            data["to"] = move.path[-1]
            data["captured"] = list(move.captures)
            data["path"] = _path_of(move, variant)
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
    return _completed(game.accept(JsonBuilder(report), report), game, report)


def game_json(game: Game, report: Report | None = None) -> str:
    """The game record of a game as JSON text: ``dumps(game_to_dict(game, report))``.

    A game that is one line of plain moves (no setup, strength, NAG, variation, nor comment
    after its first move: most of an archive) has its moves written straight as text, with
    no dictionary made for each."""
    nodes = _plain_line(game)
    if nodes is None or (report is not None and report.game is not game):
        return dumps(game_to_dict(game, report))
    # The record without its moves, made and written as game_to_dict does, then the moves put
    # in their place.
    record = _completed(game.accept_around(JsonBuilder(report), lambda: None), game, report)
    items = list(record.items())
    at = next(i for i, (key, _) in enumerate(items) if key == "moves")
    head, tail = dumps(dict(items[:at])), dumps(dict(items[at + 1 :]))
    moves = _plain_moves(nodes, report)
    return f'{head[:-1]}, "moves": [{", ".join(moves)}], {tail[1:]}'


def _plain_line(game: Game) -> list[Node] | None:
    """The nodes of a game that is one line of plain moves, else ``None``."""
    nodes: list[Node] = []
    node = game.root
    while node.variations:
        if len(node.variations) > 1:
            return None
        node = node.variations[0]
        if node.move is None or node.strength is not None or node._nags or node._after:
            return None
        if node._before:
            return None
        nodes.append(node)
    return nodes


def _plain_moves(nodes: list[Node], report: Report | None) -> list[str]:
    """The JSON text of each move of one line of plain moves, as :class:`JsonBuilder` makes it
    and :func:`dumps` writes it (its fields in the same order)."""
    variant = report.variant if report is not None else None
    # One line without setups is replayed in its written order: its steps are its nodes'.
    steps = report.steps if report is not None and variant is not None else []
    reached = len(steps)
    heads = _HEADS
    plays = _PLAYS.get(variant.name) if variant is not None else None
    if plays is None:
        plays = _PLAYS[variant.name if variant is not None else ""] = {}
    out: list[str] = []
    for order, node in enumerate(nodes):
        # The parts of the text that recur (a move with its number, a move played by a side)
        # are remembered, a bounded number of each.
        written = (node.move or "", node.number)
        head = heads.get(written)
        if head is None:
            head = '{"move": ' + _string(written[0])
            if written[1] is not None:
                head += ', "number": ' + _string(written[1])
            if len(heads) < _STRINGS_KEPT:
                heads[written] = head
        if order >= reached or variant is None:
            out.append(head + "}")
            continue
        step = steps[order]
        if step.node is not node:
            raise ValueError("the game has changed since it was validated")
        # visit_step's fields: the ply, the side, the squares and path of the move (a path and
        # a FEN are made of square names, digits and separators: nothing to escape), the FEN
        # after it.
        white = step.before.turn is Color.WHITE
        played = step.move
        if played is None:
            middle = ', "side": "white"' if white else ', "side": "black"'
        else:
            key = (white, played.path, played.captures)
            middle = plays.get(key, "")
            if not middle:
                path = played.path
                captured = ", ".join(map(str, played.captures))
                middle = (
                    f', "side": "{"white" if white else "black"}", "from": {path[0]}, '
                    f'"to": {path[-1]}, "captured": [{captured}], '
                    f'"path": "{_path_of(played, variant)}"'
                )
                if len(plays) < _STRINGS_KEPT:
                    plays[key] = middle
        after = step.after
        if after is None:
            out.append(f'{head}, "ply": {step.ply}{middle}}}')
        else:
            out.append(f'{head}, "ply": {step.ply}{middle}, "fen": "{after.fen()}"}}')
    return out


_HEADS: dict[tuple[str, str | None], str] = {}
#: Per variant: (white to move, path, captures) -> the move's fields.
_PLAYS: dict[str, dict[tuple[bool, tuple[int, ...], tuple[int, ...]], str]] = {}


def _string(text: str) -> str:
    """A string as JSON text (as :func:`dumps` writes it), remembered: a collection writes the
    same few thousand moves and numbers."""
    known = _STRINGS.get(text)
    if known is None:
        known = json.dumps(text, ensure_ascii=False)
        if len(_STRINGS) < _STRINGS_KEPT:
            _STRINGS[text] = known
    return known


_STRINGS: dict[str, str] = {}
_STRINGS_KEPT = 1 << 15


def _completed(record: JsonDict, game: Game, report: Report | None) -> JsonDict:
    """The record a :class:`JsonBuilder` made, with the reader's and the replay's findings."""
    # The rules the game was replayed under (a failing guess retried), else the reader's
    # guess, and why: the file it came from is not read again.
    if report is None:
        record["variant"] = game.variant
        record["variant_source"] = game.variant_source
        record["variant_evidence"] = game.variant_evidence
    else:
        record["variant"] = report.variant_name
        record["variant_source"] = report.rules_source
        record["variant_evidence"] = report.rules_evidence
        record["status"] = report.status
        record["problems"] = [p.to_dict() for p in report.all_problems]
        if report.start is not None:
            record["start_fen"] = report.start.fen()
    return record


# Reading back -----------------------------------------------------------------------------
#
# A record is checked as strictly as the PDN reader checks text: every field the reader uses
# must have its type and a content the PDN reader could have produced, so that the game, written
# as PDN, reads back equal and injects nothing (a tag name holding '"]\n[Event', a terminator
# holding a second game).  A record that fails is refused with a message saying which field and
# why; what the PDN reader repairs with a warning (a byte that is not text, an odd tag name)
# is repaired here with the same warning.

# A value or a ';' or '%' comment ends at the line end.  (The reader never gives a "\r" at all:
# it reads one as a line end.)
_LINE_BREAK = re.compile(r"[\r\n]")
# The PDN tag name the reader reads without a warning (an odd one is kept, with a warning).
_GOOD_TAG_NAME = re.compile(r"[A-Z][A-Za-z0-9_]*")
# What ends a tag name in the text: the reader takes the name up to the first quote or bracket.
_TAG_NAME_ENDS = re.compile('["\\[\\]\\r\\n\u201c\u201d]')
# Strength marks and the PDN 2.0 star, as the grammar's STRENGTH and STAR terminals write them
# (several in a row are kept as one text).
_STRENGTH = re.compile(r"(?:\([!?]+\)|[!?]+|\*)+")
_SURROGATE = re.compile(r"[\ud800-\udfff]")  # (the regex escape: mypyc refuses the literal)


class _RecordReader:
    """Reads one record: the checks, and the repairs said as problems."""

    __slots__ = ("at", "problems", "where")

    def __init__(self, at: int | None) -> None:
        self.at = at  # the record's line in the JSON text, when known
        self.problems: list[Problem] = []

    def text(self, value: object, where: str) -> str:
        if not isinstance(value, str):
            raise JsonError(f"{where} must be a string, not {_kind(value)}")
        if not value.isascii() and _SURROGATE.search(value) is not None:
            # "\ud800" is valid JSON but no text: the PDN reader's answer to a byte that is not
            # text in its encoding, a U+FFFD and a warning.
            found = _SURROGATE.findall(value)
            self.problems.append(
                Problem(
                    "encoding",
                    f"{where} holds a lone surrogate escape (\\u{ord(found[0]):04x}), which is not "
                    f"text; replaced by U+FFFD",
                    line=self.at,
                    column=None if self.at is None else 1,
                )
            )
            value = _SURROGATE.sub("\ufffd", value)
        if "\r" in value:
            raise JsonError(
                f"{where} {_short(value)} holds a carriage return, which PDN text reads as a "
                "line end"
            )
        return value

    def one_line(self, value: object, where: str) -> str:
        text = self.text(value, where)
        if _LINE_BREAK.search(text) is not None:
            raise JsonError(f"{where} {_short(text)} holds a line break, which PDN cannot hold")
        return text

    def comments(self, items: object, where: str) -> list[Comment]:
        if not isinstance(items, list):
            raise JsonError(f"{where} must be a list of comments, not {_kind(items)}")
        comments = []
        for item in items:
            if not isinstance(item, dict):
                raise JsonError(f"{where}: a comment must be an object with 'text' and 'kind'")
            kind = item.get("kind", "brace")
            if kind not in ("brace", "line", "percent"):
                raise JsonError(f"{where}: unknown comment kind {_short(kind)}")
            text = self.text(item.get("text"), f"{where}: a comment's text")
            comments.append(Comment(self._comment_text(text, kind, where), kind))
        return comments

    def _comment_text(self, text: str, kind: str, where: str) -> str:
        # Refused rather than rewritten: any other form (two comments, a ';' comment) would
        # read back as a different game.
        if kind != "brace":
            if _LINE_BREAK.search(text) is not None:
                raise JsonError(
                    f"{where}: a {kind} comment {_short(text)} holds a line break; PDN ends "
                    "such a comment at the line end (write it as a brace comment)"
                )
            return text
        if "}" in text:
            raise JsonError(
                f"{where}: a brace comment {_short(text)} holds '}}', which PDN cannot hold "
                "in {...} (split it, or make it a line comment)"
            )
        from pdn.reading.cutting import (
            comment_reads_whole,  # here: the grammar is loaded when needed
        )

        if not comment_reads_whole(text):
            raise JsonError(
                f"{where}: a brace comment {_short(text)} holds a line that is a tag pair, "
                "which a PDN reader takes for the start of a game (a '{' after it, or no "
                "'}' soon after)"
            )
        return text

    def tag(self, pair: object) -> tuple[str, str]:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise JsonError(f"tag {_short(pair)} is not a [name, value] pair")
        name = self.text(pair[0], "a tag name")
        if not name or name != name.strip() or _TAG_NAME_ENDS.search(name) is not None:
            raise JsonError(
                f"tag name {_short(name)} is not one PDN can hold (empty, spaces at its ends, "
                "or a quote, bracket or line break in it)"
            )
        if _GOOD_TAG_NAME.fullmatch(name) is None:
            self.problems.append(
                Problem(
                    "odd-tag-name",
                    f"tag name {_short(name)} is not of the PDN 3.0 form [A-Z][A-Za-z0-9_]*",
                    line=self.at,
                )
            )
        # A quote and a backslash are escaped when written; a line break cannot be.
        return name, self.one_line(pair[1], f"the value of tag {name}")

    def number(self, value: object, where: str, *, positive: bool = True) -> int:
        if isinstance(value, TooLong):
            raise JsonError(f"{where} is an integer of {value.digits} digits, too long to read")
        if not isinstance(value, int) or isinstance(value, bool) or value < int(positive):
            least = "a positive" if positive else "a non-negative"
            raise JsonError(f"{where} must be {least} integer, not {_short(value)}")
        return value


def _kind(value: object) -> str:
    if isinstance(value, TooLong):
        return f"an integer of {value.digits} digits"
    if value is None:
        return "null"
    return _KINDS.get(type(value), f"a {type(value).__name__}")


_KINDS = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "an integer"}


def _short(value: object, limit: int = 60) -> str:
    """``value`` as Python writes it, cut to ``limit`` characters: built piece by piece with a
    stack, never more than ``limit`` pieces, so that a value nested thousands deep or holding
    megabytes costs no recursion and no more than the message shows (issue 33).

    >>> _short([[[[1, "a"]]], {"k": None}]), _short([[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]], 12)
    ("[[[[1, 'a']]], {'k': None}]", '[[[[[[[[[...')
    """
    pieces: list[str] = []
    size = 0
    stack: list[object] = [value]
    while stack and size <= limit:
        item = stack.pop()
        if isinstance(item, _Piece):
            piece = item.text
        elif isinstance(item, (list, dict)):
            piece = "[" if isinstance(item, list) else "{"
            stack.append(_Piece("]" if isinstance(item, list) else "}"))
            # Only as many members as could still show (each takes a character at least).
            members = list(
                itertools.islice(item.items() if isinstance(item, dict) else item, limit)
            )
            if len(item) > len(members):
                stack.append(_Piece(", ..."))
            for index in range(len(members) - 1, -1, -1):
                member = members[index]
                if isinstance(item, dict):
                    key, member = cast(tuple[object, object], member)
                    stack.append(member)
                    stack.append(_Piece(f"{_scalar(key, limit)}: "))
                else:
                    stack.append(member)
                if index:
                    stack.append(_Piece(", "))
        else:
            piece = _scalar(item, limit)
        pieces.append(piece)
        size += len(piece)
    text = "".join(pieces)
    return text if len(text) <= limit and not stack else text[: limit - 3] + "..."


class _Piece:
    """Text of a container's writing (a bracket, a separator) waiting on :func:`_short`'s
    stack among the values."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _scalar(value: object, limit: int) -> str:
    if isinstance(value, TooLong):
        return f"<{value.digits} digits>"
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit])[:-1]  # no closing quote: the text goes on
    if isinstance(value, (str, int, float, bool)) or value is None:
        return repr(value)
    return f"<{type(value).__name__}>"


def _record(data: object) -> JsonDict:
    # Parameters take ``object``, not JsonDict, so that what JSON text holds is checked here
    # in the compiled build too, where a typed parameter raises TypeError before any check.
    if not isinstance(data, dict):
        raise JsonError(f"a game record must be a JSON object, not {_kind(data)}")
    return data


def accept_dict(data: object, visitor: GameVisitor[T], *, at: int | None = None) -> T:
    """Drive ``visitor`` with the events of a game record (see :func:`game_from_dict`).

    Every field is checked before the visitor sees it: a record that does not follow the schema,
    or holds what PDN text cannot (a ``}`` in a brace comment, a line break in a tag value, a
    tag name or terminator that would read back as something else), raises :class:`JsonError`
    saying which field and why.  What the PDN reader repairs with a warning is repaired the same
    way and the warning given to the visitor (``visit_problem``): a lone surrogate escape
    (``"\\ud800"``) becomes U+FFFD, an odd tag name is kept.  ``at`` is the record's line in the
    JSON text, for those warnings.
    """
    data = _record(data)
    reader = _RecordReader(at)
    schema = data.get("schema")
    if schema != SCHEMA:
        said = "no schema" if schema is None else f"schema {_short(schema)}"
        raise JsonError(f"the record has {said}, not {SCHEMA!r}")
    kind = data.get("type", "game")
    if kind != "game":
        raise JsonError(f"a record of type {_short(kind)} is not a game")
    line = reader.number(data.get("line", 1), "line")
    index = reader.number(data.get("index", 1), "index")
    visitor.begin_game(GameStart(line, 1, index))
    for comment in reader.comments(data.get("comments_before_tags", []), "comments_before_tags"):
        visitor.visit_comment(comment)
    tags = data.get("tags", [])
    if not isinstance(tags, list):
        raise JsonError(f"tags must be a list of [name, value] pairs, not {_kind(tags)}")
    for pair in tags:
        visitor.visit_tag(*reader.tag(pair))
    if visitor.end_tags() is None:
        for comment in reader.comments(data.get("comments", []), "comments"):
            visitor.visit_comment(comment)
        _accept_line(data.get("moves", []), visitor, reader)
        terminator = data.get("terminator")
        if terminator is not None:
            terminator = reader.text(terminator, "terminator")
            if terminator not in TERMINATORS:
                raise JsonError(
                    f"terminator {_short(terminator)} is not a result ({', '.join(TERMINATORS)})"
                )
            visitor.visit_terminator(terminator)
    for problem in reader.problems:
        visitor.visit_problem(problem)
    visitor.end_game()
    return visitor.result()


def _accept_line(moves: object, visitor: GameVisitor[Any], reader: _RecordReader) -> None:
    # Iterative: a stack of the lines being walked, so any depth of variations is fine.
    if not isinstance(moves, list):
        raise JsonError(f"moves must be a list, not {_kind(moves)}")
    known_numbers, known_moves = _KNOWN_WORDS["number"], _KNOWN_WORDS["move"]
    no_comments: tuple[Comment, ...] = ()  # immutable: a visitor may keep what it is given
    stack: list[tuple[Iterator[Any], bool]] = [(iter(moves), False)]
    while stack:
        items, in_variation = stack[-1]
        item = next(items, _END)
        if item is _END:
            stack.pop()
            if in_variation:
                visitor.end_variation()
            continue
        if not isinstance(item, dict):
            raise JsonError(f"a move must be an object, not {_kind(item)}")
        number = item.get("number")
        if number is not None and not (type(number) is str and number in known_numbers):
            number = _checked_word(reader, number, item, "number")
        before = item.get("comments_before")
        if before is not None:
            before = reader.comments(before, f"{_where(item)}: comments_before")
        if "setup" in item:
            if "move" in item:
                raise JsonError(f"{_where(item)}: a move has both 'move' and 'setup'")
            fen = _checked_fen(reader, item)
            visitor.visit_setup(fen, number, before or no_comments, None, None)
        else:
            move = item.get("move")
            if not (type(move) is str and move in known_moves):
                move = _checked_word(reader, move, item, "move")
            visitor.visit_move(move, number, before or no_comments, None, None)
        strength = item.get("strength")
        if strength is not None:
            strength = reader.text(strength, f"{_where(item)}: strength")
            if _STRENGTH.fullmatch(strength) is None:
                raise JsonError(f"{_where(item)}: strength {_short(strength)} is not !, ?, (?)...")
            visitor.visit_strength(strength)
        nags = item.get("nags")
        if nags is not None:
            if not isinstance(nags, list):
                raise JsonError(f"{_where(item)}: nags must be a list, not {_kind(nags)}")
            for nag in nags:
                if type(nag) is not int or nag < 0:
                    reader.number(nag, f"{_where(item)}: NAG", positive=False)  # says why
                visitor.visit_nag(nag)
        after = item.get("comments_after")
        if after is not None:
            for comment in reader.comments(after, f"{_where(item)}: comments"):
                visitor.visit_comment(comment)
        variations = item.get("variations")
        if variations is None:
            continue
        if not isinstance(variations, list):
            raise JsonError(
                f"{_where(item)}: variations must be a list of lines, not {_kind(variations)}"
            )
        for variation in variations:
            if not isinstance(variation, list) or not variation:
                raise JsonError(f"{_where(item)}: a variation must be a non-empty list of moves")
        # The alternatives come after the move and before the next one, last pushed first.
        for variation in reversed(variations):
            stack.append((_opening(variation, visitor), True))


#: Moves and move numbers already found good, one set for each (``1. ...`` is a number, never
#: a move): a file writes the same few thousand again and again, so each is matched against
#: the grammar once (bounded, as the grammar's run words).
_KNOWN_WORDS: dict[str, set[str]] = {"move": set(), "number": set()}
_KNOWN_WORDS_KEPT = 1 << 15


def _where(item: JsonDict) -> str:
    # Only built for a message: most records need none.
    return f"move {_short(item.get('move', item.get('setup')))}"


def _checked_word(reader: _RecordReader, value: object, item: JsonDict, field: str) -> str:
    """A move or move number checked against the grammar's own patterns."""
    from pdn.reading.grammar import patterns  # here: the grammar is loaded only when needed

    where = _where(item)
    text = reader.text(value, where if field == "move" else f"{where}: number")
    found = patterns().split.fullmatch(text)
    if field == "move" and (found is None or found.group(2) != text):
        raise JsonError(f"{where} is not a move as PDN writes one")
    if field == "number" and (found is None or found.group(3) is None):
        raise JsonError(f"{where}: {_short(text)} is not a move number")
    known = _KNOWN_WORDS[field]
    if text == value and len(known) < _KNOWN_WORDS_KEPT:
        known.add(text)  # (not when a surrogate was replaced: that says a warning)
    return text


def _checked_fen(reader: _RecordReader, item: JsonDict) -> str:
    from pdn.reading.grammar import SETUP_PARTS

    where = _where(item)
    fen = reader.text(item["setup"], f"{where}: setup")
    setup = SETUP_PARTS.fullmatch(f'/FEN "{fen}"/')
    if setup is None or setup.group(2) != fen:
        raise JsonError(f'{where}: setup {_short(fen)} cannot stand in /FEN "..."/')
    return fen


def _opening(variation: list[Any], visitor: GameVisitor[Any]) -> Iterator[Any]:
    # Opens the variation when its walk starts, so that variations open in written order.
    visitor.begin_variation()
    yield from variation


def game_from_dict(data: object, *, at: int | None = None) -> Game:
    """Rebuild a :class:`~pdn.game.model.Game` from a game record (:func:`game_to_dict` output).

    The replay fields (``ply``, ``fen``...) are not read: they follow from the moves.  Raises
    :class:`JsonError` for a record that does not follow the schema or that PDN cannot hold
    (see :func:`accept_dict`, and ``at`` there).
    """
    data = _record(data)
    game = accept_dict(data, GameBuilder(), at=at)
    variant = data.get("variant")
    if variant is not None and not (isinstance(variant, str) and variant in VARIANTS):
        raise JsonError(f"variant {_short(variant)} is not one of {', '.join(sorted(VARIANTS))}")
    if isinstance(variant, str):
        source, evidence = data.get("variant_source"), data.get("variant_evidence")
        if isinstance(source, str) and isinstance(evidence, str):
            if source_sentence(source) == source:  # not a source pdn knows
                raise JsonError(f"variant_source {_short(source)} is not known")
            reader = _RecordReader(at)
            game.variant_source = source
            game.variant_evidence = reader.one_line(evidence, "variant_evidence")
            game.errors.extend(reader.problems)
        elif variant != game.variant:
            # A record without them: it names a variant the moves alone did not give.
            game.variant_source = "record"
            game.variant_evidence = f"the record's variant field ({variant})"
        game.variant = variant
    return game


# The end of an iterator (and of a document's lines).
_END = object()

_SIDES = {Color.BLACK: "black", Color.WHITE: "white"}


def _path_of(move: Move, variant: Variant) -> str:
    """The full path of a move, remembered by its squares (a tuple hashes in C, a move does
    not): the same few thousand moves come back in every game."""
    key = (variant.name, move.path, bool(move.captures))
    known = _PATHS.get(key)
    if known is None:
        from pdn.engine import move_text

        known = move_text(move, variant, full=True)
        if len(_PATHS) < _STRINGS_KEPT:
            _PATHS[key] = known
    return known


_PATHS: dict[tuple[str, tuple[int, ...], bool], str] = {}


def read_json_games(stream: IO[str]) -> Iterator[Game]:
    """The games of a JSON document or an NDJSON stream of game records.

    Never raises for bad input: a record that cannot be read becomes an empty game carrying a
    ``syntax-error`` problem with its line (and column), and reading goes on with the next
    record.  A text that is JSON but no game records (a ``pdn validate`` report, any other
    JSON) gives one empty game carrying a ``not-pdn`` error that says what it is.

    NDJSON, and a document laid out as ``pdn convert --to json`` writes it (:data:`GAMES_HEAD`,
    then a record a line), are read a line at a time: memory is that of one record, and each
    record's problems carry its line.  Another document is read whole.
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
    if _record_type(record) in _RECORD_TYPES:
        # NDJSON: one record per line.
        if _record_type(record) != "game":
            yield _not_games(record, number)
            return
        yield _game(record, number)
        for at, line in enumerate(stream, start=number + 1):
            if line.strip():
                yield _game_of_line(line, at)
        return
    if first.strip() == GAMES_HEAD:
        # The layout convert writes, a record a line: read as it comes, each record with its
        # line (a document laid out otherwise is read whole below).
        second = stream.readline()
        if _document_line(second) is not None:
            yield from _document_lines(second, stream, number + 1)
            return
        first += second
    text = first + stream.read()
    try:
        document = loads(text)
    except json.JSONDecodeError as exc:
        yield _unreadable(f"not valid JSON: {exc.msg}", exc.lineno + number - 1, exc.colno)
        return
    if _record_type(document) == "game":
        yield _game(document, number)  # one record, laid out over several lines
        return
    if isinstance(document, dict) and document.get("type") == "games":
        games = document.get("games")
        if document.get("schema") != SCHEMA or not isinstance(games, list):
            yield _not_games(document, number)
            return
    elif isinstance(document, list):
        games = document  # a bare list of game records
    else:
        yield _not_games(document, number)
        return
    for position, item in enumerate(games, start=1):
        yield _game(item, number, f"game {position} of the document: ")


#: The first line of a games document as ``pdn convert --to json`` writes it: then come the
#: records, one a line, each but the last followed by a comma, and a last line ``]}``.
def _record_type(value: object) -> object:
    """A record's ``type``: ``"game"`` when a record of the schema leaves it out (as
    :func:`accept_dict` reads it), ``None`` for what is no record."""
    if not isinstance(value, dict):
        return None
    return value.get("type", "game" if value.get("schema") == SCHEMA else None)


GAMES_HEAD = f'{{"schema": "{SCHEMA}", "type": "games", "games": ['


def _document_line(line: str) -> Any:
    """The record of a line of that layout (``_END`` for the closing ``]}``), or ``None``."""
    text = line.strip()
    if text == "]}":
        return _END
    try:
        return loads(text[:-1] if text.endswith(",") else text)
    except json.JSONDecodeError:
        return None


def _document_lines(second: str, stream: IO[str], number: int) -> Iterator[Game]:
    at = number
    for at, line in enumerate(itertools.chain([second], stream), start=number):
        if not line.strip():
            continue
        found = _document_line(line)
        if found is _END:
            rest = stream.read(1 << 16)
            if rest.strip():
                yield _unreadable("text after the end of the document", at + 1, 1)
            return
        if found is None:
            yield _game_of_line(line.strip().removesuffix(","), at)  # says why
        else:
            yield _game(found, at)
    yield _unreadable("the document ends before its closing ']}'", at, 1)


_RECORD_TYPES = ("game", "verdict", "summary")


def _not_games(document: object, line: int) -> Game:
    # Said once for the whole input, as the PDN reader says a file is binary: not-pdn.
    kind = document.get("type") if isinstance(document, dict) else None
    schema = document.get("schema") if isinstance(document, dict) else None
    if schema == SCHEMA and kind in ("verdict", "verdicts", "summary"):
        what = f"a pdn validate report ({SCHEMA} {kind!r} records)"
        advice = ": read the games it was made from"
    elif schema == SCHEMA and kind != "games":
        what, advice = f"{SCHEMA} records of type {_short(kind)}", ""
    elif kind == "games":
        what = f'a games document without "schema": "{SCHEMA}" and a list "games"'
        advice = ""
    else:
        what, advice = f'JSON ({_kind(document)}) without "schema": "{SCHEMA}"', ""
    message = f"this is {what}, not game records{advice} (see docs/json.md)"
    problem = Problem("not-pdn", message, line=line, column=1)
    return Game(line=line, errors=[problem], variant=None)


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
        return game_from_dict(record, at=line)
    except JsonError as exc:
        return _unreadable(f"{where}{exc}", line, 1)
