"""The ``pdn`` command line, driven through click's CliRunner and, once, a real subprocess."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.writing.jsonio import game_from_dict

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
ILLEGAL = str(EXAMPLES / "illegal-moves.pdn")
TOURNAMENT = str(EXAMPLES / "german-open-2004.pdn")


def run(*args: str, input: str | bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.output


# ------------------------------------------------------------------------------ validate


def test_validate_clean_file_exits_zero_with_summary() -> None:
    code, out = run("validate", TOURNAMENT)
    assert code == 0
    assert "15 games: 15 clean, 0 with errors" in out


def test_validate_reports_file_line_col_code_and_exits_one() -> None:
    code, out = run("validate", ILLEGAL)
    assert code == 1
    assert f"{ILLEGAL}:9:19: missed-capture: 9-13 is not legal" in out
    assert "Missed, Capture vs Example, Opponent, Illegal move gallery, round 1" in out
    assert "12 games: 0 clean, 12 with errors" in out
    for code_name in ("backward-man", "incomplete-capture", "ambiguous-move", "wrong-side"):
        assert code_name in out


def test_validate_json_carries_every_field() -> None:
    code, out = run("validate", "--format", "json", ILLEGAL)
    assert code == 1
    data = json.loads(out)
    assert (data["schema"], data["type"]) == ("pdn-json/1", "verdicts")
    first = data["games"][0]
    assert set(first) == {
        "schema", "type", "file", "index", "line", "tags", "status", "rules", "problems",
    }  # fmt: skip
    assert first["rules"] == {
        "variant": "english",
        "title": "English draughts / American checkers",
        "source": "squares",
        "evidence": "no GameType; numeric squares, none above 32",
    }
    assert (first["schema"], first["type"], first["status"]) == ("pdn-json/1", "verdict", "illegal")
    # Tags are [name, value] pairs in file order, as in every record of the schema.
    assert ["Black", "Missed, Capture"] in first["tags"]
    assert first["tags"][0] == ["Event", "Illegal move gallery"]
    problem = first["problems"][0]
    assert set(problem) == {
        "code", "severity", "ply", "move", "line", "column", "message", "legal", "variation",
    }  # fmt: skip
    assert (problem["code"], problem["ply"], problem["line"], problem["column"]) == (
        "missed-capture", 3, 9, 19,
    )  # fmt: skip
    assert problem["legal"] == ["15x22"]
    assert data["summary"]["games"] == 12


def test_validate_ndjson_one_game_per_line_then_summary() -> None:
    code, out = run("validate", "--format", "ndjson", TOURNAMENT)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [line["type"] for line in lines] == ["verdict"] * 15 + ["summary"]
    assert {line["schema"] for line in lines} == {"pdn-json/1"}
    assert lines[-1]["clean"] == 15


def test_validate_reads_standard_input() -> None:
    code, out = run("validate", "-", input=b"1. 11-15 23-19 2. 15-11 *\n")
    assert code == 1
    assert "-:1:19: backward-man" in out


def test_validate_variant_override() -> None:
    text = b"1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n"
    assert run("validate", "--variant", "russian", "-", input=text)[0] == 0


def test_validate_jobs_gives_the_same_output_in_the_same_order() -> None:
    one = run("validate", "--format", "json", ILLEGAL, TOURNAMENT)[1]
    two = run("validate", "--format", "json", "--jobs", "2", ILLEGAL, TOURNAMENT)[1]
    assert one == two


def test_usage_errors_exit_two() -> None:
    # No FILE with a terminal on standard input: tests/test_cli_inputs.py.
    assert run("validate", "--format", "xml", ILLEGAL)[0] == 2
    assert run("validate", "no-such-file.pdn")[0] in (1, 2)


def test_missing_file_is_a_message_not_a_traceback() -> None:
    result = CliRunner().invoke(main, ["validate", "no-such-file.pdn"])
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert "no-such-file.pdn" in result.output


# ------------------------------------------------------------------------------- convert


def test_convert_json_round_trips_the_games(tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    code, _ = run("convert", TOURNAMENT, "--to", "json", "-o", str(out))
    assert code == 0
    data = json.loads(out.read_text())
    originals = list(pdn.read_games(Path(TOURNAMENT)))
    assert [game_from_dict(d) for d in data["games"]] == originals
    first_ply = data["games"][0]["moves"][0]
    assert first_ply["fen"].startswith("W:")
    assert first_ply["path"] == "11-15"


def test_convert_csv_one_row_per_ply() -> None:
    code, out = run("convert", "--to", "csv", "-", input=b"1. 11-15 24-19 2. 15x24 28x19 *\n")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0
    assert [r["move"] for r in rows] == ["11-15", "24-19", "15x24", "28x19"]
    assert [r["side"] for r in rows] == ["Black", "White", "Black", "White"]
    assert rows[-1]["fen_after"].startswith("B:")


def test_convert_algebraic_and_back() -> None:
    text = b"1. 11-15 24-19 2. 15x24 28x19 *\n"
    _, algebraic = run("convert", "--squares", "algebraic", "-", input=text)
    assert "f6-e5 g3-f4" in algebraic
    _, numeric = run("convert", "--squares", "numeric", "-", input=algebraic)
    assert "11-15 24-19" in numeric and "15x24 28x19" in numeric


def test_convert_full_and_short_captures() -> None:
    text = b'[FEN "B:W14,23,30:B9,1"]\n1. 9x27 *\n'
    assert "9x18x27" in run("convert", "--captures", "full", "-", input=text)[1]
    back = run(
        "convert", "--captures", "short", "-", input=b'[FEN "B:W14,23,30:B9,1"]\n1. 9x18x27 *\n'
    )
    assert "1. 9x27" in back[1]
    # A short form that would be ambiguous keeps its full path.
    amb = b'[FEN "W:W27:B15,16,23,24"]\n1... 27x18x11 *\n'
    assert "27x18x11" in run("convert", "--captures", "short", "-", input=amb)[1]


def test_convert_never_overwrites_an_input_without_in_place(tmp_path: Path) -> None:
    target = tmp_path / "games.pdn"
    target.write_text("1. 11-15 23-19 *\n")
    code, out = run("convert", str(target), "-o", str(target))
    assert code == 2
    assert "refusing to overwrite" in out
    assert target.read_text() == "1. 11-15 23-19 *\n"
    code, _ = run("convert", str(target), "--squares", "algebraic", "--in-place", "-o", str(target))
    assert code == 0
    assert "f6-e5" in target.read_text()


def test_convert_fen_lists_every_position() -> None:
    code, out = run("convert", "--to", "fen", "-", input=b"1. 11-15 23-19 *\n")
    assert code == 0
    assert out.splitlines() == [
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
        "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
    ]


# ------------------------------------------------------------------------ perft and show


def test_perft_and_divide() -> None:
    assert run("perft", "5") == (0, "7361\n")
    code, out = run("perft", "--divide", "2")
    assert code == 0
    assert out.splitlines()[-1] == "total: 49"
    assert "11-15: 7" in out


def test_perft_fen_and_variant() -> None:
    assert run("perft", "--variant", "international", "2")[1] == "81\n"
    assert run("perft", "--fen", "W:W27:B15,16,23,24", "1")[1] == "2\n"
    code, out = run("perft", "--fen", "nonsense", "1")
    assert code == 2 and "--fen" in out


def test_perft_merge_counts_the_same_capture_once() -> None:
    # A Frisian man can take the same pieces in two orders to the same square.
    assert run("perft", "--variant", "frisian", "4")[1] == "3880\n"
    assert run("perft", "--variant", "frisian", "--merge", "4")[1] == "3874\n"
    code, out = run("perft", "--variant", "frisian", "--merge", "--divide", "4")
    assert code == 0 and out.splitlines()[-1] == "total: 3874"
    # Where no capture can be taken two ways the counts agree.
    assert run("perft", "--merge", "5")[1] == "7361\n"


def test_show_text_board_and_svg() -> None:
    code, out = run("show", ILLEGAL, "--game", "2", "--ply", "2")
    assert code == 0
    assert "after ply 2 (23-19)" in out
    assert "Black to move" in out
    code, svg = run("show", TOURNAMENT, "--svg")
    assert code == 0
    assert svg.startswith("<svg") and svg.count("<circle") >= 2


# ------------------------------------------------------------- openings, report, annotate


def test_openings_table_and_stats() -> None:
    code, out = run("openings", "--format", "csv", TOURNAMENT)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 15
    assert all(row["kind"] == "ballot" for row in rows)
    code, stats = run("openings", "--stats", "--format", "json", TOURNAMENT)
    assert code == 0
    assert sum(b["games"] for b in json.loads(stats)["ballots"]) == 15


def test_openings_extract_one_ballot(tmp_path: Path) -> None:
    out = tmp_path / "b.pdn"
    text = b"1. 11-15 22-17 9-14 *\n\n1. 11-15 23-19 8-11 *\n"
    assert run("openings", "--ballot", "38", "-o", str(out), "-")[0] == 0
    out.write_text("")
    assert run("openings", "--ballot", "38", "-o", str(out), "-", input=text)[0] == 0
    games = list(pdn.read_games(out))
    assert [g.mainline_moves() for g in games] == [["11-15", "22-17", "9-14"]]


def test_report_standings() -> None:
    code, out = run("report", TOURNAMENT)
    assert code == 0
    assert "German Open 2004" in out
    assert "Oliphant, D." in out
    code, html = run("report", "--format", "html", TOURNAMENT)
    assert code == 0 and html.lstrip().lower().startswith("<!doctype html")


def test_annotate_adds_tags_and_keeps_the_rest(tmp_path: Path) -> None:
    src = tmp_path / "g.pdn"
    src.write_text('[Event "x"]\n[Mine "kept"]\n1. 11-15 {first} 22-18 2. 15x22 25x18 *\n')
    out = tmp_path / "a.pdn"
    assert run("annotate", "--fen", str(src), "-o", str(out))[0] == 0
    (game,) = pdn.read_games(out)
    assert game.tags["Mine"] == "kept"
    assert game.tags["PlyCount"] == "4"
    assert game.tags["Opening"].startswith("ACF 120")
    first = next(game.mainline())
    assert first.comments_after[0].text == "first"
    assert first.comments_after[1].text.startswith("[%fen W:")


def test_python_dash_m_runs_validate_in_a_subprocess() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pdn", "validate", "--format", "ndjson", ILLEGAL],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stderr == ""
    last = json.loads(proc.stdout.splitlines()[-1])
    assert last == {
        "schema": "pdn-json/1",
        "type": "summary",
        "games": 12,
        "clean": 0,
        "with_errors": 12,
        "unchecked": 0,
        "by_code": last["by_code"],
        # (game 8's one move, 11-14, is Spanish: a warning names those rules)
        "by_severity": {"error": 13, "warning": 1},
        "rules": [
            {"title": "English draughts / American checkers", "source": "squares", "games": 12}
        ],
    }
    assert last["by_code"]["result-impossible"] == 1


@pytest.mark.parametrize(
    "command", ["validate", "convert", "perft", "show", "openings", "report", "annotate"]
)
def test_every_command_has_help(command: str) -> None:
    code, out = run(command, "--help")
    assert code == 0
    assert "Usage:" in out
