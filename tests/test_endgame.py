"""Endgame tables built by pdn (issue 34): every value of the small English tables against an
independent minimax to the end, published values, the file format, and the CLI."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn.cli import main
from pdn.engine import (
    ENGLISH,
    FRISIAN,
    INTERNATIONAL,
    Color,
    EndgameTables,
    Material,
    Piece,
    Position,
    build_tables,
    materials_up_to,
)


@pytest.fixture(scope="module")
def english3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("endgame")
    build_tables(ENGLISH, materials_up_to(3), folder)
    return folder


def _every_position(pieces: int, *, kings_only_at: int = 99) -> list[Position]:
    """Every English position of 2 to ``pieces`` pieces, each side at least one, either side
    to move, made square by square (nothing of the tables' index); from ``kings_only_at``
    pieces on, only those of kings."""
    kinds = [Piece(c, k) for c in (Color.BLACK, Color.WHITE) for k in (False, True)]
    found = []
    for count in range(2, pieces + 1):
        for squares in itertools.combinations(range(1, 33), count):
            for chosen in itertools.product(kinds, repeat=count):
                colours = {p.color for p in chosen}
                if len(colours) < 2:
                    continue
                if count >= kings_only_at and not all(p.king for p in chosen):
                    continue
                # A man never stands on its crowning row.
                if any(
                    not p.king and (s > 28 if p.color is Color.BLACK else s < 5)
                    for s, p in zip(squares, chosen, strict=True)
                ):
                    continue
                pieces_at = dict(zip(squares, chosen, strict=True))
                for turn in (Color.BLACK, Color.WHITE):
                    found.append(Position.from_pieces(ENGLISH, turn, pieces_at))
    return found


def _minimax_to_the_end(positions: list[Position]) -> dict[tuple[int, int, int, int], int | None]:
    """Each position's value by minimax over the engine's legal moves, deepened one ply at a
    time until no value changes: +d a win in d plies, -d a loss in d, None a draw.

    At depth d a position is won in d if a move reaches a position lost in d - 1, lost in d if
    every move reaches a position won in at most d - 1 (no move: lost in 0); what no depth
    decides is a draw.
    """
    children: dict[tuple[int, int, int, int], list[tuple[int, int, int, int]]] = {}
    todo = list(positions)
    while todo:
        position = todo.pop()
        key = position.key()
        if key in children:
            continue
        after = [position.play(m) for m in position.legal_moves(merge_duplicates=True)]
        children[key] = [p.key() for p in after]
        todo.extend(p for p in after if p.key() not in children)
    value: dict[tuple[int, int, int, int], int | None] = {}
    for key, moves in children.items():
        if not moves:
            value[key] = 0  # lost now: stored as -0 == 0, told apart by parity below
    depth = 0
    open_keys = [k for k in children if k not in value]
    while True:
        depth += 1
        decided: dict[tuple[int, int, int, int], int] = {}
        for key in open_keys:
            results = [value.get(c) for c in children[key]]
            if any(r is not None and _lost(r) and abs(r) == depth - 1 for r in results):
                decided[key] = depth
            elif all(r is not None and not _lost(r) for r in results):
                decided[key] = -depth
        if not decided and depth > 2 + max((abs(v or 0) for v in value.values()), default=0):
            break
        value.update(decided)
        open_keys = [k for k in open_keys if k not in decided]
    return {k: value.get(k) for k in children}


def _lost(v: int) -> bool:
    # Losses are an even number of plies from the end (0 included), wins an odd one.
    return v % 2 == 0


def _disagreements(tables: EndgameTables, positions: list[Position]) -> list[object]:
    truth = _minimax_to_the_end(positions)
    wrong: list[object] = []
    for position in positions:
        probe = tables.probe(position)
        expected = truth[position.key()]
        got = None if probe is None or probe.distance is None else probe.distance
        if (
            probe is None
            or (expected is None) != (got is None)
            or (expected is not None and abs(expected) != got)
            or (expected is not None and probe.result != ("loss" if _lost(expected) else "win"))
        ):
            wrong.append((position.fen(), expected, probe))
    return wrong


def test_the_2_piece_and_3_king_english_tables_are_the_minimax_values(english3: Path):
    # The fast tier's share: every 2-piece position, every 3-piece one of kings (KKvK, KvKK),
    # and what their moves reach, each side to move.
    positions = _every_position(3, kings_only_at=3)
    wrong = _disagreements(EndgameTables(english3, ENGLISH), positions)
    assert not wrong[:5], f"{len(wrong)} positions disagree"
    assert len(positions) > 30_000


@pytest.mark.stress
def test_every_value_of_the_2_and_3_piece_english_tables_is_the_minimax_one(english3: Path):
    positions = _every_position(3)
    wrong = _disagreements(EndgameTables(english3, ENGLISH), positions)
    assert not wrong[:5], f"{len(wrong)} positions disagree"
    assert len(positions) > 300_000  # both sides to move, every material up to 3 pieces


def test_two_kings_beat_one_in_english(english3: Path):
    tables = EndgameTables(english3, ENGLISH)
    # The lone king in the double corner, the two kings far: a win, either side to move.
    for fen in ("B:WK1:BK23,K28", "W:WK1:BK23,K28", "W:WK5:BK32,K27"):
        probe = tables.probe(Position.from_fen(fen, ENGLISH))
        assert probe is not None
        assert probe.result == ("win" if fen[0] == "B" else "loss"), fen
        assert probe.distance is not None and probe.distance > 4
    stats = {s.material: s for s in tables.available()}
    two_kings = stats[Material(0, 2, 0, 1)]
    # Only where every move of the two kings gives one away (34 of 14,880) is it no win.
    assert two_kings.losses == 0 and two_kings.draws < two_kings.positions // 400


def test_best_moves_keep_the_value(english3: Path):
    tables = EndgameTables(english3, ENGLISH)
    position = Position.from_fen("B:WK32:BK1,K5", ENGLISH)
    here = tables.probe(position)
    assert here is not None and here.result == "win" and here.distance is not None
    best = tables.best_moves(position)
    assert best
    for move, value in best:
        after = tables.probe(position.play(move))
        assert after is not None and after.result == "loss"
        assert after.distance == here.distance - 1 == value.distance - 1


def test_a_table_is_verified_by_its_header_and_rebuilt_when_damaged(tmp_path: Path):
    built = build_tables(ENGLISH, materials_up_to(2), tmp_path)
    assert all(s.built for s in built)
    again = build_tables(ENGLISH, materials_up_to(2), tmp_path)
    assert not any(s.built for s in again)  # resumed: nothing built twice
    path = tmp_path / "english" / "KvK.pdntb"
    lines = path.read_bytes().split(b"\n", 2)
    header = json.loads(lines[1])
    assert (header["variant"], header["material"], header["format"]) == ("english", "KvK", 1)
    data = bytearray(path.read_bytes())
    data[-1] ^= 1  # one bit of the data changed: the CRC no longer holds
    path.write_bytes(bytes(data))
    assert EndgameTables(tmp_path, ENGLISH).probe(Position.from_fen("B:WK32:BK1", ENGLISH)) is None
    rebuilt = build_tables(ENGLISH, materials_up_to(2), tmp_path)
    assert [s.material.name for s in rebuilt if s.built] == ["KvK"]
    assert EndgameTables(tmp_path, ENGLISH).probe(Position.from_fen("B:WK32:BK1", ENGLISH))


def test_frisian_has_no_tables(tmp_path: Path):
    with pytest.raises(ValueError, match="king-move limit"):
        build_tables(FRISIAN, materials_up_to(2), tmp_path)


def test_the_cli_builds_and_probes(tmp_path: Path):
    runner = CliRunner()
    folder = str(tmp_path / "tables")
    built = runner.invoke(main, ["endgame", "build", "--pieces", "3", "--dir", folder])
    assert built.exit_code == 0, built.output
    assert "KKvK" in built.output and "16 tables" in built.output
    again = runner.invoke(main, ["endgame", "build", "--pieces", "3", "--dir", folder])
    assert again.output.count("(kept)") == 16
    probe = runner.invoke(main, ["endgame", "probe", "--fen", "W:WK32:BK1,K5", "--dir", folder])
    assert probe.exit_code == 0, probe.output
    assert probe.output == "White to move loses in 32 plies\nbest moves: 32-27, 32-28\n"
    missing = runner.invoke(
        main, ["endgame", "probe", "--fen", "W:WK32,K31:BK1,K5", "--dir", folder]
    )
    assert missing.exit_code == 1 and "--pieces 4" in missing.output
    assert "Traceback" not in missing.output
    bad = runner.invoke(main, ["endgame", "probe", "--fen", "W:Wx", "--dir", folder])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_the_default_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    from pdn.study.play.endgame import data_folder

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert data_folder() == tmp_path / "pdn" / "endgame"


@pytest.mark.stress
def test_three_kings_against_one_on_the_main_diagonal_draw_in_international(tmp_path: Path):
    build_tables(INTERNATIONAL, [Material(0, 3, 0, 1)], tmp_path)
    tables = EndgameTables(tmp_path, INTERNATIONAL)
    # The lone king on the long diagonal (46-5), the three kings off it, either side to move:
    # the lone king holds the diagonal.
    for fen in ("W:WK1,K2,K3:BK28", "B:WK1,K2,K3:BK28"):
        held = tables.probe(Position.from_fen(fen, INTERNATIONAL))
        assert held is not None and held.result == "draw", fen
