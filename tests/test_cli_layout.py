"""The command line's package: each command loaded from its module only when asked for, the
short help of ``pdn --help`` the same as each command's own, and the shared options defined
once with one meaning."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import pdn.cli
from pdn.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"


def loaded(name: str) -> click.Command:
    command = main.get_command(click.Context(main), name)
    assert command is not None
    return command


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_is_where_the_table_says_with_its_short_help(name: str) -> None:
    command = loaded(name)
    assert command.name == name
    assert command.callback is not None
    assert command.callback.__module__ == f"pdn.cli.{COMMANDS[name][0]}"
    # The listing shortens the stored sentence as click shortens the command's own help, at
    # every width a terminal can give it.
    stand_in = click.Command(name, help=COMMANDS[name][2])
    for limit in range(10, 300):
        assert stand_in.get_short_help_str(limit) == command.get_short_help_str(limit), limit


def test_the_listing_is_what_click_lists_from_the_commands_themselves() -> None:
    eager = click.Group(
        main.name,
        commands=[loaded(name) for name in COMMANDS],
        params=main.params,
        help=main.help,
        context_settings=main.context_settings,
    )
    for width in (50, 64, 78, 120):
        runner = CliRunner()
        lazy_help = runner.invoke(main, ["--help"], terminal_width=width).output
        eager_help = runner.invoke(eager, ["--help"], terminal_width=width).output
        assert lazy_help == eager_help
        assert all(f"  {name} " in lazy_help for name in COMMANDS)


def test_the_help_and_one_command_import_only_what_they_need(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from pdn.cli import main\n"
        "try:\n"
        "    main([*sys.argv[1:]])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('pdn.cli.')), file=sys.stderr)\n"
    )

    def modules(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=tmp_path
        )
        return done.stderr.strip().splitlines()[-1]

    assert modules("--help") == "['pdn.cli.streams']"
    checked = modules("validate", "-q", str(FIXTURES / "ballots.pdn"))
    assert "pdn.cli.checking" in checked and "pdn.cli.converting" not in checked


def test_an_unknown_command_suggests_a_command_not_loaded_yet() -> None:
    result = CliRunner().invoke(main, ["valdate"])
    assert result.exit_code == 2
    if hasattr(click.exceptions, "NoSuchCommand"):  # click 8.4+ suggests
        assert "Did you mean 'validate'?" in result.output


def test_the_old_names_of_the_module_are_still_there() -> None:
    assert pdn.cli.validate is loaded("validate")  # type: ignore[attr-defined]
    assert pdn.cli.engine_command is loaded("engine")  # type: ignore[attr-defined]
    assert "english" in pdn.cli.VARIANT_NAMES  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        _ = pdn.cli.no_such_name  # type: ignore[attr-defined]


def test_no_module_of_the_cli_is_over_800_lines() -> None:
    for path in (ROOT / "pdn" / "cli").glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 800, path.name


def test_game_means_the_nth_game_of_each_file_in_show_and_diagram(tmp_path: Path) -> None:
    games = tmp_path / "two.pdn"
    games.write_text(
        '[White "A"]\n[Result "*"]\n1. 11-15 *\n\n[White "B"]\n[Result "*"]\n1. 9-13 *\n',
        encoding="utf-8",
    )
    runner = CliRunner()
    for name in ("show", "diagram"):
        [game] = [p for p in loaded(name).params if p.name == "number"]
        assert isinstance(game, click.Option) and game.opts == ["--game"]
        assert game.help is not None and game.help.startswith("The Nth game of each file")
    assert [p.default for p in loaded("show").params if p.name == "number"] == [1]
    assert [p.default for p in loaded("diagram").params if p.name == "number"] == [None]
    # show: the second game's position; diagram: only the second game's diagrams.
    shown = runner.invoke(main, ["show", "--game", "2", str(games)])
    assert shown.exit_code == 0 and shown.output.startswith("game 2,")
    folder = tmp_path / "out"
    drawn = runner.invoke(
        main, ["diagram", "--game", "2", "--plies", "0", "-o", str(folder), str(games)]
    )
    assert drawn.exit_code == 0, drawn.output
    assert [p.name for p in folder.iterdir()] and all("B" in p.name for p in folder.iterdir())
    everything = tmp_path / "all"
    drawn = runner.invoke(main, ["diagram", "--plies", "0", "-o", str(everything), str(games)])
    assert drawn.exit_code == 0 and len(list(everything.iterdir())) == 2
