"""The classes users derive from stay open to subclasses in both builds.

The accelerated build compiles the reader, the model and the writers with mypyc, whose classes
refuse Python subclasses unless marked ``mypyc_attr(allow_interpreted_subclasses=True)``.
These tests run on whichever build is imported (CI runs them on both) and check that a
subclass can be made and that its overrides are called from the library's own (compiled) code.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest

import pdn
from pdn import Comment, Game, GameBuilder, Node, PdnWriter, Tags
from pdn.writing.annotate import Annotations, Annotator
from pdn.writing.jsonio import JsonBuilder

TEXT = '[Event "e"]\n1. 11-15 {a comment} 23-19 $1 2. 8-11 *\n'


@pytest.mark.parametrize("base", [GameBuilder, PdnWriter, JsonBuilder, Node, Tags])
def test_a_subclass_of_a_public_class_can_be_made(base: type) -> None:
    derived = type("Derived", (base,), {"extra": 1})
    assert isinstance(derived(), base) and derived().extra == 1


def test_a_subclass_of_the_records_keeps_their_fields() -> None:
    class Noted(Comment):
        pass

    class Kept(Game):
        pass

    assert Noted("x").text == "x"
    game = Kept()
    game.tags["Event"] = "e"
    assert game.tags["Event"] == "e" and isinstance(game.root, Node)


def test_an_overridden_writer_method_is_called_by_the_writer() -> None:
    class NoComments(PdnWriter):
        def visit_comment(self, comment: Comment) -> None:
            pass

    game = pdn.parse_game(TEXT)
    assert "{a comment}" in game.accept(PdnWriter())
    assert game.accept(NoComments()) == game.accept(PdnWriter()).replace(" {a comment}", "")


def test_an_overridden_builder_method_is_called_by_the_reader() -> None:
    class Upper(GameBuilder):
        def visit_move(
            self,
            move: str,
            number: str | None,
            before: Sequence[Comment],
            line: int | None,
            column: int | None,
        ) -> None:
            super().visit_move(move.replace("-", "x"), number, before, line, column)

    (raw,) = pdn.split_games(io.StringIO(TEXT))
    assert pdn.accept_raw(raw, Upper()).mainline_moves() == ["11x15", "23x19", "8x11"]


def test_an_overridden_json_method_is_called_by_the_json_builder() -> None:
    class NoNags(JsonBuilder):
        def visit_nag(self, nag: int) -> None:
            pass

    game = pdn.parse_game(TEXT)
    assert game.accept(JsonBuilder())["moves"][1] == {"move": "23-19", "nags": [1]}
    assert game.accept(NoNags())["moves"][1] == {"move": "23-19"}


def test_an_overridden_annotator_method_is_called_by_the_annotator() -> None:
    class NoTags(Annotator[str]):
        def visit_tag(self, name: str, value: str) -> None:
            pass

    game = pdn.parse_game(TEXT)
    added = Annotations(tags=[("Annotator", "pdn")], comments={0: [Comment("added")]})
    text = game.accept(NoTags(PdnWriter(), added))
    assert text.startswith('[Annotator "pdn"]') and "{a comment} {added}" in text
