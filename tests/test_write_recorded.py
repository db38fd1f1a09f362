"""A game written from the reader's runs of moves is written as its model is.

``pdn convert`` (a faithful copy) and ``pdn annotate`` (tags only) read each game whole for its
replay (:func:`pdn.reading.recording.record` with ``whole=True``): one line of plain moves keeps the
reader's lists and is written from them (:meth:`~pdn.reading.recording.Recorded.accept`), replayed
from
them too, and anything else (a comment after a move, a NAG, a variation) makes the model. These
tests write every game of the sample both ways and compare the texts, as the commands write
them; the model's walk, which now hands a writer its moves in a row at once, is checked against
the events one by one. On the whole shared corpus in the ``corpus`` tier.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from shared_paths import CORPUS, needs_shared

import pdn
from pdn.cli import main
from pdn.game.model import Comment, Game
from pdn.game.visitor import GameStart, GameVisitor
from pdn.reading.reader import parse_raw, split_games
from pdn.reading.recording import Recorded, record
from pdn.rules.openings import BALLOT_PLIES
from pdn.rules.replays import Replays
from pdn.writing.annotate import Annotator, annotations_of
from pdn.writing.writer import PdnWriter

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_FILES = sorted((ROOT / "tests" / "fixtures").rglob("*.pdn")) + sorted(
    (ROOT / "examples").glob("*.pdn")
)

TEXTS = [
    '[Event "a"]\n1. 11-15 23-19 2. 8-11 22-17 1-0',
    '{first} [Event "a"] {among} [Site "b"]\n{before} 1. 11-15 23-19 *',
    "1. 11-15 {a} 23-19 $1 2. 8-11! 22-17 *",
    "1. {before the move} 11-15 23-19 2. 8-11 *",
    "1. 11-15 (1. 10-14 22-18) 23-19 (22-18) 2. 8-11 *",
    "( 9-13 ) 1. 11-15 23-19 *",
    '1. 11-15 /FEN "W:W21,22:B1,2"/ 21-17 *',
    "1. 11-15 23-19 ; to the end of the line\n2. 8-11 22-17 *",
    "1. 11-15 23-19 2. 8-11 22-17",
    "1. 11-15 23-19 2. 15-11 *",  # illegal: replayed again, on the model
]


def written(text: str) -> tuple[str, str]:
    """(from the runs, from the model) of the one game of ``text``, as convert writes it."""
    [raw] = split_games(io.StringIO(text))
    recorded = record(raw, whole=True)
    return recorded.accept(PdnWriter(separate=True)), parse_raw(raw).accept(
        PdnWriter(separate=True)
    )


@pytest.mark.parametrize("text", TEXTS)
def test_a_game_read_whole_is_written_as_its_model(text: str) -> None:
    mine, theirs = written(text)
    assert mine == theirs


@pytest.mark.parametrize("text", TEXTS)
def test_the_model_of_a_game_read_whole_is_the_readers(text: str) -> None:
    [raw] = split_games(io.StringIO(text))
    mine, theirs = record(raw, whole=True).model(), parse_raw(raw)
    assert mine == theirs
    assert [p.to_dict() for p in mine.errors] == [p.to_dict() for p in theirs.errors]
    assert (mine.variant, mine.variant_source) == (theirs.variant, theirs.variant_source)


def test_only_a_game_with_nothing_after_its_moves_keeps_the_runs() -> None:
    def runs(text: str) -> bool:
        [raw] = split_games(io.StringIO(text))
        return record(raw, whole=True).runs is not None

    assert runs('{first} [Event "a"] {before} 1. 11-15 23-19 *')
    assert not runs("1. 11-15 {a} 23-19 *")
    assert not runs("1. 11-15 23-19! *")
    assert not runs("1. {before the move} 11-15 23-19 *")


def test_a_game_read_for_its_replay_alone_cannot_be_written() -> None:
    [raw] = split_games(io.StringIO("1. 11-15 {a} 23-19 *"))
    with pytest.raises(ValueError, match="comments"):
        record(raw).accept(PdnWriter())


def annotated(read: Game | Recorded, replays: Replays, name: str) -> str:
    report = replays.of(read, name)
    annotations = annotations_of(read, report)
    return read.accept(Annotator(PdnWriter(variant=report.game.variant), annotations))


def compare_file(path: Path) -> tuple[int, int, int]:
    """Both ways over every game of ``path``, as convert and annotate write them: how many
    games, how many kept the runs, and how many of those stopped on an illegal move."""
    from_model, from_runs = Replays(), Replays()
    games = plain = stopped = 0
    for raw in split_games(path):
        recorded = record(raw, BALLOT_PLIES, whole=True)
        plain += recorded.runs is not None
        copy = recorded.accept(PdnWriter(separate=True))
        assert copy == parse_raw(raw).accept(PdnWriter(separate=True)), f"game {raw.index}"
        if recorded.runs is not None:
            stopped += not Replays().of(record(raw, whole=True), path.name).complete
        mine = annotated(recorded, from_runs, path.name)
        assert mine == annotated(parse_raw(raw), from_model, path.name), f"game {raw.index}"
        games += 1
    return games, plain, stopped


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_runs_and_model_are_written_alike_on_the_sample(path: Path) -> None:
    compare_file(path)


def test_most_sample_games_are_written_from_their_runs() -> None:
    # Equal texts would also hold if every game fell back to the model: the runs must carry
    # the load, and an illegal game replayed from them must be annotated too.
    counts = [compare_file(path) for path in SAMPLE_FILES]
    games = sum(count[0] for count in counts)
    plain = sum(count[1] for count in counts)
    assert 0.5 * games < plain < games
    assert sum(count[2] for count in counts) > 0


@pytest.mark.slow
@needs_shared(CORPUS)
@pytest.mark.parametrize(
    "path",
    sorted(CORPUS.rglob("*.pdn")) if CORPUS.is_dir() else [],
    ids=lambda p: p.relative_to(CORPUS).as_posix(),
)
def test_runs_and_model_are_written_alike_on_the_corpus(path: Path) -> None:
    compare_file(path)


def test_annotate_with_comments_still_reads_the_model(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text("1. 11-15 23-19 2. 8-11 *\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["annotate", "-q", "--fen", str(path)])
    assert result.exit_code == 0
    assert result.output.count("[%fen ") == 3


class Events(GameVisitor[list[tuple[Any, ...]]]):
    """The events of a walk, moves one by one however they come."""

    def begin_game(self, start: GameStart) -> None:
        self.events: list[tuple[Any, ...]] = []

    def visit_comment(self, comment: Comment) -> None:
        self.events.append(("comment", comment.text))

    def visit_move(
        self,
        move: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self.events.append(("move", move, number, [c.text for c in before], line, column))

    def visit_setup(
        self,
        fen: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self.events.append(("setup", fen, number, [c.text for c in before], line, column))

    def visit_strength(self, strength: str) -> None:
        self.events.append(("strength", strength))

    def visit_nag(self, nag: int) -> None:
        self.events.append(("nag", nag))

    def begin_variation(self) -> None:
        self.events.append(("(",))

    def end_variation(self) -> None:
        self.events.append((")",))

    def result(self) -> list[tuple[Any, ...]]:
        return self.events


class Gathered(Events):
    """The same events, moves in a row taken at once (as the PDN writer takes them)."""

    def visit_moves(
        self,
        moves: list[str],
        numbers: list[str | None],
        before: Sequence[Comment],
        lines: list[int],
        columns: list[int],
    ) -> None:
        self.events.append(("run", len(moves)))
        super().visit_moves(moves, numbers, before, lines, columns)


@pytest.mark.parametrize("text", TEXTS)
def test_the_walk_gathers_moves_in_a_row_without_changing_the_events(text: str) -> None:
    game = pdn.parse_game(text)
    gathered = game.accept(Gathered())
    assert [e for e in gathered if e[0] != "run"] == game.accept(Events())


def test_a_line_of_plain_moves_is_walked_as_one_run() -> None:
    game = pdn.parse_game(TEXTS[0])
    assert [e for e in game.accept(Gathered()) if e[0] == "run"] == [("run", 4)]


def test_a_writer_that_writes_moves_its_own_way_sees_each_one() -> None:
    class Upper(PdnWriter):
        def visit_move(
            self,
            move: str,
            number: str | None,
            before: Sequence[Comment],
            line: int | None,
            column: int | None,
        ) -> None:
            super().visit_move(move.replace("-", "x"), number, before, line, column)

    game = pdn.parse_game("1. 11-15 23-19 2. 8-11 22-17 *")
    assert game.accept(Upper()) == "1. 11x15 23x19 2. 8x11 22x17 *\n"
    [raw] = split_games(io.StringIO("1. 11-15 23-19 2. 8-11 22-17 *"))
    assert pdn.accept_raw(raw, Upper()) == "1. 11x15 23x19 2. 8x11 22x17 *\n"


LAID_OUT = [
    "1. 11-15 (9-13 22-18) 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 *",
    "1. 11-15 (9-13 22-18 (21-17 5-9) 10-14) (1. 10-14) 23-19 2. 8-11 (2. 9-13) 22-17 *",
    "1. 11-15 23-19 {a comment long enough to fill a line or two} 2. 8-11 22-17 ; end\n"
    "3. 9-13 17-14 $1 4. 10x17 21x14 (4... 21x14 9-13) 5. 6-10 *",
    '1. 11-15 /FEN "B:W21,22:B1,2"/ 1-5 22-17 2. 5-9 17-13 (21-17 9-14) *',
]


@pytest.mark.parametrize("text", LAID_OUT)
@pytest.mark.parametrize("columns", [1, 6, 8, 12, 20, 31, 80])
@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("move_numbers", [True, False])
def test_moves_in_a_row_are_laid_out_as_one_by_one(
    text: str, columns: int, normalize: bool, move_numbers: bool
) -> None:
    # The writer's loop over a run against the same moves given one at a time.
    game = pdn.parse_game(text)

    class OneByOne(PdnWriter):
        def visit_moves(
            self,
            moves: list[str],
            numbers: list[str | None],
            before: Sequence[Comment],
            lines: list[int],
            columns: list[int],
        ) -> None:
            GameVisitor.visit_moves(self, moves, numbers, before, lines, columns)

    options: dict[str, Any] = {
        "columns": columns,
        "normalize": normalize,
        "move_numbers": move_numbers,
    }
    assert game.accept(PdnWriter(**options)) == game.accept(OneByOne(**options))
