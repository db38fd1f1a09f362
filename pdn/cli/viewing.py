"""The commands that draw games: ``show`` (one position, as text, SVG or PNG), ``diagram``
(chosen positions of every game, to a folder) and ``view`` (an HTML page to browse them)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TextIO

import click

from pdn import engine
from pdn.text.atomic import atomic_writer
from pdn.text.safe_text import printable

from .guard import InputPath, guard_output
from .inputs import NotPdn, games_of, progress_bar, sources_of
from .options import (
    encoding,
    encoding_option,
    files_argument,
    game_option,
    jobs_option,
    output_folder_option,
    output_option,
    quiet_option,
    tables_choice,
    tables_option,
    variant_option,
)
from .streams import open_output


def _picture_options(func: click.decorators.FC) -> click.decorators.FC:
    """The drawing options shared by ``show`` and ``diagram``."""
    for option in reversed(
        [
            click.option("--flip", is_flag=True, help="Black at the bottom."),
            click.option("--no-numbers", is_flag=True, help="Leave out the square numbers."),
            click.option("--no-coordinates", is_flag=True, help="Leave out the files and ranks."),
            click.option(
                "--size",
                type=click.IntRange(80, 4000),
                default=360,
                show_default=True,
                help="Board width in pixels.",
            ),
        ]
    ):
        func = option(func)
    return func


def _write_picture(out: TextIO, svg: str, png: bool) -> None:
    """An SVG diagram, or its PNG (bytes through the text stream's buffer)."""
    from pdn.writing.diagram import PngUnavailable, png_bytes

    if not png:
        out.write(svg + "\n")
        return
    try:
        data = png_bytes(svg)
    except PngUnavailable as exc:
        raise click.ClickException(str(exc)) from exc
    out.flush()
    out.buffer.write(data)
    out.buffer.flush()


@click.command()
@click.argument("file", required=False, type=InputPath(allow_dash=True, dir_okay=False))
@click.option("--fen", default=None, help="Draw this position (no FILE needed).")
@click.option(
    "--move",
    "written",
    default=None,
    help="With --fen: play this move from the position and mark it (e.g. 9-13, 15x22).",
)
@game_option(default=1)
@click.option(
    "--ply",
    type=click.IntRange(0),
    default=None,
    help="Show the position after this many mainline plies (default: the end).",
)
@click.option("--svg", is_flag=True, help="Write an SVG diagram instead of a text board.")
@click.option("--png", is_flag=True, help="Write a PNG diagram (needs the optional cairosvg).")
@click.option(
    "--eval",
    "appraise",
    is_flag=True,
    help="Under the board: the position's value and best moves by pdn's search, and the "
    "endgame tables' verdict.",
)
@click.option(
    "--depth",
    type=click.IntRange(1, 64),
    default=None,
    help="With --eval: search this many plies (default 8).",
)
@tables_option()
@_picture_options
@variant_option()
@encoding_option()
@output_option()
def show(
    file: str | None,
    fen: str | None,
    written: str | None,
    number: int,
    ply: int | None,
    svg: bool,
    png: bool,
    appraise: bool,
    depth: int | None,
    tables_dir: str | None,
    no_tables: bool,
    flip: bool,
    no_numbers: bool,
    no_coordinates: bool,
    size: int,
    variant: str | None,
    output: str,
) -> None:
    """Show a position of one game of FILE, or the position --fen, as a text board or an SVG or
    PNG diagram (the last move marked, side to move, coordinates and square numbers).

    --eval adds, under a text board, the position's value for the side to move and its best
    moves by pdn's search (--depth plies, as pdn analyse values them), and the verdict of the
    endgame tables built by pdn endgame build (--tables, --no-tables): a win or a loss in so
    many plies, or a draw, with the moves that keep it; or that no table holds the material."""
    from pdn.rules.replays import Replays
    from pdn.rules.validation import locate
    from pdn.writing.diagram import play_written, svg_board, text_board

    piped = file is None and fen is None and sys.stdin is not None and not sys.stdin.isatty()
    if piped:
        file = "-"  # data piped in and no FILE: standard input, as every command reads it
    if (file is None) == (fen is None):
        raise click.UsageError("give a FILE or --fen FEN (one of them)")
    if written is not None and fen is None:
        raise click.UsageError("--move goes with --fen (a FILE's moves are its own)")
    if (depth is not None or tables_dir is not None or no_tables) and not appraise:
        raise click.UsageError("--depth, --tables and --no-tables go with --eval")
    if appraise and (svg or png):
        raise click.UsageError("--eval goes with a text board, not --svg or --png")
    tables = tables_choice(tables_dir, no_tables)
    move = None
    if fen is not None:
        try:
            position = engine.Position.from_fen(fen, engine.get_variant(variant or "english"))
        except engine.FenError as exc:
            raise click.BadParameter(str(exc), param_hint="--fen") from exc
        reason = f"FEN {fen}"
        if written is not None:
            try:
                position, move = play_written(position, written)
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="--move") from exc
            reason += f", after {written}"
    else:
        assert file is not None
        seen = 0
        game = None
        replays = Replays(variant)
        for name, candidate in games_of((file,)):
            seen += 1
            if candidate.index == number:
                game = candidate
                break
            replays.skip(candidate, name)  # the earlier games may settle its rules
        if game is None:
            if piped and not seen:
                raise click.UsageError("give a FILE or --fen FEN (standard input held no game)")
            raise click.BadParameter(f"{file} has fewer than {number} games", param_hint="--game")
        found = locate(replays.of(game, name), ply)
        if found.position is None:
            raise click.ClickException(found.reason)
        position, reason, move = found.position, found.reason, found.move
    inputs = (file,) if file is not None else ()
    with open_output(output, inputs) as out:
        if svg or png:
            picture = svg_board(
                position,
                size=size,
                numbers=not no_numbers,
                coordinates=not no_coordinates,
                flip=flip,
                move=move,
            )
            _write_picture(out, picture, png)
        else:
            out.write(f"{printable(reason)}\n{text_board(position)}\n")
            if appraise:
                out.write(_appraisal(position, depth, tables))


