"""Novelties against an archive (``pdn novelty``, ``pdn annotate --novelties``), checked
against counts made here by replaying the archive with :func:`pdn.validate`."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from click.testing import CliRunner
from shared_paths import OCA, needs_shared

import pdn
from pdn.cli import main
from pdn.engine import Position
from pdn.game.model import Game
from pdn.study.novelty import (
    Novelty,
    archive_summary,
    archive_tree,
    find_novelties,
    replay_games,
)
from pdn.text.notation import move_texts

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE = ROOT / "examples" / "german-open-2004.pdn"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


# ---------------------------------------------------------------------- the independent count


def reached(game: Game) -> list[Position]:
    """The positions of the mainline of ``game``, start first, up to its first illegal move
    or setup command: what a novelty search compares."""
    report = pdn.validate(game)
    assert report.start is not None
    seen = [report.start]
    for step in report.mainline_steps():
        if step.move is None or step.node.setup is not None or step.after is None:
            break
        seen.append(step.after)
    return seen


class Count:
    """For positions asked about, the archive games that reached each (by any order) and
    which positions they went to from it (each game once per move)."""

    def __init__(self, games: Iterable[Game], asked: Iterable[Position]) -> None:
        keys = {position.key() for position in asked}
        self.games: Counter[object] = Counter()
        self.moves: dict[object, Counter[object]] = {key: Counter() for key in keys}
        self.any_reached: set[object] = set()
        for game in games:
            seen = reached(game)
            seen_keys = {p.key() for p in seen}
            self.any_reached |= seen_keys & keys
            for key in seen_keys & keys:
                self.games[key] += 1
            pairs = {(a.key(), b.key()) for a, b in itertools.pairwise(seen) if a.key() in keys}
            for a, b in pairs:
                self.moves[a][b] += 1


def after_text(position: Position, text: str) -> object:
    """The key of the position after the move the engine writes ``text``."""
    legal = position.legal_moves()
    (move,) = [
        m for m, t in zip(legal, move_texts(legal, position.variant), strict=True) if t == text
    ]
    return position.play(move).key()


def moves_played(count: Count, position: Position) -> list[tuple[str, int]]:
    """The archive's moves from ``position`` by ``count``, most played first (then in the
    engine's order), as the engine writes them."""
    legal = position.legal_moves()
    played = count.moves[position.key()]
    found = [
        (t, played[position.play(m).key()])
        for m, t in zip(legal, move_texts(legal, position.variant), strict=True)
    ]
    return sorted(((t, n) for t, n in found if n), key=lambda item: -item[1])


def changed_game(game: Game, ply: int, move: str) -> str:
    """``game``'s tags and mainline up to ``ply``, with ``move`` played at ``ply``."""
    tags = "".join(f'[{name} "{value}"]\n' for name, value in game.tags.items())
    moves = [node.move for node in game.mainline()][: ply - 1]
    return tags + " ".join([*(m or "" for m in moves), move]) + " *\n"


def pick_change(game: Game, archive: Iterable[Game], plies: range) -> tuple[int, str, Count]:
    """The first ply of ``plies`` where ``game`` has a legal move to a position no archive
    game reached, that move, and the archive's count there (one pass over ``archive``)."""
    seen = reached(game)
    count = Count(archive, [p for k in plies for p in (seen[k - 1], *_afters(seen[k - 1]))])
    for k in plies:
        before = seen[k - 1]
        for text in move_texts(before.legal_moves(), before.variant):
            if after_text(before, text) not in count.any_reached:
                return k, text, count
    raise AssertionError("no such move: pick other plies")


def _afters(position: Position) -> list[Position]:
    return [position.play(m) for m in position.legal_moves()]


# ----------------------------------------------------------------------------- the library


