"""Opening classification: ACF three-move ballots, two-move openings, 11-man ballots, stats."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from shared_paths import CORPUS, REFERENCE_DATA, needs_shared

import pdn
import pdn.rules.openings
from pdn.engine import ENGLISH, RUSSIAN, Color, Position, diagnose
from pdn.rules.openings import (
    Opening,
    ballot,
    ballot_stats,
    ballots,
    classify,
    classify_positions,
    compact_fen,
    eleven_man_fens,
    three_move_positions,
    two_move_openings,
)
from pdn.text.problems import Problem
from pdn.text.results import Outcome
from pdn.writing.openings_render import OpeningRow, opening_row, render_openings, render_stats

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "openings"
DATA = ROOT / "pdn" / "data"
REFERENCE = REFERENCE_DATA
ELEVEN_MAN_PDN = Path(
    os.environ.get(
        "PDN_ELEVEN_MAN_PDN",
        str(CORPUS / "eygilbert__CheckerBoard" / "11_man_english.pdn"),
    )
)

START = Position.start(ENGLISH)
BARRED = {3, 13, 26, 35, 44, 45, 48, 52, 77, 88, 94, 109, 114, 137, 145, 156, 168, 171}
TWO_MOVE_BARRED = {"9-14 21-17", "10-14 21-17", "9-14 23-18", "10-14 23-18", "11-16 23-19",
                   "12-16 23-19"}  # fmt: skip


def replay(moves: str, start: Position = START) -> list[Position]:
    """Positions after each move of ``moves`` ("11-15 22-17 14x21"), matched by the engine."""
    out: list[Position] = []
    position = start
    for token in moves.split():
        squares = [int(s) for s in re.split(r"[-x]", token)]
        diagnosis = diagnose(position, squares, "x" in token)
        assert diagnosis.move is not None and diagnosis.fault is None, (token, diagnosis.message)
        position = position.play(diagnosis.move)
        out.append(position)
    return out


def opening_of(moves: str) -> Opening:
    return classify_positions(START, replay(moves), moves.split())


def fen_position(fen: str) -> Position:
    return Position.from_fen(fen, ENGLISH)


def fixture_games() -> dict[str, pdn.Game]:
    return {g.tags["Round"]: g for g in pdn.read_games(FIXTURES / "games.pdn")}


# ----------------------------------------------------------------------------- data integrity


def test_deck_has_174_ballots_156_standard_and_the_18_barred() -> None:
    deck = ballots()
    assert [b.number for b in deck] == list(range(1, 175))
    assert sum(b.status == "standard" for b in deck) == 156
    assert {b.number for b in deck if b.status == "barred"} == BARRED
    assert ballot(38).moves == "9-14 22-17 11-15"
    assert ballot(174).name == "Skunk"
    with pytest.raises(KeyError, match="1-174"):
        ballot(175)


def test_deck_csv_and_positions_csv_agree_on_every_ballot() -> None:
    with (DATA / "three_move_deck.csv").open(encoding="utf-8", newline="") as handle:
        deck = {int(row["number"]): row for row in csv.DictReader(handle)}
    assert len(deck) == 174
    for entry in ballots():
        assert entry.number is not None
        row = deck[entry.number]
        assert entry.moves == row["moves"]
        assert entry.name == (row["name"] or None)
        assert entry.status == ("standard" if row["status"] == "standard" else "barred")


def test_every_ballot_replays_with_the_engine_to_its_listed_position() -> None:
    for entry in ballots():
        assert entry.moves is not None
        line = replay(entry.moves)
        assert len(line) == 3
        assert line[-1] == fen_position(entry.fen), entry.number
        assert line[-1].turn is Color.WHITE


def test_216_positions_cover_every_three_ply_order_exactly() -> None:
    positions = three_move_positions()
    assert len(positions) == 216
    assert sum(p.status == "other" for p in positions) == 42
    assert len({fen_position(p.fen) for p in positions}) == 216
    orders = [order for p in positions for order in p.move_orders]
    assert len(orders) == len(set(orders)) == 302
    for entry in positions:
        for order in entry.move_orders:
            assert replay(order)[-1] == fen_position(entry.fen), order
        if entry.number is not None:
            assert entry.moves in entry.move_orders
    # ...and the engine finds no other position after three plies.
    reached = {p3 for p1 in replay_all(START) for p2 in replay_all(p1) for p3 in replay_all(p2)}
    assert reached == {fen_position(p.fen) for p in positions}


def replay_all(position: Position) -> list[Position]:
    return [position.play(m) for m in position.legal_moves()]


def test_two_move_table_has_49_openings_43_standard_6_barred() -> None:
    table = two_move_openings()
    assert [t.number for t in table] == list(range(1, 50))
    assert sum(t.status == "standard" for t in table) == 43
    assert {t.moves for t in table if t.status == "barred"} == TWO_MOVE_BARRED
    with (DATA / "two_move.csv").open(encoding="utf-8", newline="") as handle:
        rows = {row["moves"]: row for row in csv.DictReader(handle)}
    for entry in table:
        assert replay(entry.moves)[-1] == fen_position(rows[entry.moves]["fen_after_ply2"])
    assert {t.moves: t.name for t in table}["11-15 24-20"] == "Ayrshire Lassie"


def test_eleven_man_table_has_2400_distinct_positions() -> None:
    fens = eleven_man_fens()
    assert len(fens) == 2400
    positions = [fen_position(f) for f in fens]
    assert len(set(positions)) == 2400
    for position in positions:
        pieces = position.pieces().values()
        assert position.turn is Color.BLACK
        assert sum(p.color is Color.BLACK for p in pieces) == 11
        assert sum(p.color is Color.WHITE for p in pieces) == 11
    # The shipped form is the compact one: squares ascending, ranges for runs of three.
    assert fens[0] == "B:W19,21-23,25-27,29-32:B1-7,9-12"
    assert all(compact_fen(p) == f for p, f in zip(positions, fens, strict=True))


@needs_shared(ELEVEN_MAN_PDN)
def test_eleven_man_csv_matches_the_corpus_file() -> None:
    text = ELEVEN_MAN_PDN.read_bytes().decode("ascii")
    fens = re.findall(r'\[FEN "([^"]*)"\]', text)
    assert len(fens) == 2400
    expected = [[str(n), compact_fen(fen_position(f))] for n, f in enumerate(fens, 1)]
    with (DATA / "eleven_man_english.csv").open(encoding="utf-8", newline="") as handle:
        shipped = list(csv.reader(handle))
    assert shipped[0] == ["number", "fen"]
    assert shipped[1:] == expected


@needs_shared(REFERENCE)
@pytest.mark.parametrize("name", ["three_move_positions.csv", "two_move.csv"])
def test_shipped_opening_csvs_are_copies_of_the_reference_data(name: str) -> None:
    assert (DATA / name).read_bytes() == (REFERENCE / name).read_bytes()


@needs_shared(REFERENCE)
def test_shipped_deck_is_the_reference_deck_plus_sourced_names() -> None:
    # The deck may only add a ballot name where the reference has none, and then its
    # source must say where the name comes from (pdn/data/README.md, "Ballot names").
    def rows(folder: Path) -> list[dict[str, str]]:
        with (folder / "three_move_deck.csv").open(encoding="utf-8", newline="") as handle:
            return list(csv.DictReader(handle))

    shipped, reference = rows(DATA), rows(REFERENCE)
    assert len(shipped) == len(reference) == 174
    for ours, theirs in zip(shipped, reference, strict=True):
        assert {k: v for k, v in ours.items() if k not in ("name", "source")} == {
            k: v for k, v in theirs.items() if k not in ("name", "source")
        }
        if ours["name"] != theirs["name"]:
            assert theirs["name"] == "" and ours["name"]
            assert ours["source"].startswith(theirs["source"] + "; name: ")
        else:
            assert ours["source"] == theirs["source"]


def test_compact_fen_keeps_kings_apart_and_pairs_as_lists() -> None:
    position = fen_position("W:WK32,9,10,K11,12,13,14:B3,1,2,4,K6,7")
    assert compact_fen(position) == "W:W9,10,K11,12-14,K32:B1-4,K6,7"
    assert fen_position(compact_fen(position)) == position


# ----------------------------------------------------------------------------- label kinds


def test_ballot_in_its_listed_order_is_not_transposed() -> None:
    opening = opening_of("11-15 23-19 8-11")
    assert (opening.kind, opening.number, opening.moves) == ("ballot", 126, "11-15 23-19 8-11")
    assert opening.status == "standard"
    assert opening.transposed is False
    assert opening.played == "11-15 23-19 8-11"
    assert opening.two_move is not None and opening.two_move.moves == "11-15 23-19"


def test_transposition_is_found_by_position() -> None:
    opening = opening_of("11-15 22-17 9-14")
    assert (opening.kind, opening.number) == ("ballot", 38)
    assert opening.moves == "9-14 22-17 11-15"
    assert opening.transposed is True
    assert opening.played == "11-15 22-17 9-14"
    assert opening.move_orders == ("9-14 22-17 11-15", "11-15 22-17 9-14")
    # The two-move opening is the game's own, not the listed order's.
    assert opening.two_move is not None and opening.two_move.moves == "11-15 22-17"
    assert opening.label == "ACF 38: 9-14 22-17 11-15 (transposed)"


@pytest.mark.parametrize(
    ("moves", "number"),
    [
        ("10-14 22-18 9-13", 6),  # Black's two moves swapped
        ("10-14 22-17 6-10", 37),  # different men ending on the same squares
        ("9-13 22-18 13-17", 45),
        ("11-15 24-20 15-19", 159),
        ("9-13 21-17 10-15", 87),  # listed under 10-15
    ],
)
def test_other_transpositions(moves: str, number: int) -> None:
    opening = opening_of(moves)
    assert (opening.kind, opening.number, opening.transposed) == ("ballot", number, True)


def test_barred_ballot() -> None:
    opening = opening_of("9-13 21-17 10-14")
    assert (opening.kind, opening.number, opening.status) == ("ballot", 3, "barred")
    assert opening.transposed is False
    assert opening.label == "ACF 3: 9-13 21-17 10-14 [barred]"


def test_ballot_ending_with_a_capture() -> None:
    opening = opening_of("9-13 22-17 13x22")
    assert (opening.kind, opening.number, opening.played) == ("ballot", 4, "9-13 22-17 13x22")


def test_named_ballot() -> None:
    opening = opening_of("9-13 22-18 6-9")
    assert (opening.number, opening.name) == (5, "Dreaded Edinburgh")
    assert opening.label == "ACF 5 Dreaded Edinburgh: 9-13 22-18 6-9"


def test_position_not_in_the_acf_list_is_other() -> None:
    opening = opening_of("9-14 21-17 14x21")
    assert opening.kind == "other"
    assert opening.number is None and opening.status is None
    assert opening.move_orders == ("9-14 21-17 14x21",)
    assert opening.played == "9-14 21-17 14x21"
    assert opening.two_move is not None
    assert (opening.two_move.moves, opening.two_move.status) == ("9-14 21-17", "barred")
    assert opening.label == "other: 9-14 21-17 14x21"


def test_every_three_ply_order_classifies_like_the_table() -> None:
    kinds = {"ballot": 0, "other": 0}
    for entry in three_move_positions():
        for order in entry.move_orders:
            opening = opening_of(order)
            kinds[opening.kind] += 1
            assert opening.number == entry.number
            assert opening.played == order
            assert opening.transposed is (entry.number is not None and order != entry.moves)
            assert opening.two_move is not None
            assert order.startswith(opening.two_move.moves + " ")
    assert sum(kinds.values()) == 302


def test_illegal_move_in_the_first_three_plies_is_reported_not_classified() -> None:
    after = replay("11-15 22-17")
    opening = classify_positions(START, after, ["11-15", "22-17", "9-15"], illegal_ply=3)
    assert (opening.kind, opening.ply, opening.number) == ("illegal", 3, None)
    assert opening.played == "11-15 22-17"
    assert opening.two_move is not None and opening.two_move.moves == "11-15 22-17"
    assert opening.note == "illegal move 9-15 at ply 3"
    assert opening.label == "illegal move at ply 3"


def test_illegal_ply_ignores_positions_from_that_ply_on() -> None:
    # A physically possible illegal move still gives a position; it must not be looked up.
    after = replay("9-13 21-17 10-14")
    opening = classify_positions(START, after, illegal_ply=2)
    assert (opening.kind, opening.ply, opening.played, opening.two_move) == (
        "illegal",
        2,
        "9-13",
        None,
    )
    assert classify_positions(START, after, illegal_ply=1).played is None


def test_illegal_move_after_the_third_ply_does_not_matter() -> None:
    opening = classify_positions(START, replay("9-13 21-17 10-14 17x10"), illegal_ply=4)
    assert (opening.kind, opening.number) == ("ballot", 3)


@pytest.mark.parametrize(
    ("moves", "plies", "two_move"),
    [("", 0, None), ("11-15", 1, None), ("11-15 24-20", 2, "Ayrshire Lassie")],
)
def test_short_games(moves: str, plies: int, two_move: str | None) -> None:
    opening = opening_of(moves)
    assert opening.kind == "short"
    assert opening.played == (moves or None)
    assert len(moves.split()) == plies
    assert (opening.two_move.name if opening.two_move else None) == two_move


def test_fen_start_at_a_ballot_position_is_that_ballot() -> None:
    start = fen_position(ballot(5).fen)
    opening = classify_positions(start, replay("25-22", start))
    assert (opening.kind, opening.number, opening.name) == ("ballot", 5, "Dreaded Edinburgh")
    # The game's own first plies are unknown, so it is neither transposed nor two-move.
    assert (opening.transposed, opening.played, opening.two_move) == (False, None, None)


def test_fen_start_at_an_unlisted_three_ply_position_is_other() -> None:
    start = replay("12-16 24-20 16-19")[-1]
    opening = classify_positions(start, [])
    assert (opening.kind, opening.move_orders) == ("other", ("12-16 24-20 16-19",))


def test_ballot_diagram_with_black_to_move_is_a_setup() -> None:
    start = fen_position(ballot(5).fen).with_turn(Color.BLACK)
    opening = classify_positions(start, replay("12-16", start))
    assert (opening.kind, opening.fen) == ("setup", start.fen())


def test_fen_after_ply_one_is_continued_by_the_game() -> None:
    start = fen_position("W:W21-32:B1-10,12,15")  # after 11-15
    opening = classify_positions(start, replay("22-17 9-14 17-13", start))
    assert (opening.kind, opening.number, opening.transposed) == ("ballot", 38, True)
    assert opening.played == "11-15 22-17 9-14"
    assert opening.two_move is not None and opening.two_move.moves == "11-15 22-17"


def test_fen_after_ply_two_is_continued_by_the_game() -> None:
    start = replay("9-14 22-17")[-1]
    opening = classify_positions(start, replay("11-15", start))
    assert (opening.kind, opening.number, opening.transposed) == ("ballot", 38, False)
    assert opening.two_move is not None and opening.two_move.moves == "9-14 22-17"
    # An illegal first game ply is inside the opening here...
    assert classify_positions(start, [], ["9-15"], illegal_ply=1).kind == "illegal"
    # ...but game ply 2 is already past it.
    assert classify_positions(start, replay("11-15", start), illegal_ply=2).number == 38


def test_fen_after_ply_two_with_no_moves_is_short_with_its_two_move_opening() -> None:
    opening = classify_positions(replay("10-15 23-18")[-1], [])
    assert opening.kind == "short"
    assert opening.two_move is not None and opening.two_move.name == "Kelso Cross"


def test_fen_equal_to_the_standard_start_is_the_start() -> None:
    start = fen_position("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
    assert start == START
    assert classify_positions(start, replay("9-13 21-17 10-14")).number == 3


def test_start_with_white_to_move_is_a_setup() -> None:
    start = START.with_turn(Color.WHITE)
    assert classify_positions(start, replay("22-17", start)).kind == "setup"


def test_eleven_man_start_with_unordered_squares() -> None:
    # Ballot 1234 of 11_man_english.pdn, written
    # B:W20,23,22,21,28,27,26,32,31,30,29:B4,3,2,1,8,7,6,12,10,9,15 there.
    start = fen_position("B:B15,9,10,12,6,7,8,1,2,3,4:W29,30,31,32,26,27,28,21,22,23,20")
    opening = classify_positions(start, replay("15-19", start))
    assert (opening.kind, opening.number) == ("eleven-man", 1234)
    assert opening.label == "11-man ballot 1234"
    assert opening.fen == start.fen()


def test_unknown_setup_is_not_guessed() -> None:
    start = fen_position("W:W30:B3")
    opening = classify_positions(start, replay("30-26", start))
    assert (opening.kind, opening.number, opening.fen) == ("setup", None, "W:W30:B3")
    assert opening.label == "setup"


def test_other_variants_have_no_ballots() -> None:
    opening = classify_positions(Position.start(RUSSIAN), [])
    assert opening.kind == "not-english"
    assert opening.label == "not English"


def test_a_position_that_does_not_follow_from_the_one_before_is_a_setup() -> None:
    # What a /FEN/ setup command between plies 1 and 3 leaves behind.
    first = replay("11-15")
    elsewhere = replay("9-13 22-18")[-1]
    opening = classify_positions(START, [*first, elsewhere, *replay("10-14", elsewhere)])
    assert (opening.kind, opening.ply, opening.played) == ("setup", 2, "11-15")
    assert opening.fen == elsewhere.fen()


def test_classification_is_a_cheap_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    after = replay("11-15 22-17 9-14 17-13 15-18")
    first = classify_positions(START, after)
    built = pdn.rules.openings._tables.cache_info().misses

    # Once the tables are built, a game costs dictionary look-ups: no data file is read again
    # and no table is built again (nor the replay of the first plies that builds them).
    def read_again(name: str) -> list[dict[str, str]]:
        raise AssertionError(f"{name} read again")

    monkeypatch.setattr(pdn.rules.openings, "_read_csv", read_again)
    for _ in range(1000):
        assert classify_positions(START, after) == first
    assert pdn.rules.openings._tables.cache_info().misses == built


def test_opening_to_dict_is_json_ready() -> None:
    data = opening_of("11-15 22-17 9-14").to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["number"] == 38 and data["transposed"] is True
    assert data["two_move"]["moves"] == "11-15 22-17"
    assert opening_of("11-15").to_dict()["transposed"] is None


# ----------------------------------------------------------------------------- classify(game)


EXPECTED = {
    "1": ("ballot", 38, True, "1-0"),
    "2": ("ballot", 38, False, "1/2-1/2"),
    "3": ("ballot", 3, False, "0-1"),
    "4": ("ballot", 3, False, "*"),
    "5": ("other", None, False, "1-0"),
    "6": ("ballot", 5, False, "1/2-1/2"),
    "7": ("ballot", 38, True, "0-1"),
    "8": ("illegal", None, False, "*"),
    "9": ("short", None, False, "1/2-1/2"),
    "10": ("eleven-man", 1234, False, "1-0"),
    "11": ("setup", None, False, "0-1"),
    "12": ("not-english", None, False, "1-0"),
}


def test_classify_games_from_a_file() -> None:
    games = fixture_games()
    assert set(games) == set(EXPECTED)
    for round_, (kind, number, transposed, _) in EXPECTED.items():
        opening = classify(games[round_])
        assert (opening.kind, opening.number, opening.transposed) == (kind, number, transposed), (
            round_
        )
    assert classify(games["7"]).played == "11-15 22-17 9-14"
    assert classify(games["8"]).ply == 3
    assert classify(games["8"]).note == "illegal move 9-15 at ply 3"
    assert classify(games["9"]).two_move is not None


def test_classify_accepts_a_ready_report() -> None:
    from pdn.rules.validation import validate

    game = fixture_games()["1"]
    assert classify(game, validate(game)) == classify(game)


def test_classify_an_illegal_first_move() -> None:
    # White moves first: the validator replays it anyway, the opening must not use it.
    opening = classify(pdn.parse_game("1. 22-18 11-15 2. 18x11 *"))
    assert (opening.kind, opening.ply, opening.played) == ("illegal", 1, None)
    assert opening.note == "illegal move 22-18 at ply 1"


def test_classify_a_move_written_as_unknown() -> None:
    opening = classify(pdn.parse_game("1. 11-15 - - 2. 9-14 *"))
    assert (opening.kind, opening.ply, opening.played) == ("illegal", 2, "11-15")


def test_classify_an_unreadable_fen() -> None:
    game = pdn.parse_game('[FEN "B:W31:B31"]\n1. 1-5 *')
    opening = classify(game)
    assert (opening.kind, opening.fen) == ("setup", "B:W31:B31")


# A stand-in for the validator's Report, to pin down exactly what classify reads from it.


@dataclass
class _Node:
    move: str | None
    setup: str | None = None
    line: int | None = None
    column: int | None = None


@dataclass
class _Step:
    node: _Node
    ply: int
    mainline: bool
    before: Position
    after: Position | None


@dataclass
class _Report:
    start: Position | None
    steps: list[_Step]
    problems: list[Problem] = field(default_factory=list)
    variant: Any = ENGLISH

    def mainline_steps(self) -> Iterator[_Step]:
        return (s for s in self.steps if s.mainline)


def _steps(moves: str, start: Position = START, first_ply: int = 1) -> list[_Step]:
    out: list[_Step] = []
    position = start
    for ply, (token, after) in enumerate(zip(moves.split(), replay(moves, start), strict=True)):
        out.append(
            _Step(_Node(token, line=1, column=1 + 6 * ply), first_ply + ply, True, position, after)
        )
        position = after
    return out


def classify_report(report: _Report) -> Opening:
    game = SimpleNamespace(variant=None, fen=None)
    return classify(game, report)  # type: ignore[arg-type]


def test_glue_uses_mainline_steps_only() -> None:
    steps = _steps("11-15 22-17 9-14")
    variation = _Step(
        _Node("9-13"), 3, False, steps[1].after or START, replay("11-15 22-17 9-13")[-1]
    )
    report = _Report(START, [*steps[:2], variation, steps[2]])
    assert classify_report(report).number == 38


def test_glue_stops_at_the_first_mainline_error() -> None:
    steps = _steps("9-13 21-17 10-14")
    illegal = Problem("backward-man", "no", line=1, column=7, ply=2, move="21-17")
    assert classify_report(_Report(START, steps, [illegal])).ply == 2
    # The same code at another place (a variation) is not the mainline's.
    elsewhere = Problem("backward-man", "no", line=9, column=1, ply=2, move="21-17")
    assert classify_report(_Report(START, steps, [elsewhere])).number == 3
    # Warnings and notices do not stop it.
    notice = Problem("move-number", "odd", line=1, column=7, ply=2)
    assert classify_report(_Report(START, steps, [notice])).number == 3


def test_glue_takes_a_setup_before_the_first_move_as_the_start() -> None:
    ballot_position = fen_position(ballot(5).fen)
    setup = _Step(_Node(None, setup=ballot(5).fen), 1, True, START, ballot_position)
    report = _Report(START, [setup, *_steps("25-22", ballot_position)])
    assert classify_report(report).number == 5


def test_glue_reports_variant_and_missing_start() -> None:
    assert classify_report(_Report(None, [], variant=None)).kind == "not-english"
    assert classify_report(_Report(None, [], variant=RUSSIAN)).kind == "not-english"
    assert classify_report(_Report(None, [])).kind == "setup"


# ----------------------------------------------------------------------------- statistics


def test_ballot_stats_from_games_with_known_results() -> None:
    games = fixture_games()
    pairs = [(classify(g), g.result) for g in games.values()]
    stats = {s.number: s for s in ballot_stats(pairs)}
    assert sorted(stats) == [3, 5, 38]
    s38 = stats[38]
    assert (s38.games, s38.first_wins, s38.second_wins, s38.draws, s38.unknown) == (3, 1, 1, 1, 0)
    assert s38.score == pytest.approx(50.0)
    s3 = stats[3]
    assert (s3.games, s3.first_wins, s3.second_wins, s3.unknown, s3.status) == (
        2,
        0,
        1,
        1,
        "barred",
    )
    assert s3.score == pytest.approx(0.0)
    assert (stats[5].draws, stats[5].score, stats[5].name) == (1, 50.0, "Dreaded Edinburgh")


def test_ballot_stats_accepts_outcomes_and_lists_unplayed_ballots() -> None:
    b60 = opening_of("10-14 22-17 9-13")
    rows = ballot_stats(
        [(b60, Outcome.FIRST_WINS), (b60, Outcome.BOTH_LOSE), (b60, None), (b60, "2-0")],
        include_unplayed=True,
    )
    assert len(rows) == 174
    s60 = rows[59]
    assert (s60.number, s60.games, s60.first_wins, s60.both_lose, s60.unknown) == (60, 4, 2, 1, 1)
    assert s60.score == pytest.approx(200 / 3)
    assert rows[0].games == 0 and rows[0].score is None


# ----------------------------------------------------------------------------- renderers


def _rows() -> list[OpeningRow]:
    games = fixture_games()
    return [opening_row(g, classify(g)) for g in games.values()]


def test_render_openings_csv_parses_back() -> None:
    text = render_openings(_rows(), "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 12
    first = rows[0]
    assert (first["index"], first["black"], first["white"], first["event"]) == (
        "1",
        "Able, A.",
        "Baker, B.",
        "Openings fixture",
    )
    assert (first["kind"], first["number"], first["moves"], first["transposed"]) == (
        "ballot",
        "38",
        "9-14 22-17 11-15",
        "yes",
    )
    assert rows[2]["status"] == "barred" and rows[2]["transposed"] == "no"
    assert rows[8]["two_move_name"] == "Ayrshire Lassie"
    assert rows[7]["ply"] == "3"
    assert [r["kind"] for r in rows[9:]] == ["eleven-man", "setup", "not-english"]


def test_render_openings_json_loads() -> None:
    data = json.loads(render_openings(_rows(), "json"))
    games = data["games"]
    assert [g["index"] for g in games] == list(range(1, 13))
    assert games[0]["label"] == "ACF 38: 9-14 22-17 11-15 (transposed)"
    assert games[9]["number"] == 1234 and games[9]["kind"] == "eleven-man"


def test_render_openings_text_is_aligned() -> None:
    text = render_openings(_rows(), "text")
    lines = text.splitlines()
    header, rule = lines[0], lines[1]
    assert header.split()[:4] == ["#", "Event", "Black", "White"]
    # Every column starts where its header starts.
    starts = [m.start() for m in re.finditer(r"-+", rule)]
    for line in lines[2:]:
        for start in starts[1:]:
            if start < len(line):
                assert line[start - 2 : start] == "  ", line
    assert "Dreaded Edinburgh" in text


def test_render_openings_drops_empty_player_columns_in_text() -> None:
    rows = [OpeningRow(1, opening_of("9-13 21-17 10-14"))]
    header = render_openings(rows, "text").splitlines()[0]
    assert "Black" not in header and "Event" not in header
    assert "black" in render_openings(rows, "csv").splitlines()[0]


def test_render_openings_markdown_escapes_names() -> None:
    rows = [OpeningRow(1, opening_of("9-13 21-17 10-14"), black="A | B", white="*C*")]
    text = render_openings(rows, "md")
    lines = text.splitlines()
    assert lines[0].startswith("| # |") and lines[1].startswith("|---:|")
    assert "A \\| B" in text and "\\*C\\*" in text
    assert all(line.count("|") - line.count("\\|") == lines[0].count("|") for line in lines)


def test_render_stats_in_every_format() -> None:
    stats = ballot_stats([(classify(g), g.result) for g in fixture_games().values()])
    csv_rows = list(csv.DictReader(io.StringIO(render_stats(stats, "csv"))))
    assert [(r["number"], r["games"], r["score"]) for r in csv_rows] == [
        ("3", "2", "0.0"),
        ("5", "1", "50.0"),
        ("38", "3", "50.0"),
    ]
    data = json.loads(render_stats(stats, "json"))
    assert data["ballots"][2]["first_wins"] == 1
    text = render_stats(stats, "text").splitlines()
    assert text[0].split()[:3] == ["Ballot", "ACF", "order"]
    assert len(text) == 2 + 3
    assert render_stats(stats, "markdown").count("\n") == 2 + 3


def test_renderers_refuse_an_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        render_openings([], "html")
    with pytest.raises(ValueError, match="unknown format"):
        render_stats([], "xml")


def test_empty_tables_still_have_headers() -> None:
    assert render_stats([], "csv").startswith("number,moves,")
    assert json.loads(render_openings([], "json")) == {"games": []}
    assert render_openings([], "text").splitlines()[0].startswith("#")
