"""The reader on hand-written input: structure, quirks of real files, errors, encodings, sources."""

from __future__ import annotations

import io
import pickle
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

import pdn
import pdn.reading.cutting
import pdn.reading.parsing
from pdn import Comment, Game, parse_game, parse_games, read_games, write_game
from pdn.game.visitor import GameStart
from pdn.reading.reader import RawGame, split_games
from pdn.text import decoding as reader_module

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "reader"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def moves(game: Game) -> list[str]:
    return [node.move for node in game.mainline() if node.move is not None]


def codes(game: Game) -> list[str]:
    return [problem.code for problem in game.errors]


def only(text: str | bytes) -> Game:
    games = list(parse_games(text))
    assert len(games) == 1, [g.tags.items() for g in games]
    return games[0]


# --- structure ------------------------------------------------------------------------------


def test_a_simple_game() -> None:
    game = only('[Event "Open"]\n[Result "0-1"]\n\n1. 11-15 24-20 2. 8-11 28-24 0-1\n')
    assert game.tags.items() == [("Event", "Open"), ("Result", "0-1")]
    assert moves(game) == ["11-15", "24-20", "8-11", "28-24"]
    assert [node.number for node in game.mainline()] == ["1.", None, "2.", None]
    assert game.terminator == "0-1"
    assert game.result == "0-1"
    assert game.errors == []
    assert (game.index, game.line, game.encoding) == (1, 1, "unicode")
    assert (game.variant, game.variant_source) == ("english", "squares")


def test_positions_are_absolute_and_one_based() -> None:
    text = '[Event "a"]\n1. 11-15 *\n\n[Event "b"]\n\n1. 9-13\n   22-18 *\n'
    first, second = parse_games(text)
    assert (first.line, second.line) == (1, 4)
    assert (second.index, first.index) == (2, 1)
    nine, twenty_two = second.mainline()
    assert (nine.line, nine.column) == (6, 4)
    assert (twenty_two.line, twenty_two.column) == (7, 4)


def test_nodes_are_linked_to_their_parents() -> None:
    game = only("1. 11-15 24-20 (22-18 15x22) 2. 8-11 *")
    first = game.root.variations[0]
    assert first.parent is game.root
    main, alternative = first.variations
    assert (main.move, alternative.move) == ("24-20", "22-18")
    assert alternative.parent is first
    assert alternative.variations[0].move == "15x22"
    assert alternative.variations[0].parent is alternative
    assert not alternative.is_mainline() and main.is_mainline()


def test_nested_variations_and_walk_order() -> None:
    game = only("32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23")
    walked = [(node.move, depth) for node, depth in game.walk()]
    assert walked == [
        ("32-28", 1),
        ("19-23", 2),
        ("18-23", 2),
        ("38-32", 3),
        ("37-32", 3),
        ("23-29", 4),
        ("12-18", 4),
        ("28x19", 3),
        ("14x23", 4),
    ]
    node = game.root.variations[0].variations[1].variations[1]
    assert (node.move, node.strength) == ("37-32", "?")
    assert node.variations[0].comments_after == [Comment(" Black wins ")]
    assert game.count_moves() == 9


def test_variation_before_any_move_is_an_alternative_to_the_next_move() -> None:
    game = only("( 1. 33-29 ) 1. 32-28 19-23 *")
    assert [node.move for node in game.root.variations] == ["32-28", "33-29"]
    assert all(node.parent is game.root for node in game.root.variations)


def test_comments_before_and_after_moves() -> None:
    game = only("{start} 1. 11-15 {after} 24-20 2. {before} 8-11 ( {first} 9-14 ) *")
    assert game.root.comments_after == [Comment("start")]
    eleven, twenty_four, eight = game.mainline()
    assert eleven.comments_after == [Comment("after")]
    assert eight.comments_before == [Comment("before")]
    assert twenty_four.variations[1].comments_before == [Comment("first")]


def test_comments_around_the_tags_are_kept() -> None:
    game = only('% escape line\n{a}\n[Event "x"]\n{b}\n[Site "y"] ; line\n{c} 1. 11-15 *')
    assert game.root.comments_before == [
        Comment(" escape line", "percent"),
        Comment("a"),
        Comment("b"),
    ]
    assert game.root.comments_after == [Comment(" line", "line"), Comment("c")]


def test_comments_may_hold_anything_but_a_closing_brace() -> None:
    text = '1. 11-15 {if 1-0 then [x] (y) ; "z" 17....23-16\nsee [Event "no"]} 24-20 1-0'
    game = only(text)
    assert game.root.variations[0].comments_after[0].text.startswith("if 1-0 then")
    assert moves(game) == ["11-15", "24-20"]
    assert game.terminator == "1-0"