def _appraisal(position: engine.Position, depth: int | None, tables: bool | str) -> str:
    """What ``show --eval`` writes under the board."""
    from pdn.study.play.analysis import DEPTH, value_text
    from pdn.study.play.appraisal import appraise

    side = position.turn.label
    found = appraise(position, depth or DEPTH, tables)
    if found is None:
        return f"{side} to move has no legal move: lost\n"
    best = ", ".join(f"{text} {value_text(value)}" for text, value in found.moves[:5])
    more = f" (and {len(found.moves) - 5} more)" if len(found.moves) > 5 else ""
    lines = [
        f"{side} to move: {value_text(found.value)} at depth {found.depth}",
        f"best moves: {best}{more}",
    ]
    if found.table is not None:
        probe = found.table
        verdict = (
            "draw"
            if probe.distance is None
            else f"{'wins' if probe.result == 'win' else 'loses'} in {probe.distance} plies"
        )
        kept = f"; best moves: {', '.join(found.table_best)}" if found.table_best else ""
        lines.append(f"tables: {side} to move {verdict}{kept}")
    elif found.tables_built:
        lines.append("tables: no table for this material")
    else:
        rules = position.variant.name
        lines.append(
            "tables: no table for this material "
            f"(none built: pdn endgame build --variant {rules} --pieces N)"
        )
    return "".join(f"{line}\n" for line in lines)


