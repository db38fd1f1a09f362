"""Property tests: the reader never raises, and what it reads writes back to an equal game."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_paths import CORPUS

from pdn import Game, parse_game, parse_games, write_game

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "reader"

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_round_trip(games: list[Game]) -> None:
    """Each game writes back (faithful and normalised) to text that reads as the same game."""
    for game in games:
        written = write_game(game)
        assert parse_game(written) == game, written
        normal = write_game(game, normalize=True)
        assert write_game(parse_game(normal), normalize=True) == normal, normal


# --- arbitrary input ---------------------------------------------------------------------------


@SETTINGS
@given(st.binary(max_size=3000))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    games = list(parse_games(data))
    for game in games:
        assert isinstance(game, Game)
        for problem in game.errors:
            assert problem.line is None or problem.line >= 1
    if not (games and games[0].encoding == "binary"):
        check_round_trip(games)


PDN_CHARACTERS = st.sampled_from(
    [
        *'{}()[]"%;*/\\$!?.-x:X 0123456789\n\n\r\t',
        *["1-0", "0-1", "1/2-1/2", "2-0", "1-1", "*", "\\r\n"],
        *['[Event "', '"]', '/FEN "', "\u201c", "\u201d", "\u00a0", "a3", "h8", "\u0416", "\ufffd"],
    ]
)


@SETTINGS
@given(st.lists(PDN_CHARACTERS, max_size=300).map("".join))
def test_arbitrary_pdn_like_text_never_raises(text: str) -> None:
    games = list(parse_games(text))
    check_round_trip(games)


# --- mutated real games -----------------------------------------------------------------------


def sample_texts() -> list[str]:
    texts = [
        path.read_bytes().decode("utf-8", "replace") for path in sorted(FIXTURES.glob("*.pdn"))
    ]
    for relative in (
        "wiegerw__pdn/games/succeed/nk ronde 01.pdn",
        "wiegerw__pdn/games/succeed/windragon.pdn",
        "wiegerw__pdn/games/succeed/ussr1947.pdn",
        "wiegerw__pdn/games/fail/Cat.A1.pdn",
    ):
        path = CORPUS / relative
        if path.exists():
            texts.append(path.read_bytes().decode("utf-8", "replace")[:6000])
    return texts


SAMPLES = sample_texts()


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SAMPLES))
    for _ in range(draw(st.integers(1, 12))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace", "cut"]))
        piece = draw(PDN_CHARACTERS)
        if action == "insert":
            text = text[:at] + piece + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)) :]
        elif action == "replace":
            text = text[:at] + piece + text[at + 1 :]
        else:
            text = text[:at]
    return text


@SETTINGS
@given(mutated())
def test_mutated_real_games_never_raise(text: str) -> None:
    games = list(parse_games(text))
    check_round_trip(games)
    from_bytes = list(parse_games(text.encode("utf-8")))
    # The same text as bytes reads the same, unless it looks like a binary file ("PDN3",
    # control bytes); a NUL byte is damage (U+FFFD) where a str is taken as it is.
    if not (from_bytes and from_bytes[0].encoding == "binary"):
        assert from_bytes == list(parse_games(text.replace("\x00", "\ufffd")))


# --- generated games --------------------------------------------------------------------------

NAMES = st.sampled_from(["Event", "Site", "Date", "White", "Black", "Result", "FEN", "Annotator"])
VALUES = st.text(
    alphabet=st.characters(blacklist_categories=["Cs", "Cc"], blacklist_characters="\u201c\u201d"),
    max_size=20,
)
NUMERIC_SQUARE = st.integers(1, 50).map(str)
ALGEBRAIC_SQUARE = st.tuples(st.sampled_from("abcdefgh"), st.integers(1, 8)).map(
    lambda pair: f"{pair[0]}{pair[1]}"
)


@st.composite
def move_text(draw: st.DrawFn) -> str:
    square = draw(st.sampled_from([NUMERIC_SQUARE, ALGEBRAIC_SQUARE]))
    path = draw(st.lists(square, min_size=2, max_size=4))
    separator = draw(st.sampled_from(["-", "x", "x", ":"]))
    text = separator.join(path)
    if text in ("1-1", "1:1", "1x1"):
        text = "1-5"
    return text


COMMENT = st.one_of(
    st.text(
        alphabet=st.characters(blacklist_characters="}", blacklist_categories=["Cs"]), max_size=30
    ).map(lambda t: "{" + t + "}"),
    st.text(
        alphabet=st.characters(
            blacklist_characters="\n\r", blacklist_categories=["Cs", "Zl", "Zp"]
        ),
        max_size=20,
    ).map(lambda t: ";" + t + "\n"),
)


@st.composite
def line_of_play(draw: st.DrawFn, depth: int) -> list[str]:
    words: list[str] = []
    count = draw(st.integers(1, 6))
    for i in range(count):
        if draw(st.booleans()):
            words.append(f"{i + 1}.")
        if draw(st.integers(0, 5)) == 0:
            words.append(draw(COMMENT))
        words.append(draw(move_text()) + draw(st.sampled_from(["", "", "", "!", "?!", "(?)"])))
        if draw(st.integers(0, 6)) == 0:
            words.append(f"${draw(st.integers(0, 999))}")
        if draw(st.integers(0, 6)) == 0:
            words.append(draw(COMMENT))
        if depth < 3 and draw(st.integers(0, 5)) == 0:
            words.append("(" + " ".join(draw(line_of_play(depth + 1))) + ")")
        if draw(st.integers(0, 15)) == 0:
            words.append('/FEN "W:W31,32:B1,2"/')
    return words


@st.composite
def generated_game(draw: st.DrawFn) -> str:
    tags = draw(st.lists(st.tuples(NAMES, VALUES), max_size=6))
    lines = []
    for name, value in tags:
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{name} "{escaped}"]')
    words = draw(line_of_play(0))
    terminator = draw(
        st.sampled_from(["", "*", "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0"])
    )
    return "\n".join(lines) + "\n\n" + " ".join(words) + " " + terminator + "\n"


@SETTINGS
@given(generated_game())
def test_generated_games_round_trip(text: str) -> None:
    games = list(parse_games(text))
    assert len(games) == 1, text
    (game,) = games
    assert [p for p in game.errors if p.severity == "error"] == [], game.errors
    check_round_trip(games)


@SETTINGS
@given(st.lists(generated_game(), min_size=1, max_size=5))
def test_files_of_generated_games(texts: list[str]) -> None:
    # Each generated game is followed by a blank line and a tag, or ends with a terminator,
    # so the games of a file are read apart.
    joined = "".join(f'[Index "{i}"]\n{text}\n' for i, text in enumerate(texts))
    games = list(parse_games(joined))
    assert [g.tags.get("Index") for g in games] == [str(i) for i in range(len(texts))]


# --- the reader's shortcuts give what the grammar gives -----------------------------------------

RUN_PIECES = st.sampled_from(
    [
        *["1.", "12.", "3...", "11-15", "24x15", "9x14x23", "05-09", "1-10", "3228", "c3-d4"],
        *["a1b2", "h8", "l12", "m1", "1-1", "1-0", "0-1", "2-0", "0-0", "*", "1/2-1/2", "11-15*"],
        *["x", "-", ":", ".", "..", "1.2", "5x", "!", "$1", "{c}", "(", ")", '[Event "a"]'],
    ]
)
RUN_SPACES = st.sampled_from([" ", "\n", "  ", " \n ", "", "\t", "\u00a0", "\x1c"])


@SETTINGS
@given(st.lists(st.tuples(RUN_PIECES, RUN_SPACES), max_size=12), st.booleans())
def test_plain_movetext_shortcut_agrees_with_the_grammar(
    pieces: list[tuple[str, str]], tagged: bool
) -> None:
    # A game of plain words is cut into tags, moves and result without the grammar's regular
    # expression; wherever the shortcut answers, the expression must give the same spans.
    from pdn.reading.grammar import patterns
    from pdn.reading.tokens import _plain_spans, tag_section_end

    text = ('[Event "x"]\n' if tagged else "") + "".join(a + b for a, b in pieces)
    spans = _plain_spans(text, tag_section_end(text))
    if spans is not None:
        found = patterns().simple.match(text)
        assert found is not None, text
        assert spans == (found.span(1), found.span(2), found.span(3)), text


@SETTINGS
@given(st.lists(st.tuples(RUN_PIECES, RUN_SPACES), max_size=12), st.booleans())
def test_tag_run_end_the_cutter_gives_is_the_grammars(
    pieces: list[tuple[str, str]], tagged: bool
) -> None:
    # The cutter says where a game's run of tag pairs ends when the movetext follows it; the
    # parser takes its word for it instead of matching the TAGS terminal again.
    from pdn import split_games
    from pdn.reading.tokens import tag_section_end

    text = ('[Event "x"]\n[Site "y"] ' if tagged else "") + "".join(a + b for a, b in pieces)
    for raw in split_games(io.StringIO(text + '\n[Event "next"]\n1. 11-15 *')):
        if raw.tags_end >= 0:
            assert raw.tags_end == raw.body_at == tag_section_end(raw.text), raw.text
