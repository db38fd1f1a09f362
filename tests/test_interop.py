"""Another program reads what ``pdn convert`` writes: pydraughts (a test dependency, an
independent PDN reader and rules engine) reads our output for English, International and
Russian games in each mode, and replays every game to the final position our engine reaches.

The games come from the examples and the vendored corpus sample, so the test runs on a fresh
clone. Limits of pydraughts 0.6.7 decide what is asked of it:

* it splits captures on ``x`` only, so it cannot read ``:``, the PDN 3.0 separator of Russian:
  Russian output is written with ``--separator x`` (and the default ``:`` is checked to be used
  in every mode, so the choice is one per variant);
* it reads a numeric FEN of an algebraic variant with a numbering of its own, and a FEN with a
  trailing ``.`` not at all: the modes that keep the FEN as read (faithful, ``--captures``)
  give it exactly the games it reads from the source text, each other game having such a FEN
  (checked); ``--normalize`` and ``--squares`` write the canonical FEN, and every game replays;
* it reads ``1... 35-40`` (a game whose first move is the second mover's) as that move twice:
  such games are left out (one of Cat.D1.pdn), as are games that do not replay for us;
* algebraic squares on numeric boards (English, International) and numeric Russian squares are
  not its notation, so those ``--squares`` modes are not asked of it.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import pdn
from pdn.cli import main
from pdn.engine import Position, get_variant

pytestmark = pytest.mark.oracle

draughts = pytest.importorskip("draughts")
from draughts.PDN import PDNReader  # noqa: E402 (only once pydraughts is known to be there)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "fixtures" / "corpus"

#: Our variant name -> pydraughts' name.
PYDRAUGHTS = {"english": "english", "international": "standard", "russian": "russian"}

FILES = {
    "english": [ROOT / "examples" / "german-open-2004.pdn"],
    "international": [
        SAMPLE / "rhalbersma__mobydam" / "book" / "games" / "flankgam.pdn",
        SAMPLE / "wiegerw__pdn" / "games" / "succeed" / "Cat.D1.pdn",
    ],
    "russian": [
        SAMPLE
        / "jpalaz__Draughts-Games"
        / "belarus64M2015"
        / "round1"
        / "index.files"
        / "index.pdn",
        SAMPLE / "wiegerw__pdn" / "games" / "succeed" / "alphanumeric.pdn",
        ROOT / "examples" / "russian-setup.pdn",
    ],
}

_NUMERIC_MODES = [["--normalize"], ["--captures", "full"], ["--squares", "numeric"]]
MODES = {
    "english": _NUMERIC_MODES,
    "international": _NUMERIC_MODES,
    "russian": [
        [*mode, "--separator", "x"]
        for mode in (["--normalize"], ["--captures", "full"], ["--squares", "algebraic"])
    ],
}


def convert(path: Path, *mode: str) -> str:
    result = CliRunner().invoke(main, ["convert", str(path), *mode], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def replayed(text: str, variant: str) -> list[dict[int, Any] | None]:
    """pydraughts' reading of ``text``: per game, the pieces of the final position after
    replaying every move (``None`` when it cannot read or replay the game)."""
    finals: list[dict[int, Any] | None] = []
    rules = get_variant(variant)
    for game in PDNReader(pdn_text=text).games:
        fen = game.tags.get("FEN")
        try:
            board = (
                draughts.Board(PYDRAUGHTS[variant], fen)
                if fen
                else draughts.Board(PYDRAUGHTS[variant])
            )
            for move in game.moves:
                board.push(draughts.Move(board, pdn_move=move))
            finals.append(Position.from_fen(board.fen, rules).pieces())
        except Exception:
            finals.append(None)
    return finals


@functools.cache
def source_finals(path: Path, variant: str) -> list[dict[int, Any] | None]:
    """pydraughts' reading of the source file itself."""
    return replayed(path.read_text(encoding="utf-8", errors="replace"), variant)


@functools.cache
def our_finals(path: Path, variant: str) -> list[dict[int, Any] | None]:
    """Per game of ``path``: our final position, ``None`` for a game pydraughts is not asked
    to read (not replayed cleanly by us, or numbered from the second mover)."""
    finals: list[dict[int, Any] | None] = []
    rules = get_variant(variant)
    for game in pdn.read_games(path):
        report = pdn.validate(game, variant)
        start = report.start
        odd_start = start is not None and start.turn != rules.first_mover
        usable = report.status == "ok" and report.final is not None and not odd_start
        finals.append(report.final.pieces() if usable and report.final is not None else None)
    return finals


CASES = [
    pytest.param(variant, path, mode, id=f"{variant}-{path.name}-{'_'.join(mode) or 'faithful'}")
    for variant, paths in FILES.items()
    for path in paths
    for mode in [[], *MODES[variant]]
]


@pytest.mark.parametrize(("variant", "path", "mode"), CASES)
def test_pydraughts_replays_our_output(variant: str, path: Path, mode: list[str]) -> None:
    ours = our_finals(path, variant)
    theirs = replayed(convert(path, *mode), variant)
    assert len(theirs) == len(ours), "pydraughts reads as many games as we wrote"
    asked = [i for i, final in enumerate(ours) if final is not None]
    assert asked, "the sample holds games to check"
    if "--normalize" in mode or "--squares" in mode:
        # The FEN is rewritten too: every game replays, to our final position.
        assert [theirs[i] for i in asked] == [ours[i] for i in asked]
        return
    # The FEN is kept as read (faithful, or only captures rewritten): a game replays to our
    # final position exactly when pydraughts replays the source game, and one it cannot read
    # is one whose kept FEN is not canonical.
    source = source_finals(path, variant)
    fens = [game.tags.get("FEN") for game in pdn.read_games(path)]
    rules = get_variant(variant)
    for i in asked:
        if source[i] is not None:
            assert theirs[i] == ours[i], f"game {i + 1}"
        else:
            fen = fens[i]
            assert theirs[i] is None and fen is not None, f"game {i + 1}"
            assert fen != Position.from_fen(fen, rules).fen(), f"game {i + 1}: {fen}"


@pytest.mark.parametrize(
    "mode",
    [["--normalize"], ["--captures", "full"], ["--captures", "short"], ["--squares", "algebraic"]],
)
def test_russian_captures_use_one_separator_in_every_mode(mode: list[str]) -> None:
    path = FILES["russian"][0]
    text = convert(path, *mode)
    moves = [move for game in pdn.parse_games(text) for move in game.mainline_moves()]
    captures = [move for move in moves if "-" not in move]
    assert captures, "the sample holds captures"
    assert all(":" in move and "x" not in move for move in captures)
    # Asked for, "x" is used instead, everywhere.
    again = [
        move
        for game in pdn.parse_games(convert(path, *mode, "--separator", "x"))
        for move in game.mainline_moves()
        if "-" not in move
    ]
    assert again == [move.replace(":", "x") for move in captures]
