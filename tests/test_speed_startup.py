"""Start-up: ``import pdn`` and ``pdn --help`` load no grammar or engine; the parse tables are
cached in the user's cache folder and read back, never from a folder others can write."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pdn import grammar, parse_game, write_game


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
        "print(sorted(m for m in ('lark', 'pdn.grammar', 'pdn_engine.movegen', "
        "'pdn.validation') if m in sys.modules))\n"
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
        "from pdn.grammar import cache_file\n"
        "g = pdn.parse_game('[Event \"x\"]\\n1. 11-15 (1. 9-14) 23-19 {c} *')\n"
        "print(cache_file(), pdn.write_game(g).replace(chr(10), '|'))\n"
    )
    first = run_python(code, {"PDN_CACHE_DIR": str(cache)}, tmp_path)
    files = sorted(cache.iterdir())
    assert len(files) == 1 and files[0].name.endswith(".lark-cache")  # no scratch file left
    assert first.split()[0] == str(files[0])
    stamp = files[0].stat().st_mtime_ns
    again = run_python(code, {"PDN_CACHE_DIR": str(cache)}, tmp_path)
    assert again == first  # same parse from the cached tables ...
    assert files[0].stat().st_mtime_ns == stamp  # ... which were read, not rewritten
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