def test_a_tag_line_inside_a_comment_means_it_was_never_closed() -> None:
    first, second = parse_games('1. 11-15 {forgot to close\n[Event "next"]\n1. 9-14 } *')
    assert first.errors[0].message == "unclosed comment opened at 1:10"
    assert second.tags["Event"] == "next"


def test_line_comments_only_in_movetext() -> None:
    game = only("1. 11-15 ; comment (with 1-0)\n24-20 {a ; b} *")
    eleven, twenty_four = game.mainline()
    assert eleven.comments_after == [Comment(" comment (with 1-0)", "line")]
    assert twenty_four.comments_after == [Comment("a ; b")]


def test_setup_commands_are_nodes() -> None:
    game = only(fixture("setup.pdn"))
    nodes = list(game.mainline())
    assert [(n.move, n.setup) for n in nodes] == [
        ("32-28", None),
        ("19-23", None),
        (None, "W:W28,33:B19,23"),
        ("28x19", None),
        (None, "B::"),
    ]
    assert nodes[3].number == "2."
    assert game.count_moves() == 3


def test_move_strength_and_nags() -> None:
    game = only("1.32-28!? 19-23(!?!!!) 2.28x19 $902 $1 14x23 ! 27-20* 3-8 (?) *")
    nodes = list(game.mainline())
    assert [n.strength for n in nodes] == ["!?", "(!?!!!)", None, "!", "*", "(?)"]
    assert nodes[2].nags == [902, 1]
    assert game.terminator == "*"


def test_parenthesised_strength_is_not_a_variation() -> None:
    game = only("1. 32-28 (?) 19-23 ( 2. 37-32? 23-29 ) 2. 28x19 *")
    first = game.root.variations[0]
    assert first.strength == "(?)"
    # The variation after 19-23 holds alternatives to 19-23.
    assert [n.move for n in first.variations] == ["19-23", "37-32"]
    assert [n.move for n in first.variations[0].variations] == ["28x19"]


# --- move and number forms --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("26x17x10x1 *", ["26x17x10x1"]),
        ("1.32-28 1/2-1/2", ["32-28"]),
        ("1. ... 7-12 2. 13-8 *", ["7-12", "13-8"]),
        ("1... 19-23 *", ["19-23"]),
        ("01. 06-11 *", ["06-11"]),
        ("1- 6 47x 9 4x 1 *", ["1- 6", "47x 9", "4x 1"]),
        ("28:17 d4:b6 12X23 *", ["28:17", "d4:b6", "12X23"]),
        ("1.a3b4 A3-B4 3228 *", ["a3b4", "A3-B4", "3228"]),
        ("23-32 29-18-27 12-21-32-23 *", ["23-32", "29-18-27", "12-21-32-23"]),
        ("41. - - 42. - - *", ["- -", "- -"]),
        ("1. 32-28\n19-23 2.\n28x19 *", ["32-28", "19-23", "28x19"]),
        ("  1.  6x15\t 2. 9-13 *", ["6x15", "9-13"]),
        ("1.\u00a011-15\u00a023-19 *", ["11-15", "23-19"]),
    ],
)
def test_move_forms(text: str, expected: list[str]) -> None:
    game = only(text)
    assert moves(game) == expected
    assert [p.code for p in game.errors if p.severity == "error"] == []


def test_numbers_are_kept_as_written() -> None:
    game = only("1. ... 7-12 2. 13-8 12... 9-14 1.32-28 *")
    assert [n.number for n in game.mainline()] == ["1. ...", "2.", "12...", "1."]


def test_a_number_without_move_is_reported() -> None:
    game = only("1. 11-15 24-20 2. 1-0")
    assert moves(game) == ["11-15", "24-20"]
    (problem,) = game.errors
    assert problem.code == "dangling-move-number"
    assert (problem.line, problem.column) == (1, 16)
    assert "'2.'" in problem.message


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("1. e4 e5 2. Nf3 Nc6 1-0", "{1.} {e4 e5} {2.} {Nf3 Nc6} 1-0"),
        ("1. 11-15 {a} 2. {b} 3. 23-19 *", "1. 11-15 {a} {2.} {b} 3. 23-19 *"),
        ("1. 11-15 ( {a} 1. {b} ) 23-19 *", "1. 11-15 {(} {a} {1.} {b} {)} 23-19 *"),
        ("1. 11-15 ({a} 1. {b} 2. 9-13) *", "1. 11-15 (2. {a} {1.} {b} 9-13) *"),
    ],
)
def test_a_number_without_move_keeps_its_place_among_comments(text: str, written: str) -> None:
    """The comments after a number wait for its move; when none comes, the number (kept as a
    comment) goes before them, not after."""
    assert write_game(only(text)).strip() == written


