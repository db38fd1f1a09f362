"""Damaged input is never lost (issue 22, item 4): the reader keeps and reports broken tag
text, dangling move numbers, stray ``)``/``}`` and empty variations; a tag line that lost its
``[`` is a damaged tag of the game it stands in; a game of tags only written among others
does not run into the next one; ``fix`` writes an unchanged game as it was read; and random
damage to real files survives ``convert`` and reading back with the same games."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from mutations import mutate, round_trip

import pdn
from pdn.cli import main
from pdn.game.model import Comment
from pdn.writing.jsonio import game_from_dict, game_to_dict
from pdn.writing.writer import write_games

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def comments(game: pdn.Game) -> list[str]:
    """The text of every comment of the game, in tree order."""
    found = [c.text for c in game.root.comments_before + game.root.comments_after]
    stack = list(reversed(game.root.variations))
    while stack:
        node = stack.pop()
        found += [c.text for c in node.comments_before + node.comments_after]
        stack.extend(reversed(node.variations))
    return found


def faithful_again(game: pdn.Game) -> pdn.Game:
    """The game read back from its faithful text (and the text is stable)."""
    written = pdn.write_game(game)
    (again,) = pdn.parse_games(written)
    assert pdn.write_game(again) == written
    return again


@pytest.mark.parametrize("broken", ["[GameTy", "[", "[EE", "[Empty]", "[Site "])
def test_broken_tag_text_is_kept_reported_and_written_as_read(broken: str) -> None:
    text = f'[Event "x"]\n{broken}\n[Black "?"]\n1. 11-15 23-19 *\n'
    (game,) = pdn.parse_games(text)
    assert broken in comments(game)
    (junk,) = [p for p in game.errors if p.code == "junk"]
    assert (junk.line, junk.column) == (2, 1)
    written = pdn.write_game(game)
    assert f"\n{broken}\n" in "\n" + written  # on a line of its own, as it was read
    again = faithful_again(game)
    assert again == game and broken in comments(again)
    assert game_from_dict(game_to_dict(game)) == game  # JSON keeps it too


def test_a_bracket_before_the_moves_is_kept_before_them() -> None:
    (game,) = pdn.parse_games('[Event "x"]\n[EE\n1. 11-15 23-19 *\n')
    assert game.root.comments_after == [Comment("[EE")]
    assert faithful_again(game) == game


def test_a_bracket_with_a_value_is_still_read_as_a_tag() -> None:
    (game,) = pdn.parse_games('[Event "x"]\n[Date 2025]\n1. 11-15 *\n')
    assert game.tags["Date"] == "2025" and not comments(game)


@pytest.mark.parametrize(
    ("text", "number", "where"),
    [
        ("1. 11-15 23-19 2. *", "2.", (2, 16)),
        ("1. 11-15 23-19 2. {c} 3. 9-13 *", "2.", (2, 16)),
        ("1. 11-15 23-19 2. (3. 9-13) 2. 8-11 *", "2.", (2, 16)),
        ("1. 11-15 (2.) 23-19 *", "2.", (2, 11)),
        ("1.11-15 23-19 2... 3.9-13 *", "2...", (2, 15)),
    ],
)
def test_a_dangling_move_number_is_kept_as_a_comment(
    text: str, number: str, where: tuple[int, int]
) -> None:
    (game,) = pdn.parse_games('[Event "x"]\n' + text + "\n")
    assert number in comments(game)
    (dangling,) = [p for p in game.errors if p.code == "dangling-move-number"]
    assert (dangling.line, dangling.column) == where
    assert "kept as a comment" in dangling.message
    assert faithful_again(game) == game
    assert game_from_dict(game_to_dict(game)) == game


def test_stray_closers_and_empty_variations_are_kept() -> None:
    (game,) = pdn.parse_games('[Event "x"] ) }\n1. 11-15 ) 23-19 } ( ) 9-13 *\n')
    assert [node.move for node in game.mainline()] == ["11-15", "23-19", "9-13"]
    assert comments(game) == [")", "}", ")", "}", "(", ")"]
    codes = [(p.code, p.line, p.column) for p in game.errors]
    assert ("unopened-variation", 1, 13) in codes and ("syntax-error", 1, 15) in codes
    assert ("unopened-variation", 2, 10) in codes and ("syntax-error", 2, 18) in codes
    assert ("junk", 2, 20) in codes  # the empty variation
    assert faithful_again(game) == game
    assert game_from_dict(game_to_dict(game)) == game


def test_convert_keeps_the_games_of_a_damaged_file(tmp_path: Path) -> None:
    source = tmp_path / "damaged.pdn"
    source.write_text(
        '[Event "a"]\n[GameTy\n1. 11-15 23-19 2. 1-0\n'
        'Event "Suriname 2025"]\n[Site "b"]\n(\n'
        '[Event "c"]\n{unclosed\n'
        '[Event "d"]\n1. 9-13 ) } 22-18 *\n',
        encoding="utf-8",
    )
    code, out, _ = run("convert", str(source))
    assert code == 0
    read = list(pdn.read_games(source))
    back = list(pdn.parse_games(out))
    assert [g.tags.get("Event") for g in back] == ["a", "Suriname 2025", "c", "d"]
    assert len(read) == len(back) == 4
    assert "[GameTy\n" in out and comments(back[0]) == ["[GameTy", "2."]
    assert comments(back[3]) == [")", "}"]
    assert [pdn.write_game(g, separate=True) for g in read] == [
        pdn.write_game(g, separate=True) for g in back
    ]


@pytest.mark.parametrize(
    "text",
    [
        # Between a result and the next game's tags.
        '[Event "x"]\n1. 20-25 1-0\nEvent "Suriname 2025"]\n[Site "y"]\n1. 33-28 *\n',
        # Among the next game's tags.
        '[Event "x"]\n1. 20-25 1-0\n[Site "y"]\nEvent "Suriname 2025"]\n1. 33-28 *\n',
        # The last line of the next game's tags.
        '[Event "x"]\n1. 20-25 1-0\n  Event "Suriname 2025"]  \n1. 33-28 *\n',
    ],
)
def test_a_tag_line_that_lost_its_bracket_is_a_damaged_tag_of_its_game(text: str) -> None:
    first, second = pdn.parse_games(text)
    assert [node.move for node in first.mainline()] == ["20-25"]
    assert second.tags["Event"] == "Suriname 2025"
    assert [node.move for node in second.mainline()] == ["33-28"]  # never a move "2025"
    (bad,) = [p for p in second.errors if p.code == "bad-tag"]
    assert "lost its '['" in bad.message and bad.line in (3, 4)
    assert bad.column in (1, 3)
    headers = list(pdn.read_headers(io.StringIO(text)))
    assert [tags.get("Event") for tags in headers] == ["x", "Suriname 2025"]
    assert faithful_again(second) == second


def test_a_lost_bracket_in_a_file_read_in_blocks() -> None:
    # The same line across the reader's block boundaries: padding moves it through them.
    game = '[Event "E"]\n[Site "S"]\n1. 11-15 23-19 1-0\n'
    for pad in range(0, 9000, 997):
        text = game * (pad // len(game)) + 'Event "Suriname 2025"]\n[Site "y"]\n1. 33-28 *\n'
        games = list(pdn.read_games(io.BytesIO(text.encode())))
        assert games[-1].tags["Event"] == "Suriname 2025"
        assert all("2025" not in [n.move for n in g.mainline()] for g in games)


def test_a_word_before_a_quoted_value_inside_a_tag_is_not_a_lost_bracket() -> None:
    (game,) = pdn.parse_games('[Type de jeu "20"]\n1. 11-15 *\n')
    assert game.tags.items() == [("Type de jeu", "20")]


@pytest.mark.parametrize(
    "first",
    [
        '[Event "tags and a number"]\n1.\n',
        '[Event "tags and a comment"]\n{unclosed\n',
        '[Event "tags and a cut tag"]\n(\n',
    ],
)
def test_a_game_of_tags_only_does_not_merge_with_the_next(first: str) -> None:
    text = first + '[Event "next"]\n1. 11-15 *\n'
    games = list(pdn.parse_games(text))
    assert len(games) == 2 and games[0].terminator is None
    out = io.StringIO()
    write_games(games, out)
    back = list(pdn.parse_games(out.getvalue()))
    assert len(back) == 2
    # The one change: the terminator "*", without which nothing ends the first game.
    assert back[0].terminator == "*" and back[0].tags == games[0].tags
    assert comments(back[0]) == comments(games[0]) and back[1] == games[1]
    # Alone, a game is still written as it was read (no terminator made up).
    assert faithful_again(games[0]) == games[0]


@pytest.mark.parametrize("start", ["[Site \n", "]\n", "{a comment}\n", "{(}\n"])
def test_a_game_without_terminator_keeps_the_next_games_first_comments_apart(start: str) -> None:
    # Each read alone (in a file, a result inside an unclosed variation can end the first).
    first = pdn.parse_game('[Event "a"]\n1. 11-15 23-19\n')
    second = pdn.parse_game(start + '[Event "b"]\n1. 9-13 *\n')
    assert first.terminator is None and comments(second)
    out = io.StringIO()
    write_games([first, second], out)
    again_first, again_second = pdn.parse_games(out.getvalue())
    assert again_first.terminator == "*" and again_second == second
    assert [node.move for node in again_first.mainline()] == ["11-15", "23-19"]
    assert comments(again_first) == []


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


ODD = (
    '[Event "A"]\r\n[Date "2024-01-02"]\r\n\r\n1. 11-15   ) 23-19 } 1-0\r\n\r\n'
    '[Event "B"]\r\n[Date "2024.01.02"]\r\n1.  9-13 }  22-18 (  2. 5-9 ) *\r\n'
)


def test_fix_writes_an_unchanged_game_as_it_was_read(tmp_path: Path) -> None:
    source = tmp_path / "odd.pdn"
    source.write_bytes(ODD.encode())
    code, out, err = run("fix", "--dates", str(source))
    assert code == 0 and "1 changes in 1 games" in err
    assert "1.  9-13 }  22-18 (  2. 5-9 ) *\n" in out  # game B: its text as read
    changed, unchanged = pdn.parse_games(out)
    assert changed.tags["Date"] == "2024.01.02"
    # The stray ")" and "}" of the changed game are kept (as comments) and said.
    assert comments(changed) == [")", "}"]
    assert f"{source}:4:12: unopened-variation" in err and f"{source}:4:20: syntax-error" in err
    (original_b,) = list(pdn.parse_games(ODD))[1:]
    assert pdn.write_game(unchanged) == pdn.write_game(original_b)


def test_fix_in_place_leaves_a_file_without_changes_byte_for_byte(tmp_path: Path) -> None:
    clean = tmp_path / "clean.pdn"
    clean.write_bytes(ODD.replace("2024-01-02", "2024.01.02").encode())
    dirty = tmp_path / "dirty.pdn"
    dirty.write_bytes(ODD.encode())
    before = clean.read_bytes()
    code, _, err = run("fix", "--dates", "--in-place", str(clean), str(dirty))
    assert code == 0 and "1 changes in 1 games" in err
    assert clean.read_bytes() == before  # not rewritten: its CRLF line ends and all
    assert b'[Date "2024.01.02"]' in dirty.read_bytes() and b"2024-01-02" not in dirty.read_bytes()


def fixture_texts() -> list[str]:
    texts = []
    for path in sorted(FIXTURES.rglob("*.pdn")):
        text = path.read_bytes().decode("utf-8", "replace")
        if text.strip():
            texts.append(text)
    return texts


def test_mutants_of_real_files_keep_their_games_through_convert() -> None:
    # A few hundred mutants here; benchmarks/corpus/mutation_game_count.py runs thousands over
    # the shared corpus.
    rng = random.Random(2204)
    texts = fixture_texts()
    assert len(texts) > 20
    failures = []
    for _ in range(300):
        text = rng.choice(texts)
        if len(text) > 3000:
            start = text.rfind("\n", 0, rng.randrange(len(text) - 3000)) + 1
            text = text[start : start + 3000]
        mutant, edits = mutate(text, rng)
        first, back, same = round_trip(mutant)
        if first != back or not same:
            failures.append((edits, first, back, mutant[:200]))
    assert failures == []


def test_fix_keeps_games_apart_as_they_were_read(tmp_path: Path) -> None:
    # Game 1 is ended by game 2's tags; game 3 is ended by an unclosed comment cut at the
    # tag line of game 4. Each date is fixed in its line of the text as read, so the games
    # read back as they were cut, with no terminator added.
    source = tmp_path / "loose.pdn"
    text = (
        '[Event "a"]\n[Date "2024-01-02"]\n1. 11-15 23-19\n'
        '[Event "b"]\n[Date "2024-01-03"]\n1. 9-13 {unclosed\n'
        '[Event "c"]\n1. 10-14 *\n'
    )
    source.write_text(text, encoding="utf-8")
    code, out, err = run("fix", "--dates", str(source))
    assert code == 0
    assert out == text.replace("2024-01-02", "2024.01.02").replace("2024-01-03", "2024.01.03")
    games = list(pdn.parse_games(out))
    assert [g.tags["Event"] for g in games] == ["a", "b", "c"]
    assert [g.terminator for g in games] == [None, None, "*"]
    assert "(terminator): added" not in err
    bare = '[Event "a"]\n[Date "2024-01-02"]\n{unclosed\n[Event "b"]\n1. 9-13 *\n'
    source.write_text(bare, encoding="utf-8")
    code, out, err = run("fix", "--dates", str(source))
    assert out == bare.replace("2024-01-02", "2024.01.02")
    games = list(pdn.parse_games(out))
    assert [g.tags["Event"] for g in games] == ["a", "b"]


def test_fix_gives_a_game_written_anew_a_terminator_where_the_next_would_join_it(
    tmp_path: Path,
) -> None:
    # Two Date pairs: the game is written anew (see test_fix), and without a terminator
    # its comment would take in the next game's tags.
    source = tmp_path / "loose.pdn"
    bare = '[Event "a"]\n[Date "2024-01-02"]\n[Date "x"]\n{unclosed\n[Event "b"]\n1. 9-13 *\n'
    source.write_text(bare, encoding="utf-8")
    _, out, err = run("fix", "--dates", str(source))
    games = list(pdn.parse_games(out))
    assert [g.tags["Event"] for g in games] == ["a", "b"] and games[0].terminator == "*"
    assert f'{source}:1: (terminator): added "*"' in err
