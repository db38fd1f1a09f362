"""The visitor spine and the API of issue 8: each defect it fixed has a test here."""

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
import pdn.grammar
from pdn import Comment, GameBuilder, GameVisitor, PdnWriter
from pdn.cli import main
from pdn.jsonio import SCHEMA, game_from_dict, game_to_dict
from pdn.visitor import SKIP, GameStart, Skip

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
    import pdn.validation

    assert pdn.validate is pdn.validation.validate
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
    from pdn.jsonio import accept_dict

    game = pdn.parse_game(RICH)
    assert accept_dict(game_to_dict(game), PdnWriter()) == pdn.write_game(game)


def test_headers_only_reads_tags_without_parsing_the_movetext(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = '[Event "a"]\n1. 11-15 (9-13 {x} 24-20 *\n[Event "b"]\n1. 9-13 1-0\n'
    parsed: list[str] = []
    real = pdn.grammar.parser()

    class Spy:
        def parse(self, text: str, **options: object) -> object:
            parsed.append(text)
            return real.parse(text, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(pdn.parsing, "parser", lambda: Spy())
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
    from pdn.jsonio import _dumps_deep, _loads_deep, dumps, loads

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
