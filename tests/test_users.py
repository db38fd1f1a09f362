# ruff: noqa: RUF001, RUF003
# (Cyrillic letters that look like Latin ones are what some of these tests are about.)
"""What new users tripped on (issue 22, items 10-14 and 16): --encoding everywhere, names that
fold, warnings in the report page, progress bars, show on standard input and smaller things."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from shared_paths import CORPUS, needs_shared

from pdn.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
TOURNAMENT = str(EXAMPLES / "german-open-2004.pdn")

GAME = '[Event "Cup"]\n[Black "Ivanov"]\n[White "Petrov"]\n1. 11-15 24-20 2. 8-11 *\n'


def run(*args: str, input: str | bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.output


# ---------------------------------------------------------------------------- 11. --encoding


@pytest.fixture
def utf16(tmp_path: Path) -> Path:
    """A UTF-32 file without a BOM: nothing in its bytes says so, only --encoding can (a
    UTF-16 one is told by the side of its NUL bytes, issue 33)."""
    path = tmp_path / "utf16.pdn"
    path.write_bytes(GAME.encode("utf-32-le"))
    return path


# command, the arguments after it, where the output is ("-": standard output, else a file or
# folder under tmp_path), and what it holds when the file was read right.
READERS = [
    ("validate", ["--format", "json"], "-", "Ivanov"),
    ("convert", [], "-", '[Black "Ivanov"]'),
    ("select", ["--player", "Ivanov"], "-", '[Black "Ivanov"]'),
    ("dedupe", [], "-", '[Black "Ivanov"]'),
    ("split", ["--by", "player", "-o", "{tmp}/split"], "split/index.csv", "Ivanov"),
    ("report", [], "-", "Ivanov"),
    ("openings", [], "-", "Ivanov"),
    ("openings", ["--stats"], "-", "130"),
    ("annotate", [], "-", '[PlyCount "3"]'),
    ("fix", ["--dates"], "-", '[Black "Ivanov"]'),
    ("fix", ["--suggest-names"], "-", "old,new"),  # headers only: see the next test
    ("view", ["-o", "{tmp}/page.html"], "page.html", "Ivanov"),
    ("diagram", ["--plies", "0", "-o", "{tmp}/dia"], "dia", "Ivanov"),
    ("show", [], "-", "after 3 plies"),
]


def _output(tmp: Path, where: str, out: str) -> str:
    if where == "-":
        return out
    path = tmp / where
    if path.is_dir():
        return " ".join(sorted(p.name for p in path.iterdir()))
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("command", "args", "where", "marker"), READERS)
def test_every_reading_command_takes_encoding(
    tmp_path: Path, utf16: Path, command: str, args: list[str], where: str, marker: str
) -> None:
    for told in (True, False):
        out_dir = tmp_path / ("told" if told else "detected")
        out_dir.mkdir()
        filled = [a.replace("{tmp}", str(out_dir)) for a in args]
        encoding = ["--encoding", "utf-32-le"] if told else []
        code, out = run(command, *filled, *encoding, str(utf16))
        assert "Traceback" not in out
        if told:
            assert code == 0, out
            assert marker in _output(out_dir, where, out)
        elif "--suggest-names" not in args:  # (an empty alias list either way)
            # Without it the bytes are read as something else: the marker is not there.
            assert marker not in _output(out_dir, where, out) if code == 0 else True


def test_suggest_names_reads_in_the_encoding(tmp_path: Path) -> None:
    path = tmp_path / "old.pdn"
    text = (
        GAME
        + "\n"
        + GAME.replace('"Ivanov"', '"Иванов"')
        + "\n"
        + GAME.replace("Ivanov", "Ivanov.")
    )
    path.write_bytes(text.replace("Ivanov.", "Иванов.").encode("cp1251"))
    code, out = run("fix", "--suggest-names", "--encoding", "cp1251", str(path))
    assert code == 0
    assert "Иванов." in out
    code, out = run("fix", "--suggest-names", "--encoding", "latin-1", str(path))
    assert "Иванов" not in out


@pytest.mark.parametrize("codec", ["no-such-codec", "base64", "rot13"])
def test_encoding_that_is_no_text_codec_is_a_usage_error(utf16: Path, codec: str) -> None:
    for command in (["validate"], ["show"], ["fix", "--dates"]):
        code, out = run(*command, "--encoding", codec, str(utf16))
        assert code == 2
        assert "--encoding" in out and codec in out
        assert "Traceback" not in out


def test_validate_says_how_to_give_the_encoding(tmp_path: Path) -> None:
    path = tmp_path / "cyr.pdn"
    path.write_bytes(GAME.replace("Ivanov", "Иванов").encode("cp1251"))
    code, out = run("validate", str(path))
    assert "a guess from its bytes" in out and "--encoding" in out
    code, out = run("validate", "--encoding", "cp1251", str(path))
    assert "a guess from its bytes" not in out and code == 0


def test_forced_utf16_without_bom_is_damage_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "plain.pdn"
    path.write_text(GAME, encoding="ascii")
    _, out = run("validate", "--encoding", "utf-16", str(path))
    assert "not valid utf-16" in out
    assert "Traceback" not in out


def test_encoding_is_defined_once() -> None:
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "pdn" / "cli").glob("*.py"))
    assert source.count('"--encoding"') == 1
    # The commands that read no PDN: a move-generator count, an engine, a match of engines
    # (its --openings file decoded as detected, no --encoding yet), endgame tables.
    reads_no_pdn = {"perft", "engine", "match", "endgame"}
    context = click.Context(main)
    for name in main.list_commands(context):
        command = main.get_command(context, name)
        assert command is not None
        names = {opt for param in command.params for opt in getattr(param, "opts", [])}
        assert ("--encoding" in names) == (name not in reads_no_pdn), name


# ------------------------------------------------------------- 10. extras from a clone


def test_png_advice_names_an_install_that_works() -> None:
    from pdn.writing.diagram import PNG_INSTALL

    assert "pdn[png]" not in PNG_INSTALL and 'pip install ".[png]"' in PNG_INSTALL
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'pip install "pdn[' not in readme.replace('`pip install "pdn[png]"` cannot work', "")
    assert 'pip install ".[png]"' in readme and 'pip install ".[dask]"' in readme
    for command in ("show", "diagram"):
        _, out = run(command, "--help")
        assert "pdn[png]" not in out


# ------------------------------------------------------------------ 16. show reads stdin


def test_show_reads_piped_standard_input() -> None:
    text = Path(TOURNAMENT).read_text(encoding="utf-8")
    code, piped = run("show", "--game", "2", "--ply", "3", input=text)
    assert code == 0
    _, named = run("show", TOURNAMENT, "--game", "2", "--ply", "3")
    assert piped == named and piped.startswith("game 2, after ply 3")
    code, out = run("show", "--game", "99", input=text)
    assert code == 2 and "- has fewer than 99 games" in out
    code, out = run("show", input="")
    assert code == 2 and "FILE or --fen" in out


# ------------------------------------------------------------------- 14. progress bars


def _stderr_on_a_terminal(args: list[str], cwd: Path) -> tuple[bytes, bytes]:
    """(standard output, what standard error showed) of ``pdn ARGS`` with a terminal as
    standard error, 100 columns wide (tqdm draws nothing on a terminal of no width)."""
    import contextlib
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pdn", *args], stdout=subprocess.PIPE, stderr=terminal, cwd=cwd
        )
    finally:
        os.close(terminal)
    shown = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(controller, 65536):
            shown += chunk
    os.close(controller)
    return done.stdout, shown


@pytest.mark.parametrize(
    ("args", "bar"),
    [
        (["view", "-o", "page.html"], True),
        (["select", "--ballot", "130", "--count"], True),
        (["select", "--fen-pattern", "?:W20:B15", "--count"], True),
        (["select", "--player", "Ivanov", "--count"], False),  # tags only: over in a moment
        (["select", "--ballot", "130", "--count", "--quiet"], False),
    ],
)
def test_view_and_select_by_position_show_the_bar(
    tmp_path: Path, args: list[str], bar: bool
) -> None:
    pytest.importorskip("pty")
    from pdn.text.progress import LARGE

    path = tmp_path / "padded.pdn"
    path.write_text(GAME + " " * LARGE + "\n" + GAME, encoding="utf-8")
    out, shown = _stderr_on_a_terminal([*args, str(path)], tmp_path)
    assert (b"%" in shown and b"B/s" in shown) is bar, shown
    if "--count" in args:
        assert out == b"2\n"  # the bar is erased before the count, and never on stdout


# ------------------------------------------------------------------------- 12. names


def test_hyphen_and_comma_variants_are_one_name() -> None:
    from pdn.text.names import differences, name_key, similar_names

    spellings = [
        "Koops, Lambert-Jan",
        "Koops Lambert Jan",
        "Koops, Lambert Jan",
        "Koops Lambert-Jan",
    ]
    assert len({name_key(name) for name in spellings}) == 1
    assert differences("Koops Lambert-Jan", "Koops Lambert Jan") == ["hyphen or comma"]
    assert differences("Koops\u2013Lambert", "Koops-Lambert") == ["hyphen or comma"]  # en dash
    (group,) = similar_names([*spellings, "Koops Lambert Jan"])
    # The comma-less spelling is the most used, the first with a comma is kept (issue 33).
    assert group.preferred == "Koops, Lambert-Jan" and len(group.names) == 4
    # A comma moved across a space is spacing (commas read as spaces undo it too).
    assert differences("Tinsley ,M.F.", "Tinsley, M.F.") == ["spacing"]
    # Other letters still make other names.
    assert name_key("Koops, Lambert-Jan") != name_key("Koops, Lambert-Jon")


def test_a_latin_letter_in_a_cyrillic_name_is_folded() -> None:
    from pdn.text.names import differences, name_key, similar_names

    latin_c = "C\u0430довский"  # a Latin C, then Cyrillic letters
    assert name_key(latin_c) == name_key("Садовский") == "sadovskiy"
    assert differences(latin_c, "Садовский") == ["look-alike letters"]
    # Latin capitals that look like Cyrillic ones (H is Н, B is В, P is Р).
    assert name_key("Hикитин") == name_key("Никитин")
    assert name_key("Bасильев") == name_key("Васильев")
    (group,) = similar_names([latin_c, "Садовский", latin_c])
    assert group.preferred == "Садовский"  # the one-script spelling, however rarely used
    # The other way still holds, and a Cyrillic name stays Cyrillic.
    assert name_key("K\u043ek") == "kok" and name_key("Рора") == "rora"


def test_suggest_names_writes_these_aliases(tmp_path: Path) -> None:
    path = tmp_path / "names.pdn"
    games = [("Koops, Lambert-Jan", "Садовский"), ("Koops Lambert Jan", "C\u0430довский")] * 2
    games.append(("Koops Lambert Jan", "Садовский"))
    path.write_text(
        "\n".join(f'[Black "{b}"]\n[White "{w}"]\n1. 11-15 *\n' for b, w in games),
        encoding="utf-8",
    )
    code, out = run("fix", "--suggest-names", str(path))
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["old", "new", "tags", "why"]
    why = "spacing, hyphen or comma; 3 vs 2 games"  # the well-formed spelling kept
    assert ["Koops Lambert Jan", "Koops, Lambert-Jan", "player", why] in rows
    assert ["C\u0430довский", "Садовский", "player", "look-alike letters; 2 vs 3 games"] in rows


@pytest.mark.parametrize(
    "other",
    [
        "Чемпионат Беларуси 2015 (женщины)",
        "Чемпионат Беларуси 2015 women",
        "Чемпионат Беларуси 2015, Juniors",
        "Чемпионат Беларуси 2015 (юниоры)",
        "Чемпионат Беларуси 2015 U-16",
        "Чемпионат Беларуси 2015 (до 16 лет)",
        "Чемпионат Беларуси 2015 girls",
        "Чемпионат Беларуси 2015 veterans",
        "Чемпионат Беларуси 2015 blitz",
    ],
)
def test_an_event_for_other_players_is_never_folded_in(other: str) -> None:
    from pdn.game.model import Tags
    from pdn.text.names import distinct_events, suggest_aliases

    main_event = "Чемпионат Беларуси 2015"
    games = [Tags([("Event", main_event)])] * 5 + [Tags([("Event", other)])] * 2
    assert distinct_events(main_event, other)
    assert suggest_aliases(games) == []
    # A renamed event is still suggested, the words being the same on both sides.
    renamed = [Tags([("Event", other)])] * 5 + [Tags([("Event", other + ", round 2")])]
    assert [group.names for _, group in suggest_aliases(renamed)] == [(other, other + ", round 2")]


def test_the_mens_event_renamed_is_suggested_alone_only() -> None:
    from pdn.game.model import Tags
    from pdn.text.names import suggest_aliases

    games = [Tags([("Event", "Championship 2015")])] * 5
    games += [Tags([("Event", "Championship 2015 (men)")])] * 3
    assert [group.names for _, group in suggest_aliases(games)] == [
        ("Championship 2015", "Championship 2015 (men)")
    ]
    # Beside a women's event the short name may be either (the Belarus 2015 files name both
    # championships so in some rounds): nothing is suggested.
    games += [Tags([("Event", "Championship 2015 (women)")])] * 3
    assert suggest_aliases(games) == []


BELARUS = CORPUS / "jpalaz__Draughts-Games"


@needs_shared(BELARUS)
def test_the_belarus_championships_are_kept_apart() -> None:
    men, women = str(BELARUS / "belarus64M2015"), str(BELARUS / "belarus64W2015")
    for folders in ([women], [men, women]):
        code, out = run("fix", "-r", "--suggest-names", *folders)
        assert code == 0
        assert "женщины" not in out and "мужчины" not in out, out


# ------------------------------------------------- 13. the page says what stderr said


def _repeated(folder: Path) -> str:
    """A file of the tournament and its first five games again, in ``folder``; its name."""
    games = Path(TOURNAMENT).read_text(encoding="utf-8").split("\n\n[Event")
    again = "\n\n[Event".join(games[:5])
    (folder / "twice.pdn").write_text(
        Path(TOURNAMENT).read_text(encoding="utf-8") + "\n" + again + "\n", encoding="utf-8"
    )
    return "twice.pdn"


@pytest.mark.parametrize("fmt", ["html", "markdown"])
def test_the_report_page_states_its_warnings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    monkeypatch.chdir(tmp_path)
    name = _repeated(tmp_path)
    result = CliRunner().invoke(main, ["report", "--format", fmt, name, "-o", "page"])
    assert result.exit_code == 0
    page = (tmp_path / "page").read_text(encoding="utf-8")
    assert "5 repeated games counted again" in result.stderr
    assert "5 repeated games counted again" in page
    assert page.index("Warnings") < page.index("German Open 2004")  # at the top
    # Each repeat, with the file name as given: relative, never the absolute path.
    for line in result.stderr.splitlines()[:5]:
        shown = line.replace("_", "\\_") if fmt == "markdown" else line
        assert shown in page
    assert "twice.pdn:" in page and str(tmp_path) not in page
    # --dedupe: the page says they were counted once.
    result = CliRunner().invoke(main, ["report", "--format", fmt, "--dedupe", name])
    assert "5 repeated games counted once" in result.stdout


def test_a_clean_report_page_has_no_warnings_and_text_keeps_them_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for fmt in ("html", "markdown"):
        result = CliRunner().invoke(main, ["report", "--format", fmt, TOURNAMENT])
        assert result.exit_code == 0 and "Warnings" not in result.stdout
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["report", _repeated(tmp_path)])
    assert "repeated games counted again" in result.stderr
    assert "repeat" not in result.stdout and "Warnings" not in result.stdout


def test_render_chunks_reads_warnings_after_the_records() -> None:
    from pdn.study import tournament as reports

    said: list[str] = []

    def records() -> Iterator[reports.GameRecord]:
        yield reports.record_from_tags({"Event": "E", "Black": "A", "White": "B"})
        said.append("filled while reading")

    page = "".join(reports.render_chunks(reports.iter_reports(records()), "html", warnings=said))
    assert "<li>filled while reading</li>" in page
    assert page.index("filled while reading") < page.index("<h2>E</h2>")


def test_the_viewer_names_files_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "one.pdn").write_text(GAME, encoding="utf-8")
    code, _ = run("view", "games", "-o", "page.html")
    assert code == 0
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "games/one.pdn" in page and str(tmp_path) not in page


# ------------------------------------------------------------------- 16. smaller things


def test_report_on_a_file_that_is_not_pdn_warns_and_exits_one(tmp_path: Path) -> None:
    binary = tmp_path / "image.pdn"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    prose = tmp_path / "notes.pdn"
    prose.write_text("These are my notes,\nnot a game.\n", encoding="utf-8")
    empty = tmp_path / "empty.pdn"
    empty.write_bytes(b"")
    for path in (binary, prose, empty):
        result = CliRunner().invoke(main, ["report", str(path)])
        assert result.exit_code == 1, path
        assert f"{path}:1:1: not-pdn:" in result.stderr
        assert result.stdout == ""  # no report of a "?" event
    # Beside a real file: the report is written, the bad input said in the page, exit 1.
    result = CliRunner().invoke(main, ["report", "--format", "html", str(prose), TOURNAMENT])
    assert result.exit_code == 1
    assert "German Open 2004" in result.stdout
    # The page names the file, not the user's folders (its path is absolute).
    assert f"{prose.name}:1:1: not-pdn: no PDN game in this file" in result.stdout
    assert str(prose) not in result.stdout and f"{prose}:1:1: not-pdn" in result.stderr


def test_openings_stats_says_why_its_table_is_empty() -> None:
    russian = str(EXAMPLES / "russian-setup.pdn")
    result = CliRunner().invoke(main, ["openings", "--stats", russian])
    assert result.exit_code == 0
    assert "the table is empty: no English game among the 1 read (russian 1)" in result.stderr
    result = CliRunner().invoke(main, ["openings", "--stats"], input="1. 11-15 24-20 *\n")
    assert "none of the 1 English games opens with a three-move ballot (short 1)" in (result.stderr)
    result = CliRunner().invoke(main, ["openings", "--stats", TOURNAMENT])
    assert "empty" not in result.stderr  # a table with rows needs no note


def test_csv_games_column_names_are_unique_ignoring_case() -> None:
    import sqlite3

    code, out = run("convert", TOURNAMENT, "--to", "csv-games")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    header = rows[0]
    assert len({name.casefold() for name in header}) == len(header)
    assert header[header.index("Result") + 2] == "pdn_result"
    # As an SQL import reads it (column names compared ignoring case).
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE games (" + ", ".join(f'"{name}"' for name in header) + ")")
    db.executemany(f"INSERT INTO games VALUES ({', '.join('?' * len(header))})", rows[1:])
    assert db.execute("SELECT count(*) FROM games WHERE Result = pdn_result").fetchone() == (15,)
    _, out = run("convert", TOURNAMENT, "--to", "csv-games", "--tags", "Plies,plies,File")
    header = out.splitlines()[0].split(",")
    assert header[:3] == ["pdn_file", "game", "line"]
    assert header[3:6] == ["Plies", "plies_2", "File"]
    assert len({name.casefold() for name in header}) == len(header)


def test_repr_of_a_report_is_one_short_line() -> None:
    import pdn

    game = next(iter(pdn.read_games(TOURNAMENT)))
    report = pdn.validate(game)
    text = repr(report)
    assert "\n" not in text and len(text) < 120
    assert text.startswith("Report(status='ok', variant='english', game=1, line=1, plies=")
    plies = sum(1 for _ in report.mainline_steps())
    assert f"plies={plies}, problems={len(report.all_problems)})" in text