def test_a_changed_move_is_the_novelty_with_the_archives_counts(tmp_path: Path) -> None:
    archive = list(pdn.read_games(ARCHIVE))
    source = archive[0]
    ply, move, count = pick_change(source, archive, range(5, 20))
    path = tmp_path / "mine.pdn"
    path.write_text(changed_game(source, ply, move), encoding="utf-8")
    (found,) = find_novelties([str(path)], [str(ARCHIVE)])
    assert (found.ply, found.move) == (ply, move)
    before = reached(source)[ply - 1]
    assert found.fen == before.fen()
    assert found.archive_games == count.games[before.key()] > 1
    assert list(found.archive_moves) == moves_played(count, before)
    assert len(found.archive_moves) > 1
    # The source's own move at that ply is among them, as written there.
    assert source.mainline_moves()[ply - 1] in dict(found.archive_moves)
    assert found.black == source.tags["Black"] and found.file == str(path)
    assert (found.game, found.line, found.stopped, found.archive_other_rules) == (1, 1, None, 0)


def test_a_game_of_the_archive_has_no_novelty() -> None:
    archive = list(pdn.read_games(ARCHIVE))
    found = find_novelties([archive[3]], [str(ARCHIVE)])[0]
    assert found.ply is None and found.move is None and found.stopped is None
    assert found.plies == len(archive[3].mainline_moves())
    # Its figures are those of its last position: at least itself reached it.
    final = reached(archive[3])[-1]
    assert found.fen == final.fen()
    assert found.archive_games == Count(archive, [final]).games[final.key()] >= 1


def test_a_game_that_breaks_off_before_any_novelty() -> None:
    archive = list(pdn.read_games(ARCHIVE))
    moves = archive[0].mainline_moves()[:10]
    (found,) = find_novelties([pdn.parse_game(" ".join(moves) + " 1-5 *")], archive)
    assert (found.ply, found.stopped, found.plies) == (None, "illegal", 10)
    assert found.archive_moves  # what the archive played where it broke off
    assert "no novelty before its illegal move at ply 11 (" in pdn.study.novelty.novelty_text(found)


def test_an_archive_game_under_other_rules_never_matches() -> None:
    english = pdn.parse_game("1. 11-15 23-19 2. 8-11 *")
    pool = pdn.parse_game('[GameType "23"]\n1. 11-15 23-19 2. 8-11 *')
    other = pdn.parse_game("1. 9-14 *")
    (found,) = find_novelties([english], [pool, other])
    assert (found.ply, found.move, found.archive_games) == (1, "11-15", 1)
    assert found.archive_moves == (("9-14", 1),)
    assert found.archive_other_rules == 1
    # The pool game alone is a novelty from its first move on, against an English archive.
    (pooled,) = find_novelties([pool], [english])
    assert (pooled.variant, pooled.ply, pooled.archive_games) == ("pool", 1, 0)
    played = list(replay_games([english]))
    tree = archive_tree([pool, other], played)
    assert archive_summary(tree, ["english"]) == (
        "archive: 2 games, 1 english; 1 under other rules, never matching (pool 1)"
    )


def test_a_transposition_is_no_novelty() -> None:
    # 9-14 22-17 11-15 reaches the position of the archive's 11-15 22-17 9-14.
    (found,) = find_novelties(
        [pdn.parse_game("1. 9-14 22-17 2. 11-15 25-22 *")],
        [pdn.parse_game("1. 11-15 22-17 2. 9-14 23-18 *"), pdn.parse_game("1. 9-14 22-17 *")],
    )
    assert (found.ply, found.move, found.archive_games) == (4, "25-22", 1)
    assert found.archive_moves == (("23-18", 1),)


def test_a_frisian_king_run_is_part_of_the_position() -> None:
    # The archive's kings shuffle back once; the game goes on shuffling: at ply 5 the board
    # is the archive's ply 1 again, but White's king has moved three times in a row and
    # may not move once more, so the position is new.
    fen = '[GameType "40"]\n[FEN "W:WK36,50:BK15,1"]\n'
    archive = pdn.parse_game(fen + "1. 36-31 15-20 2. 31-36 20-15 *")
    game = pdn.parse_game(fen + "1. 36-31 15-20 2. 31-36 20-15 3. 36-31 15-20 4. 50-45 *")
    (found,) = find_novelties([game], [archive])
    assert (found.variant, found.ply, found.move) == ("frisian", 5, "36-31")


