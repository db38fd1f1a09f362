"""The writer: faithful copies, the normalised PDN 3.0 form, and reading back."""

from __future__ import annotations

import io

import pytest

from pdn import Comment, Game, Node, parse_game, parse_games, write_game
from pdn.writing.writer import canonical_move, write_games


def roundtrip(text: str) -> tuple[Game, str]:
    game = parse_game(text)
    written = write_game(game)
    assert parse_game(written) == game, written
    return game, written


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("11-15", "11-15"),
        ("26x17x10x1", "26x17x10x1"),
        ("26-17-10", "26x17x10"),
        ("1- 6", "1-6"),
        ("47x 9", "47x9"),
        ("06-11", "6-11"),
        ("28:17", "28x17"),
        ("12X23", "12x23"),
        ("3228", "32-28"),
        ("c3-d4", "c3-d4"),
        ("A3-B4", "a3-b4"),
        ("a3b4", "a3-b4"),
        ("d4:b6", "d4xb6"),
        ("d8xb6xd4xb2", "d8xb6xd4xb2"),
        ("- -", "- -"),
        ("23-32", "23-32"),
    ],
)
def test_canonical_moves(written: str, canonical: str) -> None:
    assert canonical_move(written) == canonical


def test_faithful_copy() -> None:
    text = (
        '% escape\n[Event "A \\"quoted\\" name"]\n[isBot "x"]\n[Event "again"]\n\n'
        "{start} 1.32-28! $3 ( 1. 33-29 {alt} ) 19-23 ; line\n"
        '2. 37-32 /FEN "W:W28:B19"/ 47x 9 1-1\n'
    )
    game, written = roundtrip(text)
    assert written == (
        "% escape\n"
        '[Event "A \\"quoted\\" name"]\n'
        '[isBot "x"]\n'
        '[Event "again"]\n'
        "\n"
        "{start} 1. 32-28! $3 (1. 33-29 {alt}) 19-23 ; line\n"
        '2. 37-32 /FEN "W:W28:B19"/ 47x 9 1-1\n'
    )
    assert str(game) == written


def test_faithful_copy_keeps_missing_numbers_and_terminator() -> None:
    _, written = roundtrip("32-28 19-23 (18-23) 28x19")
    assert written == "32-28 19-23 (18-23) 28x19\n"


def test_lines_are_filled_to_the_width() -> None:
    text = "1. 11-15 " + " ".join(f"{i}. 9-14 22-18" for i in range(2, 60)) + " *"
    game, written = roundtrip(text)
    lines = written.splitlines()
    assert len(lines) > 5 and all(len(line) <= 80 for line in lines)
    # A number stays with its move.
    assert not any(line.endswith(".") for line in lines)
    narrow = write_game(game, columns=30)
    assert all(len(line) <= 30 for line in narrow.splitlines())
    assert parse_game(narrow) == game


def test_comments_are_written_verbatim() -> None:
    comment = "{a long comment that goes on and on, well past the width of a line\nand over two}"
    _, written = roundtrip(f"1. 11-15 {comment} 24-20 *")
    assert comment in written


def test_tags_and_movetext_are_separated_by_a_blank_line() -> None:
    _, written = roundtrip('[Event "x"]\n[Result "*"]\n1. 11-15 *')
    assert written == '[Event "x"]\n[Result "*"]\n\n1. 11-15 *\n'
    _, written = roundtrip('[Event "x"]')
    assert written == '[Event "x"]\n'


def test_normalised_tags_come_in_the_standard_order() -> None:
    game = parse_game(
        '[Result "1-0"]\n[GameType "21"]\n[White "W"]\n[Event "E"]\n[Black "B"]\n1. 11-15 *'
    )
    written = write_game(game, normalize=True)
    assert written.splitlines()[:5] == [
        '[Event "E"]',
        '[White "W"]',
        '[Black "B"]',
        '[Result "1-0"]',
        '[GameType "21"]',
    ]


def test_normalised_numbers_english() -> None:
    game = parse_game("11-15 23-19 8-11 {c} 22-17 (27-24) 9-13 *")
    written = write_game(game, normalize=True)
    assert written == "1. 11-15 23-19 2. 8-11 {c} 2... 22-17 (2... 27-24) 3. 9-13 *\n"


def test_normalised_numbers_follow_the_fen_side() -> None:
    game = parse_game('[FEN "W:W27,28:B20,3"]\n1. 27-24 2. 20x27 14-9 *')
    assert write_game(game, normalize=True).endswith("1... 27-24 2. 20x27 14-9 *\n")
    game = parse_game('[GameType "20"]\n33-28 18-23 28x19 14x23 *')
    assert write_game(game, normalize=True).endswith("1. 33-28 18-23 2. 28x19 14x23 *\n")


def test_normalised_moves_and_terminator() -> None:
    game = parse_game('[Result "2-0"]\n[GameType "20"]\n1. 32 - 28 19- 23 2. 28X19 14:23 3. 3732')
    written = write_game(game, normalize=True)
    assert written.endswith("1. 32-28 19-23 2. 28x19 14x23 3. 37-32 2-0\n")
    # A move that does not replay (32 is empty by then) has no single meaning: its text stays.
    game = parse_game('[Result "2-0"]\n[GameType "20"]\n1. 32 - 28 19- 23 2. 28X19 14:23 3. 3228')
    assert write_game(game, normalize=True).endswith(" 3. 3228 2-0\n")
    assert write_game(parse_game("1. 11-15"), normalize=True) == "1. 11-15 *\n"
    assert write_game(parse_game('[Result " 0-1"]\n1. 11-15'), normalize=True).endswith("0-1\n")
    assert write_game(parse_game('[Result "4-6"]\n1. 11-15'), normalize=True).endswith("*\n")
    assert write_game(parse_game('[Result "1-0"]\n1. 11-15 *'), normalize=True).endswith("*\n")


