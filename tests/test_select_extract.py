"""Issue 22, items 14 and 15: pgn-extract's selections in ``pdn select``, ``pdn dedupe
--duplicates-to/--against/--report FILE``, and ``pdn convert --max-plies/--split-variations/
--width/--no-move-numbers``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.collections.selection import (
    Selection,
    parse_line,
    parse_material,
    parse_where,
    select_games,
)

# Ballot 38 (9-14 22-17 11-15) in both move orders, and a game that leaves it.
RATED = """[Event "Open"]
[Date "1990.??.??"]
[White "Ann"]
[WhiteRating "2010"]
[Result "1-0"]
1. 9-14 22-17 2. 11-15! 25-22 3. 8-11 1-0

[Event "Open"]
[Date "1991.03.02"]
[White "Bob"]
[WhiteRating "1800"]
[Result "0-1"]
1. 11-15 22-17 2. 9-14 25-22 0-1

[Event "Club"]
[Date "1989.12.31"]
[White "Cy"]
[WhiteRating "?"]
[Result "*"]
1. 11-15 22-18 2. 9-14 *
"""

JUMPS = "1. 11-15 24-19 2. 15x24 28x19 3. 8-11 *"


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def rated(tmp_path: Path) -> Path:
    path = tmp_path / "rated.pdn"
    path.write_text(RATED, encoding="utf-8")
    return path


def whites(text: str) -> list[str]:
    return [game.tags["White"] for game in pdn.parse_games(text)]


# --- select --where ----------------------------------------------------------------------


def test_where_compares_numbers_as_numbers(rated: Path) -> None:
    code, out, _ = run("select", str(rated), "--where", "WhiteRating>=1950")
    assert code == 0 and whites(out) == ["Ann"]
    # As text, "1800" < "950" would hold; as numbers it does not.
    _, out, _ = run("select", str(rated), "--where", "WhiteRating<950")
    assert whites(out) == []
    # A rating of "?" is not a number: it meets no numeric comparison, != included.
    _, out, _ = run("select", str(rated), "--where", "WhiteRating!=1800")
    assert whites(out) == ["Ann"]


def test_where_compares_dates_with_unknown_parts(rated: Path) -> None:
    _, out, _ = run("select", str(rated), "--where", "Date>=1990.06")
    assert whites(out) == ["Ann", "Bob"]  # 1990.??.?? may be after June
    _, out, _ = run("select", str(rated), "--where", "Date<1990")
    assert whites(out) == ["Cy"]
    _, out, _ = run("select", str(rated), "--where", "Date=1990")
    assert whites(out) == ["Ann"]
    _, out, _ = run("select", str(rated), "--where", "Date!=1990")
    assert whites(out) == ["Bob", "Cy"]


def test_where_text_several_and_any(rated: Path) -> None:
    _, out, _ = run("select", str(rated), "--where", "event=open", "--where", "White!=ann")
    assert whites(out) == ["Bob"]
    _, out, _ = run(
        "select", str(rated), "--where", "Event=Club", "--where", "WhiteRating>2000", "--any"
    )
    assert whites(out) == ["Ann", "Cy"]


@pytest.mark.parametrize(
    "expression", ["WhiteRating", "=1950", "Date>1990.13.40", "Event=>B", "Event="]
)
def test_a_malformed_where_is_a_usage_error(rated: Path, expression: str) -> None:
    code, _, err = run("select", str(rated), "--where", expression)
    assert code == 2 and "--where" in err and "Traceback" not in err


def test_any_needs_where(rated: Path) -> None:
    code, _, err = run("select", str(rated), "--any")
    assert code == 2 and "--where" in err


def test_where_is_a_tag_condition_that_never_parses_moves(
    rated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pdn.collections.selection
    from pdn.reading.cutting import RawGame

    def refuse(raw: RawGame) -> pdn.Game:
        raise AssertionError("a tag condition parsed a game")

    monkeypatch.setattr(pdn.collections.selection, "parse_raw", refuse)
    chosen = Selection(where=[parse_where("WhiteRating>1900")])
    assert [p.index for p in select_games([str(rated)], chosen)] == [1]


# --- select --moves, --material-at-any, --mark ------------------------------------------


def test_moves_by_position_transpositions_count(rated: Path) -> None:
    code, out, _ = run("select", str(rated), "--moves", "9-14 22-17 11-15")
    assert code == 0 and whites(out) == ["Ann", "Bob"]
    # Move numbers and other notations are read as the reader reads a movetext.
    _, out, _ = run("select", str(rated), "--moves", "1. 11-15 22-18")
    assert whites(out) == ["Cy"]


def test_moves_compares_at_the_same_ply() -> None:
    # The position after 9-14 22-17 11-15 has Black's 9 and 11 moved; a game that gets
    # there later (after more plies) is not the same position at that ply.
    chosen = Selection(moves=parse_line("9-14 22-17 11-15"))
    late = pdn.parse_game("1. 9-13 22-17 2. 13-9 17-22 3. 9-14 22-17 4. 11-15 *")
    assert chosen.marks(late) is None
    early = pdn.parse_game("1. 11-15 22-17 2. 9-14 *")
    assert chosen.marks(early) == {3: ["--moves"]}


def test_moves_that_no_rules_play_from_the_start_is_said(rated: Path) -> None:
    code, out, err = run("select", str(rated), "--moves", "11-15 11-15", "--count")
    assert "Warning: --moves" in err and out.strip() == "0"
    code, _, err = run("select", str(rated), "--moves", "11-15 {unclosed")
    assert code == 2 and "--moves" in err and "Traceback" not in err


def test_material_at_any_ply_not_only_the_end(tmp_path: Path) -> None:
    path = tmp_path / "jump.pdn"
    # 12:11 after 15x24 (ply 3); 11:11 after 28x19 (ply 4), which stays to the end.
    path.write_text(JUMPS + "\n", encoding="utf-8")
    _, out, _ = run("select", str(path), "--material-at-any", "12:11", "--count")
    assert out == "1\n"
    _, out, _ = run("select", str(path), "--material", "12:11", "--count")
    assert out == "0\n"
    _, out, _ = run("select", str(path), "--material-at-any", "10:11", "--count")
    assert out == "0\n"
    _, out, _ = run("select", str(path), "--material-at-any", "W11:B12", "--count")
    assert out == "1\n"
    picked = Selection(material_at_any=parse_material("12:11"))
    assert picked.marks(pdn.parse_game(JUMPS)) == {3: ["--material-at-any"]}


def test_material_at_any_is_met_at_the_first_position_that_has_it() -> None:
    game = pdn.parse_game(JUMPS)
    assert Selection(material_at_any=parse_material("12:12")).marks(game) == {
        0: ["--material-at-any"]
    }
    # White has 12 pieces until 15x24 (ply 3), and pieces never come back.
    assert Selection(material_at_any=parse_material("11:12")).marks(game) is None


def test_mark_comments_the_matched_ply_and_keeps_the_rest(rated: Path) -> None:
    code, out, _ = run("select", str(rated), "--moves", "9-14 22-17 11-15", "--mark")
    assert code == 0
    first, second = RATED.split("\n\n")[:2]
    assert out.split("\n\n")[0] == first.replace("11-15!", "11-15! {select: --moves}")
    assert "2. 9-14 {select: --moves} 25-22" in out.split("\n\n")[1]
    assert out.split("\n\n")[1].replace(" {select: --moves}", "") == second + "\n"
    games = list(pdn.parse_games(out))
    node = list(games[0].mainline())[2]
    assert node.strength == "!" and [c.text for c in node.comments_after] == ["select: --moves"]


def test_mark_of_a_json_record_and_of_the_start(tmp_path: Path, rated: Path) -> None:
    records = tmp_path / "rated.json"
    code, _, _ = run("convert", str(rated), "--to", "json", "-o", str(records))
    assert code == 0
    start = pdn.parse_game(RATED).fen or "B:W21-32:B1-12"
    _, out, _ = run("select", str(records), "--fen", start, "--mark", "--first", "1")
    game = pdn.parse_game(out)
    assert [c.text for c in game.root.comments_after] == ["select: --fen"]


def test_mark_needs_a_position_condition(rated: Path) -> None:
    code, _, err = run("select", str(rated), "--mark")
    assert code == 2 and "--mark" in err
    code, _, _ = run("select", str(rated), "--mark", "--moves", "11-15", "--invert")
    assert code == 2


# --- dedupe: --duplicates-to, --against, --report FILE, the progress bar -------------------

ARCHIVE = RATED
NEW = (
    '[Event "Again"]\n1. 9-14 22-17 2. 11-15! 25-22 3. 8-11 1-0\n\n'  # the archive's game 1
    '[Event "New"]\n1. 10-14 22-18 *\n\n'
    '[Event "New again"]\n1. 10-14 22-18 *\n'  # repeats the game before it
)


@pytest.fixture
def archive(tmp_path: Path) -> tuple[Path, Path]:
    old = tmp_path / "archive.pdn"
    old.write_text(ARCHIVE, encoding="utf-8")
    new = tmp_path / "new.pdn"
    new.write_text(NEW, encoding="utf-8")
    return new, old


def test_against_drops_what_the_archive_has(archive: tuple[Path, Path], tmp_path: Path) -> None:
    new, old = archive
    kept = tmp_path / "kept.pdn"
    code, out, err = run("dedupe", str(new), "--against", str(old), "-o", str(kept))
    assert code == 0 and out == ""
    assert [g.tags["Event"] for g in pdn.parse_games(kept.read_text())] == ["New"]
    assert err == "3 games, 2 repeats dropped (by moves), 1 of them in the archive\n"
    assert old.read_text(encoding="utf-8") == ARCHIVE  # read, never written


def test_duplicates_to_writes_the_repeats_as_read(
    archive: tuple[Path, Path], tmp_path: Path
) -> None:
    new, old = archive
    repeats = tmp_path / "repeats.pdn"
    code, out, _ = run("dedupe", str(new), "--against", str(old), "--duplicates-to", str(repeats))
    assert code == 0
    assert [g.tags["Event"] for g in pdn.parse_games(out)] == ["New"]
    first, _, third = NEW.split("\n\n")
    assert repeats.read_text(encoding="utf-8") == first + "\n\n" + third


def test_report_file_lists_each_repeat_and_stderr_has_one_line(
    archive: tuple[Path, Path], tmp_path: Path
) -> None:
    new, old = archive
    listing = tmp_path / "repeats.txt"
    code, out, err = run("dedupe", str(new), "--against", str(old), "--report", str(listing))
    assert code == 0 and len(list(pdn.parse_games(out))) == 1
    assert listing.read_text(encoding="utf-8").splitlines() == [
        f"{new}:1: game 1 repeats {old}:1 (game 1)",
        f"{new}:7: game 3 repeats {new}:4 (game 2)",
    ]
    assert len(err.splitlines()) == 1


def test_report_and_duplicates_never_overwrite_an_input(archive: tuple[Path, Path]) -> None:
    new, old = archive
    for option in ("--report", "--duplicates-to"):
        code, _, err = run("dedupe", str(new), "--against", str(old), option, str(old))
        assert code == 2 and "Traceback" not in err
    # The old `--report FILE...` flag form names a game file as the report: refused.
    code, _, _ = run("dedupe", "--report", str(new), input="")
    assert code == 2
    assert new.read_text(encoding="utf-8") == NEW and old.read_text(encoding="utf-8") == ARCHIVE


def test_dedupe_has_the_progress_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pdn.text.progress

    monkeypatch.setattr(pdn.text.progress, "is_terminal", lambda stream: True)
    path = tmp_path / "padded.pdn"
    game = '[Event "E"]\n1. 11-15 23-19 *\n'
    path.write_text(game + " " * pdn.text.progress.LARGE + "\n" + game, encoding="utf-8")
    code, out, err = run("dedupe", str(path))
    assert code == 0 and "%" in err and "B/s" in err  # the bar, drawn on standard error
    assert len(list(pdn.parse_games(out))) == 1
    assert err.rstrip().endswith("2 games, 1 repeats dropped (by moves)")
    _, _, quiet = run("dedupe", "--quiet", str(path))
    assert quiet == "2 games, 1 repeats dropped (by moves)\n"


# --- convert --max-plies, --split-variations, --width, --no-move-numbers ------------------

BRANCHY = (
    '[Event "E"]\n[Result "1-0"]\n{before} 1. 11-15 {main} (1. 9-13 {v} 22-18 (22-17 13x22) '
    "2. 5-9) (1. 10-14 $1 24-20) 23-19 2. 8-11 (2. 9-14 27-23) 22-17 1-0\n"
)


@pytest.fixture
def branchy(tmp_path: Path) -> Path:
    path = tmp_path / "branchy.pdn"
    path.write_text(BRANCHY, encoding="utf-8")
    return path


def plies_of(game: pdn.Game) -> int:
    """The longest line, in plies from the start."""
    return max((depth for _, depth in game.walk()), default=0)


@pytest.mark.parametrize("limit", [0, 1, 2, 3, 10])
def test_max_plies_cuts_every_line(branchy: Path, limit: int) -> None:
    code, out, _ = run("convert", str(branchy), "--max-plies", str(limit))
    assert code == 0
    cut = pdn.parse_game(out)
    whole = pdn.parse_game(BRANCHY)
    assert plies_of(cut) == min(limit, plies_of(whole))
    assert cut.mainline_moves() == whole.mainline_moves()[:limit]
    # What is kept is kept whole: every move up to the limit, with its comments and NAGs.
    kept = [(n.move, n.comments_after, n.nags) for n, d in whole.walk() if d <= limit]
    assert [(n.move, n.comments_after, n.nags) for n, _ in cut.walk()] == kept
    assert (cut.tags["Result"], cut.terminator) == ("1-0", "1-0")  # the result is kept
    from pdn.game.excerpts import truncate

    assert truncate(whole, limit) == cut
    assert whole == pdn.parse_game(BRANCHY)  # the game given is not changed


def test_max_plies_keeps_a_short_game_as_it_is(branchy: Path) -> None:
    _, cut, _ = run("convert", str(branchy), "--max-plies", "100")
    _, plain, _ = run("convert", str(branchy))
    assert cut == plain


def test_split_variations_writes_each_line_as_a_game(branchy: Path) -> None:
    code, out, _ = run("convert", str(branchy), "--split-variations")
    assert code == 0
    games = list(pdn.parse_games(out))
    assert [g.mainline_moves() for g in games] == [
        ["11-15", "23-19", "8-11", "22-17"],
        ["9-13", "22-18", "5-9"],
        ["9-13", "22-17", "13x22"],
        ["10-14", "24-20"],
        ["11-15", "23-19", "9-14", "27-23"],
    ]
    assert all(g.count_moves() == len(g.mainline_moves()) for g in games)  # no variations
    assert "Variation" not in games[0].tags and games[0].tags["Result"] == "1-0"
    assert [g.tags["Variation"] for g in games[1:]] == [
        f"{branchy}, game 1, from ply 1 (alternative 1)",
        f"{branchy}, game 1, from ply 1 (alternative 1), then ply 2",
        f"{branchy}, game 1, from ply 1 (alternative 2)",
        f"{branchy}, game 1, from ply 3",
    ]
    for game in games[1:]:
        assert (game.tags["Result"], game.terminator) == ("*", "*")
        assert game.tags["Event"] == "E"
    # Comments and NAGs stay with their moves; every line replays.
    assert [c.text for c in next(games[1].mainline()).comments_after] == ["v"]
    assert next(games[3].mainline()).nags == [1]
    assert [c.text for c in games[4].root.comments_after] == ["before"]
    for game in games:
        assert not [p for p in pdn.validate(game).problems if p.severity == "error"]


def test_split_variations_and_max_plies_together(branchy: Path) -> None:
    _, out, _ = run("convert", str(branchy), "--split-variations", "--max-plies", "2")
    assert [g.mainline_moves() for g in pdn.parse_games(out)] == [
        ["11-15", "23-19"],
        ["9-13", "22-18"],
        ["9-13", "22-17"],
        ["10-14", "24-20"],
    ]


def test_width_and_no_move_numbers(branchy: Path) -> None:
    _, narrow, _ = run("convert", str(branchy), "--width", "24")
    body = narrow.split("\n\n", 1)[1]
    assert max(len(line) for line in body.splitlines()) <= 24
    assert len(body.splitlines()) > 3
    assert pdn.parse_game(narrow) == pdn.parse_game(BRANCHY)  # only the layout changed
    _, bare, _ = run("convert", str(branchy), "--no-move-numbers")
    game = pdn.parse_game(bare)
    assert all(node.number is None for node, _ in game.walk())
    assert [n.move for n, _ in game.walk()] == [n.move for n, _ in pdn.parse_game(BRANCHY).walk()]
    assert "1." not in bare and "2." not in bare
    _, normal, _ = run("convert", str(branchy), "--normalize", "--no-move-numbers")
    assert "." not in normal.split("\n\n", 1)[1]


def test_width_and_no_move_numbers_are_for_pdn(branchy: Path) -> None:
    for option in (["--width", "40"], ["--no-move-numbers"]):
        code, _, err = run("convert", str(branchy), "--to", "json", *option)
        assert code == 2 and "PDN" in err
    code, _, _ = run("convert", str(branchy), "--width", "0")
    assert code == 2


def test_against_a_folder_and_not_an_input(archive: tuple[Path, Path], tmp_path: Path) -> None:
    new, old = archive
    folder = tmp_path / "archive"
    folder.mkdir()
    (folder / "old.pdn").write_text(ARCHIVE, encoding="utf-8")
    code, out, err = run("dedupe", str(new), "--against", str(folder))
    assert code == 0 and [g.tags["Event"] for g in pdn.parse_games(out)] == ["New"]
    assert "1 of them in the archive" in err
    code, _, err = run("dedupe", str(old), "--against", str(tmp_path / "." / "archive.pdn"))
    assert code == 2 and "--against" in err


def test_moves_are_played_from_a_games_fen_setup(tmp_path: Path) -> None:
    path = tmp_path / "setup.pdn"
    path.write_text('[FEN "W:W18:B14"]\n1. 18x9 *\n\n1. 11-15 23-19 *\n', encoding="utf-8")
    code, out, err = run("select", str(path), "--moves", "18x9", "--count")
    assert code == 0 and out.strip() == "1" and "Warning" in err
