"""Issue 10, "never lose a byte, never crash, never hang": every item as a user meets it.

Each test runs ``python -m pdn`` in a subprocess, as a shell would, and checks the exit status,
that standard error holds no traceback, and what the files hold afterwards.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

import pytest

pytestmark = pytest.mark.stress

ROOT = Path(__file__).resolve().parents[1]
ILLEGAL = ROOT / "examples" / "illegal-moves.pdn"
TOURNAMENT = ROOT / "examples" / "german-open-2004.pdn"

GAME = '[Event "E"]\n[Round "1"]\n[Black "Ann"]\n[White "Bo"]\n[Result "1-0"]\n\n1. 11-15 *\n'


def pdn(
    *args: str | os.PathLike[str],
    stdin: int | IO[bytes] | None = subprocess.DEVNULL,
    stdout: int | IO[bytes] | None = subprocess.PIPE,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 30,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m pdn ARGS`` and return it finished; standard error is captured."""
    full_env = {**os.environ, **(env or {})}
    if input is not None:
        stdin = None
    return subprocess.run(
        [sys.executable, "-m", "pdn", *map(os.fspath, args)],
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        input=input,
        env=full_env,
        cwd=ROOT,
        timeout=timeout,
        check=False,
    )


def no_traceback(proc: subprocess.CompletedProcess[bytes]) -> str:
    """Standard error as text, after checking it holds no Python traceback."""
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return err


def private_null(folder: Path) -> Path:
    """A device with /dev/null's numbers, to try a writer on before trusting it with the real
    /dev/null (a regression must not turn the machine's /dev/null into a file)."""
    node = folder / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError) as exc:
        pytest.skip(f"cannot create a device node here: {exc}")
    return node


# ------------------------------------------------------ 1. devices, FIFOs and /dev/std* as -o


