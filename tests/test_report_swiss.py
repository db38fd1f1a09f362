# ruff: noqa: RUF003
# (One player's name is written with a Cyrillic letter that looks like a Latin one.)
"""Reports a director can publish: Swiss tie-breaks and rounds, points from the result family,
counted cells, folding to a width, event selection, aliases and the warnings about names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn.cli import main
from pdn.study.tournament import (
    EventReport,
    build_reports,
    points_of_results,
    record_from_tags,
    render_csv,
    render_text,
)
from pdn.text.names import Aliases

# A Swiss of six players over three rounds (Black moves first and is named first):
#   round 1: A-B 1-0, C-D 1-0, E-F 0-1
#   round 2: F-A 1/2, D-B 1-0, E-C 0-1
#   round 3: A-C 1-0, B-E 1-0, D-F 0-1
# Points: A 2.5, F 2.5, C 2, B 1, D 1, E 0.  A never meets D or E: a Swiss, not a round robin.
#
# Buchholz, by hand (the sum of the opponents' points, one term per game):
#   A: B 1 + F 2.5 + C 2   = 5.5      median (drop highest 2.5 and lowest 1): 2
#   F: E 0 + A 2.5 + D 1   = 3.5      median (drop 2.5 and 0): 1
#   C: D 1 + E 0 + A 2.5   = 3.5      median: 1
#   D: C 2 + B 1 + F 2.5   = 5.5      median: 2
#   B: A 2.5 + D 1 + E 0   = 3.5      median: 1
#   E: F 2.5 + C 2 + B 1   = 5.5      median: 2
# Sonneborn-Berger: A = 1x1 (B) + 0.5x2.5 (F) + 1x2 (C) = 4.25; F = 1x0 + 0.5x2.5 + 1x1 = 2.25,
# so A is first on the tie-break.
SWISS = [
    ("1", "A", "B", "1-0"),
    ("1", "C", "D", "1-0"),
    ("1", "E", "F", "0-1"),
    ("2", "F", "A", "1/2-1/2"),
    ("2", "D", "B", "1-0"),
    ("2", "E", "C", "0-1"),
    ("3", "A", "C", "1-0"),
    ("3", "B", "E", "1-0"),
    ("3", "D", "F", "0-1"),
]
BUCHHOLZ = {"A": 5.5, "F": 3.5, "C": 3.5, "D": 5.5, "B": 3.5, "E": 5.5}
MEDIAN = {"A": 2, "F": 1, "C": 1, "D": 2, "B": 1, "E": 2}

# The same event in the 2-0 / 1-1 family (International: White moves first and is named
# first), so the default points are 2-1-0 and every figure above doubles.
INTERNATIONAL = {"1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1"}


def swiss_text(international: bool = False, event: str = "Swiss Open") -> str:
    games = []
    for rnd, first, second, result in SWISS:
        if international:
            colours = (("White", first), ("Black", second))
            result = INTERNATIONAL[result]
            extra = '[GameType "20"]\n'
            moves = "1. 32-28 19-23"
        else:
            colours = (("Black", first), ("White", second))
            extra = ""
            moves = "1. 11-15 23-19"
        tags = "".join(f'[{name} "{value}"]\n' for name, value in colours)
        games.append(
            f'[Event "{event}"]\n[Round "{rnd}"]\n{tags}{extra}[Result "{result}"]\n\n'
            f"{moves} {result}\n"
        )
    return "\n".join(games)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def report_of(tags: list[dict[str, str]], **kwargs: object) -> EventReport:
    (report,) = build_reports([record_from_tags(t) for t in tags], **kwargs)  # type: ignore[arg-type]
    return report


def swiss_tags() -> list[dict[str, str]]:
    return [
        {"Event": "Swiss Open", "Round": r, "Black": b, "White": w, "Result": res}
        for r, b, w, res in SWISS
    ]


def test_buchholz_and_median_buchholz_by_hand() -> None:
    report = report_of(swiss_tags())
    assert report.swiss
    assert {row.player: row.buchholz for row in report.standings} == BUCHHOLZ
    assert {row.player: row.median_buchholz for row in report.standings} == MEDIAN
    assert [row.player for row in report.standings][:2] == ["A", "F"]
    assert report.standing("A").sonneborn_berger == 4.25
    assert report.standing("F").sonneborn_berger == 2.25


def test_rounds_per_player() -> None:
    report = report_of(swiss_tags())
    by_player = {entry.player: entry for entry in report.player_rounds}
    a = by_player["A"]
    assert [(g.round, g.opponent, g.colour, g.score) for g in a.games] == [
        ("1", "B", "Black", 1.0),
        ("2", "F", "White", 0.5),
        ("3", "C", "Black", 1.0),
    ]
    text = render_text([report])
    assert "Rounds per player" in text
    # A is 1st; B is 5th, F 2nd, C 3rd in the standings.
    assert "  1  A       5B+  2W=  3B+     2.5" in text
    assert "  6  E       2B-  3B-  5W-       0" in text
    standings = text.split("Standings\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert standings[0].split() == [
        "#", "Player", "Games", "W", "D", "L", "Points", "SB", "Buch", "MBuch",
    ]  # fmt: skip
    assert standings[2].split() == ["1", "A", "3", "2", "1", "0", "2.5", "4.25", "5.5", "2"]


def test_a_round_robin_is_not_a_swiss() -> None:
    tags = [
        {"Event": "RR", "Round": "1", "Black": "A", "White": "B", "Result": "1-0"},
        {"Event": "RR", "Round": "2", "Black": "B", "White": "C", "Result": "1-0"},
        {"Event": "RR", "Round": "3", "Black": "C", "White": "A", "Result": "1-0"},
    ]
    report = report_of(tags)
    assert not report.swiss and report.player_rounds == ()
    assert "Buch" not in render_text([report])
    # The figures are still computed (JSON and CSV have them): A met B (1 point) and C (1).
    assert report.standing("A").buchholz == 2


def test_points_default_to_the_result_family(tmp_path: Path) -> None:
    path = tmp_path / "swiss-international.pdn"
    path.write_text(swiss_text(international=True), encoding="utf-8")
    code, out, _ = run("report", str(path), "--no-openings", "--format", "json")
    assert code == 0
    (event,) = json.loads(out)["events"]
    assert event["points"] == {"win": 2.0, "draw": 1.0, "loss": 0.0}
    rows = {row["player"]: row for row in event["standings"]}
    assert rows["A"]["points"] == 5 and rows["F"]["points"] == 5
    assert {p: rows[p]["buchholz"] for p in rows} == {p: 2 * b for p, b in BUCHHOLZ.items()}
    assert {p: rows[p]["median_buchholz"] for p in rows} == {p: 2 * m for p, m in MEDIAN.items()}
    # The 1-0 family keeps 1-0.5-0, and --points still overrides.
    path.write_text(swiss_text(), encoding="utf-8")
    code, out, _ = run("report", str(path), "--no-openings", "--format", "json")
    assert json.loads(out)["events"][0]["points"]["win"] == 1.0
    code, out, _ = run(
        "report", str(path), "--no-openings", "--format", "json", "--points", "3,1,0"
    )
    assert json.loads(out)["events"][0]["standings"][0]["points"] == 7


def test_points_of_mixed_families_are_the_default() -> None:
    records = [
        record_from_tags({"Black": "A", "White": "B", "Result": "2-0"}),
        record_from_tags({"Black": "A", "White": "B", "Result": "1-0"}),
    ]
    assert points_of_results(records) == (1.0, 0.5, 0.0)
    assert points_of_results(records[:1]) == (2.0, 1.0, 0.0)


def test_cells_that_sum_several_games_say_how_many() -> None:
    tags = [
        {"Event": "Match", "Round": "1", "Black": "A", "White": "B", "Result": "1-0"},
        {"Event": "Match", "Round": "2", "Black": "B", "White": "A", "Result": "1/2-1/2"},
        {"Event": "Match", "Round": "3", "Black": "A", "White": "C", "Result": "0-1"},
    ]
    report = report_of(tags)
    table = report.crosstable
    a, b, c = (table.players.index(p) for p in "ABC")
    assert table.cell(a, b) == "1.5 (2)"
    assert table.cell(b, a) == "0.5 (2)"
    assert table.cell(a, c) == "0"


def test_the_text_crosstable_folds_to_the_width() -> None:
    players = [f"Player number {i:02d}" for i in range(12)]
    tags = [
        {"Event": "W", "Round": str(r), "Black": players[i], "White": players[j], "Result": "1-0"}
        for r, (i, j) in enumerate(((i, j) for i in range(12) for j in range(i + 1, 12)), 1)
    ]
    report = report_of(tags)
    wide = render_text([report])
    assert max(len(line) for line in wide.splitlines()) > 60
    folded = render_text([report], width=60)
    assert max(len(line) for line in folded.splitlines()) <= 60
    crosstable = folded.split("Crosstable\n", 1)[1].split("\n\nResults", 1)[0]
    # Every player row appears once per part, and every column once overall.
    parts = crosstable.split("\n\n")
    assert len(parts) > 1
    assert all(sum(players[0] in line for line in part.splitlines()) == 1 for part in parts)
    headers = [part.splitlines()[0].split()[2:] for part in parts]
    assert [h for part in headers for h in part] == [*map(str, range(1, 13)), "Points"]
    # Too narrow for even one column beside the names: the names are shortened.
    narrow = render_text([report], width=24)
    assert "   1  Player nu~     11" in narrow.splitlines()


def test_cli_width_option(tmp_path: Path) -> None:
    path = tmp_path / "swiss.pdn"
    path.write_text(swiss_text(), encoding="utf-8")
    code, out, _ = run("report", str(path), "--no-openings", "--width", "40")
    assert code == 0
    standings = out.split("Standings\n", 1)[1].split("Crosstable", 1)[0]
    assert max(len(line) for line in standings.splitlines()) <= 40
    assert "MBuch" in standings


def test_event_selection(tmp_path: Path) -> None:
    path = tmp_path / "two.pdn"
    path.write_text(
        swiss_text(event="Swiss Open") + "\n" + swiss_text(event="Club Night"), encoding="utf-8"
    )
    code, out, _ = run("report", str(path), "--no-openings", "--event", "^Club")
    assert code == 0
    assert "Club Night" in out and "Swiss Open" not in out
    code, _, err = run("report", str(path), "--event", "(")
    assert code == 2 and "not a regular expression" in err


def test_names_merge_players_and_events(tmp_path: Path) -> None:
    tags = swiss_tags()
    tags[3] = {**tags[3], "Event": "Swiss open ", "White": "\u0410"}  # Cyrillic А for A
    report = build_reports([record_from_tags(t) for t in tags])
    assert len(report) == 2  # the event renamed by hand is another event
    aliases = Aliases.from_text("Swiss open,Swiss Open,event\n\u0410,A,player\n")
    (merged,) = build_reports([record_from_tags(t) for t in tags], aliases=aliases)
    assert merged.standing("A").points == 2.5
    assert merged.standing("A").buchholz == 5.5
    # Through the command line.
    path = tmp_path / "swiss.pdn"
    path.write_text(swiss_text(), encoding="utf-8")
    text = path.read_text(encoding="utf-8").replace('[White "A"]', '[White "\u0410"]')
    path.write_text(text, encoding="utf-8")
    names = tmp_path / "names.csv"
    names.write_text("old,new,tags\n\u0410,A,player\n", encoding="utf-8")
    code, out, _ = run("report", str(path), "--no-openings", "--format", "json")
    assert len(json.loads(out)["events"][0]["standings"]) == 7
    code, out, _ = run(
        "report", str(path), "--no-openings", "--format", "json", "--names", str(names)
    )
    assert code == 0
    assert len(json.loads(out)["events"][0]["standings"]) == 6


def test_look_alike_players_and_games_without_players_are_warned(tmp_path: Path) -> None:
    tags = swiss_tags()
    tags[3] = {**tags[3], "White": "\u0410"}  # the Cyrillic capital А, as a keyboard gives it
    tags.append({"Event": "Swiss Open", "Round": "3", "Result": "1-0"})
    report = report_of(tags)
    assert ("A", "\u0410") in report.name_variants
    notes = " | ".join(report.notes)
    assert "players who look like the same person (transliteration)" in notes
    assert "1 game(s) carry no players (no Black or White name), round(s) 3" in notes
    assert "player name missing" not in notes


@pytest.mark.parametrize("fmt", ["markdown", "html", "json"])
def test_other_formats_have_the_rounds_per_player(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / "swiss.pdn"
    path.write_text(swiss_text(), encoding="utf-8")
    code, out, _ = run("report", str(path), "--no-openings", "--format", fmt)
    assert code == 0
    if fmt == "json":
        event = json.loads(out)["events"][0]
        assert event["swiss"] is True
        assert event["player_rounds"][0]["games"][0] == {
            "round": "1",
            "opponent": "B",
            "colour": "Black",
            "score": 1.0,
            "points": 1.0,
        }
    else:
        assert "Rounds per player" in out and "5B+" in out


def test_csv_standings_have_buchholz() -> None:
    text = render_csv([report_of(swiss_tags())])
    header, first = text.splitlines()[:2]
    assert header.endswith(",buchholz,median_buchholz,truncated_solkoff")
    assert first.startswith("Swiss Open,1,A,") and first.endswith(",5.5,2,4.5")
