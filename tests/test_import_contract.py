"""The layers of the code, enforced: a module imports only from its own layer or lower ones.

Every import of every module of ``pdn/`` and ``engine/pdn_engine/`` is read from its syntax
tree (at the top of the module, in a function, under ``TYPE_CHECKING``; ``import x`` and
``from x import y``, relative ones resolved) and checked against :data:`PDN_LAYERS` and
:data:`ENGINE_LAYERS`, lowest first. An import upwards is allowed only inside a function
listed in :data:`ALLOWED_UPWARD`, with the reason; a new one fails, naming the file, the line
and the two layers. Also: ``pdn_engine`` imports nothing of ``pdn`` (it knows nothing of PDN
text), and ``pdn`` reaches the engine only through its public names (``pdn.engine``).

The layers say what a module may import; :func:`test_a_small_run_loads_only_what_it_uses` says
what a run does not load: ``pdn --help`` no command and no reader, the validation of a small
file of plain games neither Lark, nor the process pool, nor the JSON reader and writer.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import pdn_engine

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {"pdn": ROOT / "pdn", "pdn_engine": ROOT / "engine" / "pdn_engine"}

#: The layers of ``pdn``, lowest first: its subpackages, each a layer (a module inherits its
#: folder's layer; modules of one layer import each other freely), then the modules that stay
#: at the top. Names are module names without ``pdn.`` (``__init__`` is the package; a
#: subpackage named alone holds all its modules). The engine is below them all, reached
#: through ``pdn.engine``.
PDN_LAYERS: list[tuple[str, set[str]]] = [
    ("engine", {"engine"}),
    ("text", {"text"}),
    ("game", {"game"}),
    ("reading", {"reading"}),
    ("rules", {"rules"}),
    ("writing", {"writing"}),
    ("collections", {"collections"}),
    ("study", {"study"}),
    ("view", {"view"}),
    ("dask", {"dask"}),
    # The command line's plumbing, then its commands, each module loaded by ``pdn.cli`` only
    # when one of its commands runs (so none imports another, nor the package's group).
    ("command plumbing", {"cli.guard", "cli.streams", "cli.options", "cli.inputs"}),
    (
        "commands",
        {
            "cli.checking",
            "cli.converting",
            "cli.selecting",
            "cli.studying",
            "cli.viewing",
            "cli.engines",
            "cli.endgames",
        },
    ),
    ("entry points", {"cli", "__main__", "__init__", "moved"}),
]

#: The layers of ``pdn_engine``, lowest first. ``native`` (the way each build makes records
#: fast) sits below ``position``, so that the two never import each other again.
ENGINE_LAYERS: list[tuple[str, set[str]]] = [
    ("pickling", {"pickling", "build"}),
    ("variants", {"variants"}),
    ("boards", {"board", "fen"}),
    ("moves", {"movegen"}),
    ("fast records", {"native"}),
    ("positions", {"position"}),
    ("reading moves", {"acceptance", "faults"}),
    ("words", {"wording"}),
    ("uses of positions", {"diagnose", "picture", "perft", "search", "endgame", "history"}),
    ("lookup", {"lookup"}),
    ("package", {"__init__"}),
]

#: The imports upwards, each in a function (module, imported module, function) and why.
ALLOWED_UPWARD: dict[tuple[str, str, str], str] = {
    (
        "pdn.game.model",
        "pdn.writing.writer",
        "Game.__str__",
    ): "display hook: str(game) is its PDN text",
    (
        "pdn.game.model",
        "pdn.view.viewer",
        "Game._repr_html_",
    ): "display hook: the viewer in Jupyter",
    ("pdn.rules.replay_report", "pdn.view.viewer", "Report._repr_html_"): (
        "display hook: the viewer in Jupyter"
    ),
    ("pdn_engine.position", "pdn_engine.picture", "Position._repr_svg_"): (
        "display hook: the diagram in Jupyter"
    ),
    ("pdn.game.model", "pdn.rules.validation", "Node.position"): (
        "shortcut: a node's position is what its game's replay reaches"
    ),
    ("pdn_engine.position", "pdn_engine.diagnose", "Position._play_text"): (
        "shortcut: a move's text is matched by the one acceptance rule"
    ),
    ("pdn.cli.engines", "pdn", "engine_command"): "the engine tells its programs pdn.__version__",
    ("pdn.reading.reader", "pdn.writing.jsonio", "_json_games"): (
        "read_games gives a JSON source's games: the records' reader lives with their writer"
    ),
}


@dataclass(frozen=True)
class Import:
    """One import statement's target, where it stands."""

    module: str  # the importing module, e.g. "pdn.reading.cutting"
    target: str  # the module imported (for ``from x import y``: ``x``, or ``x.y`` if a module)
    names: tuple[str, ...]  # the names of ``from x import ...`` (empty for ``import x``)
    line: int
    function: str  # the qualified name of the enclosing function, "" at module level
    path: Path
    typing_only: bool = False  # under ``if TYPE_CHECKING:``