def test_json_shape() -> None:
    (found,) = find_novelties([pdn.parse_game('[Event "E"]\n1. 11-15 24-20 *')], [str(ARCHIVE)])
    data = found.to_dict()
    assert list(data) == [
        "schema", "type", "game", "file", "line", "event", "date", "black", "white", "variant",
        "ply", "move", "fen", "archive_games", "archive_moves", "plies", "stopped",
        "archive_other_rules",
    ]  # fmt: skip
    assert (data["schema"], data["type"]) == ("pdn-json/1", "novelty")
    assert data["ply"] == 2 and data["move"] == "24-20" and data["event"] == "E"
    assert data["archive_games"] == 12
    assert data["archive_moves"][0] == {"move": "22-18", "games": 6}
    assert sum(m["games"] for m in data["archive_moves"]) == 12
    assert json.loads(json.dumps(data)) == data


# ------------------------------------------------------------------------------------- CLI


def write_changed(tmp_path: Path) -> tuple[Path, int, str]:
    archive = list(pdn.read_games(ARCHIVE))
    ply, move, _ = pick_change(archive[0], archive, range(5, 20))
    path = tmp_path / "mine.pdn"
    # A second game: the archive's own fourth game.
    text = changed_game(archive[0], ply, move) + "\n" + pdn.write_game(archive[3])
    path.write_text(text, encoding="utf-8")
    return path, ply, move


def test_cli_text_and_json(tmp_path: Path) -> None:
    path, ply, move = write_changed(tmp_path)
    code, out, _ = run("novelty", str(path), "--against", str(ARCHIVE), "-q")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(
        f"{path}:1: game 1 (Pawlek, Dennis - Oliphant, D., German Open 2004)"
    )
    assert f"novelty at ply {ply}, {move} (" in lines[0]
    assert "game 2" in lines[1] and "no novelty: all its 46 plies are in the archive" in lines[1]
    assert lines[-1] == (
        "2 games: 1 with a novelty, 1 wholly in the archive, 0 stopped before any novelty; "
        "archive: 15 games, 15 english"
    )
    code, out, _ = run(
        "novelty", str(path), "--against", str(ARCHIVE), "--format", "json", "-j", "2"
    )
    assert code == 0
    data = json.loads(out)
    assert (data["schema"], data["type"]) == ("pdn-json/1", "novelties")
    expected = find_novelties([str(path)], [str(ARCHIVE)])
    assert data["games"] == [n.to_dict() for n in expected]
    assert [d["ply"] for d in data["games"]] == [ply, None]
    assert data["summary"] == {
        "games": 2,
        "with_novelty": 1,
        "in_archive": 1,
        "stopped": 0,
        "archive": {
            "games": 15,
            "same_rules": {"english": 15},
            "other_rules": {},
            "unplayable": 0,
        },
    }


def test_cli_usage_errors(tmp_path: Path) -> None:
    code, _, err = run("novelty", str(ARCHIVE), "--against", str(ARCHIVE))
    assert code == 2 and "a FILE is also an --against ARCHIVE" in err
    code, _, err = run("novelty", str(ARCHIVE))
    assert code == 2 and "--against" in err
    code, _, err = run("annotate", "-", "--novelties", str(ARCHIVE))
    assert code == 2 and "not standard input" in err
    assert "Traceback" not in err


def test_cli_says_an_input_that_is_not_pdn(tmp_path: Path) -> None:
    binary = tmp_path / "binary.pdn"
    binary.write_bytes(bytes(range(256)) * 4)
    code, out, err = run("novelty", str(binary), "--against", str(ARCHIVE), "-q")
    assert code == 1
    assert err.startswith(f"{binary}:1:1: not-pdn: ")
    assert out.startswith("0 games: ")


