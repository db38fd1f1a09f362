"""A fingerprint of what every command prints for each file of the corpus, to compare builds.

    python benchmarks/corpus/command_outputs.py OUT.json [--checkout DIR] [FOLDER ...]
    python benchmarks/corpus/command_outputs.py OUT.json --compare BEFORE.json

Each PDN file under the folders (default: the shared corpus and ``tests/fixtures``) goes
through the commands of :data:`COMMANDS` (validate as text and JSON; convert to PDN, JSON and
CSV, normalised and stripped; annotate with FENs and problems; openings and report in every
format; explore; select --clean; view), run in this
process through click's test runner; each output and exit status is hashed. ``--checkout``
imports pdn from another clone (an earlier commit's worktree), so that a change meant to keep
every output (a refactoring of the replay, say) can be shown to: ``--compare`` prints each
(command, file) whose output differs and exits 1. It takes a few minutes.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/, for _support
from _support import CORPUS, ROOT

DEFAULTS = [CORPUS, ROOT / "tests" / "fixtures"]

#: Each command's arguments before the file, by the name its results are kept under.
COMMANDS: dict[str, list[str]] = {
    "validate": ["validate", "-q"],
    "validate-json": ["validate", "-q", "--format", "json"],
    "convert-pdn": ["convert", "-q"],
    "convert-json": ["convert", "-q", "--to", "json"],
    "convert-csv": ["convert", "-q", "--to", "csv"],
    "annotate": ["annotate", "-q", "--fen", "--problems"],
    "openings": ["openings", "-q"],
    "report": ["report", "-q", "--format", "json"],
    "report-text": ["report", "-q", "--width", "72"],
    "report-markdown": ["report", "-q", "--format", "markdown"],
    "report-html": ["report", "-q", "--format", "html"],
    "report-csv-standings": ["report", "-q", "--format", "csv"],
    "report-csv-crosstable": ["report", "-q", "--format", "csv", "--table", "crosstable"],
    "report-csv-games": ["report", "-q", "--format", "csv", "--table", "games"],
    "report-csv-openings": ["report", "-q", "--format", "csv", "--table", "openings"],
    "openings-csv": ["openings", "-q", "--format", "csv"],
    "openings-json": ["openings", "-q", "--format", "json"],
    "openings-markdown": ["openings", "-q", "--format", "markdown"],
    "openings-stats": ["openings", "-q", "--stats"],
    "openings-stats-csv": ["openings", "-q", "--stats", "--format", "csv"],
    "openings-stats-json": ["openings", "-q", "--stats", "--format", "json"],
    "openings-stats-markdown": [
        "openings",
        "-q",
        "--stats",
        "--format",
        "markdown",
        "--sort",
        "games",
    ],
    "explore": ["explore", "-q", "--depth", "12"],
    "explore-json": ["explore", "-q", "--depth", "12", "--format", "json"],
    "convert-stripped": ["convert", "-q", "--no-comments", "--no-variations", "--no-nags"],
    "convert-normalize": ["convert", "-q", "--normalize"],
    "select-clean": ["select", "--clean"],
    "view": ["view", "-q"],
}


@contextlib.contextmanager
def _inside(folder: Path) -> Iterator[None]:
    # contextlib.chdir is Python 3.11's.
    here = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(here)


def fingerprint(folders: list[Path]) -> dict[str, dict[str, str]]:
    """``{command: {file: hash of exit status and output}}`` for every file and command; each
    file is named relative to its folder, from which the commands run (outputs name it so)."""
    import secrets

    from click.testing import CliRunner

    from pdn.cli import main

    # The viewer's page has a random element id: fixed, so that pages compare.
    secrets.randbits = lambda bits: 0
    runner = CliRunner()
    out: dict[str, dict[str, str]] = {name: {} for name in COMMANDS}
    for folder in folders:
        if not folder.is_dir():
            continue
        with _inside(folder):
            for path in sorted(p.relative_to(".") for p in Path(".").rglob("*.pdn")):
                for name, args in COMMANDS.items():
                    result = runner.invoke(main, [*args, str(path)], catch_exceptions=True)
                    digest = hashlib.sha256(f"{result.exit_code}\n".encode())
                    digest.update(result.stdout_bytes)
                    out[name][f"{folder.name}/{path.as_posix()}"] = digest.hexdigest()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--compare", type=Path, metavar="BEFORE")
    parser.add_argument("--checkout", type=Path, help="import pdn from this clone")
    args = parser.parse_args()
    if args.compare:
        before = json.loads(args.compare.read_text(encoding="utf-8"))
        after = json.loads(args.out.read_text(encoding="utf-8"))
        differ = [
            f"{name}: {file}"
            for name in sorted(set(before) | set(after))
            for file in sorted(set(before.get(name, {})) | set(after.get(name, {})))
            if before.get(name, {}).get(file) != after.get(name, {}).get(file)
        ]
        print("\n".join(differ) or "every output is the same")
        return 1 if differ else 0
    if args.checkout:
        # The clone's source roots: pdn, and the engine and grammar packages beside it, so
        # that none of them comes from the installed checkout instead.
        root = args.checkout.resolve()
        for folder in (root / "grammars", root / "engine", root):
            if folder.is_dir():
                sys.path.insert(0, str(folder))
    out = args.out.resolve()
    result = fingerprint([folder.resolve() for folder in args.folders or DEFAULTS])
    out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(result['validate'])} files x {len(COMMANDS)} commands -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