def _module_name(package: str, path: Path) -> str:
    """``pdn.reading.cutting`` for ``pdn/reading/cutting.py``; a probe outside the package is named
    as if in
    its top folder; ``pdn.study.tournament`` for ``pdn/study/tournament/__init__.py``."""
    folder = SOURCES.get(package)
    parts = [path.stem]
    if folder is not None and path.is_relative_to(folder):
        parts = list(path.relative_to(folder).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package, *parts])


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports_of(package: str, path: Path) -> list[Import]:
    """The imports of a module of ours, with the function each stands in."""
    module = _module_name(package, path)
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[Import] = []

    def walk(node: ast.AST, scope: list[str], function: str, typing: bool) -> None:
        for child in ast.iter_child_nodes(node):
            line = child.lineno if isinstance(child, (ast.Import, ast.ImportFrom)) else 0
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(Import(module, alias.name, (), line, function, path, typing))
            elif isinstance(child, ast.ImportFrom):
                target = _resolve(module, path.stem == "__init__", child)
                names = tuple(alias.name for alias in child.names)
                found.append(Import(module, target, names, line, function, path, typing))
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = [*scope, child.name]
                is_function = not isinstance(child, ast.ClassDef)
                walk(child, inner, ".".join(inner) if is_function or function else "", typing)
            elif _is_type_checking(child):
                assert isinstance(child, ast.If)
                walk(ast.Module(child.body, []), scope, function, True)
                walk(ast.Module(child.orelse, []), scope, function, typing)
            else:
                walk(child, scope, function, typing)

    walk(tree, [], "", False)
    return found


def _is_type_checking(node: ast.AST) -> bool:
    """Whether ``node`` is ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", "")
    return name == "TYPE_CHECKING"


def all_imports() -> list[Import]:
    """The imports of every module of pdn and pdn_engine."""
    return [
        found
        for package, folder in SOURCES.items()
        for path in _sources(folder)
        for found in imports_of(package, path)
    ]


def _sources(folder: Path) -> list[Path]:
    """The modules of a package folder, its subpackages' included."""
    return sorted(path for path in folder.rglob("*.py") if "__pycache__" not in path.parts)


def _names(package: str) -> set[str]:
    """Every module of ``package`` as its layers name it (``report.records``, ``report``)."""
    return {
        _module_name(package, path).partition(".")[2] or "__init__"
        for path in _sources(SOURCES[package])
    }


def _ours(target: str) -> str | None:
    """The package of ours a module belongs to, else None (a library)."""
    top = target.partition(".")[0]
    return top if top in SOURCES else None


def layer_of(module: str) -> tuple[int, str]:
    """The rank and the name of a module's layer (a module of a subpackage: its own, else the
    subpackage's)."""
    package, _, name = module.partition(".")
    layers = PDN_LAYERS if package == "pdn" else ENGINE_LAYERS
    name = name or "__init__"
    while True:  # report.records, else report (a subpackage named alone)
        for rank, (layer, members) in enumerate(layers):
            if name in members:
                return rank, layer
        if "." not in name:
            break
        name = name.rpartition(".")[0]
    raise AssertionError(f"{module} is in no layer: add it to the layers of the test")


def _target_module(found: Import) -> str:
    """The module an import loads (``from pdn import engine`` loads ``pdn.engine``, ``from pdn
    import cli`` the package ``pdn.cli``)."""
    package, _, inner = found.target.partition(".")
    if package in SOURCES and found.names:
        folder = SOURCES[package].joinpath(*inner.split(".")) if inner else SOURCES[package]
        modules = [n for n in found.names if (folder / f"{n}.py").exists() or (folder / n).is_dir()]
        if modules:
            return f"{found.target}.{modules[0]}"
    return found.target