def test_unknown_moves_are_kept_and_reported() -> None:
    game = only("1. - - 2. - - 1-0")
    assert moves(game) == ["- -", "- -"]
    assert codes(game) == ["unknown-move", "unknown-move"]
    assert game.errors[1].column == 11


# --- results and terminators ------------------------------------------------------------------


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"])
def test_every_result_ends_a_game(result: str) -> None:
    first, second = parse_games(f"1. 32-28 19-23 {result}\n1. 33-28 *")
    assert first.terminator == result
    assert moves(first) == ["32-28", "19-23"]
    assert moves(second) == ["33-28"]


def test_results_never_eat_moves() -> None:
    game = only("1. 1-10 10-15 2. 1-1")
    assert moves(game) == ["1-10", "10-15"]
    assert game.terminator == "1-1"
    game = only("1. 01-05 0-1")
    assert moves(game) == ["01-05"]
    assert game.terminator == "0-1"


def test_a_result_tag_is_kept_apart_from_the_terminator() -> None:
    game = only('[Result "1/2-1/2"]\n1. 11-15 *')
    assert (game.tags["Result"], game.terminator, game.result) == ("1/2-1/2", "*", "1/2-1/2")
    game = only("1. 11-15 1-0")
    assert "Result" not in game.tags and game.result == "1-0"


def test_star_glued_to_a_move() -> None:
    # PDN 2.0 "star" (only move) when more movetext follows; the terminator at the end.
    game = only("27-20* 19-23 27-20*")
    assert [n.strength for n in game.mainline()] == ["*", None, None]
    assert game.terminator == "*"
    first, second = parse_games('27-20*\n[Event "next"] *')
    assert first.terminator == "*" and second.tags["Event"] == "next"


def test_games_without_terminators() -> None:
    first, second = parse_games(fixture("no_terminators.pdn"))
    assert (first.terminator, second.terminator) == (None, None)
    assert moves(first) == ["32-28", "19-23"] and moves(second) == ["33-28", "18-23"]
    (warning,) = first.errors
    assert (warning.code, warning.severity, warning.line) == ("missing-terminator", "warning", 2)
    (notice,) = second.errors
    assert (notice.code, notice.severity) == ("missing-terminator", "notice")


def test_tags_only_and_moves_only() -> None:
    (tags_only,) = parse_games('[Event "a"]\n[FEN "W:W31-50:B1-20"]')
    assert tags_only.tags["Event"] == "a" and not tags_only.root.variations
    assert tags_only.errors == []
    (moves_only,) = parse_games("1.32-28 1/2-1/2")
    assert not moves_only.tags and moves(moves_only) == ["32-28"]


def test_a_tag_and_its_terminator_on_one_line() -> None:
    games = list(parse_games('[FEN "B:W21-32:B1-12"] *\r\n[FEN "W:W18:B14"] *\r\n'))
    assert [g.tags["FEN"] for g in games] == ["B:W21-32:B1-12", "W:W18:B14"]
    assert [g.terminator for g in games] == ["*", "*"]


def test_a_result_inside_a_variation_becomes_a_comment() -> None:
    game = only("1. 32-28 19-23 ( 18-23 1-0 ) 2. 38-32 *")
    alternative = game.root.variations[0].variations[1]
    assert alternative.comments_after == [Comment("1-0")]
    assert codes(game) == ["junk"]
    assert game.terminator == "*"


# --- tags -----------------------------------------------------------------------------------


def test_tag_quirks() -> None:
    game = only(fixture("quirks.pdn"))
    assert game.tags.items() == [
        ("Event", "Quirks"),
        ("Site", "Here"),
        ("Date", "2009.04.08"),
        ("Type de jeu", "20"),
        ("R&#x00e9;sultat", "1-1"),
        ("isBot", "false"),
        ("Site", '"64", 1974'),
        ("Result", "1-1"),
    ]
    assert game.tags["Site"] == "Here" and game.tags.get_all("Site")[1] == '"64", 1974'
    odd = [p for p in game.errors if p.code == "odd-tag-name"]
    assert [(p.line, p.column) for p in odd] == [(5, 1), (6, 1), (7, 1)]
    junk = [p for p in game.errors if p.code == "junk"]
    assert [(p.line, p.message) for p in junk] == [
        (2, "'[Empty]' at 2:1 is not a tag pair; kept as a comment")
    ]
    assert game.root.comments_before == [
        Comment(" a PDN file with the quirks of real files", "percent"),
        Comment("[Empty]"),  # kept (issue 22): the faithful writer writes it back as read
    ]
    assert game.root.comments_after == [Comment(" comment before the first move ")]


