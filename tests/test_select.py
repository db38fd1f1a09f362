"""``pdn select`` and :mod:`pdn.collections.selection`, on a hand-made collection with one game per
case."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_paths import OCA, needs_shared

import pdn
from pdn.cli import main
from pdn.collections.selection import (
    Selection,
    date_span,
    parse_date_bound,
    parse_material,
    parse_pattern,
    parse_results,
    select_games,
)
from pdn.engine import ENGLISH, Position
from pdn.reading.cutting import RawGame
from pdn.text.results import Outcome

ROOT = Path(__file__).resolve().parents[1]


def game(tags: dict[str, str], moves: str) -> str:
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return head + moves + "\n"


# The position after 11-15 23-19 8-11 22-17, Black to move, written by the engine.
def after(moves: str) -> Position:
    position = Position.start(ENGLISH)
    for text in moves.split():
        position = position.play(next(m for m in position.legal_moves() if m.notation() == text))
    return position


TARGET = after("11-15 23-19 8-11 22-17")

GAMES = [
    # 1: the target line as the ACF writes it
    game(
        {
            "Event": "Open 1990",
            "Date": "1990.??.??",
            "Black": "Ann",
            "White": "Bob",
            "Result": "1-0",
            "Round": "1",
        },
        "1. 11-15 23-19 2. 8-11 22-17 3. 15-18 27-23 4. 18x27 1-0",
    ),
    # 2: the same position by transposition, an international-family result
    game(
        {
            "Event": "Open 1990",
            "Date": "1990-06-??",
            "Black": "Cy",
            "White": "Ann",
            "Result": "2-0",
            "Round": "2",
        },
        "1. 11-15 22-17 2. 8-11 23-19 3. 4-8 2-0",
    ),
    # 3: no Result tag (the terminator decides), unknown date, draw
    game(
        {"Event": "Club 2001", "Date": "????.??.??", "Black": "Bob", "White": "Dee"},
        "1. 9-14 22-17 2. 11-15 1/2-1/2",
    ),
    # 4: an illegal move (backward man) after three plies
    game(
        {
            "Event": "Club 2001",
            "Date": "2001.05.17",
            "Black": "Dee",
            "White": "Eve",
            "Result": "0-1",
        },
        "1. 11-15 23-19 2. 15-11 22-18 0-1",
    ),
    # 5: an international game, 1-1 (a draw of the other family)
    game(
        {
            "Event": "Worlds 19",
            "Date": "19??.??.??",
            "GameType": "20",
            "White": "Wim",
            "Black": "Ann",
            "Result": "1-1",
        },
        "1. 32-28 19-23 2. 28x19 14x23 1-1",
    ),
    # 6: kings only at the end: Black (first mover) two kings, White one
    game(
        {
            "Event": "Endings",
            "Date": "2024.01.02",
            "Black": "Fay",
            "White": "Gus",
            "Result": "*",
            "SetUp": "1",
            "FEN": "B:WK30:BK1,K5",
        },
        "1. 5-9 30-26 *",
    ),
]
TEXT = "\n".join(GAMES)


@pytest.fixture()
def collection(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(TEXT, encoding="utf-8")
    return path


def picked(path: Path, **conditions: object) -> list[int]:
    return [p.index for p in select_games([str(path)], Selection(**conditions))]  # type: ignore[arg-type]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


# ------------------------------------------------------------------------------ tags


def test_tag_regexes_are_searched_case_insensitively_and_all_must_match(collection: Path) -> None:
    code, out, _ = run(
        "select", str(collection), "--tag", "event=^open", "--tag", "Round=2", "--count"
    )
    assert (code, out) == (0, "1\n")
    assert picked(collection, tags=[("Event", re.compile("club", re.I))]) == [3, 4]


def test_players_either_side_or_one_side(collection: Path) -> None:
    ann = re.compile("^ann$", re.I)
    assert picked(collection, player=ann) == [1, 2, 5]
    assert picked(collection, black=ann) == [1, 5]
    assert picked(collection, white=ann) == [2]
    assert picked(collection, event=re.compile("worlds", re.I)) == [5]


def test_partial_dates_stand_for_every_day_they_could_be(collection: Path) -> None:
    assert date_span("1990.??.??") == ((1990, 1, 1), (1990, 12, 31))
    assert date_span("19??.??.??") == ((1900, 1, 1), (1999, 12, 31))
    assert date_span("????.??.??") is None
    june = parse_date_bound("1990.06.15", upper=False)
    # 1990.??.?? and 1990-06-?? may fall on or after June 15th; 19?? may too.
    assert picked(collection, date_from=june, date_to=parse_date_bound("1990", upper=True)) == [
        1,
        2,
        5,
    ]
    # Only the whole of 2001 and after: 19?? cannot be, the unknown date never is.
    assert picked(collection, date_from=parse_date_bound("2001", upper=False)) == [4, 6]
    _, out, _ = run("select", str(collection), "--date-to", "1989", "--count")
    assert out == "1\n"  # 19??.??.??


def test_results_of_both_families_read_as_first_mover_outcomes(collection: Path) -> None:
    assert parse_results(["2-0"]) == parse_results(["1-0"]) == {Outcome.FIRST_WINS}
    assert picked(collection, results=parse_results(["1-0"])) == [1, 2]
    # 1/2-1/2 from the terminator of a game without a Result tag, 1-1 from the tag.
    assert picked(collection, results=parse_results(["draw"])) == [3, 5]
    assert picked(collection, results=parse_results(["0-2"])) == [4]
    assert picked(collection, results=parse_results(["unknown"])) == [6]
    code, _, err = run("select", str(collection), "--result", "3-0")
    assert code == 2 and "not a result" in err


def test_variant_from_gametype_or_detection(collection: Path) -> None:
    assert picked(collection, variant="international") == [5]
    assert picked(collection, variant="english") == [1, 2, 3, 4, 6]


def test_tag_selection_never_parses_the_moves(
    collection: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pdn.collections.selection

    def refuse(raw: RawGame) -> pdn.Game:
        raise AssertionError("the movetext was parsed")

    monkeypatch.setattr(pdn.collections.selection, "parse_raw", refuse)
    assert picked(collection, player=re.compile("ann", re.I), results=parse_results(["1-0"])) == [
        1,
        2,
    ]


def test_selection_by_players_does_not_scan_the_file(
    collection: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The scan for the board the games agree on only serves games that are parsed.
    import pdn.reading.reader

    def refuse(source: object) -> None:
        raise AssertionError("the file was scanned")

    monkeypatch.setattr(pdn.reading.reader, "scan_file", refuse)
    assert picked(collection, player=re.compile("ann", re.I)) == [1, 2, 5]


def test_games_are_written_as_read(tmp_path: Path) -> None:
    odd = '[Event  "x"]\n{ a comment }\n1.  11-15   23-19 {odd spacing}  *\n'
    path = tmp_path / "odd.pdn"
    path.write_text(odd + "\n" + odd.replace("x", "y"), encoding="utf-8")
    _, out, _ = run("select", str(path), "--tag", "Event=x")
    assert out == odd


# ------------------------------------------------------------------------------ moves


def test_ply_counts(collection: Path) -> None:
    assert picked(collection, min_plies=6) == [1]
    assert picked(collection, max_plies=3) == [3, 6]


def test_ballot_by_position_counts_transpositions(collection: Path) -> None:
    # 9-14 22-17 11-15 is ACF 38; game 3 plays it as 9-14 22-17 11-15 itself, and a
    # transposed order reaches it too.
    extra = game({"Event": "T"}, "1. 11-15 22-17 2. 9-14 *")
    path = collection.parent / "ballots.pdn"
    path.write_text(TEXT + "\n" + extra, encoding="utf-8")
    assert picked(path, ballot=38) == [3, 7]
    _, out, _ = run("select", str(path), "--ballot", "38", "--count")
    assert out == "2\n"


def test_fen_found_through_a_transposition_side_to_move_included(collection: Path) -> None:
    assert picked(collection, fen=TARGET.fen()) == [1, 2]
    # The same men with White to move is another position.
    assert picked(collection, fen="W" + TARGET.fen()[1:]) == []
    _, out, _ = run("select", str(collection), "--fen", TARGET.fen(), "--count")
    assert out == "2\n"


def test_fen_pattern_only_the_given_squares(collection: Path) -> None:
    pattern = parse_pattern("B:W17,19:B15")
    assert picked(collection, fen_pattern=pattern) == [1, 2]
    assert picked(collection, fen_pattern=parse_pattern("?:BK9")) == [6]
    # Square 40 exists only on the 10x10 board (White starts on 31-50): the English games
    # never match it; square 0 is no square at all.
    assert picked(collection, fen_pattern=parse_pattern("?:W40")) == [5]
    for bad in ("X:W1", "B:W0", "B:W9-3", "B:Q1"):
        with pytest.raises(ValueError):
            parse_pattern(bad)


def test_material_at_the_end_first_mover_first_or_by_colour(collection: Path) -> None:
    assert parse_material("3K:2K")[0].kings == 3
    assert picked(collection, material=parse_material("2K:1K")) == [6]
    assert picked(collection, material=parse_material("W1K:B2K")) == [6]
    assert picked(collection, material=parse_material("2:1")) == [6]
    assert picked(collection, material=parse_material("1K:2K")) == []
    code, _, err = run("select", str(collection), "--material", "3Q:2K")
    assert code == 2 and "--material" in err


def test_positions_are_the_replays_of_validate() -> None:
    # A backward man: validate's replay stops there, and so do the positions select reads.
    game = pdn.parse_game("1. 11-15 23-19 2. 15-11 22-18 *")
    assert Selection(fen_pattern=parse_pattern("B:W19")).marks(game) == {2: ["--fen-pattern"]}
    assert Selection(fen_pattern=parse_pattern("W:W18")).marks(game) is None


# ------------------------------------------------------------------------------ verdicts


def test_clean_broken_invert_first_and_count(collection: Path) -> None:
    assert picked(collection, verdict="broken") == [4]
    assert picked(collection, verdict="clean") == [1, 2, 3, 5, 6]
    assert picked(collection, verdict="broken", invert=True, first=2) == [1, 2]
    _, out, _ = run("select", str(collection), "--broken", "--invert", "--count")
    assert out == "5\n"


def test_cut_at_error_keeps_the_rest_in_comments(collection: Path) -> None:
    code, out, err = run("select", str(collection), "--broken", "--cut-at-error")
    assert code == 0 and "1 games cut" in err
    assert "1. 11-15 23-19\n; pdn: cut at " in out
    assert "; 2. 15-11 22-18 0-1\n0-1\n" in out
    cut = pdn.parse_game(out)
    assert cut.mainline_moves() == ["11-15", "23-19"]
    assert pdn.validate(cut).status == "ok"
    # Nothing lost: every word of the original movetext is still in the output.
    original = GAMES[3].split()
    assert all(word in out.split() for word in original)


def test_usage_errors_are_messages(collection: Path) -> None:
    for args in (
        ["--player", "("],
        ["--date-from", "June"],
        ["--tag", "noequals"],
        ["--fen", "nonsense"],
        ["--fen-pattern", "Q"],
    ):
        code, _, err = run("select", str(collection), *args)
        assert code == 2, args
        assert "Traceback" not in err


@needs_shared(OCA)
def test_oca_fen_count_agrees_with_full_validation() -> None:
    # A cross-check on the first 1,500 games of OCA 2.0: lazy replay finds exactly the games
    # whose full validation report passes through the position.
    key = TARGET.key()
    selected = select_games([str(OCA)], Selection(fen=TARGET.fen()))
    found = [p.index for p in itertools.takewhile(lambda p: p.index <= 1500, selected)]
    expected = []
    for raw in itertools.islice(pdn.split_games(str(OCA)), 1500):
        report = pdn.validate(pdn.parse_raw(raw))
        if report.start is None:
            continue
        seen = [report.start.key()]
        for step in report.mainline_steps():
            if step.move is None and step.node.setup is None:
                break  # validation goes on past an illegal move; a selection does not
            if step.after is not None:
                seen.append(step.after.key())
        if key in seen:
            expected.append(raw.index)
    assert found == expected
    assert len(found) > 10


def test_cut_at_a_reading_error_in_the_movetext(tmp_path: Path) -> None:
    path = tmp_path / "syntax.pdn"
    path.write_text('[Event "x"]\n1. 11-15 23-19 2. 8-11 ) 22-17 *\n', encoding="utf-8")
    _, out, _ = run("select", str(path), "--cut-at-error")
    assert out.endswith(
        "2. 8-11\n; pdn: cut at 2:24, unopened-variation: unexpected ')' at 2:24: "
        "no variation is open; kept as a comment\n; ) 22-17 *\n*\n"
    )
    assert pdn.validate(pdn.parse_game(out)).status == "ok"


def test_json_input_and_standard_input(collection: Path, tmp_path: Path) -> None:
    as_json = tmp_path / "games.json"
    code, _, _ = run("convert", "--to", "json", str(collection), "-o", str(as_json))
    assert code == 0
    _, out, _ = run("select", str(as_json), "--player", "^ann$")
    assert [g.tags["Black"] for g in pdn.parse_games(out)] == ["Ann", "Cy", "Ann"]
    result = CliRunner().invoke(
        main, ["select", "-", "--fen", TARGET.fen(), "--count"], input=TEXT.encode()
    )
    assert result.stdout == "2\n"


def test_an_input_that_is_not_pdn_is_said_and_gives_no_game(tmp_path: Path) -> None:
    binary = tmp_path / "image.pdn"
    binary.write_bytes(bytes(range(256)) * 4)
    for command in (["select"], ["dedupe"], ["split", "--by", "3", "-o", str(tmp_path / "out")]):
        result = CliRunner().invoke(main, [*command, str(binary)])
        assert result.exit_code == 1, command
        assert f"{binary}:1:1: not-pdn:" in result.stderr
        assert "[" not in result.stdout and "Traceback" not in result.output
