"""Mutants through the CLI, in this process: no traceback, no hang, no game lost or gained.

Each mutant (:mod:`mutations`: damaged PDN bytes, or structurally edited JSON records) is
written to a scratch file and given to ``pdn validate``, ``pdn select --count``,
``pdn convert -o OUT`` and ``pdn convert --in-place`` through click's :class:`CliRunner` (no
process to start), each under an alarm so that a hang is a finding, not a stuck run. A mutant
fails when a command

- ends in an uncaught exception (anything but click's own exits) or prints ``Traceback``;
- runs past :data:`TIMEOUT` seconds;
- counts fewer games than the library reads from the file (``validate``'s summary,
  ``select --count``);
- writes, through ``convert``, a PDN file that reads back to another number of games
  than the mutant holds (a *game-count change*): the games read from the mutant are those
  :func:`pdn.collections.inputs.iter_games` gives (what every command reads, empty games with a
  problem
  of :data:`pdn.text.problems.NO_GAME_CODES` left out: they stand for text that is not a game,
  and convert writes their problem to standard error, not a game to the output);
- writes no output at all for a mutant that holds games (every game lost);
- or rewrites it in place into a file that reads back to another number of games, or
  refuses to rewrite it (exit 1) and still changes it (``refused-but-changed``);

or when the reader calls a mutant of PDN text binary data (a few damaged bytes must not hide
every game: a UTF-16 file that lost its BOM is still text).

Shared by ``tests/test_fuzz_cli.py`` (the stress tier: a few hundred mutants) and
``benchmarks/fuzz_cli.py`` (the long runs, by seed and count).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from mutations import mutate_json, mutate_pdn_bytes

from pdn.cli import main
from pdn.collections.inputs import iter_games
from pdn.game.model import Game
from pdn.text.decoding import decode_bytes
from pdn.text.problems import NO_GAME_CODES

#: Seconds one command may take on one mutant (a few KB) before it counts as a hang.
TIMEOUT = 30
#: Characters of a source file each mutant is made from: a few games.
WINDOW = 1_500
#: The kinds of mutant.
KINDS = ("pdn", "json")

_SUMMARY = re.compile(r"^(\d+) games?:", re.MULTILINE)


class Hang(BaseException):
    """A command ran past its alarm (a BaseException, so that CliRunner lets it through)."""


@dataclass(slots=True)
class Finding:
    """One mutant that broke a promise: which, through which command, and how to make it."""

    what: str
    command: str
    source: str
    edits: list[str]
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.what} in {self.command}: {self.source} {self.edits} {self.detail}"


@dataclass(slots=True)
class Tally:
    """What a run found."""

    mutants: int = 0
    commands: int = 0
    findings: list[Finding] = field(default_factory=list)

    def count(self, what: str) -> int:
        """The findings of one kind (``traceback``, ``hang``, ``count-change``...)."""
        return sum(1 for finding in self.findings if finding.what == what)


@contextmanager
def _alarm(seconds: int) -> Iterator[None]:
    def ring(signum: int, frame: Any) -> None:
        raise Hang()

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def source_texts(folders: Sequence[Path]) -> list[tuple[str, str]]:
    """(name, text) of every non-empty PDN file under ``folders``, decoded as pdn decodes."""
    texts = []
    for folder in folders:
        for path in sorted(folder.resolve().rglob("*")):
            if not path.is_file() or path.suffix.lower() != ".pdn":
                continue
            with open(path, "rb") as handle:
                text = "".join(decode_bytes(handle).blocks)
            if text.strip():
                texts.append((str(path.relative_to(folder.resolve())), text))
    if not texts:
        raise SystemExit(f"no PDN files under {', '.join(map(str, folders))}")
    return texts


def window(text: str, rng: random.Random, size: int = WINDOW) -> str:
    """About ``size`` characters of ``text`` from a random line start to a line end."""
    start = 0
    if len(text) > size:
        start = text.rfind("\n", 0, rng.randrange(len(text) - size)) + 1
    end = text.find("\n", start + size)
    return text[start : end + 1 if end >= 0 else len(text)]


def games_in(path: str) -> int:
    """The games a command reads from ``path`` that stand for text of a game (see above)."""
    return sum(1 for game in iter_games(path) if not _no_game(game))


#: Bytes from which a mutant of PDN text (its few edits add nine control bytes at most) is
#: never binary data: fewer, and the edits may make it so (the reader's 10% of control bytes).
_TEXT_SIZE = 256


def _read(path: str) -> tuple[int, bool]:
    """:func:`games_in`, and whether the reader calls the file binary data, not text (a
    ``not-pdn`` verdict), in one reading."""
    games = binary = 0
    for game in iter_games(path):
        nothing = _no_game(game)
        games += not nothing
        # A file called binary is one empty game saying not-pdn; a game of junk words only
        # (a mutant's moves all mangled, as a chess game's) says not-pdn too, and is read.
        binary += nothing and any(p.code == "not-pdn" for p in game.errors)
    return games, binary > 0


def _no_game(game: Game) -> bool:
    empty = not game.tags and not game.root.variations and not game.root.comments_after
    empty = empty and not game.root.comments_before and not game.terminator
    return empty and any(p.code in NO_GAME_CODES for p in game.errors)


def _json_records(text: str) -> list[dict[str, Any]]:
    """The records ``pdn convert --to ndjson`` writes for the games of ``text``."""
    import json

    result = CliRunner().invoke(main, ["convert", "--to", "ndjson", "-"], input=text)
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


class Fuzzer:
    """Makes mutants from source texts and runs them through the CLI, tallying findings."""

    def __init__(self, texts: list[tuple[str, str]], kind: str, seed: int) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        self.texts = texts
        self.kind = kind
        self.rng = random.Random(seed)
        self.tally = Tally()
        self.runner = CliRunner()
        self.folder = tempfile.mkdtemp(prefix="pdn-fuzz-")
        self._records: dict[int, list[dict[str, Any]]] = {}

    def close(self) -> None:
        """Remove the scratch folder."""
        shutil.rmtree(self.folder, ignore_errors=True)

    def mutant(self) -> tuple[str, bytes, list[str]]:
        """The next mutant: (source name, bytes, edits)."""
        at = self.rng.randrange(len(self.texts))
        name, text = self.texts[at]
        piece = window(text, self.rng)
        if self.kind == "pdn":
            data, edits = mutate_pdn_bytes(piece, self.rng)
            return name, data, edits
        records = _json_records(piece)
        edited, edits = mutate_json(records, self.rng)
        return name, edited.encode("utf-8"), edits

    def run(self, count: int, progress: Callable[[Tally], None] | None = None) -> Tally:
        """Run ``count`` mutants; ``progress`` is called after each."""
        for _ in range(count):
            name, data, edits = self.mutant()
            self.check(name, data, edits)
            if progress is not None:
                progress(self.tally)
        return self.tally

    def _invoke(self, args: list[str], finding: Callable[..., None]) -> Result | None:
        self.tally.commands += 1
        command = " ".join(arg for arg in args if not arg.startswith(self.folder))
        try:
            with _alarm(TIMEOUT):
                result = self.runner.invoke(main, args, catch_exceptions=True)
        except Hang:
            finding("hang", command)
            return None
        exception = result.exception
        if exception is not None and not isinstance(exception, SystemExit):
            import traceback

            text = "".join(traceback.format_exception(exception)[-3:])
            finding("traceback", command, text)
            return None
        if "Traceback" in result.output:
            finding("traceback", command, result.output[-600:])
            return None
        return result

    def check(self, name: str, data: bytes, edits: list[str]) -> None:
        """Run one mutant through the commands and record what it breaks."""
        self.tally.mutants += 1
        suffix = ".json" if self.kind == "json" else ".pdn"
        path = os.path.join(self.folder, "mutant" + suffix)
        with open(path, "wb") as handle:
            handle.write(data)

        def finding(what: str, command: str, detail: str = "") -> None:
            self.tally.findings.append(Finding(what, command, name, edits, detail))

        try:
            with _alarm(TIMEOUT):
                expected, binary = _read(path)
                binary = binary and self.kind == "pdn" and len(data) >= _TEXT_SIZE
        except Hang:
            finding("hang", "read_games")
            return
        except Exception as exc:  # the library itself: as bad as a command's
            finding("traceback", "read_games", repr(exc)[:300])
            return
        if binary:
            finding("read-as-binary", "read_games", "a few damaged bytes hid every game")

        result = self._invoke(["validate", path], finding)
        if result is not None:
            said = _SUMMARY.search(result.output)
            if said is None or int(said.group(1)) < expected:
                finding("validate-count", "validate", result.output[-300:])

        result = self._invoke(["select", "--count", path], finding)
        if result is not None and result.exit_code == 0:
            counted = result.output.strip().splitlines()[-1:] or ["?"]
            if not counted[0].isdigit() or int(counted[0]) < expected:
                finding("select-count", "select --count", f"{counted} vs {expected}")

        out = os.path.join(self.folder, "out.pdn")
        result = self._invoke(["convert", path, "-o", out], finding)
        if result is not None:
            # No output at all is every game lost (an input of no game writes an empty file).
            back = games_in(out) if os.path.exists(out) else 0
            if back != expected:
                finding("count-change", "convert", f"{expected} games read, {back} back")
            if os.path.exists(out):
                os.remove(out)

        copy = os.path.join(self.folder, "copy" + suffix)
        shutil.copyfile(path, copy)
        result = self._invoke(["convert", "--in-place", copy], finding)
        if result is not None and result.exit_code == 0:
            back = games_in(copy)
            if back != expected:
                finding("count-change", "convert --in-place", f"{expected} read, {back} back")
        elif result is not None:
            # Refused (damage it cannot write back, a file of no game): left as it was.
            with open(copy, "rb") as handle:
                if handle.read() != data:
                    finding("refused-but-changed", "convert --in-place", "exit 1, the file changed")
        os.remove(copy)


def summary(tally: Tally, kind: str, seed: int) -> str:
    """One line of figures for a run."""
    kinds = (
        "traceback",
        "hang",
        "count-change",
        "read-as-binary",
        "validate-count",
        "select-count",
        "refused-but-changed",
    )
    counts = ", ".join(f"{tally.count(what)} {what}" for what in kinds)
    return f"{kind} seed {seed}: {tally.mutants} mutants, {tally.commands} commands: {counts}"