def _where(found: Import) -> str:
    return f"{found.path.relative_to(ROOT)}:{found.line}"


def test_every_module_is_in_a_layer_once() -> None:
    for package, layers in (("pdn", PDN_LAYERS), ("pdn_engine", ENGINE_LAYERS)):
        named = [name for _, members in layers for name in members]
        assert len(named) == len(set(named)), f"a module of {package} is in two layers"
        files = _names(package)
        # A name is a module, or a subpackage named alone for all its modules.
        unknown = {n for n in named if n not in files}
        assert not unknown, f"{package}: layers name no module {unknown}"
        for name in files:
            layer_of(f"{package}.{name}")  # raises for a module in no layer


def test_no_module_imports_a_higher_layer() -> None:
    wrong = []
    used = set()
    for found in all_imports():
        target = _target_module(found)
        if _ours(target) != found.module.partition(".")[0] or target == found.module:
            continue
        rank, layer = layer_of(found.module)
        their_rank, their_layer = layer_of(target)
        if their_rank <= rank:
            continue
        key = (found.module, target, found.function)
        if key in ALLOWED_UPWARD:
            used.add(key)
            continue
        where = f"in {found.function}()" if found.function else "at module level"
        if found.typing_only:
            where += " (under TYPE_CHECKING)"
        wrong.append(
            f"{_where(found)}: {found.module} ({layer}) imports {target} ({their_layer}),"
            f" a higher layer, {where}"
        )
    assert not wrong, "\n".join(wrong)
    # An allowance no import needs any more is taken off the list.
    assert used == set(ALLOWED_UPWARD), f"stale allowances: {set(ALLOWED_UPWARD) - used}"


def test_the_engine_imports_nothing_of_pdn() -> None:
    wrong = [
        f"{_where(found)}: {found.module} imports {found.target}"
        for found in all_imports()
        if found.module.startswith("pdn_engine") and _ours(found.target) == "pdn"
    ]
    assert not wrong, "\n".join(wrong)


def test_pdn_reaches_the_engine_by_its_public_names_only() -> None:
    public = set(pdn_engine.__all__)
    wrong = []
    for found in all_imports():
        if not found.module.startswith("pdn") or found.module.startswith("pdn_engine"):
            continue
        if found.target.startswith("pdn_engine.") or found.target.startswith("pdn.engine."):
            wrong.append(f"{_where(found)}: {found.module} imports {found.target}")
        elif found.target in ("pdn_engine", "pdn.engine"):
            hidden = [n for n in found.names if n not in public and n not in ("*", "__all__")]
            if hidden:
                wrong.append(f"{_where(found)}: {found.module} imports private {hidden}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("text", "target", "function"),
    [
        ("import pdn.reading.reader\n", "pdn.reading.reader", ""),
        ("from .engine import Position\n", "pdn.engine", ""),
        ("def f():\n    from . import reader\n", "pdn", "f"),
        (
            "class C:\n    def m(self):\n        from .reading import x\n",
            "pdn.reading",
            "C.m",
        ),
        ("def f():\n    def g():\n        import pdn.view.viewer\n", "pdn.view.viewer", "f.g"),
    ],
)
def test_the_scan_sees_every_kind_of_import(
    tmp_path: Path, text: str, target: str, function: str
) -> None:
    # A module pdn/probe.py: relative imports resolve against the package pdn.
    path = tmp_path / "probe.py"
    path.write_text(text)
    [found] = imports_of("pdn", path)
    assert (found.target, found.function) == (target, function)


def test_imports_for_type_checking_only_are_read_and_told(tmp_path: Path) -> None:
    # The orelse of ``if TYPE_CHECKING`` runs: only its body is for the type checker.
    path = tmp_path / "probe.py"
    path.write_text("if TYPE_CHECKING:\n    from .game.model import Game\nelse:\n    import os\n")
    found = imports_of("pdn", path)
    assert [(f.target, f.typing_only) for f in found] == [("pdn.game.model", True), ("os", False)]


