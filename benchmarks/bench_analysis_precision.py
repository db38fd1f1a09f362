"""Precision and recall of ``pdn analyse``'s labels against a strong reference engine (issue 34).

Runs ``pdn analyse --format json`` (as a process, at its default settings: whatever pdn is
installed is measured) over real 10x10 games, then asks a reference engine speaking the Hub
protocol (Scan, built by ``benchmarks/scan/build.sh``) for the value of every position before
and after each move played, at a fixed time per position. The reference loss of a move is the
reference value of the position before it minus the value after it, both from the mover's side.
A label holds at a threshold when the reference loss of its move reaches the threshold.

Prints, per label (``blunder``, ``mistake``, ``missed shot``) and threshold (one man, half a
man): the plies labelled, those the reference supports, the plies the reference says lose that
much, precision and recall; and how many plies are marked ``unclear`` (when the installed pdn
writes such marks), with how many of them the reference says lose a man. The reference's values
are kept in ``--cache`` (a JSON file keyed by position and time), so a rerun after a change of
pdn only reruns pdn.

Both Hub dialects are spoken: version 2 (Scan 3.x, ``pdn engine --hub``, any Hub 2 engine) and
version 1 (Scan 2.0), told apart by the engine's answer to ``hub``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _support import CORPUS, ROOT, installed_pdn, machine_load, require

#: The World Championship 2007 (190 games, international draughts), the issue's input.
WK2007 = CORPUS / "bas080__dammen" / "t" / "all.pdn"
#: Where build.sh puts Scan, with its scan.ini and data/.
SCAN_DIR = ROOT / "benchmarks" / "scan" / "build"
#: Values are in hundredths of a man, as pdn's JSON gives them; wins are clipped to this.
CLIP = 1000
#: The labels measured, as pdn's JSON spells them.
LABELS = ("blunder", "mistake", "missed shot")
#: The reference losses a label is checked against: one man, half a man.
THRESHOLDS = (100, 50)


class EngineError(RuntimeError):
    """The reference engine stopped, or answered something this script cannot read."""


class HubEngine:
    """A Hub engine as a process, asked for the value of one position at a time."""

    def __init__(self, command: str, cwd: Path | None) -> None:
        self.process = subprocess.Popen(
            command,
            shell=True,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send("hub")
        self.name = command
        self.dialect = 2
        for line in self.lines_until("wait"):
            words = line.split(None, 1)
            if words and words[0] == "name":
                self.dialect, self.name = 1, words[1] if len(words) > 1 else command
            elif words and words[0] == "id":
                fields = _fields(line)
                self.name = f"{fields.get('name', command)} {fields.get('version', '')}".strip()
        self.send("init")
        for _ in self.lines_until("ready"):
            pass

    def send(self, line: str) -> None:
        """Write one line to the engine."""
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def lines_until(self, word: str) -> list[str]:
        """The engine's lines up to the one starting with ``word`` (included)."""
        assert self.process.stdout is not None
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise EngineError(f"the engine ended while {word!r} was awaited")
            line = line.strip()
            lines.append(line)
            if line.split(" ", 1)[0] == word:
                return lines

    def value(self, position: str, seconds: float) -> int:
        """The engine's value of ``position`` (Hub text, W/B first), side to move, in 1/100 man."""
        if self.dialect == 1:
            self.send(f"pos {position[0].lower()}{position[1:]}")
            self.send(f"time {round(seconds * 1000)}")
            self.send("analyse")
            lines = self.lines_until("move")
            scores = [int(line.split()[3]) for line in lines if line.startswith("info ")]
        else:
            self.send(f"pos pos={position}")
            self.send(f"level move-time={seconds}")
            self.send("go analyze")
            lines = self.lines_until("done")
            scores = [
                round(float(fields["score"]) * 100)
                for fields in map(_fields, lines)
                if "score" in fields
            ]
        if not scores:
            raise EngineError(f"no score for {position}: {lines[-3:]}")
        return max(-CLIP, min(CLIP, scores[-1]))

    def close(self) -> None:
        """Ask the engine to quit, then make sure it has."""
        try:
            self.send("quit")
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


