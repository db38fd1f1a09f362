"""One replay, one choice of rules, for every command (issue 21): a position ``pdn convert``
writes is found by ``pdn select --fen``, and ``pdn select --clean`` keeps exactly the games
``pdn validate`` calls ok, for records whose rules are guessed (no GameType) and retried."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_paths import WIEGERW_GAMES, needs_shared

import pdn
from pdn.cli import main
from pdn.collections.batch import BATCH_SIZE, validate_files
from pdn.collections.selection import Selection
from pdn.engine import VARIANTS, Position, Variant
from pdn.rules.replays import Replays
from pdn.text.notation import move_texts

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "corpus" / "wiegerw__pdn" / "games"
ITALIAN = FIXTURES / "succeed" / "Campionato Assoluto 2005.pdn"
CZECH = FIXTURES / "succeed" / "mrcd2006.pdn"


def random_record(variant: Variant, rng: random.Random) -> str:
    """A random legal game of ``variant`` (20 to 40 plies), written without any tag."""
    position = Position.start(variant)
    texts: list[str] = []
    for _ in range(rng.randint(20, 40)):
        moves = list(position.legal_moves())
        if not moves:
            break
        pick = rng.randrange(len(moves))
        texts.append(move_texts(moves, variant)[pick])
        position = position.play(moves[pick])
    numbered = [(f"{k // 2 + 1}. " if k % 2 == 0 else "") + text for k, text in enumerate(texts)]
    return " ".join(numbered) + " *\n"


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def moves_of(text: str) -> list[tuple[str, ...]]:
    return [tuple(game.mainline_moves()) for game in pdn.parse_games(text)]


def check_file(path: Path, games: int = 3, plies: int = 3) -> int:
    """For a few games and plies of ``path``: ``select --fen`` of the position convert writes
    finds the game, and ``select --clean`` keeps the games validate calls ok. Returns how
    many positions were looked for."""
    every = moves_of(path.read_text(encoding="utf-8", errors="replace"))
    rows = list(csv.reader(io.StringIO(run("convert", "-q", "--to", "csv", str(path)))))[1:]
    rng = random.Random(str(path.name))
    looked = 0
    for index in range(1, min(games, len(every)) + 1):
        fens = [(row[1], row[5]) for row in rows if row[0] == str(index) and row[5]]
        for ply, fen in rng.sample(fens, min(plies, len(fens))):
            found = moves_of(run("select", "--fen", fen, str(path)))
            assert every[index - 1] in found, (path.name, index, ply, fen)
            looked += 1
    verdicts = [
        json.loads(line)
        for line in run("validate", "-q", "--format", "ndjson", str(path)).splitlines()
    ]
    ok = [
        every[v["index"] - 1]
        for v in verdicts
        if v.get("type") == "verdict" and v["status"] == "ok"
    ]
    assert moves_of(run("select", "--clean", str(path))) == ok
    return looked


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_random_games_of_every_variant_are_found_where_convert_puts_them(
    name: str, tmp_path: Path
) -> None:
    rng = random.Random(f"one replay {name}")
    path = tmp_path / f"{name}.pdn"
    path.write_text("\n".join(random_record(VARIANTS[name], rng) for _ in range(3)))
    # Each position found, whatever rules validate chose (a look-alike that replays them
    # identically, or a guess that stays an error: pool records read as English): select
    # agrees with validate either way (check_file).
    assert check_file(path) >= 3  # fewer where the replay stops early (a guess's error)


@pytest.mark.parametrize("path", [ITALIAN, CZECH], ids=["italian", "czech"])
def test_italian_and_czech_records_are_found_where_convert_puts_them(path: Path) -> None:
    assert "GameType" not in path.read_text(encoding="utf-8", errors="replace")
    assert check_file(path, games=4) > 0


def test_the_italian_game_is_found_though_its_rules_come_from_a_retry() -> None:
    # No GameType: the guess (English) fails at the first move, and the retry replays it as
    # Italian; select once replayed the guess and found nothing.
    report = Replays().of(next(iter(pdn.read_games(ITALIAN))), str(ITALIAN))
    assert report.variant is not None and report.variant.name == "italian"
    assert report.rules_source == "replay"
    steps = list(report.mainline_steps())
    assert steps[7].after is not None
    found = run("select", "--count", "--fen", steps[7].after.fen(), str(ITALIAN))
    assert int(found) >= 1


def test_piped_text_is_replayed_as_validate_replays_it() -> None:
    text = "1. 21-18 11-15 2. 22-19 15x22 *\n"
    fen = "W:W18,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,22"
    rows = list(csv.reader(io.StringIO(run_input(text, "convert", "--to", "csv", "-"))))
    assert rows[-1][5] == fen
    assert run_input(text, "select", "--count", "--fen", fen, "-") == "1\n"
    assert run_input(text, "select", "--count", "--clean", "-") == "1\n"


def run_input(text: str, *args: str) -> str:
    result = CliRunner().invoke(main, list(args), input=text, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


@needs_shared(WIEGERW_GAMES / "fail" / "mrdrcd07.pdn")
def test_a_czech_file_of_the_corpus_whose_ties_the_file_breaks() -> None:
    # Its sixth game replays under Czech rules only because the earlier games did.
    assert check_file(WIEGERW_GAMES / "fail" / "mrdrcd07.pdn", games=6, plies=2) > 0


# A record that Russian, Brazilian and Czech rules all replay, but whose guess (Russian) fails:
# the earlier games of its file break the tie.
TIE = (
    '[Event "t"]\n1. a3-b4 f6-g5 2. c3-d4 b6-c5 3. d4xb6 a7xa3 4. g3-h4 e7-f6 5. f2-g3 d6-e5 '
    "6. d2-c3 c7-d6 7. e1-f2 b8-c7 8. g3-f4 e5xe1 *\n"
)
CZECH_GAME = '[GameType "29"]\n1. c3-d4 f6-g5 *\n'


def tie_file(tmp_path: Path, games: int) -> Path:
    path = tmp_path / "mixed.pdn"
    path.write_text("\n".join(CZECH_GAME if k % 3 else TIE for k in range(games)))
    return path


def test_a_tie_is_broken_by_the_earlier_games_even_when_select_skips_them(
    tmp_path: Path,
) -> None:
    path = tie_file(tmp_path, 9)
    verdicts = list(validate_files([str(path)]))
    assert [v.rules_source for v in verdicts if v.tag("Event") == "t"][1:] == ["replay-file"] * 2
    # The Czech games are left out by a tag condition: never replayed, yet they count.
    out = run("select", "--event", "^t$", "--clean", str(path))
    assert len(moves_of(out)) == sum(v.status == "ok" for v in verdicts if v.tag("Event") == "t")
    assert len(moves_of(out)) == 2


def test_replays_never_count_across_files(tmp_path: Path) -> None:
    czech = tmp_path / "czech.pdn"
    czech.write_text("\n".join([CZECH_GAME] * 3))
    alone = tmp_path / "alone.pdn"
    alone.write_text(TIE)
    replays = Replays()
    for game in pdn.read_games(czech):
        replays.of(game, str(czech))
    report = replays.of(next(iter(pdn.read_games(alone))), str(alone))
    assert report.status == "illegal"  # alone in its file, the guess stands
    with pytest.raises(ValueError):
        replays.of(pdn.parse_game(TIE), "")


def test_workers_and_dask_pieces_replay_as_one_process(tmp_path: Path) -> None:
    path = tie_file(tmp_path, BATCH_SIZE * 2 + 50)
    alone = [(v.index, v.status, v.variant) for v in validate_files([str(path)])]
    assert alone == [(v.index, v.status, v.variant) for v in validate_files([str(path)], jobs=2)]
    pdn_dask = pytest.importorskip("pdn.dask")
    pytest.importorskip("dask.bag")
    import dask

    pieces = pdn_dask.pieces([str(path)], piece_bytes=2000)
    assert len(pieces) > 3
    assert any(piece.games % BATCH_SIZE for piece in pieces)  # cut inside a block
    with dask.config.set(scheduler="sync"):
        found = pdn_dask.verdicts([str(path)], piece_bytes=2000).compute()
    assert [(v.index, v.status, v.variant) for v in found] == alone


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_games_with_a_gametype_are_found_by_a_replay_of_their_beginning(
    name: str, tmp_path: Path
) -> None:
    # Certain rules: select replays longer and longer beginnings (8 plies, 32...), and finds
    # what the whole replay (convert's) has.
    variant = VARIANTS[name]
    rng = random.Random(f"tagged {name}")
    path = tmp_path / f"{name}.pdn"
    records = [
        f'[GameType "{variant.game_type}"]\n' + random_record(variant, rng) for _ in range(3)
    ]
    path.write_text("\n".join(records))
    assert check_file(path, plies=4) >= 9


def test_a_beginning_is_enough_only_where_the_rules_are_certain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pdn.rules.replays

    replayed: list[int] = []
    real = pdn.rules.replays.validate

    def counting(game: pdn.Game, *args: object, **kwargs: object) -> pdn.Report:
        replayed.append(len(game.mainline_moves()))
        return real(game, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pdn.rules.replays, "validate", counting)
    record = random_record(VARIANTS["russian"], random.Random(7))
    tagged = pdn.parse_game('[GameType "25"]\n' + record)
    total = len(tagged.mainline_moves())
    assert total > 20
    second = pdn.validate(pdn.parse_game(record), "russian").steps[1].after
    assert second is not None
    chosen = Selection(fen=second.fen())
    assert chosen.marks(tagged, "t.pdn") == {2: ["--fen"]}
    assert replayed == [8]  # the first eight plies, not the game
    replayed.clear()
    # Without a GameType a retry may change the rules: the whole game is replayed.
    assert Selection(fen=second.fen()).marks(pdn.parse_game(record), "u.pdn") is not None
    assert replayed == [total]
