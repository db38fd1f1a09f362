"""pdn.dask on a LocalCluster of 2 workers gives what one process gives, piece for piece.

Skipped when dask (``pip install "pdn[dask]"``) is not installed; the ``test`` extra has it.
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from explorer_inputs import tree_facts
from shared_paths import OCA, needs_shared

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
pytest.importorskip("pandas")

from pdn import dask as pdn_dask  # noqa: E402
from pdn import read_games, write_game  # noqa: E402
from pdn.collections.batch import validate_files  # noqa: E402
from pdn.engine import ENGLISH, Position  # noqa: E402
from pdn.rules.openings import ballot_stats, classify  # noqa: E402
from pdn.rules.validation import validate  # noqa: E402
from pdn.study.explore.tree import Tree, build  # noqa: E402

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "corpus"
OCA_PIECES = sorted((SAMPLE / "mzuluaga__checkers").glob("OCA_2.0.bytes-*.pdn"))
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SMALL = 3000  # bytes per piece: the sample's files are cut into several


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    # Two workers in this process (threads): the machine's cores are shared.
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as connected,
    ):
        yield connected


def all_files() -> list[str]:
    return [str(p) for p in [*OCA_PIECES, *sorted(SAMPLE.rglob("*.pdn"))]]


def test_large_files_are_cut_at_game_starts() -> None:
    path = str(OCA_PIECES[0])
    pieces = pdn_dask.pieces([path], piece_bytes=SMALL)
    assert len(pieces) > 5
    data = Path(path).read_bytes()
    assert pieces[0].start == 0 and pieces[-1].end is None
    for before, after in itertools.pairwise(pieces):
        assert before.end == after.start  # no byte lost or read twice
        assert data[after.start : after.start + 7] == b"[Event "  # a game starts there
        assert after.line == data[: after.start].count(b"\n") + 1
    games = [g for p in pieces for g in p.games_of()]
    whole = list(read_games(path))
    assert [(g.index, g.line, write_game(g)) for g in games] == [
        (g.index, g.line, write_game(g)) for g in whole
    ]


def test_a_piece_reads_its_games_with_the_whole_files_evidence(tmp_path: Path) -> None:
    # The last pieces hold only 10x10 opening fragments whose squares are all low: read on
    # their own they would look English, read with their file they are International.
    ten = '[Event "g"]\n1. 32-28 18-23 2. 38-32 12-18 3. 43-38 7-12 *\n\n' * 60
    path = tmp_path / "ten.pdn"
    path.write_text(ten + '[Event "fragment"]\n1. 32-28 19-23 *\n\n' * 40)
    pieces = pdn_dask.pieces([path], piece_bytes=400)
    assert {g.tags["Event"] for g in pieces[-1].games_of()} == {"fragment"}
    games = [g for p in pieces for g in p.games_of()]
    whole = list(read_games(path))
    assert [(g.variant, g.variant_source) for g in games] == [
        (g.variant, g.variant_source) for g in whole
    ]
    assert games[-1].variant_source == "file"


def test_files_that_may_not_be_cut_stay_whole(tmp_path: Path) -> None:
    crlf = tmp_path / "crlf.pdn"
    crlf.write_bytes(b'[Event "a"]\r\n\r\n1. 11-15 *\r\n\r\n' * 400)
    cp1252 = tmp_path / "cp1252.pdn"
    cp1252.write_bytes('[Event "Café"]\n\n1. 11-15 *\n\n'.encode("cp1252") * 400)
    for path in (crlf, cp1252):
        assert pdn_dask.pieces([path], piece_bytes=100) == [pdn_dask.Piece(str(path))]


def test_verdicts_on_the_cluster_are_those_of_one_process(client: distributed.Client) -> None:
    files = all_files()
    bag = pdn_dask.verdicts(files, piece_bytes=SMALL)
    assert bag.npartitions > len(files)  # some files really were cut
    got = [v.to_dict() for v in bag.compute()]
    assert got == [v.to_dict() for v in validate_files(files)]
    assert sum(v["status"] != "ok" for v in got) > 0  # the sample has faults to report


def test_games_and_selection_on_the_cluster(client: distributed.Client) -> None:
    files = [str(p) for p in OCA_PIECES] + [str(EXAMPLES / "illegal-moves.pdn")]
    whole = [g for f in files for g in read_games(f)]
    bag = pdn_dask.games(files, piece_bytes=SMALL)
    assert [write_game(g) for g in bag.compute()] == [write_game(g) for g in whole]
    wins = bag.filter(lambda game: game.result == "1-0").map(write_game).compute()
    assert wins == [write_game(g) for g in whole if g.result == "1-0"]
    assert 0 < len(wins) < len(whole)


def test_ballot_stats_on_the_cluster(client: distributed.Client) -> None:
    files = [str(p) for p in OCA_PIECES]
    expected = ballot_stats((classify(g), g.result) for f in files for g in read_games(f))
    assert expected  # the OCA sample opens with ballots
    assert pdn_dask.ballot_stats(files, piece_bytes=SMALL) == expected


def test_game_table_on_the_cluster(client: distributed.Client) -> None:
    files = [str(p) for p in OCA_PIECES] + [str(EXAMPLES / "illegal-moves.pdn")]
    frame = pdn_dask.game_table(files, piece_bytes=SMALL)
    assert list(frame.columns) == list(pdn_dask.TABLE_COLUMNS)
    table = frame.compute()
    games = [(f, g) for f in files for g in read_games(f)]
    assert len(table) == len(games)
    reports = [validate(g) for _, g in games]
    assert list(table["status"]) == [r.status for r in reports]
    assert list(table["plies"]) == [len(g.mainline_moves()) for _, g in games]
    assert list(table["line"]) == [g.line for _, g in games]
    by_status = frame.groupby("status")["plies"].sum().compute().to_dict()
    assert sum(by_status.values()) == sum(len(g.mainline_moves()) for _, g in games)


def test_explorer_tree_on_the_cluster_is_that_of_one_process(client: distributed.Client) -> None:
    files = all_files()
    expected = tree_facts(build(files))
    assert expected["stopped"]["illegal"] > 0 and len(expected["variants"]) > 1
    # Pieces of 3,000 bytes cut OCA's sample inside its blocks of 200 games.
    assert any(p.block_start < p.start for p in pdn_dask.pieces(files, piece_bytes=SMALL))
    tree = pdn_dask.explorer_tree(files, piece_bytes=SMALL, at_once=3)
    assert tree_facts(tree) == expected
    spilled = pdn_dask.explorer_tree(files, piece_bytes=SMALL, spill=300)
    assert spilled._disk is not None
    assert tree_facts(spilled) == expected


def test_explorer_tree_with_a_variant_within_and_players(client: distributed.Client) -> None:
    files = all_files()
    start = Position.start(ENGLISH)
    asked = {"within": [start], "players_at": [start], "depth": 8}
    expected = build(files, variant="english", **asked)  # type: ignore[arg-type]
    tree = pdn_dask.explorer_tree(files, variant="english", piece_bytes=SMALL, **asked)  # type: ignore[arg-type]
    assert tree_facts(tree) == tree_facts(expected)
    assert tree.node(start) == expected.node(start)
    assert tree.node(start).players


def _live_trees() -> int:
    return sum(1 for thing in gc.get_objects() if type(thing) is Tree)


@pytest.mark.stress
def test_the_client_holds_one_partition_tree_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Worker processes: every tree alive in this process is the client's. At each merge it
    # holds the tree being built and the partition's tree being merged, not the others
    # computed meanwhile (they wait on the workers until asked for).
    files = all_files()
    held: list[int] = []
    merge = Tree.merge

    def counted(self: Tree, other: Tree) -> None:
        held.append(_live_trees())
        merge(self, other)

    monkeypatch.setattr(Tree, "merge", counted)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster),
    ):
        tree = pdn_dask.explorer_tree(files, piece_bytes=SMALL, at_once=4)
    partitions = len(pdn_dask.pieces(files, piece_bytes=SMALL))
    assert len(held) == partitions > 8
    assert max(held) == 2
    monkeypatch.undo()
    assert tree_facts(tree) == tree_facts(build(files))


@needs_shared(OCA)
def test_explorer_tree_of_oca_is_that_of_one_process() -> None:
    expected = tree_facts(build([str(OCA)]))
    with dask.config.set(scheduler="synchronous"):
        tree = pdn_dask.explorer_tree([str(OCA)], piece_bytes=2 << 20)
    assert tree.games == 22621
    assert tree_facts(tree) == expected


def test_json_files_are_read_as_json_records(client: distributed.Client, tmp_path: Path) -> None:
    # Issue 33: pdn.dask read a JSON file of pdn's records as PDN text (junk, no move).
    from click.testing import CliRunner

    from pdn.cli import main

    sources = [str(OCA_PIECES[0]), str(EXAMPLES / "illegal-moves.pdn")]
    files = []
    for number, (source, to) in enumerate(zip(sources, ("json", "ndjson"), strict=True)):
        path = tmp_path / f"{number}.{to}"
        result = CliRunner().invoke(main, ["convert", "--to", to, source, "-o", str(path)])
        assert result.exit_code == 0, result.output
        files.append(str(path))
    assert all(piece.json for piece in pdn_dask.pieces(files, piece_bytes=100))
    whole = [g for f in sources for g in read_games(f)]
    got = pdn_dask.games(files, piece_bytes=100).compute()
    assert [write_game(g) for g in got] == [write_game(g) for g in whole]
    verdicts = [v.to_dict() for v in pdn_dask.verdicts(files, piece_bytes=100).compute()]
    assert [v["status"] for v in verdicts] == [validate(g).status for g in whole]
    assert verdicts == [v.to_dict() for v in validate_files(files)]
    table = pdn_dask.game_table(files, piece_bytes=100).compute()
    assert list(table["plies"]) == [len(g.mainline_moves()) for g in whole]
    tree = pdn_dask.explorer_tree(files, piece_bytes=100)
    assert tree_facts(tree) == tree_facts(build(sources))