def _fields(line: str) -> dict[str, str]:
    """The ``arg=value`` fields of a Hub 2 line (values may be double-quoted; flags map to "")."""
    rest = line.split(" ", 1)[1] if " " in line else ""
    return {
        name: value[1:-1] if value.startswith('"') else value
        for name, value in re.findall(r'([^\s=]+)(?:=("[^"]*"|\S*))?', rest)
    }


def hub_position(fen: str) -> str:
    """A 10x10 FEN (``W:W31,K32:B1``) as the Hub's 51 characters: side to move, then squares."""
    turn, *sides = fen.rstrip(".").split(":")
    squares = ["e"] * 50
    for side in sides:
        colour, pieces = side[0], side[1:]
        for piece in filter(None, pieces.split(",")):
            king = piece.startswith("K")
            square = int(piece.lstrip("K"))
            man = "w" if colour == "W" else "b"
            squares[square - 1] = man.upper() if king else man
    return turn.upper() + "".join(squares)


@dataclass(slots=True)
class Ply:
    """One move played, pdn's labels of it and the reference's loss."""

    game: int
    ply: int
    played: str
    labels: tuple[str, ...]
    unclear: bool
    pdn_loss: int
    reference_loss: int = 0


def run_pdn(games: Path, jobs: int) -> dict[str, object]:
    """``pdn analyse --format json`` over ``games``, at its default settings."""
    command = [installed_pdn(), "analyse", "--format", "json", "-q", "-j", str(jobs), str(games)]
    print("$", " ".join(command), file=sys.stderr)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"pdn analyse failed ({done.returncode}): {done.stderr[-2000:]}")
    result: dict[str, object] = json.loads(done.stdout)
    return result


def after_fen(fen: str, move: str) -> str:
    """The position after ``move`` (for the last ply, whose successor pdn does not list)."""
    from pdn_engine import get_variant, parse_fen

    position, _ = parse_fen(fen, get_variant("international"))
    return str(position.play(move).fen())


def is_over(fen: str) -> bool:
    """Whether the side to move has no legal move (it has lost)."""
    from pdn_engine import get_variant, parse_fen

    position, _ = parse_fen(fen, get_variant("international"))
    return not position.legal_moves()


def game_numbers(spec: str) -> set[int]:
    """The game numbers (1-based) of a spec such as ``1-8`` or ``1,63,87``."""
    numbers: set[int] = set()
    for part in filter(None, spec.split(",")):
        low, _, high = part.partition("-")
        numbers.update(range(int(low), int(high or low) + 1))
    return numbers


def select_games(source: Path, numbers: set[int]) -> str:
    """The games of ``source`` whose numbers (1-based, in file order) are in ``numbers``."""
    out, index = [], 0
    for line in source.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True):
        if line.startswith("[Event "):
            index += 1
        if index in numbers:
            out.append(line)
    return "".join(out)


def measure(args: argparse.Namespace) -> list[Ply]:
    """Run pdn and the reference; the plies with pdn's labels and the reference's losses."""
    if args.pdn_json:
        analysis = {"games": []}
        for name in args.pdn_json:
            analysis["games"] += json.loads(Path(name).read_text(encoding="utf-8"))["games"]
    else:
        with tempfile.TemporaryDirectory() as folder:
            games = Path(folder) / "games.pdn"
            games.write_text(select_games(args.file, game_numbers(args.games)), encoding="utf-8")
            analysis = run_pdn(games, args.jobs)
        if args.save_pdn_json:
            Path(args.save_pdn_json).write_text(json.dumps(analysis), encoding="utf-8")
    cache_path = Path(args.cache)
    cache: dict[str, int] = (
        json.loads(cache_path.read_text(encoding="utf-8")) if cache_path.exists() else {}
    )
    engine = HubEngine(args.reference, args.reference_dir)
    print(
        f"reference: {engine.name} (Hub {engine.dialect}), {args.movetime} s a position",
        file=sys.stderr,
    )
    plies: list[Ply] = []
    started = time.monotonic()
    try:
        for number, game in enumerate(analysis["games"], 1):
            records = game["plies"]
            for index, record in enumerate(records):
                fen = record["fen"]
                # pdn lists no forced ply (one legal move): the next record may be plies later
                following = records[index + 1] if index + 1 < len(records) else None
                if following is not None and following["ply"] == record["ply"] + 1:
                    after = following["fen"]
                else:
                    after = after_fen(fen, record["played"])
                values = []
                for position in (fen, after):
                    key = f"{hub_position(position)} {args.movetime}"
                    if key not in cache:
                        over = is_over(position)
                        cache[key] = -CLIP if over else engine.value(key.split()[0], args.movetime)
                        cache_path.write_text(json.dumps(cache), encoding="utf-8")
                    values.append(cache[key])
                verdicts = tuple(record.get("verdicts", ()))
                plies.append(
                    Ply(
                        game=number,
                        ply=record["ply"],
                        played=record["played"],
                        labels=verdicts,
                        unclear=bool(record.get("unclear")) or "unclear" in verdicts,
                        pdn_loss=record["loss"],
                        # the value after the move is the opponent's: the mover's is its negation
                        reference_loss=values[0] + values[1],
                    )
                )
            print(
                f"game {number}: {len(records)} plies, {time.monotonic() - started:.0f} s",
                file=sys.stderr,
            )
    finally:
        engine.close()
    return plies