def test_output_to_a_device_writes_into_it(tmp_path: Path) -> None:
    node = private_null(tmp_path)
    proc = pdn("validate", TOURNAMENT, "-o", node)
    no_traceback(proc)
    assert proc.returncode == 0
    assert stat.S_ISCHR(os.stat(node).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]
    # The private device survived, so the real one may be used.
    proc = pdn("validate", TOURNAMENT, "-o", "/dev/null")
    no_traceback(proc)
    assert proc.returncode == 0
    assert proc.stdout == b""
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_output_to_a_fifo_goes_through_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        proc = pdn("validate", TOURNAMENT, "-o", fifo)
        got = os.read(reader, 1 << 16)
    finally:
        os.close(reader)
    no_traceback(proc)
    assert proc.returncode == 0
    assert b"15 games: 15 clean" in got
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="no /dev/stdout here")
def test_output_to_dev_stdout_appended_to_a_log_keeps_the_log(tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.write_bytes(b"earlier run\n")
    with log.open("ab") as append:  # the shell's ">> log"
        proc = pdn("validate", TOURNAMENT, "-o", "/dev/stdout", stdout=append)
    no_traceback(proc)
    assert proc.returncode == 0
    text = log.read_text()
    assert text.startswith("earlier run\n")
    assert text.endswith(
        "15 games: 15 clean, 0 with errors\n"
        "rules: English draughts / American checkers 15 (a guess from the squares the moves use)\n"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["log"]


# ------------------------------------------------------------ 2. killed in the middle of -o


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_killed_mid_write_leaves_no_temporary_file(tmp_path: Path, signame: str) -> None:
    if not hasattr(signal, signame):
        pytest.skip(f"no {signame} here")
    signum = getattr(signal, signame)
    target = tmp_path / "out.txt"
    target.write_text("previous\n")
    # Standard input stays open and empty: the command has its temporary output open and
    # waits for more games, like a long run.
    child = subprocess.Popen(
        [sys.executable, "-m", "pdn", "validate", "-", "-o", str(target)],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        assert child.stdin is not None
        child.stdin.write(GAME.encode())
        child.stdin.flush()
        for _ in range(750):  # polls, 15 s at most: only a hang runs out of them
            if list(tmp_path.glob(".out.txt.*.tmp")):
                break
            assert child.poll() is None
            time.sleep(0.02)
        else:
            pytest.fail("the temporary file never appeared")
        child.send_signal(signum)
        child.wait(timeout=10)
        assert child.stderr is not None
        assert b"Traceback" not in child.stderr.read()
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signum
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]
    assert target.read_text() == "previous\n"


# --------------------------------------------------------------- 3. a missing output folder


def test_missing_output_folder_names_the_users_path(tmp_path: Path) -> None:
    given = tmp_path / "nowhere" / "x.pdn"
    proc = pdn("validate", TOURNAMENT, "-o", given)
    err = no_traceback(proc)
    assert proc.returncode == 1
    assert str(given) in err
    assert ".tmp" not in err
    assert "does not exist" in err


# ---------------------------------------------- 4. numbers past Python's int-string limit

HUGE = "9" * 5000


def _huge_numbers_file(folder: Path) -> Path:
    games = [
        f'[Event "E"]\n[GameType "{HUGE}"]\n[Black "A"]\n[White "B"]\n[Result "1-0"]\n\n1. 11-15 *',
        f'[Event "E"]\n[FEN "B:W{HUGE}:B1"]\n[Black "A"]\n[White "B"]\n[Result "0-1"]\n\n1. 1-5 *',
        f'[Event "E"]\n[Round "{HUGE}"]\n[Black "B"]\n[White "A"]\n[Result "1-0"]\n\n1. 11-15 *',
        '[Event "E"]\n[Round "2"]\n[Black "B"]\n[White "A"]\n[Result "1-0"]\n\n1. 11-15 *',
    ]
    path = folder / "huge.pdn"
    path.write_text("\n\n".join(games) + "\n")
    return path


@pytest.mark.parametrize(
    ("command", "status"),
    [("validate", 1), ("report", 0), ("openings", 0), ("convert", 0), ("annotate", 0)],
)
def test_huge_numbers_in_tags_are_out_of_range_not_a_crash(
    tmp_path: Path, command: str, status: int
) -> None:
    source = _huge_numbers_file(tmp_path)
    before = source.read_bytes()
    out = tmp_path / "out.txt"
    proc = pdn(command, source, "-o", out)
    no_traceback(proc)
    assert proc.returncode == status
    assert source.read_bytes() == before
    text = out.read_text()
    if command == "validate":
        assert "bad-gametype" in text and "bad-fen" in text and "out of range" in text
    if command == "report":
        # The huge round sorts after round 2 instead of crashing the sort.
        assert text.index("Round 2") < text.index(f"Round {HUGE[:50]}")
    if command == "convert":
        assert HUGE in text  # kept as written, never lost


def test_perft_with_a_huge_fen_square_is_a_usage_error() -> None:
    proc = pdn("perft", "--fen", f"B:W{HUGE}:B1", "1")
    err = no_traceback(proc)
    assert proc.returncode == 2
    assert "out of range" in err
    assert len(err) < 1000


# ------------------------------------------- 5. closed standard streams, a narrow encoding


def _closing(*numbers: int) -> Callable[[], None]:
    """For ``preexec_fn``: the shell's ``<&-`` / ``>&-`` on these descriptors."""

    def close() -> None:
        for number in numbers:
            os.close(number)

    return close


def test_closed_standard_input_is_a_one_line_error() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pdn", "validate", "-"],
        capture_output=True,
        cwd=ROOT,
        preexec_fn=_closing(0),
        timeout=30,
        check=False,
    )
    err = no_traceback(proc)
    assert proc.returncode == 2
    assert err.strip().splitlines() == ["Error: standard input is closed (nothing to read)"]


@pytest.mark.parametrize(
    "args", [("validate", str(ILLEGAL)), ("report", str(TOURNAMENT)), ("perft", "5")]
)
def test_closed_standard_output_is_an_error_not_lost_output(args: tuple[str, ...]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pdn", *args],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        preexec_fn=_closing(1),
        timeout=30,
        check=False,
    )
    err = no_traceback(proc)
    assert proc.returncode == 2
    assert "standard output is closed" in err


def test_closed_standard_output_does_not_matter_with_o(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    proc = subprocess.run(
        [sys.executable, "-m", "pdn", "validate", str(TOURNAMENT), "-o", str(out)],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        preexec_fn=_closing(1),
        timeout=30,
        check=False,
    )
    no_traceback(proc)
    assert proc.returncode == 0
    assert "\n15 games: 15 clean, 0 with errors\n" in out.read_text()


def test_dev_stdout_with_standard_output_closed_is_an_error() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pdn", "validate", str(TOURNAMENT), "-o", "/dev/stdout"],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        preexec_fn=_closing(1),
        timeout=30,
        check=False,
    )
    err = no_traceback(proc)
    assert proc.returncode == 2
    assert "/dev/stdout is closed" in err


CYRILLIC = (
    '[Event "Турнир"]\n[Round "1"]\n[Black "Иванов"]\n[White "Петров"]\n[Result "1-0"]\n\n'
    "1. 11-15 23-19 2. 15-11 *\n"
)


@pytest.mark.parametrize("command", ["validate", "report", "openings"])
def test_cyrillic_names_on_a_cp1252_stream_are_escaped(tmp_path: Path, command: str) -> None:
    source = tmp_path / "cyrillic.pdn"
    source.write_text(CYRILLIC, encoding="utf-8")
    proc = pdn(command, source, env={"PYTHONIOENCODING": "cp1252"})
    no_traceback(proc)
    assert proc.returncode == (1 if command == "validate" else 0)
    assert "\\u0418\\u0432\\u0430\\u043d\\u043e\\u0432" in proc.stdout.decode("cp1252")  # Иванов


# ------------------------------------------------------------------ 6. absurd --jobs values


@pytest.mark.parametrize("copies", [1, 35])  # 12 games (one batch), 420 games (three)
def test_ten_thousand_jobs_gives_the_same_output(tmp_path: Path, copies: int) -> None:
    # (Do not run this one against a pdn without the cap: it forks 10,000 workers. The unit
    # tests in test_batch_hardening.py fail safely on such a pdn instead.)
    source = tmp_path / "games.pdn"
    source.write_text("\n".join([ILLEGAL.read_text()] * copies))
    one = pdn("validate", source, "--jobs", "1")
    # The timeout only stops a hang; that the pool is capped is counted in
    # test_batch_hardening.py.
    many = pdn("validate", source, "--jobs", "10000", timeout=60)
    no_traceback(many)
    assert many.returncode == one.returncode == 1
    assert many.stdout == one.stdout
    games = 12 * copies
    assert f"{games} games: 0 clean, {games} with errors".encode() in many.stdout


# ---------------------------------------------------- 7. one event with 2,000 players


def _open_event_pdn(folder: Path, players: int = 2000) -> Path:
    results = ("1-0", "0-1", "1/2-1/2")
    pairs = [(i, i + 1) for start in (0, 1) for i in range(start, players - 1, 2)]
    games = [
        f'[Event "Open"]\n[Round "{1 + i % 2}"]\n[Black "P{i:04d}"]\n[White "P{j:04d}"]\n'
        f'[Result "{results[n % 3]}"]\n\n{results[n % 3]}\n'
        for n, (i, j) in enumerate(pairs)
    ]
    path = folder / "open.pdn"
    path.write_text("\n".join(games))
    return path


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "json", "csv"])
def test_report_of_two_thousand_players_stays_small(tmp_path: Path, fmt: str) -> None:
    source = _open_event_pdn(tmp_path)
    out = tmp_path / f"report.{fmt}"
    table = ["--table", "crosstable"] if fmt == "csv" else []
    proc = pdn("report", "--no-openings", "--format", fmt, *table, source, "-o", out)
    no_traceback(proc)
    assert proc.returncode == 0
    text = out.read_text()
    assert len(text) < 3_000_000  # a 2,000 x 2,000 grid was 22 MB of text, 85 MB of HTML
    if fmt in ("text", "markdown", "html"):
        assert "2,000 players are too many for a grid" in text
    if fmt == "csv":
        assert len(text.splitlines()) == 1 + 2 * 1999  # every pair that met, both ways


