"""The commands of the engine: ``perft`` (a move-generator test), ``engine`` (pdn's engine for
other programs, over the Hub protocol), ``match`` (two engines play each other) and
``analyse`` (each move of each game against the engine's best)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pdn import engine

from .inputs import NotPdn, ReadingErrors, progress_bar, sources_of
from .options import (
    encoding,
    files_argument,
    format_option,
    jobs_option,
    output_option,
    quiet,
    quiet_option,
    variant_option,
)
from .streams import open_output

if TYPE_CHECKING:
    from ..model import Game


@click.command()
@click.argument("depth", type=click.IntRange(0, 30))
@click.option("--fen", default=None, help="Start from this position instead of the start.")
@variant_option()
@click.option("--divide", is_flag=True, help="Show the count below each legal move.")
@click.option(
    "--merge",
    is_flag=True,
    help="Count captures that take the same pieces to the same square once (the published "
    "International figures); by default each capture path counts.",
)
def perft(depth: int, fen: str | None, variant: str | None, divide: bool, merge: bool) -> None:
    """Count the leaf nodes of the move tree to DEPTH plies (a move-generator test)."""
    rules = engine.get_variant(variant or "english")
    try:
        position = engine.Position.from_fen(fen, rules) if fen else engine.Position.start(rules)
    except engine.FenError as exc:
        raise click.BadParameter(str(exc), param_hint="--fen") from exc
    from ..notation import move_text

    total = 0
    if divide and depth > 0:
        for move in position.legal_moves(merge_duplicates=merge):
            count = engine.perft(position.play(move), depth - 1, merge_duplicates=merge)
            total += count
            click.echo(f"{move_text(move, rules, full=True)}: {count}")
        click.echo(f"total: {total}")
    else:
        click.echo(str(engine.perft(position, depth, merge_duplicates=merge)))


@click.command()
@click.argument("engine_a")
@click.argument("engine_b")
@click.option(
    "--ballots",
    "deck",
    type=click.Choice(["english-3move", "english-11man", "start"]),
    default="english-3move",
    show_default=True,
    help="The openings: ACF three-move ballots, 11-man ballots, or the start position.",
)
@click.option("--games", type=click.IntRange(1), default=2, show_default=True)
@click.option(
    "--depth",
    type=click.IntRange(1, 64),
    default=None,
    help="Plies a move for both (default: each engine's own level).",
)
@click.option(
    "--movetime", type=click.FloatRange(0.01), default=None, help="Seconds a move for both."
)
@variant_option(
    help="Play the match under these rules, from their --ballots start (default English)."
)
@click.option("--max-plies", type=click.IntRange(1), default=300, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Order of the ballots.")
@output_option()
def match(
    engine_a: str,
    engine_b: str,
    deck: str,
    games: int,
    depth: int | None,
    movetime: float | None,
    variant: str | None,
    max_plies: int,
    seed: int,
    output: str,
) -> None:
    """Play ENGINE_A against ENGINE_B, two programs speaking the Hub protocol (for pdn's own,
    "pdn engine --hub --depth 4"), over opening ballots, each ballot with both colours.

    The games are written as PDN (to -o, else standard output) with their ballot, engines,
    result and termination; the standings follow on standard output (standard error when the
    games go there). A game ends with no move left, a draw rule of the variant, an illegal
    move from an engine (it loses), or --max-plies (a draw).
    """
    from ..hub import HubError
    from ..match import ballots_of, engine_command, play_match
    from ..report import build_reports, games_to_records, render_text
    from ..writer import write_game

    if variant is not None and deck != "start":
        raise click.UsageError("--variant goes with --ballots start (the other decks are English)")
    ballots = ballots_of(deck, engine.get_variant(variant or "english"))
    played: list[Game] = []
    try:
        with open_output(output, ()) as out:
            for game in play_match(
                [engine_command(engine_a), engine_command(engine_b)],
                ballots,
                games,
                depth=depth,
                movetime=movetime,
                max_plies=max_plies,
                seed=seed,
                labels=[engine_a, engine_b],
            ):
                out.write(("\n" if played else "") + write_game(game))
                played.append(game)
    except HubError as exc:
        raise click.ClickException(str(exc)) from exc
    table = render_text(build_reports(games_to_records(played)))
    click.echo(table, err=output == "-", nl=False)


@click.command("engine")
@click.option("--hub", is_flag=True, help="Speak the Hub protocol on standard input and output.")
@click.option(
    "--depth", type=click.IntRange(1, 64), default=None, help="Search this many plies a move."
)
@click.option("--movetime", type=click.FloatRange(0.01), default=None, help="Seconds per move.")
def engine_command(hub: bool, depth: int | None, movetime: float | None) -> None:
    """pdn's own engine for other programs: with --hub it reads Hub commands (Scan's
    protocol, as pydraughts' HubEngine and draughts GUIs speak it) on standard input and
    answers on standard output. The depth or time given here is its level until the
    program sends a level command; without either it searches 6 plies. A search runs
    while the engine reads on: stop answers at once with the best move found so far."""
    from ..hub import HubEngine

    if not hub:
        raise click.UsageError("say which protocol: --hub")
    import pdn

    server = HubEngine(sys.stdout, depth=depth, movetime=movetime, version=pdn.__version__)
    server.serve(sys.stdin)


@click.command()
@files_argument()
@click.option(
    "--depth",
    type=click.IntRange(1, 64),
    default=None,
    help="Search every move this many plies (default 8).",
)
@click.option(
    "--movetime",
    type=click.FloatRange(0.01),
    default=None,
    help="Seconds a move instead of a depth: the deepest depth done in time.",
)
@click.option(
    "--engine",
    "engine_text",
    default=None,
    metavar="COMMAND",
    help='An outside engine speaking the Hub protocol ("scan hub", "pdn engine --hub"), '
    "or a name of the [engines] of the user's config.toml; analyses on one process.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0.1),
    default=60.0,
    show_default=True,
    help="Seconds an outside engine may take over one search (beyond --movetime) before it "
    "is taken to hang and stopped.",
)
@format_option("pdn", "json")
@variant_option()
@jobs_option()
@quiet_option()
@output_option()
def analyse(
    files: tuple[str, ...],
    depth: int | None,
    movetime: float | None,
    engine_text: str | None,
    timeout: float,
    fmt: str,
    variant: str | None,
    jobs: int | None,
    output: str,
) -> None:
    """Analyse every game of FILES with an engine: each mainline move against the best.

    The engine is pdn's own, or --engine. A move that loses about a man (0.90) or more
    against the best is a blunder ($4), 0.40 or more a mistake ($2); a missed shot is a forced gain of a man not played; an only move the
    one move that does not lose a man. A verdict is given only when the search stands by it:
    it holds at the last two depths completed (depth d and d-1), or the loss is proven (a
    forced line to a lost end); otherwise the move is "unclear" in JSON, with no NAG and no
    comment. With --engine each move is valued by the engine's search of the position after
    it (--depth at least 2); an engine that stops, hangs, or answers garbage or an illegal
    move is stopped, the message says the game and the ply, and the games analysed before
    are written. PDN output is each game as it was read, with at each
    blunder and mistake its NAG, a comment with the values and the engine's line as a
    variation, and a summary; JSON gives the figures of every ply. The progress bar counts
    the plies analysed against the plies of the input, with the time left, and the games
    (-q: none).
    """
    import json

    from ..analysis import AnalysisStopped, analyse_files, plies_in
    from ..batch import default_jobs, usable_cores
    from ..progress import is_terminal
    from ..schema import SCHEMA

    if depth is not None and movetime is not None:
        raise click.UsageError("give --depth or --movetime, not both")
    if engine_text is not None and depth == 1:
        raise click.UsageError("--engine needs --depth 2 or more")
    from contextlib import nullcontext

    from ..hub import HubError
    from ..play.engines import engine_args
    from ..play.evaluators import HubEvaluator

    evaluator = None
    if engine_text is not None:
        try:
            evaluator = HubEvaluator(engine_args(engine_text), timeout=timeout)
        except HubError as exc:
            raise click.ClickException(str(exc)) from None
    sources = sources_of(files)
    jobs = default_jobs(sources) if jobs is None else (jobs or usable_cores())
    not_pdn = NotPdn()
    reading_errors = ReadingErrors()
    plies = None
    if not quiet() and is_terminal(sys.stderr) and "-" not in files:
        # The bar counts plies against the plies of the input: one quick read first.
        plies = plies_in(sources_of(files), encoding())
    bar = progress_bar(files, per_game=True, plies=plies)
    stopped: str | None = None
    with bar as progress, open_output(output, files) as out:
        if fmt == "json":
            out.write(f'{{"schema": "{SCHEMA}", "type": "analysis", "games": [\n')
        count = 0
        try:
            with evaluator if evaluator is not None else nullcontext():
                for found, text in analyse_files(
                    progress.sources(sources),
                    depth=depth,
                    movetime=movetime,
                    variant=variant,
                    pdn=fmt == "pdn",
                    jobs=jobs,
                    encoding=encoding(),
                    on_plies=progress.advance,
                    evaluator=evaluator,
                ):
                    progress.tick()
                    if found.not_pdn is not None:
                        not_pdn(found.file, found.not_pdn)
                        continue
                    if found.errors:
                        reading_errors(found.file, found.errors)
                    if fmt == "json":
                        data = json.dumps(found.to_dict(), ensure_ascii=False)
                        out.write(("" if not count else ",\n") + data)
                    else:
                        out.write(("\n" if count else "") + text)
                    count += 1  # inputs not PDN at all are not counted
        except (AnalysisStopped, HubError) as exc:
            # The games analysed before are written: the output is closed as usual.
            stopped = f"{exc}; {count} game{'' if count == 1 else 's'} analysed before written"
        if fmt == "json":
            out.write("\n]}\n")
    if stopped is not None:
        raise click.ClickException(stopped)
