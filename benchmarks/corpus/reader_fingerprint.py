"""A fingerprint of everything the reader builds from each file of the corpus, to compare.

    python benchmarks/corpus/reader_fingerprint.py OUT.json [CORPUS_FOLDER ...]
    python benchmarks/corpus/reader_fingerprint.py OUT.json --compare BEFORE.json

For every PDN file under the folders (default: the shared corpus and ``tests/fixtures``) each
game is read four ways (``read_games`` on the path, ``parse_games`` on its bytes and on its
text, ``read_game`` on an open file for files under 2 MB) and hashed: its tags, terminator,
variant and why, GameType, encoding, line, index and problems; every node of its tree with
each slot as stored (move, setup, number, strength, NAGs, comments before and after, line,
column, and where it hangs); its JSON record and its PDN text.  A fifth hash per file is of
each game's replay: its JSON record with the validation report (status, every problem, and
per ply the side, squares, path and FEN after it).  Hashes are written per file and way, so a
change that makes the reader or the replay faster can be shown to give the very same models
and verdicts (``--compare`` prints the files that differ and exits 1).  Equality of games
leaves positions and lazily made lists out; this does not.  It takes about a minute.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/, for _support
from _support import CORPUS, ROOT

import pdn
from pdn.game.model import Game, Node
from pdn.rules.validation import validate
from pdn.writing.jsonio import game_to_dict

DEFAULTS = [CORPUS, ROOT / "tests" / "fixtures"]
#: Files larger than this are not read again game by game through ``read_game``.
READ_GAME_LIMIT = 2_000_000


def node_records(root: Node) -> Iterable[str]:
    """Each node below ``root`` (itself included) in pre-order, every slot as stored."""
    index: dict[int, int] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        index[id(node)] = len(index)
        parent = node.parent
        yield repr(
            (
                node.move,
                node.setup,
                node.number,
                node.strength,
                node._nags,
                node._before,
                node._after,
                node.line,
                node.column,
                len(node.variations),
                None if parent is None else index.get(id(parent)),
                parent is not None and any(child is node for child in parent.variations),
            )
        )
        stack.extend(reversed(node.variations))


def game_hash(game: Game) -> str:
    """The hash of one game, everything the reader made of it included."""
    digest = hashlib.sha256()
    head = (game.tags.items(), game.terminator, game.variant, game.variant_source)
    rest = (game.variant_evidence, repr(game.game_type), game.encoding, game.line, game.index)
    digest.update(repr((head, rest, game.errors)).encode())
    for record in node_records(game.root):
        digest.update(record.encode() + b"\n")
    digest.update(json.dumps(game_to_dict(game)).encode())
    digest.update(str(game).encode())
    return digest.hexdigest()


def games_hash(games: Iterable[Game]) -> str:
    """The hash of a sequence of games, in order."""
    digest = hashlib.sha256()
    for game in games:
        digest.update(game_hash(game).encode())
    return digest.hexdigest()


def read_one_by_one(path: Path) -> Iterable[Game]:
    """The games of a file through ``pdn.read_game``."""
    with open(path, "rb") as handle:
        while (game := pdn.read_game(handle)) is not None:
            yield game


def file_hashes(path: Path) -> dict[str, str]:
    """The hash of each way of reading ``path``."""
    data = path.read_bytes()
    hashes = {
        "read_games": games_hash(pdn.read_games(path)),
        "parse_bytes": games_hash(pdn.parse_games(data)),
        "parse_text": games_hash(pdn.parse_games(data.decode("utf-8", "replace"))),
    }
    if len(data) < READ_GAME_LIMIT:
        hashes["read_game"] = games_hash(read_one_by_one(path))
    replay = hashlib.sha256()
    for game in pdn.read_games(path):
        replay.update(json.dumps(game_to_dict(game, validate(game))).encode())
    hashes["replay"] = replay.hexdigest()
    return hashes


def main() -> int:
    """Write the fingerprint; with ``--compare``, say where it differs from an earlier one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--compare", type=Path, metavar="BEFORE")
    args = parser.parse_args()
    folders: list[Path] = args.folders or DEFAULTS
    result: dict[str, dict[str, str]] = {}
    for folder in folders:
        for path in sorted(folder.resolve().rglob("*.pdn")):
            result[str(path.relative_to(folder.resolve().parent))] = file_hashes(path)
    args.out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(result)} files fingerprinted into {args.out}")
    if args.compare is None:
        return 0
    before = json.loads(args.compare.read_text(encoding="utf-8"))
    differing = sorted(
        name for name in set(before) | set(result) if before.get(name) != result.get(name)
    )
    for name in differing:
        print(f"differs: {name}")
    print("identical" if not differing else f"{len(differing)} files differ")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
