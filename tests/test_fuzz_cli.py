"""A seeded hostile round through the CLI (issue 33, section 6): mutants of the vendored
fixtures, damaged PDN bytes and structurally edited JSON records, through ``validate``,
``select --count``, ``convert -o`` and ``convert --in-place``: no traceback, no hang, and
``convert`` writes as many games as it read (see ``tests/fuzzing.py``). The long runs, of
ten thousand mutants over the shared corpus, are ``benchmarks/fuzz_cli.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzzing import Fuzzer, source_texts, summary

FIXTURES = Path(__file__).resolve().parent / "fixtures"

pytestmark = pytest.mark.stress


@pytest.mark.parametrize(("kind", "seed", "count"), [("pdn", 33, 300), ("json", 34, 200)])
def test_mutants_through_the_cli_break_nothing(kind: str, seed: int, count: int) -> None:
    fuzzer = Fuzzer(source_texts([FIXTURES]), kind, seed)
    try:
        tally = fuzzer.run(count)
    finally:
        fuzzer.close()
    assert tally.mutants == count and tally.commands >= 3 * count
    assert not tally.findings, "\n".join(map(str, [summary(tally, kind, seed), *tally.findings]))


def test_the_round_finds_what_it_looks_for(monkeypatch: pytest.MonkeyPatch) -> None:
    # The checks can fail: a convert that drops the last game of what it writes, and a
    # reader that raises on a marked input, are both found.
    import pdn.writing.convert
    from pdn.reading import reader

    real_convert = pdn.writing.convert.convert_games
    real_read = reader.read_games

    def drop_last(games, options, *args, **kwargs):  # type: ignore[no-untyped-def]
        pieces = list(real_convert(games, options, *args, **kwargs))
        return iter(pieces[:-1])

    def raising(source, **kwargs):  # type: ignore[no-untyped-def]
        with open(source, "rb") as handle:
            if b"11-15" in handle.read():
                raise RuntimeError("planted")
        return real_read(source, **kwargs)

    texts = [("two.pdn", '[Event "a"]\n1. 9-13 *\n\n[Event "b"]\n1. 10-14 *\n')]
    monkeypatch.setattr(pdn.writing.convert, "convert_games", drop_last)
    fuzzer = Fuzzer(texts, "pdn", 1)
    try:
        fuzzer.check("two.pdn", texts[0][1].encode(), ["none"])
        assert fuzzer.tally.count("count-change") >= 1, fuzzer.tally.findings
        monkeypatch.setattr(pdn.writing.convert, "convert_games", real_convert)
        monkeypatch.setattr("pdn.collections.inputs.read_games", raising)
        fuzzer.check("planted.pdn", b'[Event "c"]\n1. 11-15 *\n', ["none"])
        assert fuzzer.tally.count("traceback") >= 1, fuzzer.tally.findings
    finally:
        fuzzer.close()
