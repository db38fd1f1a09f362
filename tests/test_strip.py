"""``pdn convert`` stripping (comments, variations, NAGs, tags) in every output format, and the
per-game CSV (``--to csv-games``), on a hand-made collection."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.writing.convert import ConvertOptions, convert_games
from pdn.writing.jsonio import game_from_dict
from pdn.writing.stripping import StripOptions, Stripper, strip_game
from pdn.writing.writer import PdnWriter

COLLECTION = """\
{a comment before the tags}
[Event "Club"]
[Site "Hall"]
[Date "2024.05.01"]
[Black "Ann"]
[White "=Bo"]
[Result "1-0"]
{after the tags} 1. 11-15 {good} $1 (1. 9-13 {side} 22-18 (23-18)) 23-19 ! 2. 8-11 {more} 22-17 1-0

[Event "Club"]
[Black "Cy"]
[White "Di"]
[FEN "B:W21,22:B1,2"]
[GameType "21"]
[Result "*"]
1. 1-5 $2 22-18 *
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def collection(tmp_path: Path) -> str:
    path = tmp_path / "club.pdn"
    path.write_text(COLLECTION, encoding="utf-8")
    return str(path)


def games() -> list[pdn.Game]:
    return list(pdn.parse_games(COLLECTION))


def test_nothing_is_stripped_unless_asked(collection: str) -> None:
    code, out, _ = run("convert", collection)
    assert code == 0
    assert list(pdn.parse_games(out)) == games()
    assert strip_game(games()[0], StripOptions()) == games()[0]


@pytest.mark.parametrize("normalize", [False, True])
def test_no_comments_removes_every_comment_and_nothing_else(
    collection: str, normalize: bool
) -> None:
    args = ["convert", collection, "--no-comments"] + (["--normalize"] if normalize else [])
    code, out, _ = run(*args)
    assert code == 0
    assert "{" not in out
    first, second = pdn.parse_games(out)
    assert first.mainline_moves() == ["11-15", "23-19", "8-11", "22-17"]
    assert [n.move for n in first.root.variations] == ["11-15", "9-13"]
    node = next(first.mainline())
    assert node.nags == [1]
    assert all(not n.comments_after and not n.comments_before for n, _ in first.walk())
    assert second.tags["FEN"] == "B:W21,22:B1,2"


def test_no_variations_keeps_the_main_line_with_its_comments(collection: str) -> None:
    code, out, _ = run("convert", collection, "--no-variations")
    assert code == 0
    first = next(pdn.parse_games(out))
    # A node's first variation is its main continuation; alternatives would be more.
    assert all(len(node.variations) <= 1 for node, _ in first.walk())
    assert "side" not in out and "{good}" in out
    assert first.mainline_moves() == games()[0].mainline_moves()


def test_no_nags_removes_nags_and_strength_marks(collection: str) -> None:
    code, out, _ = run("convert", collection, "--no-nags")
    assert code == 0
    assert "$" not in out and "!" not in out
    for game in pdn.parse_games(out):
        assert all(not node.nags and node.strength is None for node, _ in game.walk())
    assert "{good}" in out


def test_keep_tags_keeps_only_those_and_the_ones_the_moves_need(collection: str) -> None:
    code, out, _ = run("convert", collection, "--tags", "event, result")
    assert code == 0
    first, second = pdn.parse_games(out)
    assert first.tags.names() == ["Event", "Result"]
    # FEN and GameType say where the moves start and under which rules: always kept.
    assert second.tags.names() == ["Event", "FEN", "GameType", "Result"]
    assert pdn.validate(second).status == pdn.validate(games()[1]).status


def test_drop_tags_drops_those_only(collection: str) -> None:
    code, out, _ = run("convert", collection, "--drop-tags", "Site,Date")
    assert code == 0
    first = next(pdn.parse_games(out))
    assert first.tags.names() == ["Event", "Black", "White", "Result"]


def test_dropping_a_tag_the_moves_need_is_refused(collection: str) -> None:
    code, _, err = run("convert", collection, "--drop-tags", "FEN")
    assert code == 2
    assert "FEN cannot be dropped" in err
    with pytest.raises(ValueError, match="GameType"):
        StripOptions(drop_tags=("gametype",))


def test_json_output_is_stripped_and_keeps_its_replay(collection: str) -> None:
    code, out, _ = run(
        "convert", collection, "--to", "ndjson", "--no-variations", "--no-comments", "--no-nags"
    )
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    first = records[0]
    assert "comments" not in first
    moves = first["moves"]
    assert [m["move"] for m in moves] == ["11-15", "23-19", "8-11", "22-17"]
    assert all("variations" not in m and "nags" not in m and "strength" not in m for m in moves)
    # The replay still holds: every ply has its FEN, the same as without stripping.
    original = games()[0]
    full = pdn.writing.jsonio.game_to_dict(original, pdn.validate(original))
    assert [m["fen"] for m in moves] == [m["fen"] for m in full["moves"]]
    assert game_from_dict(first).mainline_moves() == games()[0].mainline_moves()


def test_the_filter_gives_the_same_text_as_the_stripped_model() -> None:
    options = StripOptions(comments=False, variations=False, nags=False, drop_tags=("Site",))
    game = games()[0]
    direct = game.accept(Stripper(PdnWriter(), options))
    assert direct == pdn.write_game(strip_game(game, options))
    assert game == games()[0]  # the game given is not changed


def test_csv_games_has_one_row_per_game(collection: str) -> None:
    code, out, _ = run("convert", collection, "--to", "csv-games")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 2
    first, second = rows
    assert first["file"] == collection and first["game"] == "1" and first["line"] == "1"
    assert (first["Event"], first["Black"], first["pdn_result"], first["plies"]) == (
        "Club",
        "Ann",
        "1-0",
        "4",
    )
    # 11-15 23-19 8-11 22-17 is ACF ballot 126; the second game starts from a setup.
    assert first["ballot"] == "126" and second["ballot"] == ""
    assert first["White"] == "'=Bo"  # guarded against spreadsheet formulas
    assert first["status"] == "ok" and first["errors"] == "0"
    assert second["plies"] == "2" and second["GameType"] == "21"


def test_csv_games_columns_follow_tags(collection: str) -> None:
    code, out, _ = run("convert", collection, "--to", "csv-games", "--tags", "Black,White")
    assert code == 0
    header = out.splitlines()[0]
    assert header == "file,game,line,Black,White,result,plies,ballot,status,errors"


def test_csv_games_reports_broken_games() -> None:
    text = '[Event "E"]\n1. 11-15 11-15 *\n'
    pieces = convert_games([("x.pdn", pdn.parse_game(text))], ConvertOptions(fmt="csv-games"))
    (row,) = list(csv.DictReader(io.StringIO("".join(p.text for p in pieces))))
    assert row["status"] == "illegal" and int(row["errors"]) >= 1


def test_csv_games_escapes_control_characters() -> None:
    text = '[Event "E\x1b[2J"]\n1. 11-15 *\n'
    pieces = convert_games([("x.pdn", pdn.parse_game(text))], ConvertOptions(fmt="csv-games"))
    out = "".join(p.text for p in pieces)
    assert "\x1b" not in out and "E\\x1b[2J" in out
