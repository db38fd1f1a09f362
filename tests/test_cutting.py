"""Issue 22, "never lose a byte on big or odd input": cutting games whatever the line length.

The Chunker cuts games by their structure: on one line holding every game of a file, across
blocks of any size, and past MAX_GAME_CHARS (a game that long keeps its head, the rest is
skipped to its real end, and the game says so).  Work and memory are compared between a 1x
and a 4x input, never timed.
"""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pdn
import pdn.reading.cutting
import pdn.text.decoding
from pdn.reading.cutting import Chunker, RawGame
from pdn.text.decoding import Decoder, line_blocks

ROOT = Path(__file__).resolve().parents[1]
ONE_LINE_GAME = (
    '[Event "Machine export game {:05d}"][Result "1-0"] 1. 11-15 23-19 2. 8-11 22-17 1-0 '
)
SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def cut(blocks: list[str]) -> list[RawGame]:
    return list(Chunker(iter(blocks), None))


def shape(raws: list[RawGame]) -> list[tuple[object, ...]]:
    """Everything the cutter says of each game."""
    return [
        (r.text, r.offset, r.line, r.column, r.end, r.body_at, r.tags_end, r.skipped, r.skipped_end)
        for r in raws
    ]


def blocks_of(text: str, size: int) -> Iterator[str]:
    """``text`` in blocks of ``size``, made as they are asked for."""
    return (text[i : i + size] for i in range(0, len(text), size))


