"""Round trips over every PDN file of the shared corpus: faithful, normalised and JSON.

For each game: read -> write faithful -> read gives an equal game; read -> write normalised ->
read -> write normalised gives the same text and the same number of moves; read -> JSON -> read
gives an equal game.  Prints the counts (a long measurement, hence here and not in the tests;
``tests/test_reader_corpus.py`` asserts the same per file when the corpus is present).

    python benchmarks/corpus/corpus_round_trip.py [CORPUS_FOLDER]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/, for _support
from _support import CORPUS

import pdn
from pdn.writing.jsonio import dumps, game_from_dict, game_to_dict, loads


def main() -> int:
    """Count the games of the corpus that survive each round trip."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    folder: Path = parser.parse_args().corpus.resolve()
    files = sorted(folder.rglob("*.pdn"))
    if not files:
        print(f"no PDN files under {folder}", file=sys.stderr)
        return 2
    counts = dict.fromkeys(("games", "moves", "faithful", "normalised", "json"), 0)
    for path in files:
        for game in pdn.read_games(path):
            counts["games"] += 1
            counts["moves"] += game.count_moves()
            counts["faithful"] += pdn.parse_game(pdn.write_game(game)) == game
            normal = pdn.write_game(game, normalize=True)
            again = pdn.parse_game(normal)
            counts["normalised"] += (
                pdn.write_game(again, normalize=True) == normal
                and again.count_moves() == game.count_moves()
            )
            counts["json"] += game_from_dict(loads(dumps(game_to_dict(game)))) == game
    print(f"{len(files)} files, {counts['games']:,} games, {counts['moves']:,} moves")
    for way in ("faithful", "normalised", "json"):
        print(f"  {way:<10} {counts[way]:,} of {counts['games']:,} games round-trip")
    return 0 if all(counts[w] == counts["games"] for w in ("faithful", "normalised", "json")) else 1


if __name__ == "__main__":
    raise SystemExit(main())
