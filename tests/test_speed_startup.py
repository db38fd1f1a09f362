"""Start-up: ``import pdn`` and ``pdn --help`` load no grammar or engine; the parse tables are
cached in the user's cache folder and read back, never from a folder others can write."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pdn import parse_game, write_game
from pdn.reading import grammar


def run_python(code: str, env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_import_pdn_and_the_cli_load_neither_grammar_nor_engine(tmp_path: Path) -> None:
    code = (
        "import sys, pdn, pdn.cli\n"
        "print(sorted(m for m in ('lark', 'pdn.reading.grammar', 'pdn_engine.movegen', "
        "'pdn.rules.validation') if m in sys.modules))\n"
        "print(pdn.validate(pdn.parse_game('1. 11-15 *')).status)\n"
    )
    assert run_python(code, {}, tmp_path).splitlines() == ["[]", "ok"]


def test_public_names_are_all_reachable() -> None:
    import pdn
    import pdn.engine

    for module in (pdn, pdn.engine):
        for name in module.__all__:
            assert getattr(module, name) is not None
        assert set(module.__all__) <= set(dir(module))
    with pytest.raises(AttributeError):
        _ = pdn.no_such_name  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        _ = pdn.engine.no_such_name  # type: ignore[attr-defined]


def test_the_parse_tables_are_cached_and_read_back(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    code = (
        "import pdn\n"
        "from pdn.reading.grammar import cache_file\n"
        "g = pdn.parse_game('[Event \"x\"]\\n1. 11-15 (1. 9-14) 23-19 {c} *')\n"
        "print(cache_file(), pdn.write_game(g).replace(chr(10), '|'))\n"
    )
    first = run_python(code, {"PDN_CACHE_DIR": str(cache)}, tmp_path)
    files = sorted(cache.iterdir(), key=lambda f: f.suffix)  # (names hold digests)
    # The tables and the terminals' patterns, and no scratch file left.
    assert [f.suffix for f in files] == [".lark-cache", ".terminals"]
    assert first.split()[0] == str(files[0])
    stamps = [f.stat().st_mtime_ns for f in files]
    again = run_python(code, {"PDN_CACHE_DIR": str(cache)}, tmp_path)
    assert again == first  # same parse from the cached tables ...
    assert [f.stat().st_mtime_ns for f in files] == stamps  # ... which were read, not rewritten
    uncached = run_python(code, {"PDN_CACHE_DIR": ""}, tmp_path)
    assert uncached.split(" ", 1)[1] == first.split(" ", 1)[1]
    assert uncached.split()[0] == "None"


def test_a_damaged_cache_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PDN_CACHE_DIR", str(tmp_path))
    target = grammar.cache_file()
    assert target is not None
    target.write_bytes(b"not a cache at all\n")
    built = grammar._build(grammar.grammar_text())
    text = "1. 11-15 23-19 *"
    assert built.parse(text + "\n", start="start")
    assert write_game(parse_game(text)).strip().endswith("11-15 23-19 *")


def test_a_plain_game_is_read_with_the_cached_terminals_and_no_lark(tmp_path: Path) -> None:
    env = {"PDN_CACHE_DIR": str(tmp_path / "cache")}
    code = (
        "import sys, pdn\n"
        "game = pdn.parse_game('[Event \"x\"]\\n1. 11-15 23-19 2. 8-11 *')\n"
        "print(pdn.validate(game).status, len(list(game.mainline())), 'lark' in sys.modules)\n"
    )
    assert run_python(code, env, tmp_path) == "ok 3 True"  # the terminals taken from Lark ...
    assert run_python(code, env, tmp_path) == "ok 3 False"  # ... and read back without it


@pytest.mark.parametrize(
    "damage",
    ["another lark", "another grammar", "cut short", "not ascii", "a terminal missing"],
)
def test_a_terminals_file_that_does_not_fit_is_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    monkeypatch.setenv("PDN_CACHE_DIR", str(tmp_path))
    truth = grammar._terminals_of(grammar.parser())
    assert grammar.terminals() == truth
    [path] = tmp_path.glob("*.terminals")
    good = path.read_bytes()
    lines = good.split(b"\n")
    if damage == "another lark":
        lines[1] = lines[1].replace(b" ", b" 1", 1)
    elif damage == "another grammar":
        lines[2] = lines[2].replace(b"MOVE", b"MOVES", 1)
    elif damage == "cut short":
        lines = [lines[0], lines[1], lines[2][:100]]
    elif damage == "not ascii":
        lines[3] = lines[3] + "\u00e9".encode()
    else:
        lines = [line for line in lines if not line.startswith(b"LPAR\t")]
    path.write_bytes(b"\n".join(lines))
    assert grammar.terminals() == truth  # taken from the parser again ...
    assert path.read_bytes() == good  # ... and written back whole
    assert [f.name for f in tmp_path.iterdir() if f.name.startswith(".")] == []


def test_the_terminals_without_a_cache_are_the_parsers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PDN_CACHE_DIR", "")
    assert grammar.terminals() == grammar._terminals_of(grammar.parser())
    assert set(grammar.terminals()) == set(grammar.TERMINALS)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_no_cache_in_a_folder_others_can_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("PDN_CACHE_DIR", str(shared))
    assert grammar.cache_file() is None
    shared.chmod(0o700)
    assert grammar.cache_file() is not None
    monkeypatch.setenv("PDN_CACHE_DIR", "")
    assert grammar.cache_file() is None


def test_the_diagnose_function_survives_its_module_being_imported_first(tmp_path: Path) -> None:
    # An engine module importing .diagnose before anyone asks for pdn.engine.diagnose must
    # not leave the package's name bound to the module.
    code = (
        "import pdn_engine.lookup, pdn_engine.diagnose\n"
        "from pdn.engine import ENGLISH, Position, diagnose\n"
        "print(callable(diagnose), diagnose(Position.start(ENGLISH), (11, 15)).ok)\n"
    )
    assert run_python(code, {}, tmp_path) == "True True"
