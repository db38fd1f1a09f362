"""The accelerated build's two-way code: one flag, and each fast constructor equal to the slow one.

``pdn_engine.native`` and ``pdn.reading.native`` hold the only code that differs between the
compiled
and the pure build. Each build runs its own way: CI runs these tests on both builds, so each
way is checked against the record's own constructor, field by field (the records' equality
leaves some fields out).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import pdn
import pdn.reading.builder
import pdn_engine.build
import pdn_engine.lookup
import pdn_engine.native
from pdn.engine import COMPILED, ENGLISH, FRISIAN, Color, Move, Position
from pdn.game.model import Node
from pdn.reading.native import chain_nodes
from pdn_engine.native import new_move
from pdn_engine.position import next_position

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "build_support"))
from pdn_build import COMPILED as COMPILED_MODULES

ROOT = Path(__file__).resolve().parents[1]
MOVE_FIELDS = ("path", "captures", "king", "crowns")
POSITION_FIELDS = ("variant", "turn", "black", "white", "kings", "king_moves")
# A node's fields but the links (which point into each one's own tree); compiled, Node has no
# __slots__ to read them from.
NODE_FIELDS = (
    "move",
    "setup",
    "number",
    "strength",
    "_nags",
    "_before",
    "_after",
    "line",
    "column",
)


def _fields(record: object, names: tuple[str, ...]) -> tuple[object, ...]:
    return (type(record), *(getattr(record, name) for name in names))


@pytest.mark.parametrize(
    ("path", "captures", "king", "crowns"),
    [
        ((11, 15), (), False, False),
        ((9, 18, 27), (14, 23), True, False),
        ((25, 32), (), False, True),
    ],
)
def test_new_move_is_the_move_the_constructor_makes(
    path: tuple[int, ...], captures: tuple[int, ...], king: bool, crowns: bool
) -> None:
    made = new_move(path, captures, king, crowns)
    assert _fields(made, MOVE_FIELDS) == _fields(Move(path, captures, king, crowns), MOVE_FIELDS)
    assert made == Move(path, captures) and hash(made) == hash(Move(path, captures))


@pytest.mark.parametrize(("mover", "turn"), [(0, Color.WHITE), (1, Color.BLACK)])
def test_next_position_is_the_position_the_constructor_makes(mover: int, turn: Color) -> None:
    for variant, runs in ((ENGLISH, (0, 0, 0, 0)), (FRISIAN, (7, 2, 0, 0))):
        made = next_position(variant, mover, 0b1010, 0b0101 << 20, 0b10, runs)
        built = Position(variant, turn, 0b1010, 0b0101 << 20, 0b10, runs)
        assert _fields(made, POSITION_FIELDS) == _fields(built, POSITION_FIELDS)
        assert made == built and hash(made) == hash(built)


def test_chain_nodes_makes_the_nodes_the_constructor_makes() -> None:
    moves, numbers = ["11-15", "23-19", "8-11"], ["1.", None, "2."]
    lines, columns = [1, 1, 2], [1, 10, 1]
    root = Node()
    last = chain_nodes(root, moves, numbers, lines, columns)
    made: list[Node] = []
    node = root
    while node.variations:
        [node] = node.variations
        made.append(node)
    assert last is made[-1]
    if not COMPILED:
        assert {*NODE_FIELDS, "parent", "variations"} == set(Node.__slots__)
    parent = Node()
    for move, number, line, column, got in zip(moves, numbers, lines, columns, made, strict=True):
        built = Node(move, None, number, parent=parent, line=line, column=column)
        assert _fields(got, NODE_FIELDS) == _fields(built, NODE_FIELDS)
        parent = built
    assert [n.parent for n in made] == [root, *made[:-1]]
    assert made[-1].variations == [] and made[-1].nags == [] and made[-1].comments_before == []


def test_the_builder_makes_its_nodes_with_chain_nodes() -> None:
    # The builder's loop is the two-way function itself, called directly (no wrapper), and
    # what it builds is the game a model built by the constructors equals.
    assert pdn.reading.builder.chain_nodes is chain_nodes
    read = pdn.parse_game("1. 11-15 23-19 2. 8-11 *")
    by_hand = pdn.Game()
    node = by_hand.root
    for move, number in (("11-15", "1."), ("23-19", None), ("8-11", "2.")):
        node = node.add_variation(move, number=number)
    assert read.root == by_hand.root


def test_one_module_sets_the_flag_and_every_module_reads_it() -> None:
    setters = []
    for folder in (ROOT / "pdn", ROOT / "engine" / "pdn_engine"):
        for path in sorted(folder.glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                targets = (
                    [node.target]
                    if isinstance(node, ast.AnnAssign)
                    else getattr(node, "targets", [])
                )
                if any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in targets):
                    setters.append(path.relative_to(ROOT).as_posix())
    assert setters == ["engine/pdn_engine/build.py"]
    assert COMPILED is pdn_engine.native.COMPILED is pdn_engine.build.COMPILED
    assert (not pdn_engine.native.__file__.endswith(".py")) == COMPILED


def test_the_two_way_modules_are_compiled_with_the_others() -> None:
    # Compiled alone or left out, a module's own __file__ would say the wrong build.
    assert {
        "pdn_engine.build",
        "pdn_engine.native",
        "pdn.reading.native",
        "pdn_engine.perft",
    } <= set(COMPILED_MODULES)


def test_the_replay_calls_the_fast_constructors_directly() -> None:
    assert pdn_engine.lookup.new_move is new_move
    assert pdn_engine.lookup.next_position is next_position


@pytest.mark.parametrize("first", ["native", "position", "lookup", "perft"])
def test_the_engine_imports_in_any_order(first: str, tmp_path: Path) -> None:
    # position and native import each other: either may come first.
    code = (
        f"import pdn_engine.{first}\n"
        "from pdn_engine.position import Position\n"
        "from pdn_engine.variants import ENGLISH\n"
        "from pdn_engine.perft import perft\n"
        "print(perft(Position.start(ENGLISH), 4))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert done.stdout.strip() == "1469"