def test_quirks_moves() -> None:
    game = only(fixture("quirks.pdn"))
    assert moves(game) == [
        "32-28",
        "19-23",
        "37-32",
        "14-19",
        "- -",
        "1- 6",
        "47x 9",
        "06-11",
        "38-33",
    ]
    assert [n.number for n in game.mainline()][-1] == "01."
    assert game.root.variations[0].variations[0].variations[0].nags == [902]
    assert [p.code for p in game.errors if p.severity == "error"] == []


def test_escapes_in_tag_values() -> None:
    game = only('[Site "\\"64\\", 1974"]\n[Path "C:\\\\games\\\\"]\n[Odd "a\\b"] *')
    assert game.tags["Site"] == '"64", 1974'
    assert game.tags["Path"] == "C:\\games\\"
    assert game.tags["Odd"] == "a\\b"


def test_curly_quotes_and_damaged_tags() -> None:
    game = only(fixture("nbsp_curly.pdn"))
    assert game.tags["Event"] == "Open \u201cWinter\u201d 2009"
    assert game.tags["White"] == "Smith, J."
    assert moves(game) == ["11-15", "23-19", "8-11"]
    game = only('[Event "The "Big" Match"]\n1. 11-15 *')
    assert game.tags["Event"] == 'The "Big" Match'
    assert codes(game) == ["bad-tag"]


def test_tags_may_stand_on_one_line_with_blank_lines_between() -> None:
    game = only('[Event "a"] [Site "b"]\n\n\n[Date "c"]\n\n1. 11-15 *')
    assert game.tags.names() == ["Event", "Site", "Date"]


def test_tags_class() -> None:
    tags = pdn.Tags()
    tags["Event"] = "a"
    tags.add("Event", "b")
    tags["Event"] = "c"
    assert tags.items() == [("Event", "c"), ("Event", "b")]
    assert "Event" in tags and "Site" not in tags and len(tags) == 2
    assert list(tags) == [("Event", "c"), ("Event", "b")]
    with pytest.raises(KeyError):
        tags["Site"]
    del tags["Event"]
    assert len(tags) == 0


# --- recovery --------------------------------------------------------------------------------


def test_errors_are_located_and_reading_goes_on() -> None:
    games = list(parse_games(fixture("errors.pdn")))
    assert [g.tags["Event"] for g in games] == [
        "Unclosed comment",
        "Unclosed variation",
        "Stray parenthesis",
        "Nested comment",
        "After the errors",
    ]
    unclosed_comment, unclosed_variation, stray, nested, clean = games
    first = unclosed_comment.errors[0]
    assert (first.code, first.message) == (
        "unclosed-comment",
        "unclosed comment opened at 4:10",
    )
    assert moves(unclosed_comment) == ["11-15"]
    assert unclosed_comment.root.variations[0].comments_after[0].text.startswith(" this comment")
    problem = unclosed_variation.errors[0]
    assert (problem.code, problem.message) == (
        "unclosed-variation",
        "unclosed variation opened at 9:10",
    )
    problem = stray.errors[0]
    assert (problem.code, problem.line, problem.column) == ("unopened-variation", 14, 10)
    assert problem.message == "unexpected ')' at 14:10: no variation is open; kept as a comment"
    assert moves(stray) == ["11-15", "24-20"]
    assert codes(nested) == ["nested-comment", "syntax-error"]
    assert moves(nested) == ["11-15", "24-20"]
    assert clean.errors == [] and moves(clean) == ["11-15", "24-20"]


def test_glued_text_is_kept_as_a_comment() -> None:
    game = only(fixture("glued_text.pdn"))
    assert moves(game) == ["11-15", "23-19", "8-11"]
    last = list(game.mainline())[-1]
    assert last.comments_after == [Comment("Redoversteppedthetimecontrolonthismove.")]
    (problem,) = game.errors
    assert (problem.code, problem.severity, problem.line, problem.column) == (
        "junk",
        "warning",
        4,
        23,
    )
    assert game.terminator == "1-0"


def test_stray_tokens() -> None:
    game = only('[Event "x"]\n1. 11-15 . 24-20 } ) 3 $ 1-0')
    assert moves(game) == ["11-15", "24-20"]
    # "3 $": two junk words in a row, one comment and one problem.
    assert codes(game) == ["junk", "syntax-error", "unopened-variation", "junk"]
    assert game.errors[-1].message == "2 words '3 $' at 2:22 are not PDN; kept as one comment"