def pieces_of(text: str, cuts: list[int]) -> list[str]:
    points = sorted({min(max(c, 0), len(text)) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in itertools.pairwise(points) if b > a]


# --- games on one line --------------------------------------------------------------------------


def test_games_on_one_line_are_cut_apart() -> None:
    # The TAGS terminal ends with the white space after its last "]": the check meant for a
    # damaged tag (no "]") took that for one and waited for a line end that never came.
    text = "".join(ONE_LINE_GAME.format(i) for i in range(30_000))
    raws = list(pdn.split_games(io.StringIO(text), scan=False))
    assert len(raws) == 30_000
    assert {r.end for r in raws} == {"result"} and {r.line for r in raws} == {1}
    assert [r.offset for r in raws[:3]] == [
        0,
        len(ONE_LINE_GAME.format(0)),
        2 * len(ONE_LINE_GAME.format(0)),
    ]


@pytest.mark.stress
@pytest.mark.parametrize(
    "command", [("convert",), ("fix", "--dates"), ("annotate",)], ids=lambda c: c[0]
)
def test_in_place_of_twenty_thousand_games_on_one_line_keeps_them(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    path = tmp_path / "export.pdn"
    path.write_text("".join(ONE_LINE_GAME.format(i) for i in range(20_000)), encoding="utf-8")
    assert path.stat().st_size > 1_600_000  # the size of the file
    proc = subprocess.run(
        [sys.executable, "-m", "pdn", *command, "--in-place", str(path)],
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    events = [tags["Event"] for tags in pdn.read_headers(path)]
    assert events == [f"Machine export game {i:05d}" for i in range(20_000)]


# --- the same cut whatever the blocks -----------------------------------------------------------

PIECES = st.sampled_from(
    [
        *[
            '[Event "a"]',
            "[Site ",
            '"x"]',
            'Site "y"]',
            "[Empty]",
            '[Date "',
            '2025"]',
            "[%clk 1]",
            "[a",
        ],
        *["1.", "11-15", "23-19", "9x14", "1-0", "0-1", "2-0", "1/2-1/2", "*", "27-20*", "1-10"],
        *["{c}", "{", "}", "{ [x] 1-0 }", "(", ")", "(!?)", "(!", "$1", "%esc", "; pgn"],
        *['/FEN "W:W31:B1"/', "/", "junk", "x" * 70, "ab", "1" * 30 + ".", "\u00e9t\u00e9"],
    ]
)
SPACES = st.sampled_from([" ", "\n", "\n\n", "  ", "", "\t"])
TEXTS = st.lists(st.tuples(PIECES, SPACES), max_size=40).map(
    lambda pairs: "".join(a + b for a, b in pairs)
)


@SETTINGS
@given(TEXTS, st.lists(st.integers(0, 2000), max_size=30), st.sampled_from([1, 5, 4096]))
def test_the_cut_does_not_depend_on_the_blocks(
    monkeypatch: pytest.MonkeyPatch, text: str, cuts: list[int], hold: int
) -> None:
    # The scan goes on where it stopped when more text comes: it must decide as it would with
    # all the text at once (an item cut by the end of a block waits for the rest of it), and
    # the text it sets aside meanwhile must come back whole.
    whole = shape(cut([text]))
    monkeypatch.setattr(pdn.reading.cutting, "HOLD_PIECE", hold)
    assert shape(cut(pieces_of(text, cuts))) == whole


@SETTINGS
@given(TEXTS, st.lists(st.integers(0, 2000), max_size=30), st.integers(30, 200))
def test_games_past_the_limit_end_where_they_would_without_it(
    monkeypatch: pytest.MonkeyPatch, text: str, cuts: list[int], limit: int
) -> None:
    # An over-long game keeps its head and is skipped to its real end: the games start and
    # end where they do without a limit, and only the long ones lose text (and say how much).
    monkeypatch.setattr(pdn.reading.cutting, "MAX_GAME_CHARS", 1 << 30)
    whole = [(r.offset, r.offset + len(r.text), r.end) for r in cut([text])]
    monkeypatch.setattr(pdn.reading.cutting, "MAX_GAME_CHARS", limit)
    monkeypatch.setattr(pdn.reading.cutting, "HOLD_PIECE", 1 + limit % 7)
    raws = cut(pieces_of(text, cuts))
    ends = [(r.offset, r.offset + len(r.text) + r.skipped) for r in raws]
    assert ends == [(a, b) for a, b, _ in whole]
    block = max(map(len, pieces_of(text, cuts)), default=0)
    for raw, (start, end, reason) in zip(raws, whole, strict=True):
        if end - start <= limit:
            assert raw.text == text[start:end] and raw.end == reason and raw.skipped == 0
        elif end - start > limit + 64 + block:  # (between the two, it depends on the blocks)
            assert raw.end == "size" and raw.skipped > 0 and len(raw.text) <= limit


# --- over-long games ----------------------------------------------------------------------------


def test_a_long_comment_swallows_no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdn.reading.cutting, "MAX_GAME_CHARS", 1000)
    monkeypatch.setattr(pdn.text.decoding, "BLOCK_SIZE", 300)
    long = '[Event "B"]\n1. 11-15 {' + "words of a long note\n" * 500 + "} 23-19 *\n"
    text = '[Event "A"]\n1. 9-13 *\n' + long + '[Event "C"]\n1. 10-14 *\n'
    first, second, third = pdn.read_games(io.BytesIO(text.encode()))
    assert [g.tags["Event"] for g in (first, second, third)] == ["A", "B", "C"]
    assert first.errors == [] and third.errors == [] and third.line == 505
    (too_long,) = [p for p in second.errors if p.code == "game-too-long"]
    assert too_long.severity == "error" and too_long.line is not None and too_long.line < 60
    assert "up to 504:10" in too_long.message  # after the "*" that ends the game
    assert second.mainline_moves() == ["11-15"]  # the head: up to the comment's middle


def test_an_over_long_game_keeps_its_tags_and_head_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pdn.reading.cutting, "MAX_GAME_CHARS", 500)
    text = '\n\n[Event "L"]\n[Site "S"]\n1. 11-15 ' + "23-19 8-11 " * 200 + "1-0\n1. 9-13 *"
    (raw, after) = cut(pieces_of(text, list(range(0, len(text), 37))))
    assert (raw.line, raw.column, raw.offset, raw.end) == (3, 1, 2, "size")
    assert raw.body_at == raw.text.index("1.") and raw.tags_end == raw.body_at
    assert raw.offset + len(raw.text) + raw.skipped == text.index("\n1. 9-13")
    assert (after.line, after.column, after.text) == (6, 1, "1. 9-13 *")
    game = pdn.parse_raw(raw)
    assert game.tags["Site"] == "S" and game.terminator is None
    assert [p.code for p in game.errors] == ["game-too-long"]


def measure(make: Callable[[], Iterator[object]]) -> tuple[int, int]:
    """(peak traced memory, C calls made) while everything ``make()`` yields is taken."""
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    tracemalloc.start()
    sys.setprofile(count)
    try:
        for _ in make():
            pass
    finally:
        sys.setprofile(None)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak, calls


@pytest.mark.stress
@pytest.mark.parametrize("inside", ["comment", "moves", "junk", "line"])
def test_an_over_long_game_costs_linear_work_and_bounded_memory(
    monkeypatch: pytest.MonkeyPatch, inside: str
) -> None:
    monkeypatch.setattr(pdn.reading.cutting, "MAX_GAME_CHARS", 1 << 16)
    filler = {
        "comment": "{" + "a note; 1-0 (x) [y]\n" * 12_000 + "}",
        "moves": "11-15 (23-19 {a} 8-11) " * 12_000,
        "junk": "lorem ipsum dolor 1x " * 12_000,
        "line": "% an escape line\n" * 12_000,
    }[inside]
    sizes = []
    for copies in (1, 4):
        text = '[Event "A"] 1. 9-13 *\n[Event "long"]\n1. 9-13 ' + filler * copies + " *\n"
        text += '[Event "Z"] 1. 9-13 *\n'

        def games(text: str = text) -> Iterator[RawGame]:
            return iter(Chunker(blocks_of(text, 1 << 14), None))

        raws = list(games())
        assert [r.text[:15] for r in raws] == [
            '[Event "A"] 1. ',
            '[Event "long"]\n',
            '[Event "Z"] 1. ',
        ]
        assert raws[1].end == "size" and raws[1].skipped > 0
        sizes.append(measure(games))
    (peak1, calls1), (peak4, calls4) = sizes
    assert peak4 < 1.5 * peak1 + 100_000, sizes  # bounded: the head and a block or two
    assert calls4 < 5 * calls1, sizes  # linear: no item scanned again for every block


def test_read_game_of_a_long_game_of_short_lines_is_linear() -> None:
    # read_game reads line by line: each line is a refill, and the scan must go on where it
    # stopped rather than start the game again (which made it quadratic in the game's lines).
    counts = []
    for copies in (1, 4):
        text = '[Event "A"]\n1. 9-13 {' + "a note\n" * (2_000 * copies) + "} 11-15 *\n"

        def games(text: str = text) -> Iterator[object]:
            handle = io.BytesIO(text.encode())
            while (game := pdn.read_game(handle)) is not None:
                yield game

        counts.append(measure(games)[1])
    assert counts[1] < 5 * counts[0], counts


def test_long_lines_come_in_bounded_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdn.text.decoding, "BLOCK_SIZE", 4096)
    data = b"1. 11-15 " * 100_000 + b"*\n"
    blocks = list(line_blocks(io.BytesIO(data), Decoder(None)))
    assert max(map(len, blocks)) <= 4096 and "".join(blocks).encode() == data
    texts = list(line_blocks(io.StringIO(data.decode()), Decoder(None)))
    assert max(map(len, texts)) <= 4096 and "".join(texts).encode() == data
    # read_game reads such a line in those blocks (and, past MAX_GAME_CHARS, keeps the head).
    game = pdn.read_game(io.BytesIO(data))
    assert game is not None and game.mainline_moves()[:2] == ["11-15", "11-15"]


