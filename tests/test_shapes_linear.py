"""Linear work in every input shape (issue 33, section 1): each shape read, replayed and
written at ``n`` and ``4n``.

A shape is one thing repeated ``n`` times in one game: variations opened and never closed,
variations nested and closed, comments, NAGs, tag pairs, moves on one line, moves glued to
their numbers, junk words. The work counted is every line of Python that runs (pdn's, lark's,
the standard library's) while the game is read (cut and parsed), replayed (``validate``) and
written back (the faithful writer): a path that is quadratic in the shape runs ~16 times the
lines at ``4n``, a linear one ~4. No wall-clock. The same shapes at the issue's sizes are timed
by ``benchmarks/bench_hostile_shapes.py``.
"""

from __future__ import annotations

import io
import operator
import sys
from collections.abc import Callable
from typing import Any

import pytest

import pdn
from pdn.reading import parsing
from pdn.rules.validation import validate
from pdn.writing.writer import write_game

pytestmark = pytest.mark.skipif(
    not parsing.__file__.endswith(".py"), reason="compiled: no lines to count"
)

#: 4n over n: linear work gives 4, quadratic 16; the margin covers fixed costs.
LINEAR = 7.0
#: Two kings going back and forth: legal moves for as long as wanted, replayed to the end.
_KINGS = '[GameType "21"]\n[FEN "W:WK29:BK4"]\n\n'
_CYCLE = ("29-25", "4-8", "25-29", "8-4")


def _kings(n: int, glued: bool = False) -> str:
    """``n`` moves of the two kings, numbered, on one line (``1.29-25`` if ``glued``)."""
    words = []
    for ply in range(n):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}." + ("" if glued else " "))
        words.append(_CYCLE[ply % 4] + " ")
    return "".join(words).replace(". ", ".") if glued else "".join(words)


#: Each shape: the text of one game holding its unit ``n`` times.
SHAPES: dict[str, Callable[[int], str]] = {
    "nesting-open": lambda n: '[Event "n"]\n1. 11-15 ' + "( " * n + "*\n",
    "nesting-open-moves": lambda n: "1. 11-15 23-19 " + "(23-18 " * n + "*\n",
    "nesting-closed": lambda n: "1. 11-15 23-19 " + "(23-18 11-20 " * n + ") " * n + "*\n",
    "nesting-closed-empty": lambda n: "1. 11-15 " + "( " * n + ") " * n + "*\n",
    "nesting-replayed": lambda n: (
        _KINGS
        + "1. 29-25 4-8 "
        + "".join(f"({_CYCLE[(k + 1) % 4]} 1-2 " for k in range(n))
        + ") " * n
        + "*\n"
    ),
    "comments": lambda n: "{a} " * n + "1. 11-15 " + "{b} " * n + "23-19 *\n",
    "line-comments": lambda n: "1. 11-15\n" + "; c\n" * n + "% d\n" * n + "23-19 *\n",
    "nags": lambda n: "1. 11-15 " + "$1 " * n + "23-19 " + "$6 " * n + "*\n",
    "tags": lambda n: "".join(f'[Tag{i} "v{i}"]\n' for i in range(n)) + "\n1. 11-15 *\n",
    "moves-per-line": lambda n: _KINGS + _kings(n) + "*\n",
    "glued-numbers": lambda n: _KINGS + _kings(n, glued=True) + "*\n",
    "glued-junk": lambda n: _KINGS + _kings(n).replace("-25 ", "-25x! ") + "*\n",
    "junk-words": lambda n: "1. 11-15 " + "foo " * n + "23-19 *\n",
    "junk-between-moves": lambda n: _KINGS + _kings(n).replace("4-8 ", "4-8 wow ") + "*\n",
    "strengths": lambda n: "1. 11-15 23-19 " + "(23-18! 11-20? ) " * n + "*\n",
    "dangling-numbers": lambda n: "1. 11-15 " + "9. " * n + "23-19 *\n",
    "unbalanced-closes": lambda n: "1. 11-15 " + ") " * n + "23-19 *\n",
}


def _lines_run(work: Callable[[], object]) -> int:
    """How many lines of Python run while ``work`` runs (an operation count)."""
    count = 0

    def tracer(frame: Any, event: str, arg: object) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        work()
    finally:
        sys.settrace(None)
    return count


