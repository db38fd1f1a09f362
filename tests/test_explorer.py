"""The opening explorer (issue 23): a collection's positions with their games, results and
replies, keyed by position so that transpositions merge, checked against an independent
replay of the same games and against ``pdn select --fen``."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_paths import OCA, needs_shared

import pdn
from pdn.cli import main
from pdn.engine import ENGLISH, INTERNATIONAL, RUSSIAN, Position, Variant
from pdn.study.explore.render import render_text, to_json
from pdn.study.explore.tree import Tree, build, key_position, position_key, positions_asked
from pdn.text.notation import move_texts
from pdn.text.results import Outcome, parse_result

ROOT = Path(__file__).resolve().parents[1]
OCA_SLICES = sorted((ROOT / "tests/fixtures/corpus/mzuluaga__checkers").glob("*.pdn"))
GERMAN = ROOT / "examples/german-open-2004.pdn"
WK2007 = ROOT / "examples/international-wk2007.pdn"
LINE = "11-15 23-19 8-11 22-17"


# ----------------------------------------------------------------------------- an oracle


def _played(position: Position, text: str) -> Position | None:
    """``text`` played from ``position`` by matching its squares against the legal moves,
    knowing nothing of pdn's replay (numeric notation only); None when it fits none or two."""
    squares = [int(s) for s in re.findall(r"\d+", text)]
    if len(squares) < 2:
        return None
    fits = [
        m
        for m in position.legal_moves()
        if m.start == squares[0] and m.end == squares[-1] and set(squares) <= set(m.path)
    ]
    if len({position.play(m) for m in fits}) != 1:
        return None
    return position.play(fits[0])


def oracle_lines(path: Path, variant: Variant, depth: int) -> Iterator[list[Position]]:
    """Each game's positions from its start, as far as its written moves can be played and
    at most ``depth`` plies: a replay that shares only the move generator with pdn's."""
    for game in pdn.read_games(path):
        fen = game.tags.get("FEN")
        position = Position.from_fen(fen, variant) if fen else Position.start(variant)
        line = [position]
        for text in game.mainline_moves()[:depth]:
            after = _played(line[-1], text)
            if after is None:
                break
            line.append(after)
        yield line


def oracle_counts(
    path: Path, variant: Variant, depth: int
) -> tuple[Counter[Position], Counter[tuple[Position, Position]]]:
    """Games per position and per move (each game once at each), by the oracle."""
    positions: Counter[Position] = Counter()
    moves: Counter[tuple[Position, Position]] = Counter()
    for line in oracle_lines(path, variant, depth):
        positions.update(set(line))
        moves.update(set(itertools.pairwise(line)))
    return positions, moves


def _tree_counts(tree: Tree) -> tuple[Counter[Position], Counter[tuple[Position, Position]]]:
    positions = Counter({p: f.games for p, f in tree.positions()})
    moves = Counter({(a, b): f.games for a, b, f in tree.moves()})
    return positions, moves


# ----------------------------------------------------------------------------- the tree


@pytest.mark.parametrize("path", [*OCA_SLICES, GERMAN], ids=lambda p: p.name)
@pytest.mark.parametrize("depth", [1, 8, 30])
def test_every_count_equals_an_independent_replay(path: Path, depth: int) -> None:
    tree = build([path], depth)
    assert _tree_counts(tree) == oracle_counts(path, ENGLISH, depth)


def test_international_counts_equal_an_independent_replay() -> None:
    tree = build([WK2007], 0)
    assert tree.main_variant() is INTERNATIONAL
    assert _tree_counts(tree) == oracle_counts(WK2007, INTERNATIONAL, 10_000)