def test_unclosed_comment_at_the_end_of_the_input() -> None:
    game = only("1. 11-15 {never closed\n24-20 1-0\n")
    assert codes(game) == ["unclosed-comment", "missing-terminator"]
    assert game.root.variations[0].comments_after == [Comment("never closed\n24-20 1-0")]


def test_deeply_nested_variations() -> None:
    depth = 3000
    text = "1. 11-15 " + "(9-14 " * depth + ")" * depth + " 24-20 *"
    game = only(text)
    assert game.errors == []
    assert game.count_moves() == depth + 2
    unclosed = only("1. 11-15 " + "(9-14 " * 50 + "*")
    assert codes(unclosed).count("unclosed-variation") == 50


def test_very_long_games() -> None:
    text = "1. 11-15 " + " ".join(f"{i}. 1-5 5-1" for i in range(2, 5000)) + " *"
    game = only(text)
    assert game.count_moves() == 1 + 2 * 4998
    assert game == parse_game(str(game))


def test_no_exception_for_odd_input() -> None:
    for text in [
        "",
        " \n\t",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        '"',
        "%",
        ";",
        "/",
        "$",
        "*",
        "1.",
        "\x00",
    ]:
        for game in parse_games(text):
            assert isinstance(game, Game)
        assert isinstance(parse_game(text), Game)


def test_a_failure_inside_the_reader_stops_only_its_game() -> None:
    # A visitor that fails on one run of moves stands for a bug of the reader (a class of a
    # compiled module cannot be patched, so the failure comes through a subclass).
    class Failing(pdn.GameBuilder):
        def visit_moves(
            self,
            moves: list[str],
            numbers: list[str | None],
            before: Sequence[Comment],
            lines: list[int],
            columns: list[int],
        ) -> None:
            if "23-19" in moves:
                raise RuntimeError("boom")
            super().visit_moves(moves, numbers, before, lines, columns)

    text = '[Event "a"]\n1. 11-15 {c} 23-19 *\n[Event "b"]\n1. 9-13 *'
    games = [pdn.accept_raw(raw, Failing()) for raw in split_games(io.StringIO(text))]
    assert [g.tags["Event"] for g in games] == ["a", "b"]
    (problem,) = games[0].errors
    assert problem.code == "internal-error" and "RuntimeError: boom" in problem.message
    assert (problem.line, problem.column) == (1, 1)
    # What was read before the failure is kept.
    assert games[0].mainline_moves() == ["11-15"]
    assert games[0].root.variations[0].comments_after == [Comment("c")]
    assert games[1].errors == [] and games[1].mainline_moves() == ["9-13"]


def test_read_game_on_empty_input() -> None:
    game = parse_game("")
    assert codes(game) == ["empty-game"]


def test_comment_only_text_is_an_empty_game() -> None:
    game = only("{just a comment}")
    assert codes(game) == ["empty-game"]
    assert game.root.comments_after == [Comment("just a comment")]


def test_binary_files_are_reported() -> None:
    (game,) = parse_games(fixture("paintnet.pdn"))
    (problem,) = game.errors
    assert (problem.code, problem.severity, problem.line) == ("not-pdn", "error", 1)
    assert "Paint.NET" in problem.message
    (game,) = parse_games(b"\x00\x01\x02 binary")
    assert codes(game) == ["not-pdn"]


# --- encodings and line ends ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "encoding", "tag", "value"),
    [
        ("cp1252.pdn", "cp1252", "White", "Lefèvre, André"),
        ("cp1251.pdn", "cp1251", "White", "Михальченко И."),
        ("latin1.pdn", "latin-1", "Event", "Tournoi \x81 été"),
        ("bom.pdn", "utf-8-sig", "Event", "BOM é"),
    ],
)
def test_encodings_are_detected(name: str, encoding: str, tag: str, value: str) -> None:
    game = only(fixture(name))
    assert game.encoding == encoding
    assert game.tags[tag] == value
    if encoding == "utf-8-sig":
        assert game.errors == []
    else:  # a guess is said to be one
        (problem,) = game.errors
        assert (problem.code, problem.severity) == ("encoding", "warning")
        assert "not UTF-8" in problem.message and "a guess" in problem.message


def test_utf8_with_a_few_latin1_lines_stays_utf8_and_says_where() -> None:
    data = '[Event "Zürich"]\n1. 11-15 *\n'.encode() + '[Event "Genève"]\n[Site "Köln"]\n'.encode(
        "latin-1"
    )
    first, second = parse_games(data + b"1. 9-13 *\n")
    assert first.tags["Event"] == "Zürich" and first.errors == []
    assert second.encoding == "utf-8"
    assert [(p.code, p.line, p.column) for p in second.errors] == [
        ("encoding", 3, 12),
        ("encoding", 4, 9),
    ]
    assert "byte E8" in second.errors[0].message