def _read(text: str) -> pdn.Game:
    [game] = pdn.read_games(io.StringIO(text))
    return game


def _ratio(
    shape: str, step: Callable[[Any], object], prepare: Callable[[str], Any] = str
) -> tuple[int, int]:
    """The lines that ``step`` runs on ``prepare(text)`` of the shape at ``_N`` and ``4 * _N``
    (``prepare`` untraced, and fresh each time: a game keeps its replay)."""
    counts = []
    for size in (_N, 4 * _N):
        text = SHAPES[shape](size)
        step(prepare(text))  # once untraced: caches and lazy imports are not the shape's work
        subject = prepare(text)
        counts.append(_lines_run(lambda s=subject: step(s)))
    return counts[0], counts[1]


#: The size: big enough that a quadratic term outweighs the fixed costs.
_N = 300


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_reading_each_shape_is_linear(shape: str) -> None:
    small, big = _ratio(shape, _read)
    assert big < LINEAR * small, (shape, small, big)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_replaying_each_shape_is_linear(shape: str) -> None:
    small, big = _ratio(shape, validate, _read)
    assert big < LINEAR * small, (shape, small, big)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_writing_each_shape_is_linear(shape: str) -> None:
    small, big = _ratio(shape, write_game, _read)
    assert big < LINEAR * small, (shape, small, big)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_shape_reads_back_as_written(shape: str) -> None:
    """The shapes are read whole: written back, they read as the same game."""
    game = _read(SHAPES[shape](50))
    assert pdn.parse_game(write_game(game)) == game


def test_open_nesting_keeps_every_parenthesis_and_says_each_is_unclosed() -> None:
    n = 400
    game = _read(SHAPES["nesting-open"](n))
    assert write_game(game).count("{(}") == n
    codes = [p.code for p in validate(game).all_problems]
    assert codes.count("unclosed-variation") == n