def test_transpositions_merge_and_count_each_game_once() -> None:
    tree = Tree()
    for text in ("1. 11-15 23-19 2. 9-14 1-0", "1. 9-14 23-19 2. 11-15 0-1"):
        tree.add_game(pdn.parse_game(text))
    start = Position.start(ENGLISH)
    after = pdn.validate(pdn.parse_game("1. 11-15 23-19 2. 9-14 *")).final
    assert after is not None
    node = tree.node(after)
    # White to move after three plies: Black won the first game, White the second.
    assert after.turn.label == "White"
    assert (node.figures.games, node.figures.win, node.figures.loss) == (2, 1, 1)
    assert node.figures.unknown == 0 and node.figures.draw == 0
    ply2 = pdn.validate(pdn.parse_game("1. 11-15 23-19 *")).final
    assert ply2 is not None
    (reply,) = tree.node(ply2).replies
    assert (reply.move, reply.figures.games, reply.reached.games) == ("9-14", 1, 2)
    assert reply.transposition
    assert tree.node(start).figures.games == 2
    assert all(not r.transposition for r in tree.node(start).replies)


def test_a_game_that_comes_back_to_a_position_counts_once_there() -> None:
    game = pdn.parse_game('[FEN "W:WK29:BK4"]\n1. 29-25 4-8 2. 25-29 8-4 3. 29-25 4-8 *')
    tree = Tree(0)
    tree.add_game(game, "english")
    start = Position.from_fen("W:WK29:BK4", ENGLISH)
    node = tree.node(start)
    assert node.figures.games == 1
    assert [(r.move, r.figures.games) for r in node.replies] == [("29-25", 1)]
    assert tree.figures(node.replies[0].position).games == 1


def test_figures_sum_up_at_every_position() -> None:
    depth = 12
    tree = build(OCA_SLICES, depth)
    ended: Counter[Position] = Counter()
    for path in OCA_SLICES:
        for line in oracle_lines(path, ENGLISH, depth):
            ended[line[-1]] += 1
    root = tree.start()
    assert root is not None
    for node in tree.walk(root, plies=depth):
        f = node.figures
        assert f.games == f.win + f.draw + f.loss + f.unknown
        assert f.games == sum(r.figures.games for r in node.replies) + ended[node.position]
        for column in ("win", "draw", "loss", "unknown"):
            assert getattr(f, column) >= sum(getattr(r.figures, column) for r in node.replies)
        for reply in node.replies:
            assert reply.reached == tree.figures(reply.position)
            assert reply.reached.games >= reply.figures.games


def test_results_are_counted_for_the_side_to_move() -> None:
    games = list(pdn.read_games(GERMAN))
    outcomes = Counter(parse_result(g.result) for g in games)
    node = build([GERMAN]).node()
    assert node.position.turn.label == "Black"  # English: Black moves first
    assert node.figures.win == outcomes[Outcome.FIRST_WINS]
    assert node.figures.loss == outcomes[Outcome.SECOND_WINS] + outcomes[Outcome.BOTH_LOSE]
    assert node.figures.draw == outcomes[Outcome.DRAW]
    after = node.replies[0].position  # White to move: the same games, seen from White
    seen = build([GERMAN]).figures(after)
    black_won = sum(
        parse_result(g.result) is Outcome.FIRST_WINS
        for g in games
        if g.mainline_moves()[:1] == [node.replies[0].move]
    )
    assert seen.loss == black_won


def test_dates_and_players() -> None:
    tree = Tree(players_at=[Position.start(ENGLISH)])
    for text in (
        '[Date "1999.05.??"]\n[Black "A"]\n[White "B"]\n1. 11-15 *',
        '[Date "1987.??.??"]\n[Black "A"]\n[White "C"]\n1. 11-15 *',
        '[Date "?"]\n[Black "D"]\n[White "A"]\n1. 9-14 *',
    ):
        tree.add_game(pdn.parse_game(text))
    node = tree.node()
    assert (node.figures.first_date, node.figures.last_date) == ("1987.??.??", "1999.05.??")
    assert node.players is not None and node.players[0] == ("A", 3)
    assert tree.node(node.replies[1].position).figures.first_date is None
    assert tree.node(node.replies[0].position).players is None  # not asked there