def test_normalising_keeps_the_squares() -> None:
    text = "1. 26-17-10 a3b4 (1. 06-11 $2) 47x 9 - - *"
    game = parse_game(text)
    again = parse_game(write_game(game, normalize=True))
    digits = [
        [
            int(part)
            for part in node.move.replace("-", " ").replace("x", " ").split()
            if part.isdigit()
        ]
        for node, _ in game.walk()
        if node.move
    ]
    assert digits == [
        [
            int(part)
            for part in node.move.replace("-", " ").replace("x", " ").split()
            if part.isdigit()
        ]
        for node, _ in again.walk()
        if node.move
    ]
    assert [n.nags for n, _ in again.walk()] == [n.nags for n, _ in game.walk()]


def test_normalised_form_is_stable() -> None:
    text = (
        "{a} 1. 32-28 (?) 19-23!? ( 18-23 {x} (17-22) 38-32) 2. - - 1- 6 "
        '/FEN "B:W28:B19"/ 3. 28x19 1-1'
    )
    once = write_game(parse_game(text), normalize=True)
    assert write_game(parse_game(once), normalize=True) == once


def test_write_games() -> None:
    games = list(parse_games('[Event "a"]\n1. 11-15 *\n[Event "b"]\n1. 9-13 1-0\n'))
    out = io.StringIO()
    assert write_games(games, out) == 2
    assert list(parse_games(out.getvalue())) == games
    assert out.getvalue() == '[Event "a"]\n\n1. 11-15 *\n\n[Event "b"]\n\n1. 9-13 1-0\n'


def test_every_game_written_reads_back_as_one_game_even_an_empty_one() -> None:
    # An empty game (a JSON record with no field of a game) between two others: without a
    # terminator it would be written as nothing, and the games read back one fewer.
    games = [parse_game('[Event "a"]\n1. 11-15 *'), Game(), parse_game("1. 9-13"), Game()]
    out = io.StringIO()
    assert write_games(games, out) == 4
    back = list(parse_games(out.getvalue()))
    assert [game.terminator for game in back] == ["*", "*", "*", "*"], out.getvalue()
    assert [len(list(game.mainline())) for game in back] == [1, 0, 1, 0]
    assert write_game(Game(), separate=True) == "*\n"
    assert write_game(Game()) == ""  # the faithful copy of one game adds nothing


def test_models_built_in_code() -> None:
    game = Game()
    game.tags["Event"] = "Built"
    first = game.root.add_variation("11-15", number="1.")
    second = first.add_variation("23-19")
    second.nags.append(1)
    second.comments_after.append(Comment("good", "line"))
    first.add_variation("22-18").comments_before.append(Comment("or"))
    game.terminator = "*"
    written = write_game(game)
    assert written == '[Event "Built"]\n\n1. 11-15 23-19 $1 ;good\n({or} 22-18) *\n'
    assert parse_game(written) == game


def test_comments_that_cannot_be_written() -> None:
    game = Game()
    node = game.root.add_variation("11-15")
    node.comments_after.append(Comment("a } b"))
    with pytest.raises(ValueError, match="cannot hold"):
        write_game(game)
    node.comments_after[0] = Comment("a\nb", "line")
    with pytest.raises(ValueError, match="line break"):
        write_game(game)


def test_setup_nodes_in_normalised_numbering() -> None:
    game = parse_game('[GameType "20"]\n1. 32-28 19-23 /FEN "W:W28:B19"/ 28x19 *')
    written = write_game(game, normalize=True)
    assert written.endswith('1. 32-28 19-23 /FEN "W:W28:B19"/ 2. 28x19 *\n')
    assert isinstance(game.root.variations[0].variations[0].variations[0], Node)


def test_normalised_lines_fit_80_columns_around_variations() -> None:
    moves = " ".join(
        f"{n}. 32-28 19-23 (1... 18-22 2. 37-32 (2. 31-26) 12-18)" for n in range(1, 30)
    )
    game = parse_game(f'[Event "x"]\n{moves} *')
    text = write_game(game, normalize=True)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert parse_game(text) == parse_game(write_game(parse_game(text), normalize=True))


@pytest.mark.parametrize("brk", ["\n", "\r", "\r\n"])
def test_a_line_break_in_a_tag_value_cannot_make_a_tag_of_its_own(brk: str) -> None:
    # A value set by a program (an engine's name) may hold one; a value read never does.
    from pdn.writing.writer import tag_line

    hostile = f'Evil"]{brk}[Result "1-0"]'
    text = tag_line("Black", hostile) + tag_line("Result", "1/2-1/2") + "\n1/2-1/2\n"
    game = parse_game(text)
    assert game.tags["Black"] == 'Evil"] [Result "1-0"]'
    assert game.tags.get_all("Result") == ["1/2-1/2"] and len(list(game.tags)) == 2