def test_damaged_utf8_is_replaced_and_reported() -> None:
    game = only(fixture("damaged_utf8.pdn"))
    assert game.encoding == "utf-8"
    assert game.tags["White"] == "Михальченко \ufffd?."
    assert game.tags["Event"] == "Чемпионат"
    (problem,) = game.errors
    assert (problem.code, problem.severity, problem.line, problem.column) == (
        "encoding",
        "warning",
        2,
        21,
    )
    assert "D0" in problem.message and "byte offset 60" in problem.message


def test_a_forced_encoding() -> None:
    game = only_from(fixture("cp1252.pdn"), encoding="cp1251")
    assert game.encoding == "cp1251"
    assert game.tags["Site"] != "Évry"


def only_from(data: bytes, **options: str) -> Game:
    games = list(parse_games(data, **options))  # type: ignore[arg-type]
    assert len(games) == 1
    return games[0]


def test_line_ends() -> None:
    games = list(parse_games(fixture("line_ends.pdn")))
    assert [g.tags["Event"] for g in games] == ["CR only", "CRLF", "LF"]
    assert [g.line for g in games] == [1, 6, 11]
    assert [(n.line, n.column) for n in games[2].mainline()] == [(14, 4), (15, 1)]


def test_literal_backslash_r_at_line_ends() -> None:
    game = only(fixture("literal_cr.pdn"))
    assert game.tags.items() == [("Event", "broken export"), ("Site", ""), ("Result", "0-1")]
    assert moves(game) == ["11-15", "24-20"] and game.terminator == "0-1"
    assert game.errors == []


# --- sources and streaming --------------------------------------------------------------------


def test_every_kind_of_source(tmp_path: Path) -> None:
    data = fixture("cp1252.pdn")
    path = tmp_path / "game.pdn"
    path.write_bytes(data)
    expected = only(data)
    files: list[object] = [path, str(path), io.BytesIO(data), io.StringIO(data.decode("cp1252"))]
    for source in files:
        assert list(read_games(source)) == [expected]  # type: ignore[arg-type]
    for text in (data, data.decode("cp1252")):
        assert list(parse_games(text)) == [expected]
    with path.open("rb") as binary:
        assert list(read_games(binary)) == [expected]
    with path.open(encoding="cp1252") as handle:
        (game,) = read_games(handle)
        assert game == expected and game.encoding == "cp1252"


def test_small_blocks_give_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"".join(fixture(name) for name in ("quirks.pdn", "errors.pdn", "line_ends.pdn"))
    data = data * 8 + fixture("literal_cr.pdn") + '\n[Event "Й"]\r\n1. 1-10 1-1\r\n'.encode()
    assert len(data) > 4096  # the first read takes 4096 bytes whatever the block size
    whole = list(parse_games(data))
    for size in (1, 2, 3, 7, 64, 65, 100):
        monkeypatch.setattr(reader_module, "BLOCK_SIZE", size)
        pieces = list(read_games(io.BytesIO(data)))
        assert pieces == whole
        assert [g.line for g in pieces] == [g.line for g in whole]
        assert [g.errors for g in pieces] == [g.errors for g in whole]
        assert [g.encoding for g in pieces] == [g.encoding for g in whole]
        assert [[(n.line, n.column) for n, _ in g.walk()] for g in pieces] == [
            [(n.line, n.column) for n, _ in g.walk()] for g in whole
        ]


def test_damage_is_located_across_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader_module, "BLOCK_SIZE", 5)
    data = b"\n" * 4096 + fixture("damaged_utf8.pdn") * 2
    games = list(read_games(io.BytesIO(data)))
    assert [[(p.code, p.line, p.column) for p in g.errors] for g in games] == [
        [("encoding", 4098, 21)],
        [("encoding", 4103, 21)],
    ]


def test_games_before_the_first_non_ascii_byte_are_utf8() -> None:
    data = b'[Event "a"]\n1. 11-15 *\n[Site "Caf\xe9"]\n1. 9-13 *\n[Event "b"] *\n'
    assert [g.encoding for g in parse_games(data)] == ["utf-8", "cp1252", "cp1252"]