def test_a_game_stopped_by_an_illegal_move_counts_up_to_its_last_legal_ply() -> None:
    tree = Tree()
    tree.add_game(pdn.parse_game("1. 11-15 23-19 2. 15-11 19-15 *"))
    tree.add_game(pdn.parse_game("1. 11-15 23-19 *"))
    assert tree.stopped() == Counter({"illegal": 1})
    ply2 = pdn.validate(pdn.parse_game("1. 11-15 23-19 *")).final
    assert ply2 is not None
    assert tree.figures(ply2).games == 2
    assert tree.node(ply2).replies == ()
    assert "1 counted up to their last legal ply" in tree.summary()
    assert to_json(tree, tree.node())["summary"]["stopped_illegal"] == 1


def test_games_under_other_rules_are_kept_apart_and_said() -> None:
    tree = Tree()
    tree.add_game(pdn.parse_game("1. 11-15 23-19 *"))
    tree.add_game(pdn.parse_game("1. 11-15 23-19 *"))
    tree.add_game(pdn.parse_game('[GameType "25"]\n1. c3-d4 f6-g5 *'))
    assert tree.main_variant() is ENGLISH
    assert "1 under other rules not counted here (russian 1)" in tree.summary()
    russian = tree.node(Position.start(RUSSIAN))
    assert russian.figures.games == 1
    assert [r.move for r in russian.replies] == ["c3-d4"]
    assert tree.node().figures.games == 2


def test_the_rules_of_the_games_are_said_a_guess_as_one() -> None:
    tree = Tree()
    tree.add_game(pdn.parse_game("1. 11-15 23-19 *"))
    tree.add_game(pdn.parse_game('[GameType "21"]\n1. 11-15 23-19 *'))
    assert tree.rules("english") == Counter({"squares": 1, "gametype": 1})
    assert "rules: the GameType tag 1, a guess from the squares the moves use 1" in tree.summary()
    assert to_json(tree, tree.node())["summary"]["rules"] == {"gametype": 1, "squares": 1}


def test_keys_name_positions_of_every_variant() -> None:
    rng = random.Random(23)
    for variant in pdn.engine.VARIANTS.values():
        position = Position.start(variant)
        for _ in range(30):
            assert key_position(position_key(position)).fen() == position.fen()
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))


# A Frisian king may make three non-capturing moves in a row while its side has men: the
# kings shuffle 36-31-36 and 15-20-15 until, after ply 6, White's king on 31 is blocked.
FRISIAN_FEN = "W:WK36,50:BK15,1"
FRISIAN_SHUFFLE = "1. 36-31 15-20 2. 31-36 20-15 3. 36-31 15-20 4. 50-45 *"
FRISIAN_BLOCKED_BOARD = "W:WK31,50:BK20,1"


def _frisian(fen: str, moves: str) -> pdn.Game:
    return pdn.parse_game(f'[GameType "40"]\n[FEN "{fen}"]\n{moves}')


def test_keys_hold_frisian_king_move_runs() -> None:
    report = pdn.validate(_frisian(FRISIAN_FEN, FRISIAN_SHUFFLE))
    assert report.status == "ok"
    after = [step.after for step in report.mainline_steps()]
    assert all(p is not None for p in after)
    second, sixth = after[1], after[5]
    assert second is not None and sixth is not None
    # One board, one side to move, but White's king may move in the one and not the other.
    assert (second.black, second.white, second.kings, second.turn) == (
        sixth.black,
        sixth.white,
        sixth.kings,
        sixth.turn,
    )
    assert "31-36" in [m.notation() for m in second.legal_moves()]
    assert "31-36" not in [m.notation() for m in sixth.legal_moves()]
    assert position_key(second) != position_key(sixth)
    for position in (second, sixth):
        back = key_position(position_key(position))
        assert back.legal_moves() == position.legal_moves()
        assert position_key(back) == position_key(position)