@click.command()
@files_argument()
@variant_option()
@jobs_option(default=1)
@click.option("--title", default=None, help="The page title (default: the file names).")
@click.option(
    "--explorer",
    is_flag=True,
    help="Add the opening explorer's panel: the collection's replies at each position.",
)
@click.option(
    "--explorer-from",
    "archives",
    multiple=True,
    type=InputPath(dir_okay=False),
    metavar="ARCHIVE",
    help="Also count these files' games in the panel (repeatable; implies --explorer).",
)
@click.option(
    "--explorer-depth",
    type=click.IntRange(0),
    default=30,
    show_default=True,
    help="The panel's plies of each game (0: whole games).",
)
@click.option(
    "--analyse",
    "analyse",
    is_flag=True,
    help="Analyse each game with pdn's engine (as pdn analyse) and draw its values in a "
    "graph under the board.",
)
@click.option(
    "--depth",
    type=click.IntRange(1, 64),
    default=None,
    help="With --analyse: search every move this many plies (default 8).",
)
@quiet_option()
@output_option()
def view(
    files: tuple[str, ...],
    variant: str | None,
    jobs: int,
    title: str | None,
    explorer: bool,
    archives: tuple[str, ...],
    explorer_depth: int,
    analyse: bool,
    depth: int | None,
    output: str,
) -> None:
    """Write one self-contained HTML page to browse the games of FILES: a game list with a
    filter, the board, the moves with comments, NAGs and variations, every illegal move
    marked with the validator's message and the legal moves there. Arrow keys step through a
    game (up and down change game), f flips the board.

    --explorer adds a panel under the board: at each mainline position of the shown game (up
    to --explorer-depth plies), the moves the collection (FILES, and the --explorer-from
    files) played there, with their games, wins, draws, losses and score for the side to
    move. A click on the game's next move (or a variation's) steps there; a click on another
    reply shows the position after it, off the game (the back arrow returns). Only the
    shown games' positions are counted, so a large archive costs its replay time, not its
    tree's memory; FILES are read twice (so not standard input).
    """
    from pdn.collections.batch import page_name
    from pdn.view.viewer import view_files

    if depth is not None and not analyse:
        raise click.UsageError("--depth is for --analyse")
    if analyse and depth is None:
        from pdn.study.play.analysis import DEPTH

        depth = DEPTH
    sources = sources_of(files)
    name = title or ", ".join(page_name(s) for s in sources)
    workers = jobs or os.cpu_count() or 1
    panel = None
    if explorer or archives:
        from pdn.view.explorer_page import panel_data, panel_tree

        if any(not isinstance(s, str) for s in sources):
            raise click.UsageError("--explorer reads FILES twice: give files, not standard input")
        with progress_bar(files + archives) as progress:
            tree, asked = panel_tree(
                progress.sources(sources),
                archives=progress.sources(archives),
                depth=explorer_depth,
                variant=variant,
                jobs=workers,
                encoding=encoding(),
                tick=progress.tick,
            )
            progress.close()
        panel = panel_data(tree, asked)
    with progress_bar(files) as progress, open_output(output, files) as out:
        count = view_files(
            progress.sources(sources),
            out,
            variant=variant,
            jobs=workers,
            title=name,
            encoding=encoding(),
            on_problem=NotPdn(),
            explorer=panel,
            analyse=depth,
        )
    if output != "-":
        click.echo(f"{count} games written to {output}", err=True)


def _plies_option(text: str) -> list[int]:
    """``10,20`` -> [10, 20]."""
    try:
        plies = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        plies = []
    if not plies or any(p < 0 for p in plies):
        raise click.BadParameter(f"{text!r}: give ply numbers such as 10,20", param_hint="--plies")
    return plies


@click.command()
@files_argument()
@click.option("--plies", required=True, help="Mainline plies to draw, e.g. 0,10,20.")
@game_option(default=None)
@click.option(
    "--sheet",
    is_flag=True,
    help="One printable HTML sheet (DIR/sheet.html) of all diagrams with captions.",
)
@click.option("--png", is_flag=True, help="PNG files instead of SVG (needs the optional cairosvg).")
@_picture_options
@variant_option()
@output_folder_option("directory", writable=False)
def diagram(
    files: tuple[str, ...],
    plies: str,
    number: int | None,
    sheet: bool,
    png: bool,
    flip: bool,
    no_numbers: bool,
    no_coordinates: bool,
    size: int,
    variant: str | None,
    directory: str,
) -> None:
    """Write a diagram of each chosen position of the games of FILES into a folder (file names
    from the game number, players and ply, always inside it), or with --sheet one printable
    HTML page of them (print it to PDF from a browser)."""
    from pdn.rules.replays import Replays
    from pdn.writing.diagram import confined, diagram_sheet, file_stem, snapshots, svg_board

    wanted = _plies_option(plies)
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    chosen = []
    replays = Replays(variant)
    for name, game in games_of(files):
        if number is not None and game.index != number:
            replays.skip(game, name)
            continue
        found, missing = snapshots(replays.of(game, name), wanted)
        for reason in missing:
            click.echo(printable(f"{name}:{game.line}:1: {reason}"), err=True)
        chosen.extend(found)
    if sheet:
        target = confined(folder, "sheet.html")
        guard_output(target)
        with atomic_writer(target) as out:
            out.write(diagram_sheet(chosen, flip=flip))
        click.echo(f"{len(chosen)} diagrams written to {target}", err=True)
        return
    for item in chosen:
        picture = svg_board(
            item.position,
            size=size,
            numbers=not no_numbers,
            coordinates=not no_coordinates,
            flip=flip,
            move=item.move,
            caption=item.caption,
        )
        target = confined(folder, file_stem(item) + (".png" if png else ".svg"))
        guard_output(target)
        with atomic_writer(target) as out:
            _write_picture(out, picture, png)
    click.echo(f"{len(chosen)} diagrams written to {folder}", err=True)