def test_raw_games_can_be_parsed_elsewhere() -> None:
    raws = list(split_games(io.BytesIO(fixture("errors.pdn"))))
    assert [raw.index for raw in raws] == [1, 2, 3, 4, 5]
    moved = pickle.loads(pickle.dumps(raws))
    assert all(isinstance(raw, RawGame) for raw in moved)
    assert [pdn.parse_raw(raw) for raw in moved] == list(parse_games(fixture("errors.pdn")))
    assert [pdn.parse_raw(raw).errors for raw in moved] == [
        g.errors for g in parse_games(fixture("errors.pdn"))
    ]


def test_games_are_read_lazily() -> None:
    games = read_games(io.StringIO("1. 11-15 *\n" * 3 + "{"))
    assert moves(next(games)) == ["11-15"]


def test_a_game_that_never_ends_is_kept_to_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # Past MAX_GAME_CHARS the game is read no further, but it is still one game (no phantom
    # games cut out of its text), with an error that says where it was cut and where it ends.
    monkeypatch.setattr(pdn.reading.cutting, "MAX_GAME_CHARS", 200)
    monkeypatch.setattr(reader_module, "BLOCK_SIZE", 50)
    text = "{" + "x\n" * 400
    (game,) = read_games(io.StringIO(text))
    (too_long,) = [p for p in game.errors if p.code == "game-too-long"]
    assert (too_long.line, too_long.column) == (100, 2)  # the last line end within 200
    assert "up to 401:1" in too_long.message


def test_an_overlong_single_line_is_cut_between_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdn.reading.cutting, "MAX_GAME_CHARS", 300)
    monkeypatch.setattr(reader_module, "BLOCK_SIZE", 64)
    moves = [f"{a}-{b}" for a in range(10, 30) for b in range(10, 30)][:2500]
    text = '[Event "long"] ' + " ".join(moves) + ' *\n[Event "next"] 1. 9-13 *'
    first, second = read_games(io.StringIO(text))
    # What is kept of the long game is its first moves, none cut in half; the next game is
    # read whole.
    kept = first.mainline_moves()
    assert 0 < len(kept) < len(moves) and kept == moves[: len(kept)]
    assert [p.code for p in first.errors] == ["game-too-long"]
    assert second.tags["Event"] == "next" and second.mainline_moves() == ["9-13"]


def test_a_run_of_moves_is_lexed_in_bounded_pieces() -> None:
    # One line of 30,000 moves: the grammar's MOVES terminal takes at most 2,001 words at a
    # time (an unbounded regex repetition costs memory in proportion to its length).
    moves = ["11-15", "23-19"] * 15_000
    game = pdn.parse_game(" ".join(moves) + " *")
    assert game.mainline_moves() == moves and game.errors == []


# --- the model --------------------------------------------------------------------------------


def test_equality_ignores_positions_encoding_and_errors() -> None:
    a = only("1. 11-15 24-20 *")
    b = only("\n\n   1.   11-15\n 24-20\n*")
    c = only_from(b"1. 11-15 24-20 *", encoding="latin-1")
    assert a == b == c
    b.errors.append(pdn.Problem("junk", "x"))
    assert a == b
    assert a != only("1. 11-15 24-19 *")
    assert a != only("1. 11-15 24-20 1-0")
    assert a != only("1. 11-15 24-20 {c} *")


def test_copy_and_pickle_of_long_games() -> None:
    import copy

    game = only(
        "1. 11-15 {a} (1. 9-14 $1) " + " ".join(f"{i}. 1-5 5-1" for i in range(2, 3000)) + " *"
    )
    for clone in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert clone == game
        assert clone.root.variations[0].parent is clone.root
        assert clone.root.variations[1].nags == [1]
        assert clone.root.variations[0] is not game.root.variations[0]


def test_visitor() -> None:
    events: list[str] = []

    class Recorder(pdn.GameVisitor[None]):
        def visit_tag(self, name: str, value: str) -> None:
            events.append(f"tag {name}")

        def visit_move(
            self,
            move: str,
            number: str | None,
            before: object,
            line: int | None,
            column: int | None,
        ) -> None:
            events.append(move)

        def begin_variation(self) -> None:
            events.append("(")

        def end_variation(self) -> None:
            events.append(")")

        def visit_terminator(self, terminator: str) -> None:
            events.append(f"end {terminator}")

        def result(self) -> None:
            return None

    only('[Event "x"]\n1. 11-15 24-20 (22-18 (23-19) 15x22) 2. 8-11 *').accept(Recorder())
    # "(23-19)" inside the variation is another alternative to 24-20, written after it.
    assert events == [
        "tag Event",
        "11-15",
        "24-20",
        "(",
        "22-18",
        "15x22",
        ")",
        "(",
        "23-19",
        ")",
        "8-11",
        "end *",
    ]


