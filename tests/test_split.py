"""``pdn split`` and :mod:`pdn.collections.splitting`: safe, confined, unique file names and an
index."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import pdn
from pdn.cli import main
from pdn.collections.splitting import NAME_BYTES, Names, safe_name, split_files


def game(event: str, black: str = "Ann", white: str = "Bob", moves: str = "1. 11-15 *") -> str:
    return f'[Event "{event}"]\n[Black "{black}"]\n[White "{white}"]\n{moves}\n'


HOSTILE = [
    "../../escaped",
    "/etc/passwd",
    "..\\..\\windows",
    "..",
    ".",
    "CON",
    "nul.txt",
    "a\x1b[2Jb",
    "line\nbreak",
    "x" * 400,
    "é" * 200,
    "Club",
    "club",
    "CLUB",
    "",
    "   ",
    "a:b*c?d",
    "\u202eevil",
    "-rf",
    "=1+2",
]


def check_safe(name: str) -> None:
    stem = name.removesuffix(".pdn")
    assert "/" not in name and "\\" not in name and "\x00" not in name
    assert stem not in ("", ".", "..") and not name.startswith(".")
    assert all(ord(ch) >= 0x20 and not 0x7F <= ord(ch) <= 0x9F for ch in name)
    assert "\u202e" not in name
    assert stem.split(".")[0].upper() not in {"CON", "PRN", "AUX", "NUL", "COM1", "LPT1"}
    assert len(stem.encode("utf-8")) <= NAME_BYTES + 4  # a "-NN" suffix at most
    assert not any(ch in name for ch in '<>:"|?*')
    assert name[0] not in "-=+@"


@pytest.mark.parametrize("label", HOSTILE)
def test_safe_name_is_a_plain_file_name(label: str) -> None:
    check_safe(safe_name(label) + ".pdn")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_label_gives_a_safe_name(label: str) -> None:
    check_safe(safe_name(label) + ".pdn")


def test_names_are_unique_ignoring_case_and_stable(tmp_path: Path) -> None:
    names = Names(tmp_path)
    given = [names.name(label) for label in HOSTILE]
    assert len({n.casefold() for n in given}) == len(set(HOSTILE))
    assert names.name("Club") == given[HOSTILE.index("Club")]


def test_split_by_event_stays_in_the_folder(tmp_path: Path) -> None:
    source = tmp_path / "in.pdn"
    source.write_text("\n".join(game(label) for label in HOSTILE), encoding="utf-8")
    out = tmp_path / "out"
    result = split_files([str(source)], out, "event")
    assert result.games == len(HOSTILE)
    written = sorted(os.listdir(out))
    assert "index.csv" in written
    for name in written:
        check_safe(name)
        assert (out / name).resolve().parent == out.resolve()
    # Nothing was written outside the folder.
    assert sorted(os.listdir(tmp_path)) == ["in.pdn", "out"]
    assert not (tmp_path.parent / "escaped.pdn").exists()
    # Every game is in exactly one file, as read.
    total = sum(len(list(pdn.read_games(out / n))) for n in written if n.endswith(".pdn"))
    assert total == len(HOSTILE)
    assert (out / "Club.pdn").read_text(encoding="utf-8") == game("Club")


def test_symbolic_links_and_inputs_are_never_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside.pdn"
    outside.write_text("precious\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "Club.pdn").symlink_to(outside)
    source = out / "Open.pdn"  # the input lives in the folder, under a name a group wants
    source.write_text(game("Club") + "\n" + game("Open"), encoding="utf-8")
    split_files([str(source)], out, "event")
    assert outside.read_text(encoding="utf-8") == "precious\n"
    assert (out / "Club.pdn").is_symlink()
    assert source.read_text(encoding="utf-8").startswith('[Event "Club"]')
    assert (out / "Club-2.pdn").read_text(encoding="utf-8") == game("Club")
    assert (out / "Open-2.pdn").read_text(encoding="utf-8") == game("Open")


def test_index_says_where_each_game_went(tmp_path: Path) -> None:
    source = tmp_path / "in.pdn"
    source.write_text(
        game("E", "Ann", "Bob") + "\n" + game("E", "=HYPERLINK(1)", "Ann"), encoding="utf-8"
    )
    out = tmp_path / "out"
    result = split_files([str(source)], out, "player")
    assert result.index_rows == 4  # each game in both players' files
    rows = list(csv.DictReader((out / "index.csv").open(encoding="utf-8")))
    assert [(r["file"], r["game"], r["line"]) for r in rows] == [
        ("Ann.pdn", "1", "1"),
        ("Bob.pdn", "1", "1"),
        ("_HYPERLINK(1).pdn", "2", "6"),
        ("Ann.pdn", "2", "6"),
    ]
    assert rows[2]["black"] == "'=HYPERLINK(1)"  # no formula for a spreadsheet to run
    assert len(list(pdn.read_games(out / "Ann.pdn"))) == 2


def test_split_by_number_round_variant_and_ballot(tmp_path: Path) -> None:
    source = tmp_path / "in.pdn"
    texts = [
        game("A", moves="1. 9-14 22-17 2. 11-15 *"),  # ACF 38
        game("A", moves="1. 11-15 22-17 2. 9-14 *"),  # ACF 38, transposed
        '[GameType "20"]\n' + game("B", moves="1. 32-28 *"),
    ]
    source.write_text("\n".join(texts), encoding="utf-8")
    by_two = split_files([str(source)], tmp_path / "n", 2)
    assert sorted(by_two.files.items()) == [
        ("games-000001-000002.pdn", 2),
        ("games-000003-000004.pdn", 1),
    ]
    ballots = split_files([str(source)], tmp_path / "b", "ballot")
    assert ballots.files == {"ACF_038.pdn": 2, "not-english.pdn": 1}
    variants = split_files([str(source)], tmp_path / "v", "variant")
    assert variants.files == {"english.pdn": 2, "international.pdn": 1}
    rounds = split_files([str(source)], tmp_path / "r", "round")
    assert rounds.files == {"no_Round.pdn": 3}


def test_cli_split_and_no_temporary_files_left(tmp_path: Path) -> None:
    source = tmp_path / "in.pdn"
    source.write_text(game("One") + "\n" + game("Two"), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["split", str(source), "--by", "event", "-o", str(out)])
    assert result.exit_code == 0
    assert "2 games into 2 files" in result.stdout
    assert sorted(os.listdir(out)) == ["One.pdn", "Two.pdn", "index.csv"]
    bad = CliRunner().invoke(main, ["split", str(source), "--by", "colour", "-o", str(out)])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_an_index_that_is_a_link_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.csv"
    outside.write_text("precious\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.csv").symlink_to(outside)
    source = tmp_path / "in.pdn"
    source.write_text(game("One"), encoding="utf-8")
    result = CliRunner().invoke(main, ["split", str(source), "--by", "event", "-o", str(out)])
    assert result.exit_code == 1 and "refusing" in result.stderr
    assert outside.read_text(encoding="utf-8") == "precious\n"
    assert sorted(os.listdir(out)) == ["index.csv"]
