"""Issue 33, section 5: ``pdn select`` says how many games it kept and exits 1 when none,
picks games by number (``--games``), writes the games it leaves out in the same pass
(``--rest``), and ``--ballot`` replays a game without GameType only as far as it needs."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_paths import WIEGERW_GAMES, needs_shared

import pdn
from pdn.cli import main
from pdn.collections.selection import Selection, parse_numbers, partition_games, select_games
from pdn.rules.openings import classify
from pdn.rules.replays import Replays

# Ten English games without GameType; the first plies put games 3 and 8 on ballot 38
# (9-14 22-17 11-15, in another order in 8), the others on other ballots.
OPENINGS = [
    "11-15 23-19 8-11",
    "11-15 22-17 8-11",
    "9-14 22-17 11-15",
    "11-15 24-20 8-11",
    "10-14 22-17 11-15",
    "12-16 24-20 8-12",
    "9-13 22-18 10-14",
    "11-15 22-17 9-14",
    "10-15 23-18 12-16",
    "11-16 22-18 16-20",
]
GAMES = "\n".join(
    f'[Event "E{number}"]\n[Round "{number}"]\n1. {line} *\n'
    for number, line in enumerate(OPENINGS, 1)
)


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def events(text: str) -> list[str]:
    return [game.tags["Event"] for game in pdn.parse_games(text)]


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(GAMES, encoding="utf-8")
    return path


# --- the count line and the exit status ------------------------------------------------------


def test_the_count_goes_to_standard_error_and_the_games_to_standard_output(games: Path) -> None:
    code, out, err = run("select", "--event", "E[12]$", str(games))
    assert code == 0
    assert events(out) == ["E1", "E2"]
    assert err == "2 kept of 10 games read\n"


def test_no_game_kept_is_exit_status_1_as_grep(games: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "none.pdn"
    code, _, err = run("select", "--player", "nobody", str(games), "-o", str(out_file))
    assert code == 1
    assert err == "0 kept of 10 games read\n" and out_file.read_text() == ""
    # --count prints the number alone, and tells the same by its status.
    assert run("select", "--player", "nobody", "--count", str(games)) == (1, "0\n", "")
    assert run("select", "--event", "E1$", "--count", str(games)) == (0, "1\n", "")


# --- --games -------------------------------------------------------------------------------


def test_games_picks_by_number_and_range(games: Path) -> None:
    code, out, err = run("select", "--games", "7-8,2", str(games))
    assert code == 0 and events(out) == ["E2", "E7", "E8"]
    # Nothing after the last number can be kept: the file is read no further.
    assert err == "3 kept of 8 games read\n"
    assert events(run("select", "--games", "9-", str(games))[1]) == ["E9", "E10"]
    assert events(run("select", "--games", "2,4", "--invert", str(games))[1]) == [
        f"E{n}" for n in (1, 3, *range(5, 11))
    ]


def test_games_are_numbered_across_files_and_go_with_other_conditions(
    games: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.pdn"
    other.write_text(GAMES.replace('"E', '"F'), encoding="utf-8")
    assert events(run("select", "--games", "10-11", str(games), str(other))[1]) == ["E10", "F1"]
    assert events(run("select", "--games", "1-5", "--event", "[135]$", str(games))[1]) == [
        "E1",
        "E3",
        "E5",
    ]


@pytest.mark.parametrize("spec", ["0", "3-1", "x", "1,,2", "-4", "2-x"])
def test_a_malformed_games_is_a_usage_error(games: Path, spec: str) -> None:
    code, _, err = run("select", "--games", spec, str(games))
    assert code == 2 and "--games" in err


def test_parse_numbers_merges_ranges() -> None:
    numbers = parse_numbers("10-20,5,15-25,26")
    assert numbers.spans == ((5, 5), (10, 26)) and numbers.last == 26
    assert 5 in numbers and 26 in numbers and 6 not in numbers and 27 not in numbers


# --- --rest ----------------------------------------------------------------------------------


def test_rest_gets_every_game_not_kept_as_read(games: Path, tmp_path: Path) -> None:
    rest = tmp_path / "rest.pdn"
    code, out, err = run("select", "--event", "E[12]$", "--rest", str(rest), str(games))
    assert code == 0 and events(out) == ["E1", "E2"]
    assert events(rest.read_text()) == [f"E{n}" for n in range(3, 11)]
    assert err == f"2 kept of 10 games read, 8 written to {rest}\n"
    # Both files together are the input, each game's text as it was.
    kept_and_rest = [g.rstrip("\n") for g in (out + "\n" + rest.read_text()).split("\n\n")]
    assert sorted(kept_and_rest) == sorted(g.rstrip("\n") for g in GAMES.split("\n\n"))


def test_rest_with_first_and_games_reads_to_the_end(games: Path, tmp_path: Path) -> None:
    rest = tmp_path / "rest.pdn"
    code, out, _ = run("select", "--first", "2", "--rest", str(rest), str(games))
    assert code == 0 and events(out) == ["E1", "E2"]
    assert events(rest.read_text()) == [f"E{n}" for n in range(3, 11)]
    run("select", "--games", "3", "--rest", str(rest), str(games))
    assert events(rest.read_text()) == [f"E{n}" for n in (1, 2, *range(4, 11))]


def test_rest_when_nothing_is_kept_holds_every_game(games: Path, tmp_path: Path) -> None:
    rest = tmp_path / "rest.pdn"
    code, out, _ = run("select", "--player", "nobody", "--rest", str(rest), str(games))
    assert (code, out) == (1, "")
    assert len(events(rest.read_text())) == 10


def test_rest_never_overwrites_an_input_nor_the_output(games: Path, tmp_path: Path) -> None:
    before = games.read_bytes()
    code, _, err = run("select", "--games", "1", "--rest", str(games), str(games))
    assert (
        code == 2
        and "refusing to overwrite a file pdn reads" in err
        and games.read_bytes() == before
    )
    out = tmp_path / "out.pdn"
    code, _, err = run("select", "--games", "1", "--rest", str(out), "-o", str(out), str(games))
    assert code == 2 and "different files" in err and not out.exists()


# --- --ballot: as far as the condition needs ------------------------------------------------


def test_ballot_replays_whole_only_the_games_its_first_plies_put_on_it(
    games: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pdn.collections.selection

    models = []
    parse_raw = pdn.collections.selection.parse_raw
    monkeypatch.setattr(
        pdn.collections.selection, "parse_raw", lambda raw: models.append(raw) or parse_raw(raw)
    )
    selection = Selection(ballot=38)
    kept = [picked.index for picked in select_games([str(games)], selection)]
    assert kept == [3, 8]
    # Without GameType a whole replay settles the rules; only the two candidates needed one
    # (every game was replayed whole before), and no game was made a tree of nodes: each is
    # read for its replay alone.
    assert selection._replays.replayed == 2
    assert models == []


def test_ballot_keeps_what_validates_replay_puts_on_the_ballot() -> None:
    # Ballot 38 by its first plies: an Italian game (no ballots) is left out; an English one
    # with an illegal move later stays English, on the ballot, as validate replays it.
    italian = '[Event "I"]\n[GameType "22"]\n1. 9-14 22-17 2. 11-15 *\n'
    slip = '[Event "S"]\n1. 9-14 22-17 2. 11-15 17-10 *\n'
    branch = '[Event "B"]\n1. 9-14 (11-15) 22-17 {c} 2. 11-15 (2. 5-9) 25-22 *\n'
    text = "\n".join([GAMES, italian, slip, branch])
    chosen = list(select_games([io.StringIO(text)], Selection(ballot=38)))
    replays = Replays()
    expected = []
    for game in pdn.parse_games(text):
        opening = classify(game, replays.of(game, "f"))
        if opening.kind == "ballot" and opening.number == 38:
            expected.append(game.index)
    assert [picked.index for picked in chosen] == expected == [3, 8, 12, 13]
    long = Selection(ballot=38, min_plies=4)
    assert [p.index for p in select_games([io.StringIO(text)], long)] == [12, 13]


@needs_shared(WIEGERW_GAMES)
@pytest.mark.parametrize("name", ["OCA_2.0.pdn", "inferno.pdn"])
def test_ballot_agrees_with_the_whole_replay_on_real_files(name: str) -> None:
    path = WIEGERW_GAMES / "succeed" / name
    replays = Replays()
    by_ballot: dict[int, list[int]] = {}
    for game in pdn.read_games(str(path)):
        opening = classify(game, replays.of(game, str(path)))
        if opening.kind == "ballot" and opening.number is not None:
            by_ballot.setdefault(opening.number, []).append(game.index)
    assert by_ballot
    for number, expected in by_ballot.items():
        found = [p.index for p in select_games([str(path)], Selection(ballot=number))]
        assert found == expected, number


def test_partition_gives_every_game_once_in_order(games: Path) -> None:
    selection = Selection(ballot=38, first=1)
    parts = [(p.index, p.kept) for p in partition_games([str(games)], selection)]
    assert parts == [(n, n == 3) for n in range(1, 11)]