def table(plies: list[Ply]) -> str:
    """The Markdown table of precision and recall per label and threshold."""
    rows = [
        "| label | reference loss at least | labelled | supported | reference count"
        " | precision | recall |",
        "|---|---|---|---|---|---|---|",
    ]
    for label in LABELS:
        labelled = [ply for ply in plies if label in ply.labels]
        for threshold in THRESHOLDS:
            lose = [ply for ply in plies if ply.reference_loss >= threshold]
            supported = [ply for ply in labelled if ply.reference_loss >= threshold]
            precision = f"{len(supported) / len(labelled):.2f}" if labelled else "-"
            recall = f"{len(supported) / len(lose):.2f}" if lose else "-"
            rows.append(
                f"| {label} | {threshold / 100:g} man | {len(labelled)} | {len(supported)} "
                f"| {len(lose)} | {precision} | {recall} |"
            )
    unclear = [ply for ply in plies if ply.unclear]
    held = sum(ply.reference_loss >= THRESHOLDS[0] for ply in unclear)
    rows.append("")
    rows.append(
        f"{len(plies)} plies in {len({ply.game for ply in plies})} games; {len(unclear)} marked "
        f"`unclear` ({held} of them lose a man by the reference)."
    )
    return "\n".join(rows)


def main() -> None:
    """Parse the options, measure, print the table and the labelled plies."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=WK2007, help="10x10 PDN games")
    parser.add_argument(
        "--games", default="1-8", help="game numbers in FILE, such as 1-8 or 1,63,87"
    )
    parser.add_argument("--movetime", type=float, default=2.0, help="reference seconds a position")
    parser.add_argument(
        "--reference", default="./scan hub", help="the reference Hub engine's command"
    )
    parser.add_argument(
        "--reference-dir", type=Path, default=SCAN_DIR, help="its working directory"
    )
    parser.add_argument("--cache", default=str(SCAN_DIR / "values.json"), help="reference values")
    parser.add_argument("--jobs", type=int, default=1, help="pdn analyse -j")
    parser.add_argument(
        "--pdn-json",
        action="append",
        help="use this pdn analyse JSON instead of running pdn (repeatable)",
    )
    parser.add_argument("--save-pdn-json", help="also write pdn's JSON here")
    parser.add_argument("--list", action="store_true", help="list every labelled ply")
    args = parser.parse_args()
    if not args.pdn_json:
        require(args.file)
    print(f"load average: {machine_load()}", file=sys.stderr)
    plies = measure(args)
    print(table(plies))
    if args.list:
        for ply in plies:
            if ply.labels or ply.unclear or ply.reference_loss >= THRESHOLDS[1]:
                print(
                    f"game {ply.game} ply {ply.ply} {ply.played}: pdn {ply.labels or '-'} "
                    f"(loss {ply.pdn_loss}), reference loss {ply.reference_loss}"
                )


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
