"""Damaged input through ``convert`` and back: how many mutants change their game count.

Each mutant is a real file of the corpus (a window of about 8 KB of it, cut at a line end)
with one to three random edits: a character among ``[ ] { } ( ) " \\n`` and the digits
deleted, inserted or doubled, or a tag line cut short. The mutant is read, converted to PDN
as ``pdn convert`` does (the faithful writer, :func:`pdn.writing.convert.convert_games`) and read
back. A mutant *changes its game count* when the text read back holds another number of
games; it *changes a game* when some game reads back to another faithful text. Both must
be 0: a damaged file is written back as it was read, junk and all (issue 22, item 4).

    python benchmarks/corpus/mutation_game_count.py [--mutants 2200] [--seed 22] [FOLDER ...]

Prints the counts and the first few mutants that fail (file, edits, counts). The tests run
the same check on a few hundred mutants of the vendored fixtures
(``tests/test_reader_damage.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/, for _support
from _support import CORPUS, ROOT

sys.path.insert(0, str(ROOT / "tests"))
# tests/mutations.py, shared with the tests
from mutations import mutate, round_trip

DEFAULTS = [CORPUS]
#: Characters of each window of a file that a mutant keeps.
WINDOW = 8_000


def windows(folders: list[Path], rng: random.Random, count: int) -> list[tuple[str, str]]:
    """``count`` (name, text) windows of the PDN files under ``folders``, drawn at random."""
    texts = []
    for folder in folders:
        for path in sorted(folder.resolve().rglob("*.pdn")):
            text = path.read_bytes().decode("utf-8", "replace")
            if text.strip():
                texts.append((str(path.relative_to(folder.resolve())), text))
    if not texts:
        raise SystemExit(f"no PDN files under {', '.join(map(str, folders))}")
    chosen = []
    for _ in range(count):
        name, text = rng.choice(texts)
        start = 0
        if len(text) > WINDOW:
            start = text.rfind("\n", 0, rng.randrange(len(text) - WINDOW)) + 1
        end = text.find("\n", start + WINDOW)
        chosen.append((name, text[start : end if end >= 0 else len(text)]))
    return chosen


def main() -> int:
    """Count the mutants whose game count or games change through convert."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, default=DEFAULTS)
    parser.add_argument("--mutants", type=int, default=2200)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--show", type=int, default=5, help="failing mutants to print")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    count_changed = games_changed = 0
    shown = 0
    for name, text in windows(args.folders, rng, args.mutants):
        mutant, edits = mutate(text, rng)
        first, back, same = round_trip(mutant)
        count_changed += first != back
        games_changed += first == back and not same
        if (first != back or not same) and shown < args.show:
            shown += 1
            print(f"{name}: {edits}: {first} games, {back} read back, same texts: {same}")
    total = args.mutants
    print(
        f"{total} mutants: {count_changed} ({100 * count_changed / total:.1f}%) change their "
        f"game count, {games_changed} more change a game's text"
    )
    return 1 if count_changed or games_changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