# ---------------------------------------------------------- 8. terminal escape injection

RAW_CONTROLS = [b"\x1b", b"\x07", b"\x08", b"\xc2\x9b", "\u202e".encode()]  # \x9b as UTF-8
EVIL = (
    '[Event "Open\x1b]0;owned\x07\u202e"]\n[Round "1"]\n[Black "Ann\x1b[2J\x08"]\n'
    '[White "Bo\x9b31m"]\n[Result "1-0"]\n\n1. 11-15 23-19 2. 15-11 *\n'
)


@pytest.mark.parametrize(
    "args",
    [
        ("validate",),
        ("report",),
        ("report", "--format", "markdown"),
        ("report", "--format", "csv", "--table", "games"),
        ("report", "--format", "html"),
        ("openings",),
        ("openings", "--format", "csv"),
        ("openings", "--format", "markdown"),
    ],
)
def test_control_characters_in_tags_never_reach_the_terminal(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    source = tmp_path / "evil.pdn"
    source.write_text(EVIL, encoding="utf-8")
    before = source.read_bytes()
    proc = pdn(*args, source)
    no_traceback(proc)
    assert proc.returncode == (1 if args[0] == "validate" else 0)
    for raw in RAW_CONTROLS:
        assert raw not in proc.stdout, (raw, proc.stdout)
    assert b"x1b" in proc.stdout  # shown, as \x1b (doubled backslash in Markdown)
    assert source.read_bytes() == before


def test_pdn_output_keeps_control_characters_byte_for_byte(tmp_path: Path) -> None:
    # Escaping is for display: converting PDN to PDN must lose nothing.
    source = tmp_path / "evil.pdn"
    source.write_text(EVIL, encoding="utf-8")
    proc = pdn("convert", source)
    no_traceback(proc)
    assert b"Ann\x1b[2J\x08" in proc.stdout


# ------------------------------------------------------------- 9. CSV formula injection

FORMULAS = (
    '[Event "=HYPERLINK(""http://evil"",""x"")"]\n[Round "-"]\n[Black "@SUM(A1:A9)"]\n'
    '[White "+1+cmd|x"]\n[Result "0-1"]\n\n1. 11-15 23-19 8-11 *\n\n'
    '[Event "=HYPERLINK(""http://evil"",""x"")"]\n[Round "2"]\n[Black "+1+cmd|x"]\n'
    '[White "-2+3"]\n[Result "1-0"]\n\n1. 11-15 23-19 8-11 *\n'
)


def _csv_rows(data: bytes) -> list[dict[str, str]]:
    import csv
    import io

    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


@pytest.mark.parametrize("table", ["standings", "games", "crosstable"])
def test_report_csv_cells_cannot_start_a_formula(tmp_path: Path, table: str) -> None:
    source = tmp_path / "formulas.pdn"
    source.write_text(FORMULAS, encoding="utf-8")
    out = tmp_path / "out.csv"
    args = ("report", "--format", "csv", "--table", table, "--points", "1,0,-1")
    proc = pdn(*args, source, "-o", out)
    no_traceback(proc)
    assert proc.returncode == 0
    rows = _csv_rows(out.read_bytes())
    assert rows
    for row in rows:
        for key, cell in row.items():
            plain_number = cell.lstrip("+-").replace(".", "", 1).isdigit()
            assert (
                not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
                or plain_number
                or (key == "round" and cell == "-")
            ), (key, cell)
    if table == "standings":
        assert "-1" in {row["points"] for row in rows}  # a number, left as it is
        assert "'@SUM(A1:A9)" in {row["player"] for row in rows}
    if table == "games":
        assert sorted(row["result"] for row in rows) == ["0-1", "1-0"]  # left as they are


def test_openings_csv_cells_cannot_start_a_formula(tmp_path: Path) -> None:
    source = tmp_path / "formulas.pdn"
    source.write_text(FORMULAS, encoding="utf-8")
    proc = pdn("openings", "--format", "csv", source)
    no_traceback(proc)
    assert proc.returncode == 0
    rows = _csv_rows(proc.stdout)
    assert [row["black"] for row in rows] == ["'@SUM(A1:A9)", "'+1+cmd|x"]
    assert [row["white"] for row in rows] == ["'+1+cmd|x", "'-2+3"]
    assert all(row["event"].startswith("'=HYPERLINK(") for row in rows)


def test_csv_rule_is_documented_in_help() -> None:
    for command in ("report", "openings"):
        proc = pdn(command, "--help")
        assert proc.returncode == 0
        assert b"gets a ' in front" in proc.stdout


# ---------------------------------------------- data loss in reading (the reader's items)


def test_a_stray_nul_is_reported_and_the_file_kept_in_place(tmp_path: Path) -> None:
    path = tmp_path / "f.pdn"
    original = TOURNAMENT.read_bytes()
    at = original.index(b"1. ")
    path.write_bytes(original[:at] + b"\x00" + original[at:])
    # In place (-o naming the one FILE is --in-place): the U+FFFD would be new: refused.
    proc = pdn("convert", "--in-place", path, "-o", path)
    err = no_traceback(proc)
    assert proc.returncode == 1 and "left as it is" in err
    assert path.read_bytes() == original[:at] + b"\x00" + original[at:]
    copy = tmp_path / "copy.pdn"
    proc = pdn("convert", path, "-o", copy)
    err = no_traceback(proc)
    assert proc.returncode == 0
    rewritten = copy.read_bytes()
    assert b"\x00" not in rewritten  # the NUL is damage, shown as U+FFFD in a comment
    games = list(_read(rewritten))
    assert [g.mainline_moves() for g in games] == [g.mainline_moves() for g in _read(original)]
    assert "NUL byte at" in err  # the damage is said, where it is (issue 33)
    assert pdn("validate", copy).returncode == 0  # and our own output reads back clean


def test_nul_damage_has_its_offset(tmp_path: Path) -> None:
    import pdn as library

    (game,) = library.parse_games(b'[Event "x"]\n1. 11-15 \x00 23-19 *\n')
    (nul,) = [p for p in game.errors if p.code == "encoding"]
    assert "NUL byte at 2:10 (byte offset 21)" in nul.message
    assert game.mainline_moves() == ["11-15", "23-19"]
    # What we write, we read back: no NUL ever reaches the output.
    assert library.parse_game(library.write_game(game)) == game


def test_a_binary_file_is_never_replaced_in_place(tmp_path: Path) -> None:
    path = tmp_path / "image.pdn"
    data = bytes(range(256)) * 20
    path.write_bytes(data)
    for command in ("convert", "annotate"):
        proc = pdn(command, "--in-place", path, "-o", path)
        err = no_traceback(proc)
        assert proc.returncode != 0 and "binary" in err and "left as it is" in err
        assert path.read_bytes() == data


def test_a_huge_nag_and_ten_thousand_errors_keep_the_movetext(tmp_path: Path) -> None:
    path = tmp_path / "f.pdn"
    junk = " ".join(")" for _ in range(10_050))
    path.write_text(f"1. 11-15 $9{'9' * 4300} 23-19 {junk} 2. 8-11 *\n", encoding="utf-8")
    proc = pdn("convert", path)
    err = no_traceback(proc)
    out = proc.stdout.decode()
    assert "11-15" in out and "23-19" in out and "8-11" in out and "$9999" in out
    assert "more reading errors in this game" in err


def _read(data: bytes) -> list[Any]:
    import pdn as library

    return list(library.parse_games(data))


def test_unbalanced_parentheses_by_the_ten_thousand_keep_the_moves(tmp_path: Path) -> None:
    path = tmp_path / "open.pdn"
    path.write_text("1. 11-15 " + "(" * 40_000 + " 23-19 *\n", encoding="utf-8")
    proc = pdn("convert", path, timeout=60)
    err = no_traceback(proc)
    assert proc.returncode == 0 and b"11-15" in proc.stdout and b"23-19" in proc.stdout
    assert "unclosed-variation" in err and "more reading errors" in err


def test_variations_nested_thousands_deep_convert_to_json_and_validate(tmp_path: Path) -> None:
    path = tmp_path / "deep.pdn"
    depth = 3000
    path.write_text("1. 11-15 " + "(9-13 24-20 " * depth + ")" * depth + " *\n", encoding="utf-8")
    out = tmp_path / "deep.ndjson"
    proc = pdn("convert", "--to", "ndjson", path, "-o", out, timeout=60)
    no_traceback(proc)
    assert proc.returncode == 0
    back = pdn("convert", out, timeout=60)
    no_traceback(back)
    assert back.stdout.count(b"9-13") == depth
    verdict = pdn("validate", "--format", "ndjson", path, timeout=60)
    no_traceback(verdict)
    assert b"internal-error" not in verdict.stdout


def test_a_long_single_line_is_read_in_bounded_pieces(tmp_path: Path) -> None:
    # A game of 3 MB on one line is longer than the reader keeps of a game: it is read up to
    # MAX_GAME_CHARS (one game, never pieces of it taken for games) and the error says so;
    # the game after it is read whole.
    path = tmp_path / "line.pdn"
    words = " ".join(f"{n}. 11-15 23-19" for n in range(1, 160_001))  # about 3 MB, one line
    path.write_text('[Event "long"] ' + words + ' * [Event "next"] 1. 9-13 *', encoding="utf-8")
    proc = pdn("convert", path, timeout=120)
    err = no_traceback(proc)
    assert proc.returncode == 1  # written, but less than was read: the status says so
    assert 0 < proc.stdout.count(b"11-15") < 160_000
    assert proc.stdout.count(b"[Event ") == 2 and b"9-13" in proc.stdout
    assert "game-too-long" in err


def test_a_utf8_file_with_latin1_lines_is_not_misread(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_bytes(
        '[Event "Zürich"]\n1. 11-15 *\n\n'.encode()
        + '[Event "Genève"]\n1. 9-13 *\n'.encode("latin-1")
    )
    proc = pdn("validate", path)
    out = proc.stdout.decode()
    no_traceback(proc)
    assert "Zürich" not in out  # the first game is clean, so not listed
    assert f"{path}:4:12: encoding: byte E8" in out
    converted = pdn("convert", path).stdout.decode()
    assert "Zürich" in converted and "Z\u0413\u0458rich" not in converted  # not cp1251


def test_a_fifo_as_input_is_read_whole(tmp_path: Path) -> None:
    # Telling JSON from PDN must not peek into a FIFO: what is read there is gone.
    import threading

    fifo = tmp_path / "in.pdn"
    os.mkfifo(fifo)
    data = TOURNAMENT.read_bytes()

    def feed() -> None:
        with open(fifo, "wb") as writer:
            writer.write(data)

    feeder = threading.Thread(target=feed)
    feeder.start()
    proc = pdn("validate", fifo, timeout=60)
    feeder.join(timeout=60)
    no_traceback(proc)
    assert b"15 games: 15 clean" in proc.stdout
