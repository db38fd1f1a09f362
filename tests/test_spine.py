"""The visitor spine and the API of issue 8: each defect it fixed has a test here; and the
replay's steps on the spine (issue 21): written order, the report's walk, ``visit_step``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

import pdn
import pdn.reading.grammar
from pdn import Comment, GameBuilder, GameVisitor, PdnWriter
from pdn.cli import main
from pdn.engine import ENGLISH, Position
from pdn.game.visitor import SKIP, GameStart, Skip
from pdn.rules.validation import Step
from pdn.writing.jsonio import SCHEMA, game_from_dict, game_to_dict

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT = ROOT / "examples" / "german-open-2004.pdn"
RICH = (
    '{before the tags} [Event "Rich"]\n[Odd_Name "a \\"quoted\\" value"]\n[Event "again"]\n'
    "{before the first move} 1. 11-15 (1. 9-13 {alt} 21-17 (22-18 $4 23-19)) 1... 24-20 $1 "
    '{after} 2. 8-11! (2. {start} 10-14?!) /FEN "W:W31,32:B1,2"/ 31-27 *'
)


# --- defects -----------------------------------------------------------------------------------


def test_faithful_writer_keeps_every_move_next_to_a_glued_parenthesis() -> None:
    text = "1. 11-15 (1. 9-13 {" + "x" * 40 + "} 21-17 (22-18 23-19)) 24-20 *"
    game = pdn.parse_game(text)
    for columns in range(8, 90):
        written = pdn.write_game(game, columns=columns)
        assert pdn.parse_game(written) == game, (columns, written)
        assert "23-19" in written


def test_json_keeps_comments_before_the_tags_and_each_alternative_once() -> None:
    game = pdn.parse_game('{before} [Event "x"]\n1. 11-15 (9-13) 23-19 *')
    data = json.loads(json.dumps(game_to_dict(game)))
    assert data["comments_before_tags"] == [{"text": "before", "kind": "brace"}]
    assert data["moves"][0]["variations"] == [[{"move": "9-13"}]]
    assert "variations" not in data  # the alternative is written once, under the move
    again = game_from_dict(data)
    assert again == game
    assert again.root.comments_before == [Comment("before")]
    assert [n.move for n in again.root.variations] == ["11-15", "9-13"]


def test_normalised_form_is_stable_with_a_comment_after_a_variation_and_a_setup() -> None:
    game = pdn.parse_game('1. 11-15 (1. 9-13) {after} /FEN "W:W31,32:B1,2"/ 32-28 *')
    once = pdn.write_game(game, normalize=True)
    twice = pdn.write_game(pdn.parse_game(once), normalize=True)
    assert once == twice
    assert pdn.parse_game(once).root.variations[0].comments_after == [Comment("after")]


@pytest.mark.parametrize("binary", [False, True])
def test_read_game_reads_exactly_one_game_per_call(binary: bool) -> None:
    text = TOURNAMENT.read_text(encoding="utf-8")
    handle: io.IOBase = io.BytesIO(text.encode()) if binary else io.StringIO(text)
    games = []
    while (game := pdn.read_game(handle)) is not None:  # type: ignore[arg-type]
        games.append(game)
    expected = list(pdn.read_games(TOURNAMENT))
    assert games == expected
    assert [g.index for g in games] == list(range(1, 16))
    assert [g.line for g in games] == [g.line for g in expected]
    assert [[(n.line, n.column) for n, _ in g.walk()] for g in games] == [
        [(n.line, n.column) for n, _ in g.walk()] for g in expected
    ]
    assert pdn.read_game(handle) is None  # type: ignore[arg-type]


def test_read_game_leaves_the_rest_of_a_pipe_for_the_next_call() -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "w") as writer:
        writer.write('[Event "a"]\n1. 11-15 *\n[Event "b"]\n1. 9-13 1-0\n')
    with os.fdopen(read_end, "r") as pipe:
        first, second = pdn.read_game(pipe), pdn.read_game(pipe)
        assert pdn.read_game(pipe) is None
    assert first is not None and second is not None
    assert (first.tags["Event"], first.mainline_moves()) == ("a", ["11-15"])
    assert (second.tags["Event"], second.terminator, second.line) == ("b", "1-0", 3)


def test_read_games_reads_a_file_name_and_parse_games_reads_text(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    path.write_text("1. 11-15 *\n", encoding="utf-8")
    (game,) = pdn.read_games(str(path))
    assert game.mainline_moves() == ["11-15"] and game.errors == []
    with pytest.raises(FileNotFoundError):
        list(pdn.read_games(str(tmp_path / "missing.pdn")))
    with pytest.raises(TypeError, match="parse_games"):
        list(pdn.read_games(b"1. 11-15 *"))  # type: ignore[arg-type]
    assert [g.mainline_moves() for g in pdn.parse_games(b"1. 9-13 *")] == [["9-13"]]
    assert pdn.parse_game("").errors[0].code == "empty-game"


def test_the_package_does_not_hide_its_modules() -> None:
    import pdn.rules.validation

    assert pdn.validate is pdn.rules.validation.validate
    assert pdn.__version__ and pdn.__version__[0].isdigit()
    for name in ("write_games", "read_headers", "parse_games", "GameVisitor", "engine"):
        assert name in pdn.__all__


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.output


@pytest.mark.parametrize("fmt", ["json", "ndjson"])
def test_convert_reads_its_own_json_back(fmt: str, tmp_path: Path) -> None:
    pdn_text = run("convert", str(TOURNAMENT))[1]
    code, records = run("convert", "--to", fmt, str(TOURNAMENT))
    assert code == 0
    # By the file name's ending, by content whatever the name, and from standard input.
    for name in (f"games.{fmt}", "games.txt"):
        path = tmp_path / name
        path.write_text(records, encoding="utf-8")
        assert run("convert", str(path)) == (0, pdn_text)
    assert run("convert", "-", stdin=records)[1] == pdn_text


def test_a_json_record_that_cannot_be_read_is_reported_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "damaged.ndjson"
    good = json.dumps(game_to_dict(pdn.parse_game("1. 11-15 *")))
    path.write_text(f'{good}\n{{"schema": "{SCHEMA}", "tags": 3}}\n{{oops\n{good}\n')
    done = subprocess.run(
        [sys.executable, "-m", "pdn", "convert", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Traceback" not in done.stderr
    assert f"{path}:2:1: syntax-error: tags must be a list" in done.stderr
    assert f"{path}:3:2: syntax-error: not valid JSON" in done.stderr
    assert done.stdout.count("11-15 *") == 2


# --- the spine ---------------------------------------------------------------------------------


def test_a_model_replayed_into_a_builder_is_an_equal_game() -> None:
    game = pdn.parse_game(RICH)
    copy = game.accept(GameBuilder())
    assert copy == game and copy.errors == game.errors
    assert copy.root is not game.root
    assert copy.root.comments_before == [Comment("before the tags")]
    assert copy.tags.items() == game.tags.items()


def test_the_writer_gives_the_same_text_from_the_reader_as_from_the_model() -> None:
    for raw in pdn.split_games(io.StringIO(RICH + "\n" + TOURNAMENT.read_text("utf-8"))):
        model = pdn.parse_raw(raw)
        for normalize in (False, True):
            streamed = pdn.accept_raw(raw, PdnWriter(normalize=normalize, variant=model.variant))
            assert streamed == pdn.write_game(model, normalize=normalize)


def test_json_goes_straight_to_pdn_through_the_same_events() -> None:
    from pdn.writing.jsonio import accept_dict

    game = pdn.parse_game(RICH)
    assert accept_dict(game_to_dict(game), PdnWriter()) == pdn.write_game(game)


def test_headers_only_reads_tags_without_parsing_the_movetext(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = '[Event "a"]\n1. 11-15 (9-13 {x} 24-20 *\n[Event "b"]\n1. 9-13 1-0\n'
    parsed: list[str] = []
    real = pdn.reading.grammar.parser()

    class Spy:
        def parse(self, text: str, **options: object) -> object:
            parsed.append(text)
            return real.parse(text, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(pdn.reading.parsing, "parser", lambda: Spy())
    tags = list(pdn.read_headers(io.StringIO(text)))
    assert [t.items() for t in tags] == [[("Event", "a")], [("Event", "b")]]
    assert all("11-15" not in piece and "9-13" not in piece for piece in parsed)


def test_a_visitor_may_skip_variations() -> None:
    class Mainline(GameVisitor[list[str]]):
        def begin_game(self, start: GameStart) -> None:
            self.moves: list[str] = []

        def visit_move(
            self,
            move: str,
            number: str | None,
            before: Sequence[Comment],
            line: int | None,
            column: int | None,
        ) -> None:
            self.moves.append(move)

        def begin_variation(self) -> Skip:
            return SKIP

        def result(self) -> list[str]:
            return self.moves

    game = pdn.parse_game(RICH)
    assert game.accept(Mainline()) == game.mainline_moves()
    raw = next(pdn.split_games(io.StringIO(RICH)))
    assert pdn.accept_raw(raw, Mainline()) == game.mainline_moves()


def test_deep_variations_are_walked_without_recursion() -> None:
    depth = 3 * sys.getrecursionlimit()
    text = "1. 11-15 " + "(9-13 " * depth + ")" * depth + " *"
    game = pdn.parse_game(text)
    assert game.errors == [] and game.count_moves() == depth + 1
    assert pdn.parse_game(pdn.write_game(game)) == game
    assert game.accept(GameBuilder()) == game
    assert pdn.validate(game).status == "ok"


def test_json_of_variations_nested_thousands_deep() -> None:
    from pdn.text.json_text import _dumps_deep, _loads_deep, dumps, loads

    depth = 3 * sys.getrecursionlimit()
    text = "1. 11-15 23-19 " + "(9-13 24-20 " * depth + ")" * depth + " *"
    game = pdn.parse_game(text)
    record = game_to_dict(game, pdn.validate(game))
    written = dumps(record)  # json.dumps would raise RecursionError here
    assert game_from_dict(loads(written)) == game
    # The stack-based writer and reader agree with the json module wherever it can go.
    shallow = game_to_dict(pdn.parse_game(RICH))
    assert dumps(shallow) == _dumps_deep(shallow) == json.dumps(shallow, ensure_ascii=False)
    assert _loads_deep(dumps(shallow)) == json.loads(dumps(shallow)) == shallow
    for broken in ('{"a": [1, 2}', "[1, 2", "[1] 2", "]"):
        with pytest.raises(json.JSONDecodeError):
            _loads_deep(broken)


def test_convert_writes_and_reads_deep_variations_as_json(tmp_path: Path) -> None:
    depth = 1500
    source = tmp_path / "deep.pdn"
    source.write_text(
        "1. 11-15 23-19 " + "(9-13 24-20 " * depth + ")" * depth + " *\n", encoding="utf-8"
    )
    for fmt in ("json", "ndjson"):
        out = tmp_path / f"deep.{fmt}"
        code, _ = run("convert", "--to", fmt, str(source), "-o", str(out))
        assert code == 0
        code, back = run("convert", str(out))
        assert code == 0 and pdn.parse_game(back) == pdn.parse_game(source.read_text())


# --- steps on the spine (issue 21): written order, the report's walk, visit_step ---------------

#: Games whose replay order differs from written order, each with what stops a line where it
#: matters: the nodes it skips come before others in written order.
ORDERED = {
    "nested": "1. 11-15 (9-13 22-18 (21-17 (24-20 5-9) 6-10) 6-10) 23-19 (22-18 8-11) 2. 8-11 *",
    "first move alternatives": "1. 11-15 (9-13 22-18) (10-14 24-20 (23-18)) 23-19 *",
    "illegal in a variation": "1. 11-15 (9-13 22-18 15-19 (10-14 18x9) 12-16) 23-19 2. 8-11 *",
    "illegal on the main line": "1. 11-15 23-19 2. 15-24 (8-11 22-17) 24-20 (22-18) 3. 9-13 *",
    "bad setup in a variation": '1. 11-15 (9-13 /FEN "W:Wx:B1"/ 22-18 (24-20) 10-14) 23-19 *',
    "bad setup on the main line": '1. 11-15 23-19 /FEN "nonsense"/ 8-11 (9-13) *',
    "setups": '[FEN "W:W18:B14"] 1. 18x9 (18-15) /FEN "B:W30:B5"/ 5-9 (5-1 30-26) 30-25 *',
}


def _written(game: pdn.Game) -> list[pdn.Node]:
    return [node for node, _ in game.walk()]


@pytest.mark.parametrize("text", ORDERED.values(), ids=ORDERED.keys())
def test_each_step_knows_its_node_s_place_in_written_order(text: str) -> None:
    game = pdn.parse_game(text)
    report = pdn.validate(game)
    nodes = _written(game)
    assert report.steps and all(nodes[step.order] is step.node for step in report.steps)
    assert len({step.order for step in report.steps}) == len(report.steps)


def test_the_replay_keeps_its_own_order_and_skips_what_follows_a_stop() -> None:
    game = pdn.parse_game(ORDERED["illegal in a variation"])
    report = pdn.validate(game)
    # The alternative to 15-19 is replayed before it; 15-19 (from an empty square) stops its
    # line, so 12-16 (place 6) is never reached and 23-19 still has place 7.
    assert [(step.node.move, step.order) for step in report.steps] == [
        ("9-13", 1),
        ("22-18", 2),
        ("10-14", 4),
        ("18x9", 5),
        ("15-19", 3),
        ("11-15", 0),
        ("23-19", 7),
        ("8-11", 8),
    ]
    assert [p.code for p in report.problems if p.severity == "error"] == ["empty-square"]


@pytest.mark.parametrize("text", ORDERED.values(), ids=ORDERED.keys())
def test_the_report_walks_every_node_with_its_step(text: str) -> None:
    game = pdn.parse_game(text)
    report = pdn.validate(game)
    pairs = list(report.walk())
    assert [node for node, _ in pairs] == _written(game)  # equal (by value), and the same:
    assert all(a is b for (a, _), b in zip(pairs, _written(game), strict=True))
    assert all(step is None or step.node is node for node, step in pairs)
    reached = [step for _, step in pairs if step is not None]
    assert sorted(map(id, reached)) == sorted(map(id, report.steps))  # each step once
    for node, step in pairs:
        assert report.step_of(node) is step


def test_nodes_after_a_stop_have_no_step_and_no_position() -> None:
    game = pdn.parse_game(ORDERED["illegal on the main line"])
    report = pdn.validate(game)
    unreached = [node.move for node, step in report.walk() if step is None]
    assert unreached == ["24-20", "22-18", "9-13"]
    stop = next(node for node in game.mainline() if node.move == "15-24")
    assert report.step_of(stop) is not None and report.position_of(stop) is None
    assert report.position_of(game.root) is report.start
    second = game.root.variations[0].variations[0]
    assert report.position_of(second) == Position.from_fen(
        "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15", ENGLISH
    )


def test_step_of_a_node_of_an_equal_copy_is_none() -> None:
    game = pdn.parse_game("1. 11-15 23-19 *")
    report = pdn.validate(game)
    copy = game.root.copy()
    assert copy == game.root and report.step_of(copy.variations[0]) is None


def test_mainline_moves_stop_at_the_first_illegal_move_and_skip_setups() -> None:
    report = pdn.validate(pdn.parse_game(ORDERED["illegal on the main line"]))
    assert [move.path for move in report.mainline_moves()] == [(11, 15), (23, 19)]
    report = pdn.validate(pdn.parse_game(ORDERED["setups"]))
    # 18x9, then the setup, then 5-9 and 30-25; the alternatives are not the mainline's.
    assert [move.path for move in report.mainline_moves()] == [(18, 9), (5, 9), (30, 25)]
    # A backward man is illegal even though the replay goes on past it.
    report = pdn.validate(pdn.parse_game("1. 11-15 23-19 2. 15-11 24-20 *"))
    assert len(list(report.mainline_steps())) == 4
    assert [move.path for move in report.mainline_moves()] == [(11, 15), (23, 19)]


class _Events(GameVisitor[list[tuple[str, object]]]):
    """Every move, setup, step and variation event, in order."""

    def begin_game(self, start: GameStart) -> None:
        self.events: list[tuple[str, object]] = []

    def visit_move(
        self,
        move: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self.events.append(("move", move))

    def visit_setup(
        self,
        fen: str,
        number: str | None,
        before: Sequence[Comment],
        line: int | None,
        column: int | None,
    ) -> None:
        self.events.append(("setup", fen))

    def visit_step(self, step: Step) -> None:
        self.events.append(("step", step))

    def begin_variation(self) -> Skip | None:
        self.events.append(("(", None))
        return None

    def end_variation(self) -> None:
        self.events.append((")", None))

    def result(self) -> list[tuple[str, object]]:
        return self.events


@pytest.mark.parametrize("text", ORDERED.values(), ids=ORDERED.keys())
def test_a_visitor_driven_by_a_report_gets_each_step_right_after_its_move(text: str) -> None:
    game = pdn.parse_game(text)
    report = pdn.validate(game)
    events = game.accept(_Events(), report)
    plain = game.accept(_Events())
    assert [e for e in events if e[0] != "step"] == plain  # the same events otherwise
    steps = [(i, e[1]) for i, e in enumerate(events) if e[0] == "step"]
    assert len(steps) == len(report.steps)
    for i, step in steps:
        assert isinstance(step, Step)
        kind, what = events[i - 1]
        assert kind in ("move", "setup")
        assert what == (step.node.move if kind == "move" else step.node.setup)
    orders = [step.order for _, step in steps if isinstance(step, Step)]
    assert orders == sorted(orders)  # written order, not the replay's


def test_steps_skipped_with_their_variation_and_never_from_the_reader() -> None:
    class Mainline(_Events):
        def begin_variation(self) -> Skip:
            return SKIP

    text = ORDERED["nested"]
    game = pdn.parse_game(text)
    report = pdn.validate(game)
    events = game.accept(Mainline(), report)
    steps = [e[1] for e in events if e[0] == "step"]
    assert steps == list(report.mainline_steps())
    assert [e[1] for e in events if e[0] == "move"] == game.mainline_moves()
    raw = next(pdn.split_games(io.StringIO(text)))
    assert not [e for e in pdn.accept_raw(raw, _Events()) if e[0] == "step"]


def test_a_report_drives_only_its_own_game_as_it_was() -> None:
    game = pdn.parse_game("1. 11-15 23-19 *")
    report = pdn.validate(game)
    with pytest.raises(ValueError, match="another game"):
        pdn.parse_game("1. 11-15 23-19 *").accept(_Events(), report)
    game.root.variations.insert(0, pdn.Node("9-13", parent=game.root))
    with pytest.raises(ValueError, match="changed"):
        game.accept(_Events(), report)
    with pytest.raises(ValueError, match="changed"):
        list(report.walk())


def test_a_step_pickles_with_its_place() -> None:
    import pickle

    report = pdn.validate(pdn.parse_game(ORDERED["nested"]))
    for step in report.steps:
        again = pickle.loads(pickle.dumps(step))
        assert (again.order, again.ply, again.node) == (step.order, step.ply, step.node)


def test_the_annotator_passes_steps_on() -> None:
    from pdn.writing.annotate import Annotations, Annotator
    from pdn.writing.jsonio import JsonBuilder

    game = pdn.parse_game(ORDERED["setups"])
    report = pdn.validate(game)
    wrapped = game.accept(Annotator(JsonBuilder(report), Annotations()), report)
    assert wrapped["moves"] == game_to_dict(game, report)["moves"]
    assert wrapped["moves"][0]["fen"] == "B:W9:B"