def test_cli_says_reading_errors_and_still_compares(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.pdn"
    damaged.write_text('[Event "x"]\n1. 11-15 23-19 2. 8-11 ) 24-20 *\n', encoding="utf-8")
    code, out, err = run("novelty", str(damaged), "--against", str(ARCHIVE), "-q")
    assert code == 0
    assert err.startswith(f"{damaged}:2:")
    assert (
        "novelty at ply 4, 24-20 (2 archive games reached the position before: 22-17 2)" in out
    )  # the stray ) is left out


def test_annotate_writes_the_novelty_and_keeps_the_rest(tmp_path: Path) -> None:
    archive = list(pdn.read_games(ARCHIVE))
    ply, move, count = pick_change(archive[0], archive, range(5, 20))
    moves = [node.move or "" for node in archive[0].mainline()][: ply - 1]
    # Comments, a variation and a NAG around the novelty: all must come back as they were.
    text = (
        '[Event "Club"]\n[Black "A"]\n[White "B"]\n{before the moves} '
        + " ".join(moves)
        + f" {move} $1 {{mine}} (11-15 {{side}}) 1-0\n\n"
        + pdn.write_game(archive[3])
    )
    path = tmp_path / "club.pdn"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "out.pdn"
    code, _, err = run("annotate", str(path), "--novelties", str(ARCHIVE), "-o", str(out))
    assert code == 0, err
    assert "1 of 2 games with a novelty; archive: 15 games, 15 english" in err
    original = list(pdn.read_games(path))
    annotated = list(pdn.read_games(out))
    before = reached(archive[0])[ply - 1]
    node = list(annotated[0].mainline())[ply - 1]
    assert node.move == move
    assert [c.text for c in node.comments_after[:-1]] == ["mine"]
    written = ", ".join(f"{t} {n}" for t, n in moves_played(count, before))
    assert node.comments_after[-1].text == (
        "novelty: no game of the archive reached this position; "
        f"{count.games[before.key()]} archive games reached the one before: {written}"
    )
    # Everything else reads back as it was: without the comment, the file annotated without
    # --novelties; without the tags annotate adds too, the file itself.
    del node.comments_after[-1]
    plain = tmp_path / "plain.pdn"
    assert run("annotate", str(path), "-o", str(plain))[0] == 0
    assert annotated == list(pdn.read_games(plain))
    for game, was in zip(annotated, original, strict=True):
        for name in ("PlyCount", "Opening", "FinalFEN", "Termination"):
            if name in game.tags and name not in was.tags:
                del game.tags[name]
        assert game == was
    assert sum(len(n.comments_after) for g in original for n, _ in g.walk()) == 2


def test_annotate_novelties_in_place(tmp_path: Path) -> None:
    path, ply, _ = write_changed(tmp_path)
    code, _, err = run("annotate", str(path), "--novelties", str(ARCHIVE), "--in-place")
    assert code == 0, err
    (first, second) = pdn.read_games(path)
    node = list(first.mainline())[ply - 1]
    assert node.comments_after[-1].text.startswith("novelty: ")
    assert not any(
        c.text.startswith("novelty") for n in second.mainline() for c in n.comments_after
    )


# ---------------------------------------------------------------------------------- corpus


@needs_shared(OCA)
def test_a_changed_game_of_oca(tmp_path: Path) -> None:
    # Game 1000 of OCA 2.0, changed where it can go where no OCA game went.
    source = next(itertools.islice(pdn.read_games(OCA), 999, None))
    ply, move, count = pick_change(source, pdn.read_games(OCA), range(10, 30))
    path = tmp_path / "changed.pdn"
    path.write_text(changed_game(source, ply, move), encoding="utf-8")
    (found,) = find_novelties([str(path)], [str(OCA)], jobs=2)
    assert (found.ply, found.move) == (ply, move)
    before = reached(source)[ply - 1]
    assert found.archive_games == count.games[before.key()] >= 1
    assert list(found.archive_moves) == moves_played(count, before)
    assert found.archive_other_rules == 0
    assert isinstance(found, Novelty)


def test_worker_processes_give_the_same_novelties(tmp_path: Path) -> None:
    # 240 games: two batches of map_games, so that two workers replay them (FILES and archive).
    path, _, _ = write_changed(tmp_path)
    big = tmp_path / "big.pdn"
    one = ARCHIVE.read_text(encoding="utf-8") + "\n" + path.read_text(encoding="utf-8")
    big.write_text("\n".join([one] * 15), encoding="utf-8")
    alone = find_novelties([str(big)], [str(ARCHIVE)], jobs=1)
    assert len(alone) == 255
    assert find_novelties([str(big)], [str(ARCHIVE)], jobs=2) == alone
    mine = find_novelties([str(path)], [str(big)], jobs=1)
    assert find_novelties([str(path)], [str(big)], jobs=2) == mine
    assert mine[0].ply is None and mine[0].archive_games == 15  # its copies are the archive's
