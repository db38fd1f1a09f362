"""Issue 22, items 5 and 6: JSON input checked as strictly as PDN text, well-formed SVG whatever a
name holds, viewer ids and policy, and ``read_game`` given a path.

The command-line tests run ``python -m pdn`` in a subprocess, as a shell would, and check the
exit status and that standard error holds no traceback.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from test_viewer_browser import driver as browser  # noqa: F401 (chromium, a fixture)

import pdn
from pdn.collections.batch import iter_games
from pdn.engine import ENGLISH, Position
from pdn.reading.reader import read_game
from pdn.view.viewer import game_html, render_html, view_game
from pdn.writing.diagram import svg_board
from pdn.writing.jsonio import (
    SCHEMA,
    JsonError,
    game_from_dict,
    game_to_dict,
    loads,
    read_json_games,
)
from pdn_engine.picture import xml_text

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT = ROOT / "examples" / "german-open-2004.pdn"


def run(*args: str | os.PathLike[str], cwd: Path = ROOT) -> tuple[int, str, str]:
    """``python -m pdn ARGS``: exit status, standard output, standard error (no traceback)."""
    done = subprocess.run(
        [sys.executable, "-m", "pdn", *map(os.fspath, args)],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        timeout=60,
        check=False,
    )
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return done.returncode, done.stdout.decode("utf-8", "replace"), err


def record(**changes: Any) -> dict[str, Any]:
    """A game record as convert writes one, with ``changes`` made."""
    game = pdn.parse_game(
        '{before} [Event "E"]\n[White "Ann"]\n{after tags} 1. 11-15 {good} (9-13 $2) 23-19 !? *'
    )
    data = game_to_dict(game)
    data.update(changes)
    return data


def ndjson(*records: object) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def read(text: str) -> list[pdn.Game]:
    return list(read_json_games(io.StringIO(text)))


def errors(game: pdn.Game) -> list[str]:
    return [f"{p.code}: {p.message}" for p in game.errors if p.severity == "error"]


# --- every field: refused, or written as PDN that reads back equal ---------------------------

HOSTILE = [
    "}",
    "a } b",
    "a\nb",
    "a\rb",
    "a\r\nb",
    '"]\n[Event "injected"]\n1. 9-13 *\n[Event "x',
    '\n[Event "y"]',
    "[Event ...",
    "a\\",
    'a\\"b',
    '"',
    "a{b",
    ";x",
    "%x",
    "*",
    "1-0",
    " 1-0 ",
    '1-0\n\n[Event "z"]\n1. 9-13 *',
    "(",
    ")",
    "$1",
    "",
    " ",
    "\u201cq\u201d",
    "11-15 23-19",
    "11-15 {c}",
    "1. ...",
    '/FEN "x"/',
    "\ufeff",
    "\x00",
]


def _mutations() -> list[tuple[str, Any]]:
    def tag_name(d: dict[str, Any], v: str) -> None:
        d["tags"][0][0] = v

    def tag_name_inside(d: dict[str, Any], v: str) -> None:
        d["tags"][0][0] = "Ev" + v + "ent"

    def tag_value(d: dict[str, Any], v: str) -> None:
        d["tags"][0][1] = v

    def terminator(d: dict[str, Any], v: str) -> None:
        d["terminator"] = v

    def move(d: dict[str, Any], v: str) -> None:
        d["moves"][1]["move"] = v

    def number(d: dict[str, Any], v: str) -> None:
        d["moves"][0]["number"] = v

    def strength(d: dict[str, Any], v: str) -> None:
        d["moves"][1]["strength"] = v

    def setup(d: dict[str, Any], v: str) -> None:
        d["moves"].insert(0, {"setup": v})

    def comment(kind: str, place: str) -> Any:
        def change(d: dict[str, Any], v: str) -> None:
            entry = {"text": v, "kind": kind}
            if place == "after move":
                d["moves"][0]["comments_after"] = [entry]
            else:
                d[place] = [entry]

        return change

    found: list[tuple[str, Any]] = [
        ("tag name", tag_name),
        ("tag name inside", tag_name_inside),
        ("tag value", tag_value),
        ("terminator", terminator),
        ("move", move),
        ("number", number),
        ("strength", strength),
        ("setup", setup),
    ]
    for kind in ("brace", "line", "percent"):
        for place in ("comments_before_tags", "comments", "after move"):
            found.append((f"{kind} comment {place}", comment(kind, place)))
    return found


@pytest.mark.parametrize(("field", "mutate"), _mutations(), ids=[m[0] for m in _mutations()])
def test_a_field_is_refused_or_reads_back_equal_from_pdn(field: str, mutate: Any) -> None:
    refused = 0
    for value in HOSTILE:
        data = record()
        mutate(data, value)
        try:
            game = game_from_dict(json.loads(json.dumps(data)))
        except JsonError as exc:
            refused += 1
            assert str(exc), value
            continue
        # Written between two other games: nothing may leak into them, nothing may be lost.
        text = '[Event "first"]\n1. 9-13 *\n\n' + pdn.write_game(game)
        text += '\n[Event "last"]\n1. 10-14 *\n'
        again = list(pdn.parse_games(text))
        assert len(again) == 3, (field, value, text)
        assert again[1] == game, (field, value, text)
        assert again[0].tags.get("Event") == "first" and again[2].tags.get("Event") == "last"
    assert refused, field  # every field has hostile values to refuse


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Any:
    yield path
    if isinstance(value, (dict, list)):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, inner in items:
            yield from _paths(inner, (*path, key))


def test_any_field_of_any_type_is_refused_with_a_json_error_or_read() -> None:
    # Every place of a record, given every JSON type: no other exception, and what is read
    # writes as PDN and JSON.
    values = [None, 0, -1, 1.5, True, "", "x", [], {}, [1], ["a"], [["a", "b"]], [{}], [[]]]
    values += [{"text": 1}, [{"text": "a", "kind": "x"}], loads(f"[{'9' * 4400}]")[0]]
    base = record(moves=[{"setup": "W:W21:B1"}, *record()["moves"]])
    refused = 0
    for path in list(_paths(base))[1:]:
        for value in values:
            data = copy.deepcopy(base)
            target = data
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
            try:
                game = game_from_dict(data)
            except JsonError:
                refused += 1
                continue
            assert pdn.write_game(game) and json.dumps(game_to_dict(game))
    assert refused > 100


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def test_a_deeply_nested_or_huge_value_anywhere_gives_a_short_message() -> None:
    # Issue 33: the message about a value was built with repr(), which recursed to the bottom
    # of a value nested thousands deep (RecursionError) and copied megabytes of a long one.
    deep = _nested(50_000)
    hostile = [deep, {"move": deep}, "x" * 200_000 + "\n", ["x" * 200_000], list(range(100_000))]
    base = record(moves=[{"setup": "W:W21:B1"}, *record()["moves"]])
    said = 0
    for path in list(_paths(base))[1:]:
        for value in hostile:
            data = copy.deepcopy(base)
            target = data
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
            try:
                game_from_dict(data)
            except JsonError as exc:
                said += 1
                assert len(str(exc)) < 400, (path, str(exc)[:500])
    assert said > 100


def test_a_deeply_nested_move_through_the_commands(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pdn.cli import main

    path = tmp_path / "deep.json"
    deep = '{"schema": "pdn-json/1", "moves": [{"move": ' + "[" * 100_000 + "]" * 100_000
    path.write_text(ndjson(record()) + deep + "}]}\n" + ndjson(record()), encoding="utf-8")
    for args in (["validate"], ["select", "--count"], ["convert"], ["convert", "--to", "json"]):
        result = CliRunner().invoke(main, [*args, str(path)])
        assert not isinstance(result.exception, Exception), (args, result.exception)
        said = result.output if args[0] == "validate" else result.stderr
        assert max(map(len, said.splitlines()), default=0) < 400, args
        if args[0] != "select":
            assert "2:1: syntax-error: move [[[[[[" in said, args
    result = CliRunner().invoke(main, ["select", "--count", str(path)])
    assert result.stdout.strip() == "3"


def test_the_issue_s_records_are_refused_with_a_message_and_the_rest_goes_on() -> None:
    bad = [
        record(comments=[{"text": "a } b", "kind": "brace"}]),
        record(comments=[{"text": 'x\n[Event "y"]', "kind": "line"}]),
        record(tags=[['Event"]\n[Black', "x"]]),
        record(tags=[["Event", "x"]], terminator='*\n\n[Event "injected"]\n1. 9-13 *'),
    ]
    games = read(ndjson(record(), *bad, record()))
    assert len(games) == 6
    assert not errors(games[0]) and not errors(games[-1])
    assert games[0] == games[-1] == game_from_dict(record())
    said = [errors(g) for g in games[1:-1]]
    assert all(len(e) == 1 and e[0].startswith("syntax-error") for e in said), said
    assert "'}'" in said[0][0] and "line break" in said[1][0]
    assert "tag name" in said[2][0] and "terminator" in said[3][0]
    assert [p.line for g in games[1:-1] for p in g.errors] == [2, 3, 4, 5]


def test_injected_games_never_reach_the_pdn_written(tmp_path: Path) -> None:
    path = tmp_path / "in.ndjson"
    path.write_text(
        ndjson(
            record(),
            record(tags=[['Event"]\n[Event "injected', "x"]]),
            record(terminator='*\n\n[Event "injected"]\n1. 9-13 *'),
            record(moves=[{"move": '11-15 *\n[Event "injected"]'}]),
        ),
        encoding="utf-8",
    )
    code, out, err = run("convert", path)
    assert "injected" not in out
    assert len(list(pdn.parse_games(out))) == 1
    assert err.count("syntax-error") == 3 and f"{path}:4:1:" in err
    assert code in (0, 1)


# --- integers too long to read ----------------------------------------------------------------


@pytest.mark.parametrize("where", ["index", "line", "nag", "unknown field", "in a document"])
def test_an_integer_of_thousands_of_digits_is_a_message_for_its_record(where: str) -> None:
    huge = "9" * 4400
    good = json.dumps(record())
    if where == "nag":
        bad = good.replace('"nags": [2]', f'"nags": [{huge}]')
    elif where == "unknown field":
        bad = good.replace('"type"', f'"extra": -{huge}, "type"')
    else:
        bad = good.replace(f'"{where}": 1,', f'"{where}": {huge},')
    assert bad != good or where == "in a document"
    if where == "in a document":
        doc = {"schema": SCHEMA, "type": "games", "games": [record(), {"x": 1}, record()]}
        text = json.dumps(doc).replace('{"x": 1}', good.replace('"index": 1', f'"index": {huge}'))
    else:
        text = f"{good}\n{bad}\n{good}\n"
    games = read(text)
    assert len(games) == 3
    assert games[0] == games[2] == game_from_dict(record())
    if where == "unknown field":  # not read, so not refused
        assert games[1] == games[0] and not errors(games[1])
        return
    (message,) = errors(games[1])
    assert "4400 digits" in message, message


# --- lone surrogates: every command that reads JSON -------------------------------------------

COMMANDS: list[tuple[str, ...]] = [
    ("validate",),
    ("convert",),
    ("convert", "--to", "json"),
    ("select", "--min-plies", "0"),
    ("dedupe",),
    ("report",),
    ("openings",),
    ("annotate",),
    ("fix", "--dates"),
    ("view", "-o", "{out}/view.html"),
    ("show",),
    ("split", "--by", "event", "-o", "{out}/split"),
    ("diagram", "--plies", "0,1", "-o", "{out}/diagrams"),
]


def _surrogate_file(folder: Path) -> Path:
    # "\ud800" is valid JSON (an escape), but no text: a tag value, a player, a comment.
    path = folder / "surrogates.ndjson"
    text = ndjson(
        record(),
        record(tags=[["Event", "\ud800"], ["White", "A\udfffB"]]),
        record(comments=[{"text": "x\udc80", "kind": "brace"}]),
    )
    assert "\\ud800" in text
    path.write_text(text, encoding="ascii")
    return path


def test_a_lone_surrogate_becomes_u_fffd_with_a_warning(tmp_path: Path) -> None:
    games = list(iter_games(_surrogate_file(tmp_path)))
    assert len(games) == 3
    assert games[1].tags.get("Event") == "\ufffd" and games[1].tags.get("White") == "A\ufffdB"
    assert [c.text for c in games[2].root.comments_after] == ["x\ufffd"]
    warned = [p for g in games for p in g.errors]
    assert [(p.code, p.severity, p.line) for p in warned] == [
        ("encoding", "warning", 2),
        ("encoding", "warning", 2),
        ("encoding", "warning", 3),
    ]
    assert "\\ud800" in warned[0].message and "U+FFFD" in warned[0].message


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_every_command_reads_lone_surrogates_without_a_traceback(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    path = _surrogate_file(tmp_path)
    args = [a.format(out=tmp_path) for a in command]
    code, out, _ = run(*args, path)
    assert code in (0, 1)
    if command[0] in ("convert", "annotate", "fix", "select") and "json" not in command:
        assert "\ufffd" in out and len(list(pdn.parse_games(out))) >= 2
    if command[0] == "validate":
        assert "lone surrogate" in out


# --- documents that are not games ---------------------------------------------------------------


def test_a_json_document_that_is_not_games_is_an_error(tmp_path: Path) -> None:
    verdicts = tmp_path / "verdicts.json"
    verdicts.write_text(run("validate", "--format", "json", TOURNAMENT)[1], encoding="utf-8")
    verdict_lines = tmp_path / "verdicts.ndjson"
    verdict_lines.write_text(run("validate", "--format", "ndjson", TOURNAMENT)[1], "utf-8")
    other = tmp_path / "other.json"
    other.write_text('{"hello": [1, 2]}', encoding="utf-8")
    for path in (verdicts, verdict_lines, other):
        (game,) = read(path.read_text(encoding="utf-8"))
        assert [p.code for p in game.errors] == ["not-pdn"]
        code, out, _ = run("validate", path)
        assert code == 1 and "not-pdn" in out and "not game records" in out
        code, out, err = run("convert", path)
        assert out == "" and f"{path}:1:1: not-pdn: this is " in err
        # As for a binary PDN file: said, no game, exit status 1.
        for command in (["select", "--min-plies", "0"], ["dedupe"]):
            code, out, err = run(*command, path)
            assert (code, out) == (1, "") and f"{path}:1:1: not-pdn" in err
        code, _, err = run("split", "--by", "event", path, "-o", tmp_path / "split")
        assert code == 1 and "not-pdn" in err and not list((tmp_path / "split").glob("*.pdn"))
    assert "pdn validate report" in run("convert", verdicts)[2]


def _document(records: list[str]) -> str:
    # The layout pdn convert --to json writes.
    return f'{{"schema": "{SCHEMA}", "type": "games", "games": [\n' + ",\n".join(records) + "\n]}\n"


def test_a_games_document_is_read_record_by_record_with_each_record_s_line() -> None:
    good = json.dumps(record())
    text = _document([good, good[:40], good.replace('"index": 1', '"index": -1'), good])
    games = read(text)
    assert len(games) == 4 and games[0] == games[3] == game_from_dict(record())
    assert [(p.line, p.message.split(":")[0]) for g in games for p in g.errors] == [
        (3, "not valid JSON"),
        (4, "index must be a positive integer, not -1 (at 4"),
    ]
    assert errors(read(text[: text.rindex("]}")])[-1])[0].endswith("closing ']}' (at 5:1)")
    assert "after the end" in errors(read(text + "[1]\n")[-1])[0]
    # Laid out otherwise (indented), the same document is read whole, to the same games.
    whole = {"schema": SCHEMA, "type": "games", "games": [record(), record()]}
    assert read(json.dumps(whole, indent=2)) == read(_document([good, good]))


def test_reading_a_games_document_takes_memory_of_one_record_not_of_the_file(
    tmp_path: Path,
) -> None:
    import tracemalloc

    good = json.dumps(record())
    read(_document([good]))  # the first read's one-time costs (the grammar) are not the file's
    peaks = []
    for count in (100, 1600):
        path = tmp_path / f"{count}.json"
        path.write_text(_document([good] * count), encoding="utf-8")
        tracemalloc.start()
        with path.open(encoding="utf-8") as handle:
            assert sum(1 for _ in read_json_games(handle)) == count
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    # Sixteen times the games, not sixteen times the memory (the margin is the collector's:
    # a game's nodes form cycles, freed when it runs).
    assert peaks[1] < peaks[0] * 3, peaks


def test_a_single_record_over_several_lines_is_read(tmp_path: Path) -> None:
    (game,) = read(json.dumps(record(), indent=2))
    assert game == game_from_dict(record()) and not errors(game)


# --- SVG that any XML parser reads ------------------------------------------------------------

NAMES = ["A\ufffeB", "C\uffffD", "E\x01F\x0bG", "H\ud800I", "<&>\"'", "\x1b[31m", "\u202eJ"]


def test_xml_text_writes_what_xml_forbids_visibly() -> None:
    for name in NAMES:
        text = xml_text(name)
        element = ET.fromstring(f"<t a='{text}'>{text}</t>")
        assert element.text == element.get("a")
    assert xml_text("A\ufffeB\x01") == "A\\ufffeB\\x01"


@pytest.mark.parametrize("name", NAMES)
def test_svg_with_a_hostile_caption_is_well_formed(name: str) -> None:
    svg = svg_board(Position.start(ENGLISH), caption=f"{name} - x")
    root = ET.fromstring(svg)
    (caption,) = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class")]
    assert caption.text is not None and caption.text.endswith(" - x")
    assert "\ufffe" not in caption.text and "\uffff" not in caption.text


def test_diagram_command_writes_well_formed_svg_and_png_for_hostile_names(tmp_path: Path) -> None:
    pgn = tmp_path / "names.pdn"
    tags = "".join(
        f'[White "{a}"]\n[Black "{b}"]\n[Event "{a}{b}"]\n1. 11-15 23-19 *\n\n'
        for a, b in zip(NAMES[::2], NAMES[1::2], strict=False)
    )
    pgn.write_text(tags, encoding="utf-8", errors="surrogatepass")
    code, _, _ = run("diagram", "--plies", "0,2", pgn, "-o", tmp_path / "svg")
    assert code == 0
    written = sorted((tmp_path / "svg").glob("*.svg"))
    assert len(written) == 6
    for path in written:
        ET.parse(path)
    code, _, _ = run("diagram", "--sheet", "--plies", "1", pgn, "-o", tmp_path / "sheet")
    assert code == 0 and "\\ufffe" in (tmp_path / "sheet" / "sheet.html").read_text("utf-8")
    pytest.importorskip("cairosvg", reason="cairosvg (the png extra) is not installed")
    code, _, _ = run("diagram", "--png", "--plies", "1", pgn, "-o", tmp_path / "png")
    pngs = sorted((tmp_path / "png").glob("*.png"))
    assert code == 0 and len(pngs) == 3
    assert all(p.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for p in pngs)


# --- the viewer -------------------------------------------------------------------------------

_IDS = re.compile(r'class="pdn-viewer" id="(pdnv-[0-9]+)"')


def test_fragments_of_two_processes_never_share_an_id() -> None:
    script = (
        "import pdn; from pdn.view.viewer import game_html; "
        "print(game_html(pdn.parse_game('1. 11-15 *')))"
    )
    ids = set()
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
        )
        ids.update(_IDS.findall(done.stdout))
    game = pdn.parse_game("1. 11-15 *")
    ids.update(_IDS.findall(game_html(game)) + _IDS.findall(game_html(game)))
    assert len(ids) == 4


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_page_has_a_policy_that_allows_only_its_own_script_and_style() -> None:
    page = render_html([view_game(pdn.parse_game('[White "<b>"] 1. 11-15 *'), "-")])
    found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    assert found is not None and page.index(found.group()) < page.index("<style>")
    policy = dict(part.strip().split(" ", 1) for part in found.group(1).split(";"))
    assert policy["default-src"] == "'none'"
    (style,) = re.findall(r"<style>(.*?)</style>", page, re.S)
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1 and "PdnViewer.mount" in scripts[0]
    assert policy["style-src"] == _hash(style) and policy["script-src"] == _hash(scripts[0])
    # The data blocks are not run, and no other script is in the page.
    assert page.count("<script") == 3
    fragment = game_html(pdn.parse_game("1. 11-15 *"))
    assert "Content-Security-Policy" not in fragment  # a notebook page has its own


@pytest.mark.browser
def test_the_page_runs_under_its_policy_in_a_browser(
    browser: Any,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
) -> None:
    # Needs chromium (see test_viewer_browser.py); a page whose script hash is wrong is the
    # control: the policy is enforced, so the right hash is what lets the viewer run.
    page = render_html([view_game(pdn.parse_game('[White "Ann"] 1. 11-15 23-19 *'), "x")])
    tampered = re.sub(r"script-src '[^']*'", "script-src 'sha256-AAAA'", page)
    built = []
    for name, text in (("page", page), ("tampered", tampered)):
        path = tmp_path / f"{name}.html"
        path.write_text(text, encoding="utf-8")
        browser.get(path.as_uri())
        script = "return document.querySelector('.pdn-viewer').querySelectorAll('*').length"
        built.append(browser.execute_script(script))  # what the viewer's script built
        logs = [entry["message"] for entry in browser.get_log("browser")]
        violations = [m for m in logs if "Content Security Policy" in m]
        assert bool(violations) == (name == "tampered"), logs
    assert built[0] > 0 and built[1] == 0


# --- read_game given a path -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "advice"),
    [
        ("games.pdn", "read_games(path)"),
        (Path("games.pdn"), "read_games(path)"),
        (b"1. 11-15 *", "parse_game"),
        (None, "read_games"),
    ],
)
def test_read_game_says_it_wants_an_open_file(value: Any, advice: str) -> None:
    with pytest.raises(TypeError, match="wants an open file") as raised:
        read_game(value)
    assert advice in str(raised.value) and "weak" not in str(raised.value)


def test_read_game_still_reads_open_files() -> None:
    handle = io.StringIO("1. 11-15 *\n1. 9-13 *\n")
    first, second = read_game(handle), read_game(handle)
    assert first is not None and second is not None and read_game(handle) is None
    assert [first.mainline_moves(), second.mainline_moves()] == [["11-15"], ["9-13"]]


def test_records_read_back_keep_every_field_of_a_real_file() -> None:
    # The checks refuse nothing the PDN reader gives (here: a whole tournament, through JSON).
    games = list(pdn.read_games(TOURNAMENT))
    again = [game_from_dict(copy.deepcopy(game_to_dict(g))) for g in games]
    assert again == games and len(games) > 10


def test_records_without_type_are_games_in_every_layout(tmp_path: Path) -> None:
    # docs/json.md: `type`, when present, is "game"; NDJSON and a lone record read alike.
    plain = {k: v for k, v in record().items() if k != "type"}
    lines = tmp_path / "games.ndjson"
    lines.write_text(ndjson(plain, plain), encoding="utf-8")
    assert [len(g.errors) for g in read_json_games(lines.open(encoding="utf-8"))] == [0, 0]
    one = tmp_path / "one.json"
    one.write_text(json.dumps(plain, indent=2), encoding="utf-8")
    assert len(list(read_json_games(one.open(encoding="utf-8")))) == 1


def test_read_games_reads_pdns_json_as_json_records(tmp_path: Path) -> None:
    # Issue 33: pdn.read_games read a JSON file as PDN text (junk words, no move); it now tells
    # JSON as the commands do, by the name or by the first bytes, from a path or an open file.
    games = list(pdn.read_games(TOURNAMENT))
    document = tmp_path / "games.json"
    named_pdn = tmp_path / "records.pdn"  # told by its first bytes
    for path, to in ((document, "json"), (named_pdn, "ndjson")):
        code, _, _ = run("convert", "--to", to, TOURNAMENT, "-o", path)
        assert code == 0
    expected = [pdn.write_game(game) for game in games]
    assert [pdn.write_game(g) for g in pdn.read_games(document)] == expected
    assert [pdn.write_game(g) for g in pdn.read_games(named_pdn)] == expected
    with open(document, "rb") as handle:
        assert [pdn.write_game(g) for g in pdn.read_games(handle)] == expected
        assert not handle.closed  # the caller's file is left open
    text = io.StringIO(named_pdn.read_text(encoding="utf-8"))
    assert [pdn.write_game(g) for g in pdn.read_games(text)] == expected


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("empty.pdn", ""),
        ("blank.pdn", "\n\n  \n"),
        ("list.json", "[]\n"),
        ("document.json", '{"schema": "pdn-json/1", "type": "games", "games": [\n]}\n'),
        ("records.ndjson", ""),
    ],
)
def test_an_empty_collection_is_zero_games_whatever_its_format(
    tmp_path: Path, name: str, text: str
) -> None:
    # Issue 33: JSON's [] was accepted silently. An input of no games is no error, "0 games",
    # and a warning naming it, alike in every format (an empty PDN file too).
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, out, err = run("validate", path)
    said = f"Warning: {path} holds no games\n"
    assert (code, out, err) == (0, "0 games: 0 clean, 0 with errors\n", said)
    assert run("select", "--count", path) == (1, "0\n", "")  # nothing kept: status 1
