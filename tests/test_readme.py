"""Every shell example of the README is true: each one is run and its output compared.

An example is a fenced ``text`` block holding lines that start with ``$ ``: each such line
(with the lines after it while it ends in ``\\``) is a command, and the lines up to the next
command are the output shown for it. The rules of the comparison:

* each block is one shell session, run with bash from a copy of the repository root (every
  top-level entry linked, so ``examples/...`` names the same files and the files a command
  writes stay out of the checkout), ``../shared`` linked when it is there; the variables that
  earlier blocks set (``$ F=...``) are set again first;
* what the command prints on standard output and standard error together (what a terminal
  shows) must be the output shown, line for line, trailing spaces aside;
* a shown line that is exactly ``...`` stands for zero or more lines left out;
* a command whose text, or a variable it uses, names ``../shared/corpus`` runs only when that
  folder is there; otherwise it is skipped, and so is the rest of its block (later commands
  read what it wrote). A block with nothing left to run is skipped as a whole.

The blocks are found when the test runs, so examples that other changes add are checked too.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from shared_paths import CORPUS as SHARED_CORPUS
from shared_paths import SHARED

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CORPUS = "../shared/corpus"
ELLIPSIS = "..."
_FENCE = re.compile(r"^```text\n(.*?)^```", re.MULTILINE | re.DOTALL)
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=")


@dataclass(slots=True)
class Example:
    """One command of the README and the output shown for it."""

    command: str
    shown: list[str]
    line: int


@dataclass(slots=True)
class Block:
    """One session: its commands, and the variable assignments of the blocks before it."""

    line: int
    examples: list[Example] = field(default_factory=list)
    assignments: list[str] = field(default_factory=list)


def blocks(text: str) -> list[Block]:
    """The shell sessions of a README text, in order."""
    found: list[Block] = []
    assignments: list[str] = []
    for fence in _FENCE.finditer(text):
        start = text.count("\n", 0, fence.start(1)) + 1
        lines = fence.group(1).splitlines()
        if not any(line.startswith("$ ") for line in lines):
            continue
        block = Block(start, assignments=list(assignments))
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1  # text before the first command: not an example
                continue
            number = start + i
            command = [lines[i][2:]]
            while command[-1].endswith("\\") and i + 1 < len(lines):
                i += 1
                command.append(lines[i])
            i += 1
            shown = []
            while i < len(lines) and not lines[i].startswith("$ "):
                shown.append(lines[i])
                i += 1
            text_of = "\n".join(command)
            block.examples.append(Example(text_of, shown, number))
            if _ASSIGNMENT.match(text_of):
                assignments.append(text_of)
        found.append(block)
    return found


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``shown``, each ``...`` line of it standing for zero or more
    lines, trailing spaces aside."""
    shown = [line.rstrip() for line in shown]
    printed = [line.rstrip() for line in printed]
    # ends[j]: the printed lines that the first i shown lines can match, as a set of lengths.
    ends = {0}
    for line in shown:
        if line == ELLIPSIS:
            ends = set(range(min(ends), len(printed) + 1)) if ends else set()
        else:
            ends = {end + 1 for end in ends if end < len(printed) and printed[end] == line}
        if not ends:
            return False
    return len(printed) in ends


def needs_corpus(command: str, assignments: list[str]) -> bool:
    """Whether a command reads the shared corpus, itself or through a variable."""
    if CORPUS in command:
        return True
    for assignment in assignments:
        name = assignment.split("=", 1)[0]
        if CORPUS in assignment and re.search(rf"\${{?{name}\b", command):
            return True
    return False


def sandbox(tmp_path: Path) -> Path:
    """A folder that looks like the repository root: its entries linked, not copied."""
    repo = tmp_path / "repo"
    repo.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".git",):
            (repo / entry.name).symlink_to(entry)
    if SHARED.is_dir():
        (tmp_path / "shared").symlink_to(SHARED)
    return repo


def run(command: str, cwd: Path, assignments: list[str]) -> list[str]:
    """What ``command`` prints (standard output and error), run by bash in ``cwd``."""
    env = dict(os.environ)
    # The pdn of this interpreter (the virtual environment the tests run in) comes first.
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["COLUMNS"] = "80"
    # Unbuffered, so that standard output and error interleave as on a terminal.
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("PDN_WIDTH", None)
    script = "\n".join([*assignments, command])
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
    )
    return done.stdout.splitlines()


BLOCKS = blocks(README.read_text(encoding="utf-8"))


def test_the_readme_has_examples() -> None:
    commands = [example.command for block in BLOCKS for example in block.examples]
    assert sum(command.startswith("pdn ") for command in commands) >= 10


def test_matching_rules() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "b"], ["a", "b"])
    assert matches(["a  "], ["a"])
    assert not matches(["a", "b"], ["a", "b", "c"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert matches(["...", "x", "...", "y"], ["w", "x", "x", "y"])


@pytest.mark.readme
@pytest.mark.parametrize("block", BLOCKS, ids=lambda block: f"README.md:{block.line}")
def test_readme_example(block: Block, tmp_path: Path) -> None:
    corpus_there = SHARED_CORPUS.is_dir()
    cwd = sandbox(tmp_path)
    assignments = list(block.assignments)
    wrong: list[str] = []
    ran = 0
    for example in block.examples:
        if needs_corpus(example.command, assignments) and not corpus_there:
            break  # the rest of the session may read what this one would have written
        printed = run(example.command, cwd, assignments)
        ran += 1
        if _ASSIGNMENT.match(example.command):
            assignments.append(example.command)
        if not matches(example.shown, printed):
            wrong.append(
                f"README.md:{example.line}: $ {example.command}\n--- shown\n"
                + "\n".join(example.shown)
                + "\n--- printed\n"
                + "\n".join(printed)
            )
    if not ran:
        pytest.skip(f"needs {CORPUS}")
    assert not wrong, "\n\n".join(wrong)