# --- a line of junk words -----------------------------------------------------------------------


@pytest.mark.stress
def test_a_line_of_junk_is_one_game_with_its_problems_capped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Before, such a line was cut into games of MAX_GAME_CHARS, each with up to 10,000 junk
    # problems; it is one game now, its head read as one run of junk: one problem.
    monkeypatch.setattr(pdn.reading.cutting, "MAX_GAME_CHARS", 1 << 17)
    results = []
    sizes = []
    for copies in (2, 8):  # both past the blocks the decoder reads a long line in
        path = tmp_path / f"junk{copies}.pdn"
        path.write_text("lorem ipsum dolor sit amet " * (50_000 * copies), encoding="utf-8")

        def games(path: Path = path) -> Iterator[object]:
            return iter(pdn.read_games(path))

        (game,) = pdn.read_games(path)
        codes = [p.code for p in game.errors]
        assert codes.count("junk") == 1 and codes.count("game-too-long") == 1
        (junk,) = [p.message for p in game.errors if p.code == "junk"]
        words, _, rest = junk.partition(" words 'lorem ipsum dolor")
        assert int(words) > 20_000 and rest.endswith(" at 1:1 are not PDN; kept as one comment")
        results.append(measure(games))
        sizes.append(path.stat().st_size)
    (peak1, calls1), (peak4, calls4) = results
    assert peak4 < 1.3 * peak1, results
    # The skipped text is scanned, not parsed: under a call per 100 bytes (parsing makes
    # several per word).
    assert calls4 - calls1 < (sizes[1] - sizes[0]) / 100, results