def test_a_builder_subclass_sees_every_move_of_a_plain_run() -> None:
    # GameBuilder makes the nodes of a plain run in one loop; a subclass that overrides
    # visit_move still gets each move, and builds the same game.
    from pdn import GameBuilder

    class Counting(GameBuilder):
        def begin_game(self, start: GameStart) -> None:
            super().begin_game(start)
            self.seen: list[tuple[str, int | None, int | None]] = []

        def visit_move(
            self,
            move: str,
            number: str | None,
            before: Sequence[Comment],
            line: int | None,
            column: int | None,
        ) -> None:
            self.seen.append((move, line, column))
            super().visit_move(move, number, before, line, column)

    text = '[Event "x"]\n1. 11-15 23-19 2. 8-11\n22-17 *\n'
    (raw,) = split_games(io.StringIO(text))
    visitor = Counting()
    game = pdn.accept_raw(raw, visitor)
    assert visitor.seen == [("11-15", 2, 4), ("23-19", 2, 10), ("8-11", 2, 19), ("22-17", 3, 1)]
    assert game == parse_game(text)
    assert [(n.line, n.column) for n in game.mainline()] == [(2, 4), (2, 10), (2, 19), (3, 1)]


def test_tag_names_are_read_when_the_table_of_checked_names_is_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The table of checked names is bounded: a name met after it is full is checked anew
    # (it once raised KeyError, an internal error on every later game with a new tag name).
    import pdn.reading.parsing

    monkeypatch.setattr(pdn.reading.parsing, "_TAG_NAMES_SEEN", {})
    monkeypatch.setattr(pdn.reading.parsing, "_TAG_NAMES_KEPT", 2)
    games = list(
        pdn.parse_games(
            '[Event "a"]\n[Site "b"]\n1. 11-15 *\n\n'
            '[Round "3"]\n[Zeta "4"]\n1. 11-15 *\n\n'
            '[Round "3"]\n[bad name "5"]\n1. 11-15 *\n'
        )
    )
    assert [list(game.tags.items()) for game in games[:2]] == [
        [("Event", "a"), ("Site", "b")],
        [("Round", "3"), ("Zeta", "4")],
    ]
    assert not games[0].errors and not games[1].errors
    assert len(pdn.reading.parsing._TAG_NAMES_SEEN) == 2
    assert [p.code for p in games[2].errors] == [
        p.code for p in pdn.parse_game('[bad name "5"]\n1. 11-15 *').errors
    ]


# --- tag sections with no movetext between them (issue 33, section 7) ----------------------------

PAIRINGS = (
    '[Event "R1"]\n[White "Alma"]\n[Black "Bert"]\n[Result "1-0"]\n\n'
    '[Event "R1"]\n[White "Cleo"]\n[Black "Dirk"]\n[Result "0-1"]\n\n'
    '[Event "R1"]\n\n[White "Egon"]\n[Black "Fien"]\n[Result "1-0"]\n'
)


def test_tag_sections_with_no_movetext_between_them_are_games_of_their_own() -> None:
    """A tag section after a blank line that repeats the tag names before it starts a game:
    the one before is a game with no moves, with a warning; a blank line alone (the third
    section) or a repeated name alone stays inside one tag section."""
    games = list(parse_games(PAIRINGS))
    assert [(g.tags["White"], g.tags["Black"], g.tags["Result"]) for g in games] == [
        ("Alma", "Bert", "1-0"),
        ("Cleo", "Dirk", "0-1"),
        ("Egon", "Fien", "1-0"),
    ]
    assert [[(p.code, p.line, p.column) for p in g.errors] for g in games] == [
        [("tags-only", 1, 1)],
        [("tags-only", 6, 1)],
        [],
    ]
    assert games[0].errors[0].message == (
        "the game at 1:1 has tags and no movetext before the next game's tags at 6:1: "
        "read as a game with no moves"
    )
    assert "".join(write_game(g) for g in games).count("[White") == 3


def test_a_repeated_tag_name_without_a_blank_line_stays_in_its_game() -> None:
    (game,) = parse_games('[Event "A"]\n[Event "B"]\n[White "W"]\n\n1. 11-15 *\n')
    assert game.errors == [] and game.count_moves() == 1


def test_pdn_report_keeps_every_pairing_of_tag_only_games(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pdn.cli import main

    path = tmp_path / "pairings.pdn"
    path.write_text(PAIRINGS)
    result = CliRunner().invoke(main, ["report", str(path)], catch_exceptions=False)
    assert re.search(r"Games:\s+3 ", result.stdout), result.stdout
    for name in ("Alma", "Bert", "Cleo", "Dirk", "Egon", "Fien"):
        assert name in result.stdout
