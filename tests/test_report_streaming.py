"""``pdn report`` over an archive of any size: records wait on disk, events are built and
written one at a time, and the text is the same as when everything was held in memory."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn.cli import main
from pdn.study.tournament import (
    FORMATS,
    EventReport,
    EventStore,
    GameRecord,
    build_reports,
    iter_reports,
    record_from_tags,
    render,
    render_chunks,
)

# Names a database could trip on: SQL words, quotes, empty and blank, controls, other scripts,
# and a lone surrogate (text decoded with errors="surrogateescape" holds them; UTF-8 cannot).
NAMES = st.sampled_from(
    [
        "",
        " ",
        "index",
        "round",
        "Ann",
        'Bo "B"',
        "O'Neil",
        "Дмитрий",
        "x\x00y",
        "\x1b[31m",
        "K\udcffk",
    ]
)
RESULTS = st.sampled_from(["1-0", "0-1", "1/2-1/2", "2-0", "1-1", "0-2", "*", "", "0-0"])


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    tags = {
        "Event": draw(
            st.sampled_from(["", "Open", "Open ", "index", "Cup 'A'", "Кубок", "\udc80"])
        ),
        "Round": draw(st.sampled_from(["1", "2", "10", "", "1.2"])),
        "Black": draw(NAMES),
        "White": draw(NAMES),
        "Result": draw(RESULTS),
        "Site": draw(NAMES),
    }
    opening = draw(st.one_of(st.none(), st.sampled_from(["ACF 1", "Bristol"])))
    index = draw(st.one_of(st.none(), st.integers(1, 10**9)))
    return record_from_tags(tags, opening=opening, index=index)


@settings(max_examples=60)
@given(
    st.lists(
        st.tuples(st.sampled_from(["A", "B", "index", "", "É", "\udc80"]), records()), max_size=40
    )
)
def test_the_store_gives_each_event_its_records_in_order(
    items: list[tuple[str, GameRecord]],
) -> None:
    expected: dict[str, list[GameRecord]] = {}
    for name, record in items:
        expected.setdefault(name, []).append(record)
    with EventStore() as store:
        for name, record in items:
            store.add(name, record)
        got = list(store.events())
    assert got == list(expected.items())
    # Field by field, types included (a score of 1.0 stays a float, a missing one None).
    for (_, mine), (_, theirs) in zip(got, expected.items(), strict=True):
        for a, b in zip(mine, theirs, strict=True):
            assert [type(getattr(a, f)) for f in a.__slots__] == [
                type(getattr(b, f)) for f in b.__slots__
            ]


def _in_memory(games: list[GameRecord]) -> list[EventReport]:
    # What build_reports did before the store: a dict of lists.
    from pdn.study.tournament import DEFAULT_POINTS
    from pdn.study.tournament.records import _points_scheme
    from pdn.study.tournament.standings import _build_event

    events: dict[str, list[GameRecord]] = {}
    for record in games:
        events.setdefault(record.event.strip() or "?", []).append(record)
    scheme = _points_scheme(DEFAULT_POINTS)
    return [_build_event(name, group, scheme) for name, group in events.items()]


@settings(max_examples=40)
@given(st.lists(records(), max_size=30))
def test_reports_and_every_format_are_those_of_the_in_memory_grouping(
    games: list[GameRecord],
) -> None:
    reports = build_reports(games)
    assert reports == _in_memory(games)
    whole = {"events": [report.to_dict() for report in reports]}
    assert render(reports, "json") == json.dumps(whole, indent=2, ensure_ascii=False)
    for fmt in FORMATS:
        # The pieces add up to the page, and a generator of reports gives the same text.
        assert "".join(render_chunks(iter(reports), fmt)) == render(reports, fmt)


def test_events_are_written_as_they_are_built() -> None:
    games = [record_from_tags({"Event": f"E{i}", "Black": "a", "White": "b"}) for i in range(5)]
    pulled: list[int] = []

    def counted() -> Iterator[EventReport]:
        for number, report in enumerate(iter_reports(games), start=1):
            pulled.append(number)
            yield report

    chunks = render_chunks(counted(), "text")
    first = next(chunks)
    assert first.startswith("E0\n==") and pulled == [1]
    assert len(list(chunks)) == 5 and pulled == [1, 2, 3, 4, 5]


def test_bad_arguments_are_refused_at_the_call_before_anything_is_read() -> None:
    def never() -> Iterator[GameRecord]:
        raise AssertionError("read")
        yield  # pragma: no cover

    with pytest.raises(ValueError, match="regular expression"):
        iter_reports(never(), event="(")
    with pytest.raises(ValueError, match="unknown format"):
        render_chunks([], "pdf")
    with pytest.raises(ValueError, match="unknown CSV table"):
        render_chunks([], "csv", table="nope")


def _game(event: str, black: str, white: str, result: str) -> str:
    tags = {"Event": event, "Round": "1", "Black": black, "White": white, "Result": result}
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return f"{head}\n1. 11-15 23-19 {result}\n\n"


def test_the_cli_numbers_each_game_within_its_file(tmp_path: Path) -> None:
    # It used to give every game index 1.
    one = tmp_path / "one.pdn"
    one.write_text(
        _game("Cup", "Ann", "Bo", "1-0")
        + _game("Open", "Cy", "Di", "0-1")
        + _game("Cup", "Bo", "Ann", "1/2-1/2"),
        encoding="utf-8",
    )
    two = tmp_path / "two.pdn"
    two.write_text(_game("Cup", "Ann", "Cy", "0-1"), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["report", "--format", "csv", "--table", "games", str(one), str(two)]
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(row["event"], row["first"], row["index"]) for row in rows] == [
        ("Cup", "Ann", "1"),
        ("Cup", "Bo", "3"),
        ("Cup", "Ann", "1"),
        ("Open", "Cy", "2"),
    ]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=80)
@given(st.text(), st.lists(JSON_VALUES, max_size=6))
def test_a_listing_in_pieces_is_the_whole_document(key: str, items: list[object]) -> None:
    from pdn.text.json_text import dumps_listing

    whole = json.dumps({key: items}, indent=2, ensure_ascii=False)
    assert "".join(dumps_listing(key, iter(items))) == whole


def test_the_openings_listing_in_pieces_is_the_whole_table() -> None:
    import pdn
    from pdn.rules.openings import classify
    from pdn.writing.openings_render import FORMATS as OPENING_FORMATS
    from pdn.writing.openings_render import opening_row, render_openings, render_openings_chunks

    games = Path(__file__).parent / "fixtures" / "openings" / "games.pdn"
    rows = [opening_row(game, classify(game)) for game in pdn.read_games(games)]
    assert len(rows) > 3
    # Many rows, so that the CSV comes in more than one piece.
    rows = [row for _ in range(300) for row in rows]
    pieces = {fmt: list(render_openings_chunks(iter(rows), fmt)) for fmt in OPENING_FORMATS}
    assert len(pieces["csv"]) > 2
    # The JSON is what json.dumps gives for the whole listing ...
    games = [
        {"index": r.index, "event": r.event, "black": r.black, "white": r.white}
        | r.opening.to_dict()
        for r in rows
    ]
    whole = json.dumps({"games": games}, indent=2, ensure_ascii=False) + "\n"
    assert "".join(pieces["json"]) == whole
    # ... the CSV one row per game under one header, and every format the whole table.
    table = list(csv.reader(io.StringIO("".join(pieces["csv"]))))
    assert len(table) == len(rows) + 1 and table[0][0] == "index"
    for fmt in OPENING_FORMATS:
        assert "".join(pieces[fmt]) == render_openings(rows, fmt)
    with pytest.raises(ValueError, match="unknown format"):
        render_openings_chunks([], "pdf")