def _validate_command(path: str) -> object:
    from click.testing import CliRunner

    from pdn.cli import main

    result = CliRunner().invoke(main, ["validate", path], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result


@pytest.mark.stress
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_pdn_validate_on_each_shape_is_linear(shape: str, tmp_path: Any) -> None:
    """The command as a user runs it (the file cut, read, replayed, the report printed)."""

    def prepare(text: str) -> str:
        path = tmp_path / f"{len(text)}.pdn"
        path.write_text(text, encoding="utf-8")
        return str(path)

    small, big = _ratio(shape, _validate_command, prepare)
    assert big < LINEAR * small, (shape, small, big)


# --- junk words (issue 33, section 4) -----------------------------------------------------------


def test_a_run_of_junk_words_is_one_comment_and_one_problem_where_it_starts() -> None:
    """Words that are no PDN, in a row: one comment holding them as written (spaces and line
    ends between them kept), one problem at the first word's line and column."""
    text = '[Event "x"]\n1. 11-15 won  1st prize\n   a1 at the Open 23-19 ; note\nbye *\n'
    game = _read(text)
    first = game.root.variations[0]
    assert first.comments_after[0].text == "won  1st prize\n   a1 at the Open"
    junk = [p for p in game.errors if p.code == "junk"]
    assert [(p.line, p.column) for p in junk] == [(2, 10), (4, 1)]
    assert junk[0].message == (
        "7 words 'won 1st prize a1 at the Open' at 2:10 are not PDN; kept as one comment"
    )
    assert junk[1].message == "'bye' at 4:1 is not PDN; kept as a comment"
    assert write_game(game).count("{") == 2  # the run and "bye", each a comment


def test_junk_before_the_tags_and_in_a_variation_is_one_run_each() -> None:
    game = _read('hello there world\n[Event "x"]\n1. 11-15 (9-14 so so) 23-19 *\n')
    assert [p.message for p in game.errors] == [
        "3 words 'hello there world' at 1:1 are not PDN; kept as one comment",
        "2 words 'so so' at 3:16 are not PDN; kept as one comment",
    ]
    assert "{hello there world}" in write_game(game)


def test_junk_runs_stop_at_anything_that_is_pdn() -> None:
    """A move, a number, a NAG, a comment, a result between junk words ends the run."""
    game = _read("1. 11-15 aa bb 23-19 cc $1 dd {c} ee 2. ff 9-14 gg *\n")
    assert game.count_moves() == 3
    assert sum(p.code == "junk" for p in game.errors) == 6  # aa bb; cc; dd; ee; ff; gg


def test_a_page_of_junk_words_costs_less_than_a_line_of_python_per_word() -> None:
    """A token, a comment and a problem per word made a megabyte of junk cost ~6 s and
    ~100 MB; a run of words is now one of each."""
    peaks, sizes = [], []
    for words in (20_000, 80_000):
        line = "lorem ipsum dolor sit amet\n"
        text = '[Event "j"]\n1. 11-15 ' + line * (words // 5) + "23-19 *\n"
        _read(text)
        assert _lines_run(lambda t=text: _read(t)) < words // 4
        (junk,) = [p for p in _read(text).errors if p.code == "junk"]
        assert junk.message.startswith(f"{words} words 'lorem ipsum dolor sit amet lorem")
        peaks.append(_peak(lambda t=text: _read(t)))
        sizes.append(len(text))
    # Each byte more of junk costs a few bytes (the text, its comment): not a token's 100.
    assert peaks[1] - peaks[0] < 12 * (sizes[1] - sizes[0]), peaks


def _peak(work: Callable[[], object]) -> int:
    import tracemalloc

    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --- tag sections (issue 33, section 7) ---------------------------------------------------------

FILE_SHAPES: dict[str, Callable[[int], str]] = {
    # Tag sections with no movetext between them: a game each.
    "tag-only-games": lambda n: "".join(f'[White "w{i}"]\n[Black "b{i}"]\n\n' for i in range(n)),
    # One tag section, a blank line between every pair, no name repeated: one game.
    "blank-lines-in-tags": lambda n: (
        "".join(f'[Tag{i} "v"]\n\n' for i in range(n)) + "1. 11-15 *\n"
    ),
}


@pytest.mark.parametrize("shape", sorted(FILE_SHAPES))
def test_reading_tag_sections_is_linear(shape: str) -> None:
    counts = []
    for size in (_N, 4 * _N):
        text = FILE_SHAPES[shape](size)
        games = list(pdn.read_games(io.StringIO(text)))
        assert len(games) == (size if shape == "tag-only-games" else 1)
        counts.append(_lines_run(lambda t=text: list(pdn.read_games(io.StringIO(t)))))
    assert counts[1] < LINEAR * counts[0], (shape, counts)


# --- the validator's memory on nested variations (issue 33, section 4) ---------------------------


def test_validator_memory_on_nested_replayed_variations_is_linear() -> None:
    """Each level replayed, an illegal move in each: every problem held its path as a tuple
    as long as its depth (59/119/331 MB at 2k/4k/8k levels); the paths share their prefix."""
    peaks = []
    for n in (500, 2000):
        game = _read(SHAPES["nesting-replayed"](n))
        peaks.append(_peak(lambda g=game: validate(g)))
    assert peaks[1] < LINEAR * peaks[0], peaks


def test_shared_variation_paths_read_and_compare_as_tuples() -> None:
    import pickle

    from pdn.text.problems import Problem, VariationPath

    problems = validate(_read(SHAPES["nesting-replayed"](12))).all_problems
    assert sorted(len(p.variation) for p in problems) == list(range(1, 13))
    deepest = max(problems, key=lambda p: len(p.variation))
    assert isinstance(deepest.variation, VariationPath)
    assert deepest.variation == (1,) * 12 and operator.eq((1,) * 12, deepest.variation)
    assert hash(deepest.variation) == hash((1,) * 12)
    assert deepest.variation[:2] == (1, 1) and deepest.variation[-1] == 1
    assert deepest.where == "variation " + ".".join(["1"] * 12) + f", ply {deepest.ply}"
    assert deepest.to_dict()["variation"] == [1] * 12
    assert deepest == Problem(**{**{f: getattr(deepest, f) for f in deepest.__slots__}})
    assert pickle.loads(pickle.dumps(problems)) == problems
    deep = VariationPath.of(range(1, 5001))  # pickled as its numbers, not 5,000 nested links
    assert pickle.loads(pickle.dumps(deep)) == tuple(range(1, 5001))


# --- convert --split-variations (issue 33, sections 1 and 7) ------------------------------------

#: Each variation a game: shapes whose games, written, grow linearly with ``n``.
SPLIT_SHAPES: dict[str, Callable[[int], str]] = {
    # Sibling variations, a problem in each: every game carried every problem of the game.
    "siblings-with-junk": lambda n: "1. 11-15 23-19 " + "(23-18 foo) " * n + "*\n",
    "siblings-with-unopened": lambda n: "1. 11-15 23-19 " + "(23-18) ) " * n + "*\n",
    # Variations nested n deep and never closed (each an alternative to the one before).
    "nesting-open-moves": SHAPES["nesting-open-moves"],
}


def _split(game: pdn.Game, fmt: str) -> str:
    from pdn.writing.convert import ConvertOptions, convert_games

    options = ConvertOptions(fmt=fmt, split_variations=True)
    return "".join(piece.text for piece in convert_games([("g.pdn", game)], options))


@pytest.mark.parametrize("fmt", ["pdn", "json"])
@pytest.mark.parametrize("shape", sorted(SPLIT_SHAPES))
def test_splitting_variations_is_linear(shape: str, fmt: str) -> None:
    """``pdn convert --split-variations``: each game carries the problems of its own moves,
    not every problem of the game (n games times n problems)."""
    counts, sizes = [], []
    n = _N // 3 if fmt == "json" else _N  # JSON replays each game: the same shape, fewer lines
    for size in (n, 4 * n):
        text = SPLIT_SHAPES[shape](size)
        _split(_read(text), fmt)
        game = _read(text)
        counts.append(_lines_run(lambda g=game: _split(g, fmt)))
        sizes.append(len(_split(_read(text), fmt)))
    assert sizes[1] < LINEAR * sizes[0], (shape, sizes)  # the output itself is linear
    assert counts[1] < LINEAR * counts[0], (shape, fmt, counts)


def test_deeply_nested_closed_variations_cost_what_their_games_hold() -> None:
    """Closed variations nested ``n`` deep, a problem at each level: the game of level ``k``
    holds the ``k`` moves leading to it (its text grows as ``n`` squared), and the work grows
    with that text, not faster."""
    rates = []
    for size in (_N // 3, 4 * _N // 3):
        text = "1. 11-15 23-19 " + "(23-18 foo 11-20 " * size + ") " * size + "*\n"
        _split(_read(text), "pdn")
        game = _read(text)
        rates.append(_lines_run(lambda g=game: _split(g, "pdn")) / len(_split(game, "pdn")))
    assert rates[1] < 1.5 * rates[0], rates


def test_each_variation_carries_the_problems_of_its_own_moves() -> None:
    from pdn.game.excerpts import split_variations

    text = (
        '[Event "x"]\n'  # line 1
        "1. 11-15 foo 23-19 (23-18 bar) (22-18 ) ) (24-20 (21-17 *\n"  # line 2
    )
    game = _read(text)
    assert [(p.code, p.column) for p in game.errors] == [
        ("junk", 10),
        ("junk", 27),
        ("unopened-variation", 41),
        ("unclosed-variation", 43),
        ("unclosed-variation", 50),
        ("junk", 57),  # the "*" inside the unclosed variation
        ("missing-terminator", 58),
    ]
    parts = list(split_variations(game))
    assert [part.mainline_moves() for part in parts] == [
        ["11-15", "23-19"],
        ["11-15", "23-18"],
        ["11-15", "22-18"],
        ["11-15", "24-20"],
        ["11-15", "21-17"],
    ]
    # "foo" is in the text of 11-15, on every path; the unclosed "(" goes with the line it
    # opens; the game's missing terminator with every part.
    assert [[(p.code, p.column) for p in part.errors] for part in parts] == [
        [("junk", 10), ("missing-terminator", 58)],
        [("junk", 10), ("junk", 27), ("missing-terminator", 58)],
        [("junk", 10), ("unopened-variation", 41), ("missing-terminator", 58)],
        [("junk", 10), ("unclosed-variation", 43), ("missing-terminator", 58)],
        [("junk", 10), ("unclosed-variation", 50), ("junk", 57), ("missing-terminator", 58)],
    ]
    # What is written is what it was: each part's text holds its own junk word.
    assert "{bar}" in write_game(parts[1]) and "{bar}" not in write_game(parts[2])
