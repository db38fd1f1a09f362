"""Tests for pdn.study.tournament: tournament reports built from game tags.

Records are built from plain dicts of tags (the fixtures' tag pairs are read with a small regex
here), so these tests do not depend on pdn.reading.reader.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn.study.tournament import (
    BLACK,
    CSV_TABLES,
    DEFAULT_POINTS,
    FORMATS,
    WHITE,
    EventReport,
    GameLike,
    GameRecord,
    build_reports,
    first_mover_colour,
    games_to_records,
    parse_points,
    parse_result,
    record_from_tags,
    render,
    render_csv,
    render_html,
    render_json,
    render_markdown,
    render_text,
    round_sort_key,
)

FIXTURES = Path(__file__).parent / "fixtures" / "report"
TAG_LINE = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')

BROWN, COLE, AMES, DEE = "Brown, B.", "Cole, C.", "Ames, A.", "Dee, D."
KRAMER, VOS = "Kramer, K.", "Vos, V."


def tags_of(name: str) -> list[dict[str, str]]:
    """The tag pairs of each game in a fixture file (a tag line after movetext starts a game)."""
    games: list[dict[str, str]] = []
    in_tags = False
    for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines():
        match = TAG_LINE.match(line)
        if match:
            if not in_tags:
                games.append({})
            games[-1][match[1]] = match[2]
            in_tags = True
        elif line.strip():
            in_tags = False
    return games


def one_report(
    tag_dicts: list[dict[str, str]], points: tuple[float, float, float] = DEFAULT_POINTS
) -> EventReport:
    reports = build_reports([record_from_tags(t) for t in tag_dicts], points)
    assert len(reports) == 1
    return reports[0]


def game(
    first: str,
    second: str,
    result: str | None,
    round_: str = "1",
    event: str = "Test",
    **extra: str,
) -> dict[str, str]:
    """Tags of an English game (Black moves first); a None result leaves the tag out."""
    tags = {"Event": event, "Round": round_, "Black": first, "White": second, **extra}
    if result is not None:
        tags["Result"] = result
    return tags


@pytest.fixture
def round_robin() -> EventReport:
    return one_report(tags_of("round_robin.pdn"))


@pytest.fixture
def match() -> EventReport:
    reports = build_reports(games_to_records(fake_games("international_match.pdn")))
    assert len(reports) == 1
    return reports[0]


@dataclass
class FakeGame:
    tags: dict[str, str]
    variant: str | None = None


def fake_games(name: str, variant: str | None = None) -> list[FakeGame]:
    return [FakeGame(tags, variant) for tags in tags_of(name)]


# --- the hand-made round robin ---------------------------------------------------------------


def test_round_robin_standings_computed_by_hand(round_robin: EventReport) -> None:
    rows = [
        (r.rank, r.player, r.games, r.wins, r.draws, r.losses, r.points, r.sonneborn_berger)
        for r in round_robin.standings
    ]
    assert rows == [
        (1, BROWN, 3, 2, 1, 0, 2.5, 2.75),
        # Cole and Ames tie on points; Sonneborn-Berger puts Cole first despite Ames's win.
        (2, COLE, 3, 0, 3, 0, 1.5, 2.25),
        (3, AMES, 3, 1, 1, 1, 1.5, 1.25),
        (4, DEE, 3, 0, 1, 2, 0.5, 0.75),
    ]
    assert round_robin.event == "Glen Club Championship 2024"
    assert round_robin.sites == ("Glen Hall",)
    assert round_robin.dates == ("2024.03.02", "2024.03.16")
    assert round_robin.first_colours == (BLACK,)
    assert round_robin.unscored == () and round_robin.notes == ()


def test_round_robin_crosstable(round_robin: EventReport) -> None:
    table = round_robin.crosstable
    assert table.players == (BROWN, COLE, AMES, DEE)
    cells = [[table.cell(i, j) for j in range(4)] for i in range(4)]
    assert cells == [
        ["X", "0.5", "1", "1"],
        ["0.5", "X", "0.5", "0.5"],
        ["0", "0.5", "X", "1"],
        ["0", "0.5", "0", "X"],
    ]
    assert table.score(AMES, DEE) == 1.0
    assert table.score(DEE, DEE) is None
    assert table.games == ((0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0))
    for row, standing in zip(table.scores, round_robin.standings, strict=True):
        assert sum(s for s in row if s is not None) == standing.points


def test_round_robin_rounds_and_colours(round_robin: EventReport) -> None:
    rounds = {r.round: [g.describe() for g in r.games] for r in round_robin.rounds}
    assert list(rounds) == ["1", "2", "3"]
    assert rounds["1"] == [f"{AMES} \u2013 {DEE}: 1-0", f"{BROWN} \u2013 {COLE}: 1/2-1/2"]
    assert rounds["3"] == [f"{AMES} \u2013 {BROWN}: 0-1", f"{COLE} \u2013 {DEE}: 1/2-1/2"]
    balance = {c.player: (c.first, c.second, c.difference) for c in round_robin.colour_balance}
    assert balance == {
        BROWN: (1, 2, -1),
        COLE: (2, 1, 1),
        AMES: (2, 1, 1),
        DEE: (1, 2, -1),
    }
    assert [c.player for c in round_robin.colour_balance] == [BROWN, COLE, AMES, DEE]


def test_points_scheme_2_1_0(round_robin: EventReport) -> None:
    report = one_report(tags_of("round_robin.pdn"), points=(2, 1, 0))
    assert [(r.player, r.points, r.sonneborn_berger) for r in report.standings] == [
        (BROWN, 5.0, 11.0),
        (COLE, 3.0, 9.0),
        (AMES, 3.0, 5.0),
        (DEE, 1.0, 3.0),
    ]
    assert report.points_scheme == (2.0, 1.0, 0.0)
    assert report.crosstable.cell(0, 1) == "1"  # Brown's draw with Cole is worth 1 now
    assert report.crosstable.cell(2, 3) == "2"
    assert "win 2, draw 1, loss 0" in render_text([report])


def test_parse_points() -> None:
    assert parse_points("2,1,0") == (2.0, 1.0, 0.0)
    assert parse_points(" 3 / 1 / 0 ") == (3.0, 1.0, 0.0)
    assert parse_points("1, 0.5, 0") == (1.0, 0.5, 0.0)
    for bad in ("2,1", "a,b,c", "1,2,3,4", "nan,1,0"):
        with pytest.raises(ValueError):
            parse_points(bad)
    with pytest.raises(ValueError):
        build_reports([], (1, 0))


# --- International match, White first, 2-0 / 1-1 / 0-2 ------------------------------------------


def test_international_match_score(match: EventReport) -> None:
    assert match.first_colours == (WHITE,)
    kramer, vos = match.standings
    assert (kramer.player, kramer.points, kramer.wins, kramer.draws, kramer.losses) == (
        KRAMER,
        2.5,
        2,
        1,
        1,
    )
    assert (vos.player, vos.points, vos.wins, vos.draws, vos.losses) == (VOS, 1.5, 1, 1, 2)
    assert match.crosstable.score(KRAMER, VOS) == 2.5
    assert match.crosstable.score(VOS, KRAMER) == 1.5
    assert match.crosstable.games[0][1] == 4
    first_game = match.rounds[0].games[0]
    assert (first_game.first, first_game.second, first_game.first_score) == (KRAMER, VOS, 1.0)
    assert match.rounds[3].games[0].result == "0-2"  # stray spaces are dropped

    scored_2_1_0 = build_reports(games_to_records(fake_games("international_match.pdn")), (2, 1, 0))
    assert [(r.player, r.points) for r in scored_2_1_0[0].standings] == [(KRAMER, 5.0), (VOS, 3.0)]


def test_same_tags_read_as_english_reverse_the_colours() -> None:
    # Without GameType and variant, Black moves first: "2-0" is then a win for the Black player.
    tags = [
        {k: v for k, v in t.items() if k != "GameType"} for t in tags_of("international_match.pdn")
    ]
    report = one_report(tags)
    assert report.first_colours == (BLACK,)
    assert report.standing(VOS).points == 2.5  # Vos was Black in rounds 1 and 3


# --- who moves first ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "game_type", "expected"),
    [
        (None, None, BLACK),
        ("english", None, BLACK),
        ("pool", None, BLACK),
        ("Checkers", None, BLACK),
        ("international", None, WHITE),
        ("russian", None, WHITE),
        ("brazilian", "21", WHITE),  # the variant wins over the GameType tag
        ("Black", None, BLACK),
        ("w", None, WHITE),
        (None, "21", BLACK),
        (None, "23", BLACK),
        (None, "20", WHITE),
        (None, "25", WHITE),
        (None, "21,W,8,8,N1,0", WHITE),  # the start-colour field beats the number
        (None, "20,B,10,10,N2,0", BLACK),
        (None, " 21 , B ,8,8,A1,0", BLACK),
        (None, "nonsense", BLACK),
        ("", "", BLACK),
    ],
)
def test_first_mover_colour(variant: str | None, game_type: str | None, expected: str) -> None:
    assert first_mover_colour(variant, game_type) == expected


def test_games_to_records_variant_sources() -> None:
    tags = {"Event": "E", "Black": "B-player", "White": "W-player", "Result": "1-0"}
    typed = dict(tags, GameType="25")
    games: list[GameLike] = [
        FakeGame(tags, None),  # nothing said: English, Black first
        FakeGame(tags, "russian"),  # detected variant
        FakeGame(typed, None),  # GameType tag
        SimpleNamespace(tags=dict(tags, GameType="20,B"), variant=None),
    ]
    firsts = [r.first for r in games_to_records(games)]
    assert firsts == ["B-player", "W-player", "W-player", "B-player"]
    assert [r.index for r in games_to_records(games)] == [1, 2, 3, 4]
    # The caller's variant overrides the tag's type number, not a start colour it writes.
    firsts = [r.first for r in games_to_records(games, "international")]
    assert firsts == ["W-player", "W-player", "W-player", "B-player"]
    assert {r.first_colour for r in games_to_records(games, "english")} == {BLACK}


def test_record_from_tags_defaults_and_spaces() -> None:
    record = record_from_tags({"Black": "  Ann ", "Result": " 1/2-1/2 ", "Date": "2024.01.01"})
    assert record == GameRecord(
        event="?",
        site="",
        date="2024.01.01",
        round="?",
        first="Ann",
        second="?",
        result="1/2-1/2",
        first_score=0.5,
        second_score=0.5,
        opening=None,
        first_colour=BLACK,
        index=None,
    )
    assert record_from_tags({"Opening": "ACF 38"}).opening == "ACF 38"
    assert record_from_tags({"Opening": "?"}).opening is None
    assert record_from_tags({"Opening": "ACF 38"}, opening="ACF 1").opening == "ACF 1"


# --- results ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1-0", (1.0, 0.0)),
        ("0-1", (0.0, 1.0)),
        ("1/2-1/2", (0.5, 0.5)),
        ("½-½", (0.5, 0.5)),
        (" 1 / 2 - 1 / 2 ", (0.5, 0.5)),
        ("0-0", (0.0, 0.0)),
        ("2-0", (1.0, 0.0)),
        ("0-2", (0.0, 1.0)),
        ("1-1", (0.5, 0.5)),
        ("  2-0\t", (1.0, 0.0)),
        ("1\u20130", (1.0, 0.0)),
        ("*", None),
        ("?", None),
        ("", None),
        (None, None),
        ("1-0-0", None),
        ("3-1", None),
        ("draw", None),
    ],
)
def test_parse_result(text: str | None, expected: tuple[float, float] | None) -> None:
    assert parse_result(text) == expected


def test_double_loss_counts_as_a_loss_for_both() -> None:
    report = one_report([game("A", "B", "0-0"), game("A", "C", "1-0", "2")])
    rows = [
        (r.rank, r.player, r.games, r.wins, r.draws, r.losses, r.points) for r in report.standings
    ]
    # B and C are level on points, Sonneborn-Berger and wins: they share 2nd, listed by name.
    assert rows == [(1, "A", 2, 1, 0, 1, 1.0), (2, "B", 1, 0, 0, 1, 0.0), (2, "C", 1, 0, 0, 1, 0.0)]
    assert report.crosstable.score("A", "B") == 0.0
    assert report.crosstable.score("B", "A") == 0.0
    assert report.unscored == ()


def test_unknown_results_are_listed_but_not_scored() -> None:
    report = one_report(
        [
            game("A", "B", "1-0", "1"),
            game("C", "D", "*", "1"),
            game("A", "C", "?", "2"),
            game("B", "D", "", "2"),
            game("A", "D", None, "3"),
            game("B", "C", "1:0 (forfeit)", "3"),
            game("D", "B", "0-1", "3"),
        ]
    )
    assert len(report.games) == 7
    assert len(report.unscored) == 5
    rows = {r.player: (r.games, r.points, r.unscored) for r in report.standings}
    assert rows == {
        "A": (1, 1.0, 2),
        "B": (2, 1.0, 2),
        "C": (0, 0.0, 3),
        "D": (1, 0.0, 3),
    }
    # Players who met only in unscored games have an empty crosstable cell.
    assert report.crosstable.score("C", "D") is None
    index = report.crosstable.players.index
    assert report.crosstable.cell(index("C"), index("D")) == ""
    # Unscored games still appear under their round and in the colour balance.
    assert [len(r.games) for r in report.rounds] == [2, 2, 3]
    assert {c.player: c.first + c.second for c in report.colour_balance} == {
        "A": 3,
        "B": 4,
        "C": 3,
        "D": 4,
    }
    notes = "\n".join(report.notes)
    assert 'round 1: C \u2013 D: unplayed or unknown result (result "*"), not scored' in notes
    assert "round 3: A \u2013 D: unplayed or unknown result (result none), not scored" in notes
    assert 'unrecognised result (result "1:0 (forfeit)")' in notes
    text = render_text([report])
    assert "7 (scored 2, unplayed/unknown 5)" in text
    assert "Unscored" in text
    data = json.loads(render_json([report]))["events"][0]
    assert (data["games"], data["scored"], data["unscored"]) == (7, 2, 5)


def test_same_player_on_both_sides_is_not_scored() -> None:
    report = one_report([game("A", "A", "1-0"), game("A", "B", "1-0")])
    assert report.standing("A").points == 1.0
    assert report.standing("A").unscored == 1
    assert any("the same player on both sides" in note for note in report.notes)


# --- names, events, rounds ----------------------------------------------------------------------


def test_name_variants_are_kept_apart_with_a_note() -> None:
    report = one_report(
        [
            game("Wyllie, J.", "Martins, R.", "1-0", "1"),
            game("Martins, R.", "wyllie,  j.", "0-1", "2"),
        ]
    )
    assert {r.player for r in report.standings} == {"Wyllie, J.", "wyllie,  j.", "Martins, R."}
    assert report.standing("Wyllie, J.").points == 1.0
    assert report.standing("wyllie,  j.").points == 1.0
    assert report.name_variants == (("Wyllie, J.", "wyllie,  j."),)
    assert report.notes == (
        "players who look like the same person (spacing, case) are counted as different "
        'players: "Wyllie, J.", "wyllie,  j." (pdn fix --suggest-names writes an alias list)',
    )
    for fmt in FORMATS:
        assert "look like the same person" in render([report], fmt) or fmt == "csv"


def test_missing_names_and_mixed_first_movers_are_noted() -> None:
    records = [
        record_from_tags({"Event": "E", "Black": "A", "Result": "1-0"}),
        record_from_tags(
            {"Event": "E", "Black": "B", "White": "A", "Result": "1-0"}, first_mover="W"
        ),
    ]
    report = build_reports(records)[0]
    assert report.first_colours == (BLACK, WHITE)
    assert report.standing("A").points == 2.0
    assert report.standing("?").losses == 1
    assert '1 game(s) with a player name missing, shown as "?"' in report.notes
    assert "games with different first movers: Black, White" in report.notes
    # With two first-mover colours in one event the headings name no colour.
    assert "| Round | First mover | Second mover | Result |" in render_markdown([report])


def test_events_in_first_seen_order_and_missing_event() -> None:
    records = [
        record_from_tags(game("A", "B", "1-0", event="Spring")),
        record_from_tags({"Black": "X", "White": "Y", "Result": "0-1"}),
        record_from_tags(game("B", "A", "1-0", "2", event="Autumn")),
        record_from_tags(game("B", "A", "1/2-1/2", "2", event="Spring")),
        record_from_tags(game("X", "Y", "1-0", event="  ")),
    ]
    reports = build_reports(records)
    assert [r.event for r in reports] == ["Spring", "?", "Autumn"]
    assert [len(r.games) for r in reports] == [2, 2, 1]
    assert reports[0].standing("A").points == 1.5


def test_round_sort_key_is_natural() -> None:
    rounds = ["10", "2", "1.10", "x", "1.2", "?", "1", "Final", "", "-", "3"]
    assert sorted(rounds, key=round_sort_key) == [
        "1",
        "1.2",
        "1.10",
        "2",
        "3",
        "10",
        "Final",
        "x",
        "",
        "-",
        "?",
    ]


def test_rounds_sorted_naturally_and_keep_input_order_within_a_round() -> None:
    report = one_report(
        [
            game("A", "B", "1-0", "10"),
            game("C", "D", "1-0", "2"),
            game("E", "F", "1-0", "1.10"),
            game("G", "H", "1-0", "1.2"),
            game("B", "A", "1-0", "Playoff"),
            game("D", "C", "1-0", "2"),
        ]
    )
    assert [r.round for r in report.rounds] == ["1.2", "1.10", "2", "10", "Playoff"]
    assert [g.first for g in report.rounds[2].games] == ["C", "D"]


def test_shared_rank() -> None:
    report = one_report([game("B", "A", "1/2-1/2")])
    assert [(r.rank, r.player) for r in report.standings] == [(1, "A"), (1, "B")]
    assert "\n  1=  A " in render_text([report])


# --- openings / ballots -------------------------------------------------------------------------


def test_openings_aligned_with_records_and_from_records() -> None:
    records = [record_from_tags(t) for t in tags_of("round_robin.pdn")]
    labels = ["ACF 38", "ACF 4", None, "ACF 38", "ACF 4", "ACF 38"]
    report = build_reports(records, openings=labels)[0]
    stats = [(s.opening, s.games, s.first_wins, s.draws, s.second_wins) for s in report.openings]
    assert stats == [("ACF 38", 3, 1, 1, 1), ("ACF 4", 2, 0, 1, 1)]
    # A per-record label, and games_to_records's own aligned labels, give the same counts.
    via_games = games_to_records(fake_games("round_robin.pdn"), openings=labels)
    assert build_reports(via_games)[0].openings == report.openings
    assert "Ballots played" in render_text([report])
    with pytest.raises(ValueError, match="3 opening labels given for 6 games"):
        build_reports(records, openings=labels[:3])


def test_openings_natural_order_on_equal_counts() -> None:
    report = one_report(
        [
            game("A", "B", "1-0", Opening="ACF 38"),
            game("A", "B", "*", Opening="ACF 4"),
            game("A", "B", "0-0", Opening="ACF 12"),
        ]
    )
    assert [(s.opening, s.unscored, s.double_losses) for s in report.openings] == [
        ("ACF 4", 1, 0),
        ("ACF 12", 0, 1),
        ("ACF 38", 0, 0),
    ]


# --- renderers ----------------------------------------------------------------------------------


def test_text_output_has_aligned_tables(round_robin: EventReport) -> None:
    text = render_text([round_robin])
    lines = text.splitlines()
    start = lines.index("Standings") + 1
    table = lines[start : start + 6]  # header, rule, four players
    assert table[0].split() == ["#", "Player", "Games", "W", "D", "L", "Points", "SB"]
    # The last column is right-aligned, so every line of an aligned table has the same length,
    # and the player column starts at the same place on every line.
    assert len({len(line) for line in table}) == 1
    players = [BROWN, COLE, AMES, DEE]
    assert len({line.index(name) for line, name in zip(table[2:], players, strict=True)}) == 1
    assert table[2].split()[-2:] == ["2.5", "2.75"]
    cross = lines[lines.index("Crosstable") + 1 :][:6]
    assert len({len(line) for line in cross}) == 1
    assert cross[4].split()[-5:] == ["0", "0.5", "X", "1", "1.5"]  # Ames
    assert f"    {AMES} \u2013 {DEE}: 1-0" in lines
    assert "First mover: Black" in text


def test_html_escapes_every_value_from_the_file() -> None:
    evil = "<script>alert(1)</script>"
    event = 'Smith & Sons "Open" \'24'
    report = one_report(
        [
            game(evil, "O'Brien & <b>Co</b>", "1-0", "<i>1</i>", event=event, Site="a&b"),
            game("O'Brien & <b>Co</b>", evil, "*", "2", event=event, Opening='"x"<y>'),
        ]
    )
    page = render_html([report])
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>" not in page and "<i>1</i>" not in page
    assert "Smith &amp; Sons &quot;Open&quot; &#x27;24" in page
    assert "a&amp;b" in page and "&quot;x&quot;&lt;y&gt;" in page
    # Self-contained: inline style, nothing fetched.
    assert "<style>" in page
    for outside in ("http:", "https:", "src=", "<link", "@import", "url("):
        assert outside not in page
    assert render_html([report], title="<T&>").count("&lt;T&amp;&gt;") == 2


def test_markdown_escapes_table_breaking_values() -> None:
    report = one_report([game("A|B", "*C*", "1-0", event="E_1 <x>")])
    md = render_markdown([report])
    assert "## E\\_1 \\<x\\>" in md
    assert "A\\|B" in md and "\\*C\\*" in md
    standings = [line for line in md.splitlines() if line.startswith("| 1 |")]
    assert standings and standings[0].count(" | ") == 7  # eight cells, no extra column
    assert "|---:|:---|" in md


@pytest.mark.parametrize("table", CSV_TABLES)
def test_csv_parses_back(round_robin: EventReport, table: str) -> None:
    labels = ["ACF 38", "ACF 4", None, "ACF 38", "ACF 4", "ACF 38"]
    reports = build_reports(list(round_robin.games), openings=labels)
    out = render_csv(reports, table)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows and all(row["event"] == "Glen Club Championship 2024" for row in rows)
    if table == "standings":
        assert [
            (r["rank"], r["player"], r["wins"], r["draws"], r["losses"], r["points"]) for r in rows
        ] == [
            ("1", BROWN, "2", "1", "0", "2.5"),
            ("2", COLE, "0", "3", "0", "1.5"),
            ("3", AMES, "1", "1", "1", "1.5"),
            ("4", DEE, "0", "1", "2", "0.5"),
        ]
        brown = rows[0]
        assert (brown["as_first"], brown["as_second"], brown["sonneborn_berger"]) == (
            "1",
            "2",
            "2.75",
        )
    elif table == "crosstable":
        assert len(rows) == 12
        assert {(r["player"], r["opponent"]): r["score"] for r in rows}[(AMES, DEE)] == "1"
    elif table == "games":
        assert [r["round"] for r in rows] == ["1", "1", "2", "2", "3", "3"]
        assert rows[0]["first"] == AMES and rows[0]["first_score"] == "1"
    else:
        assert [r["opening"] for r in rows] == ["ACF 38", "ACF 4"]


def test_csv_quotes_awkward_values_and_rejects_unknown_tables() -> None:
    report = one_report([game('Ann "The Ace", Jr.', "Bo\nBo", "1-0", event="a,b")])
    rows = list(csv.reader(io.StringIO(render_csv([report]))))
    assert rows[1][:3] == ["a,b", "1", 'Ann "The Ace", Jr.']
    assert rows[2][2] == "Bo\nBo"
    assert render_csv([]).count("\n") == 1
    with pytest.raises(ValueError, match="unknown CSV table"):
        render_csv([report], "players")


def test_json_loads_with_the_whole_report(round_robin: EventReport, match: EventReport) -> None:
    data = json.loads(render_json([round_robin, match]))
    first, second = data["events"]
    assert first["event"] == "Glen Club Championship 2024"
    assert first["points"] == {"win": 1.0, "draw": 0.5, "loss": 0.0}
    assert [(r["player"], r["points"]) for r in first["standings"]] == [
        (BROWN, 2.5),
        (COLE, 1.5),
        (AMES, 1.5),
        (DEE, 0.5),
    ]
    assert first["crosstable"]["scores"][0] == [None, 0.5, 1.0, 1.0]
    assert first["rounds"][0]["games"][0]["first"] == AMES
    assert first["dates"] == {"first": "2024.03.02", "last": "2024.03.16"}
    assert second["first_colours"] == ["White"]
    assert second["crosstable"]["games"] == [[0, 4], [4, 0]]
    assert data == json.loads(render([round_robin, match], "json"))


def test_render_dispatch() -> None:
    report = one_report([game("A", "B", "1-0")])
    assert render([report], "md") == render_markdown([report])
    assert render([report], "TEXT") == render_text([report])
    assert render([report], "html") == render_html([report])
    assert render([report], "csv", table="games") == render_csv([report], "games")
    with pytest.raises(ValueError, match="unknown format"):
        render([report], "xml")
    for fmt in FORMATS:
        assert isinstance(render([], fmt), str)


def test_game_record_rejects_impossible_scores() -> None:
    with pytest.raises(ValueError):
        GameRecord("E", "", "", "1", "A", "B", "1-1", 1.0, 1.0)
    with pytest.raises(ValueError):
        GameRecord("E", "", "", "1", "A", "B", "1-0", 1.0, None)
    with pytest.raises(ValueError):
        GameRecord("E", "", "", "1", "A", "B", "1-0", 1.0, 0.0, first_colour="Red")


# --- invariants on random events ----------------------------------------------------------------

RESULTS = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*", "", "x"]
PLAYERS = ["A", "B", "C", "D", "E"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(PLAYERS), st.sampled_from(PLAYERS), st.sampled_from(RESULTS)),
        max_size=25,
    ),
    st.sampled_from([(1.0, 0.5, 0.0), (2.0, 1.0, 0.0), (3.0, 1.0, 0.0)]),
)
def test_invariants(games: list[tuple[str, str, str]], points: tuple[float, float, float]) -> None:
    records = [record_from_tags(game(a, b, r, str(n % 4 + 1))) for n, (a, b, r) in enumerate(games)]
    reports = build_reports(records, points)
    if not records:
        assert reports == []
        return
    (report,) = reports
    table = report.crosstable
    rows = report.standings
    assert [r.player for r in rows] == list(table.players)
    for i, row in enumerate(rows):
        assert row.games == row.wins + row.draws + row.losses
        assert row.points == pytest.approx(
            row.wins * points[0] + row.draws * points[1] + row.losses * points[2]
        )
        assert sum(s for s in table.scores[i] if s is not None) == pytest.approx(row.points)
        assert sum(table.games[i]) == row.games
    keys = [(-r.points, -r.sonneborn_berger, -r.wins, r.player.casefold()) for r in rows]
    assert keys == sorted(keys)
    assert sum(r.games for r in rows) == 2 * (len(report.games) - len(report.unscored))
    balance = sum(c.first + c.second for c in report.colour_balance)
    assert balance == 2 * len(report.games)
    for fmt in FORMATS:
        assert render(reports, fmt)


# ------------------------------------------------------------- a very large event (issue 10)


def _open_event(players: int) -> list[GameRecord]:
    """Two rounds of neighbours: every player meets one or two others, ``players - 1`` games."""
    results = ("1-0", "0-1", "1/2-1/2")
    pairs = [(i, i + 1) for start in (0, 1) for i in range(start, players - 1, 2)]
    return [
        record_from_tags(
            {
                "Event": "Open",
                "Round": str(1 + i % 2),
                "Black": f"P{i:04d}",
                "White": f"P{j:04d}",
                "Result": results[n % 3],
            }
        )
        for n, (i, j) in enumerate(pairs)
    ]


def test_crosstable_of_two_thousand_players_is_folded_and_linear() -> None:
    import tracemalloc

    records = _open_event(2000)
    tracemalloc.start()
    try:
        (report,) = build_reports(records)
        rendered = {fmt: render([report], fmt) for fmt in FORMATS}
        pairs_csv = render([report], "csv", table="crosstable")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # A grid would be 4 million cells (hundreds of megabytes); pairs are a few per game.
    assert peak < 40_000_000
    assert report.crosstable.folded
    assert len(report.crosstable.pairs) == 2 * len(records)
    for fmt in ("text", "markdown", "html"):
        assert "2,000 players are too many for a grid" in rendered[fmt]
        assert len(rendered[fmt]) < 1_000_000
    assert len(pairs_csv.splitlines()) == 1 + 2 * len(records)
    crosstable = json.loads(rendered["json"])["events"][0]["crosstable"]
    assert crosstable["folded"] is True and "scores" not in crosstable
    assert len(crosstable["pairs"]) == 2 * len(records)
    assert report.crosstable.score("P0000", "P0001") == 1.0


def test_crosstable_at_the_limit_is_still_a_grid() -> None:
    from pdn.study.tournament import CROSSTABLE_MAX_PLAYERS

    (report,) = build_reports(_open_event(CROSSTABLE_MAX_PLAYERS))
    assert not report.crosstable.folded
    assert "too many for a grid" not in render_text([report])
    crosstable = json.loads(render_json([report]))["events"][0]["crosstable"]
    assert len(crosstable["scores"]) == CROSSTABLE_MAX_PLAYERS
    for pair in crosstable["pairs"]:
        assert report.crosstable.score(pair["player"], pair["opponent"]) == pair["score"]
    assert len(crosstable["pairs"]) == sum(map(sum, report.crosstable.games))


def test_reports_stay_hashable_with_a_sparse_crosstable(round_robin: EventReport) -> None:
    # A second report built from the same games: equal, so the same hash and one set member.
    again = one_report(tags_of("round_robin.pdn"))
    assert again is not round_robin and again.crosstable is not round_robin.crosstable
    assert again == round_robin and hash(again) == hash(round_robin)
    assert len({again, round_robin}) == 1