def test_from_the_package_import_a_module_is_that_module(tmp_path: Path) -> None:
    path = tmp_path / "probe.py"
    path.write_text("from .reading import reader\nfrom pdn import engine, parse_game\n")
    assert [_target_module(found) for found in imports_of("pdn", path)] == [
        "pdn.reading.reader",
        "pdn.engine",
    ]


def test_an_upward_import_is_named_with_its_layers(tmp_path: Path) -> None:
    # What the contract says of a new inversion: a text module (low) importing the reader.
    path = tmp_path / "cutting.py"
    path.write_text("import os\n\n\ndef parse():\n    from pdn.reading.reader import parse_raw\n")
    [_, found] = imports_of("pdn", path)
    assert found.line == 5 and found.function == "parse"
    found = dataclasses.replace(found, module="pdn.text.cutting")
    assert layer_of(found.module) < layer_of(_target_module(found))
    assert (found.module, found.target, found.function) not in ALLOWED_UPWARD


def test_the_modules_of_a_subpackage_have_layers_of_their_own(tmp_path: Path) -> None:
    cli = SOURCES["pdn"] / "cli"
    assert _module_name("pdn", cli / "__init__.py") == "pdn.cli"
    assert _module_name("pdn", cli / "options.py") == "pdn.cli.options"
    assert layer_of("pdn.cli.options")[1] == "command plumbing"
    assert layer_of("pdn.cli.options") < layer_of("pdn.cli.checking") < layer_of("pdn.cli")

    def resolved(module: str, is_package: bool, text: str) -> str:
        node = ast.parse(text).body[0]
        assert isinstance(node, ast.ImportFrom)
        return _resolve(module, is_package, node)

    assert (
        resolved("pdn.cli.checking", False, "from ..text.safe_text import x")
        == "pdn.text.safe_text"
    )
    assert resolved("pdn.cli", True, "from .inputs import x") == "pdn.cli.inputs"
    probe = tmp_path / "probe.py"
    for target, names, module in [
        ("pdn.cli", ("options",), "pdn.cli.options"),
        ("pdn", ("cli",), "pdn.cli"),
        ("pdn", ("parse_game",), "pdn"),
    ]:
        assert _target_module(Import("pdn.cli.probe", target, names, 1, "", probe)) == module


#: Run in a fresh interpreter: ``pdn --help``, then ``pdn validate`` of a small file of plain
#: games (with ``-j 2``: one batch of games starts no pool), printing after each the modules
#: of :data:`_HEAVY` it loaded.
_SMALL_RUN = """
import sys
from pdn.cli import main
def run(*args):
    try:
        main(list(args), prog_name="pdn")
    except SystemExit:
        pass
    loaded = sorted(m for m in HEAVY if m in sys.modules)
    print("loaded:", " ".join(loaded) or "-", file=sys.stderr)
run("--help")
run("validate", "-j", "2", sys.argv[1])
run("validate", "--format", "json", sys.argv[1])
"""

_HEAVY = (
    "lark",
    "concurrent.futures.process",
    "multiprocessing",
    "pdn.writing.jsonio",
    "pdn.reading.reader",
    "pdn.cli.checking",
    "pdn.text.atomic",
    "pdn_engine.position",
)


def test_a_small_run_loads_only_what_it_uses(tmp_path: Path) -> None:
    small = tmp_path / "small.pdn"
    small.write_text('[Event "E"]\n[Result "*"]\n1. 11-15 23-19 2. 8-11 22-17 *\n')
    code = f"HEAVY = {_HEAVY!r}\n{_SMALL_RUN}"
    env = {**os.environ, "PDN_CACHE_DIR": str(tmp_path / "cache")}

    def loaded() -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", code, str(small)],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
        )
        assert '"type": "verdicts"' in done.stdout and "1 clean" in done.stdout
        return [line for line in done.stderr.splitlines() if line.startswith("loaded:")]

    loaded()  # the first run takes the grammar's terminals from Lark and caches them
    assert loaded() == [
        "loaded: -",  # pdn --help: click and the table of commands, nothing of the rest
        "loaded: pdn.cli.checking pdn.reading.reader pdn.text.atomic pdn_engine.position",
        "loaded: pdn.cli.checking pdn.reading.reader pdn.text.atomic pdn_engine.position",
    ]