def test_keys_leave_out_runs_the_moves_cannot_depend_on() -> None:
    from pdn.engine import FRISIAN

    board = Position.from_fen(FRISIAN_BLOCKED_BOARD, FRISIAN)
    runs = [
        board,
        # Runs of kings that were taken since (nothing stands on 7 and 33).
        Position(FRISIAN, board.turn, board.black, board.white, board.kings, (7, 2, 33, 3)),
    ]
    no_men = Position.from_fen("W:WK31:BK20,1", FRISIAN)
    # A count past the limit, of a side without men.
    alone = Position(FRISIAN, no_men.turn, no_men.black, no_men.white, no_men.kings, (0, 0, 31, 5))
    assert position_key(runs[0]) == position_key(runs[1])
    assert position_key(alone) == position_key(no_men)
    # No variant but Frisian has runs: their keys are the board and the side to move.
    english = Position.start(ENGLISH)
    assert key_position(position_key(english)) == english


def test_frisian_positions_that_differ_in_runs_are_apart_in_explore(tmp_path: Path) -> None:
    # The shuffling game reaches the blocked board at ply 6 (and, with White's king free, at
    # ply 2); another game starts there with no run. Asked by FEN (no runs, as a FEN has
    # none), the explorer counts only the game whose king is as free as the FEN's.
    games = tmp_path / "frisian.pdn"
    games.write_text(
        f'[GameType "40"]\n[FEN "{FRISIAN_FEN}"]\n{FRISIAN_SHUFFLE}\n\n'
        f'[GameType "40"]\n[FEN "{FRISIAN_BLOCKED_BOARD}"]\n1. 31-36 20-15 *\n'
    )
    asked = ["explore", str(games), "--fen", FRISIAN_BLOCKED_BOARD, "--format", "json"]
    result = CliRunner().invoke(main, [*asked, "--variant", "frisian"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 1
    assert [r["move"] for r in data["replies"]] == ["31-36"]
    tree = Tree(0)
    for game in pdn.read_games(games):
        tree.add_game(game, "frisian")
    report = pdn.validate(_frisian(FRISIAN_FEN, FRISIAN_SHUFFLE))
    sixth = [step.after for step in report.mainline_steps()][5]
    assert sixth is not None
    assert [r.move for r in tree.node(sixth).replies] == ["50-45"]


def test_reply_text_is_unambiguous() -> None:
    # Two captures from 27 to 11 take different men: the reply is written in full.
    position = Position.from_fen("W:W27:B15,16,23,24", ENGLISH)
    game = pdn.parse_game('[FEN "W:W27:B15,16,23,24"]\n1. 27x18x11 *')
    tree = Tree()
    tree.add_game(game, "english")
    (reply,) = tree.node(position).replies
    assert reply.move == "27x18x11"
    assert reply.move in move_texts(position.legal_moves(), ENGLISH)


def test_jobs_give_the_same_tree(tmp_path: Path) -> None:
    rng = random.Random(5)
    records = []
    for _ in range(450):  # more than two blocks: the workers get whole blocks
        position, texts = Position.start(ENGLISH), []
        for _ in range(rng.randint(3, 12)):
            moves = position.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            texts.append(move_texts([move], ENGLISH)[0])
            position = position.play(move)
        records.append(" ".join(texts) + " " + rng.choice(["1-0", "0-1", "1/2-1/2", "*"]))
    path = tmp_path / "random.pdn"
    path.write_text("\n\n".join(records) + "\n", encoding="utf-8")
    one, two = build([path], 8), build([path], 8, jobs=2)
    assert sorted(map(repr, one.positions())) == sorted(map(repr, two.positions()))
    assert sorted(map(repr, one.moves())) == sorted(map(repr, two.moves()))
    assert one.summary() == two.summary()


def test_positions_asked() -> None:
    asked = positions_asked(fen="W:W31:B1", variant="english")
    assert isinstance(asked["english"], Position)
    assert "not a english position" in str(positions_asked(fen="W:W99:B1")["english"])
    with pytest.raises(ValueError):
        positions_asked(moves="nothing here")


# ----------------------------------------------------------------------------- the command


def test_explore_text_and_json() -> None:
    runner = CliRunner()
    text = runner.invoke(main, ["explore", str(GERMAN), "--depth", "6"])
    assert text.exit_code == 0, text.output
    tree = build([GERMAN], 6, players_at=[Position.start(ENGLISH)])
    assert text.output == render_text(tree, tree.node())
    data = json.loads(runner.invoke(main, ["explore", str(GERMAN), "--format", "json"]).output)
    node = build([GERMAN]).node()
    assert data["position"] == node.fen and data["games"] == node.figures.games
    assert set(data["results"]) == {"win", "draw", "loss", "unknown"}
    assert [(r["move"], r["games"]) for r in data["replies"]] == [
        (r.move, r.figures.games) for r in node.replies
    ]
    assert data["replies"][0]["fen"] == node.replies[0].fen
    assert data["summary"]["games"] == 15 and data["summary"]["depth"] == 30


def test_explore_moves_fen_and_min_games() -> None:
    runner = CliRunner()
    by_line = runner.invoke(main, ["explore", str(GERMAN), "--moves", "11-15", "--format", "json"])
    assert by_line.exit_code == 0, by_line.output
    fen = json.loads(by_line.output)["position"]
    by_fen = runner.invoke(main, ["explore", str(GERMAN), "--fen", fen, "--format", "json"])
    assert json.loads(by_fen.output)["games"] == json.loads(by_line.output)["games"] == 12
    few = runner.invoke(main, ["explore", str(GERMAN), "--min-games", "5"])
    assert "9-14" not in few.output and "1 reply played in fewer than 5 games" in few.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--moves", "11-15 11-15"], "is not a legal english line"),
        (["--moves", "11-15", "--fen", "B:W21:B1"], "not both"),
        (["--fen", "B:W99:B1"], "is not a english position"),
        (["--moves", "{just a comment}"], "holds no move"),
    ],
)
def test_explore_refuses_what_it_cannot_ask(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["explore", str(GERMAN), *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_explore_shows_names_from_files_as_text(tmp_path: Path) -> None:
    path = tmp_path / "names.pdn"
    path.write_text('[Black "Evil\x1b[2J"]\n[White "B"]\n1. 11-15 *\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["explore", str(path)])
    assert result.exit_code == 0
    assert "\x1b" not in result.output and "Evil\\x1b[2J" in result.output


def test_explore_says_reading_errors_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text(
        '[Event "a"]\n1. 11-15 {unclosed 23-19 *\n\n[Event "b"]\n1. 11-15 23-19 *\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["explore", str(path), "--format", "json"])
    assert result.exit_code == 0
    assert f"{path}:2:10: unclosed-comment:" in result.stderr
    data = json.loads(result.stdout)
    assert data["summary"]["games"] == 2 and data["replies"][0]["games"] == 2


def test_a_text_that_is_no_game_is_not_counted(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello world\n", encoding="utf-8")
    (tmp_path / "one.pdn").write_text("1. 11-15 *\n", encoding="utf-8")
    tree = build([tmp_path / "notes.txt", tmp_path / "one.pdn"])
    assert tree.node().figures.games == 1 and tree.games == 1


# ----------------------------------------------------------------------------- OCA 2.0

needs_oca = needs_shared(OCA)


@pytest.fixture(scope="module")
def oca_tree() -> Tree:
    return build([OCA], 5)


@needs_oca
def test_oca_position_equals_select_fen_and_an_independent_replay(oca_tree: Tree) -> None:
    asked = positions_asked(moves=LINE)["english"]
    assert isinstance(asked, Position)
    node = oca_tree.node(asked)
    selected = CliRunner().invoke(main, ["select", "--fen", asked.fen(), "--count", str(OCA)])
    assert selected.exit_code == 0
    assert node.figures.games == int(selected.output.split()[0]) > 0
    # The oracle replays every game itself: the same games reach the position, and the
    # same numbers of them play each reply.
    reached = 0
    replies: Counter[Position] = Counter()
    ended = 0
    for line in oracle_lines(OCA, ENGLISH, 5):
        if asked in line:
            reached += 1
            at = line.index(asked)
            if at + 1 < len(line):
                replies[line[at + 1]] += 1
            else:
                ended += 1
    assert reached == node.figures.games
    assert {r.position: r.figures.games for r in node.replies} == dict(replies)
    assert node.figures.games == sum(r.figures.games for r in node.replies) + ended