@pytest.mark.stress
def test_validate_of_a_line_of_junk_says_it_was_too_long(tmp_path: Path) -> None:
    path = tmp_path / "junk.pdn"
    path.write_text("lorem ipsum dolor sit amet " * 120_000, encoding="utf-8")  # 3.2 MB
    proc = subprocess.run(
        [sys.executable, "-m", "pdn", "validate", str(path)],
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    out = proc.stdout.decode()
    assert proc.returncode == 1 and "Traceback" not in proc.stderr.decode()
    assert "1 games:" in out and "game-too-long 1" in out
    assert out.count(": junk: ") == 1  # one run of junk words, one problem


def test_the_file_scan_of_a_long_line_is_bounded(tmp_path: Path) -> None:
    # Before the games are cut, the file is scanned for what its games agree on; it read a
    # line whole, so one line of 200 MB was held (twice) in memory.
    from pdn.game.detection import scan_file

    peaks = []
    for copies in (1, 4):
        path = tmp_path / f"line{copies}.pdn"
        path.write_text("lorem ipsum 11-15 dolor sit amet " * (100_000 * copies), encoding="utf-8")
        peaks.append(measure(lambda path=path: iter([scan_file(path)]))[0])
    assert peaks[1] < 1.5 * peaks[0], peaks


@pytest.mark.parametrize(
    "command", [("convert",), ("fix", "--dates"), ("annotate",)], ids=lambda c: c[0]
)
def test_a_file_with_an_over_long_game_is_not_rewritten_in_place(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    # Only the head of such a game is read: writing it back would cut the game.
    path = tmp_path / "long.pdn"
    data = ('[Event "a"]\n1. 11-15 *\n\n[Event "b"]\n1. 9-13 {' + "x " * 600_000 + "} *\n").encode()
    path.write_bytes(data)
    proc = subprocess.run(
        [sys.executable, "-m", "pdn", *command, "--in-place", str(path)],
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "Traceback" not in err
    assert "game-too-long" in err or "longer than" in err
    assert "left as it is" in err and path.read_bytes() == data


def test_a_damaged_tag_before_a_long_line_does_not_make_a_short_game_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "[Site" with no "]" waits for its next line (which may finish it); a long next line
    # held a game of 23 characters past the limit, and its head took the next game's text.
    monkeypatch.setattr(pdn.reading.cutting, "MAX_GAME_CHARS", 30)
    text = '[Site \n[Site  { [x] 1-0 } [Event "a"]' + ' [Event "a"]' * 6
    first, second = cut([text])
    assert (first.text, first.end, first.skipped) == ("[Site \n[Site  { [x] 1-0", "result", 0)
    assert second.offset == 24 and second.text.startswith("} [Event")
