"""The commands of the engine: ``perft`` (a move-generator test), ``engine`` (pdn's engine for
other programs, over the Hub protocol), ``match`` (two engines play each other) and
``analyse`` (each move of each game against the engine's best)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import click

from pdn import engine

from .guard import InputPath
from .inputs import NotPdn, ReadingErrors, progress_bar, sources_of
from .options import (
    encoding,
    files_argument,
    format_option,
    jobs_option,
    output_option,
    quiet,
    quiet_option,
    tables_choice,
    tables_option,
    variant_option,
)
from .streams import open_output

if TYPE_CHECKING:
    from pdn.game.model import Game


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
    from pdn.engine import move_text

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
@click.option(
    "--openings",
    type=InputPath(dir_okay=False),
    default=None,
    help="The openings from a PDN file instead: each game's start (its FEN, else its "
    "variant's start) and main line, in the file's order.",
)
@click.option(
    "--games",
    type=click.IntRange(1),
    default=None,
    help="Games to play [default: 2, or each opening of --openings twice].",
)
@click.option(
    "--depth",
    type=click.IntRange(1, 64),
    default=None,
    help="Plies a move for both (default: each engine's own level).",
)
@click.option(
    "--movetime", type=click.FloatRange(0.01), default=None, help="Seconds a move for both."
)
@click.option(
    "--time",
    "control",
    default=None,
    metavar="CONTROL",
    help="A clock for each engine: 60 (sudden death, seconds), 60+1 (one more before each "
    "move), 40/120 (40 moves in 120 seconds, then again).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0.01),
    default=60.0,
    show_default=True,
    help="Seconds an engine may take over a move when there is no clock nor --movetime.",
)
@click.option(
    "--margin",
    type=click.FloatRange(0),
    default=1.0,
    show_default=True,
    help="Seconds of grace over --movetime (each move) or the clock (once a game).",
)
@variant_option(
    help="Play the match under these rules, from their --ballots start (default English)."
)
@click.option("--max-plies", type=click.IntRange(1), default=300, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Order of the ballots.")
@click.option(
    "--resume",
    is_flag=True,
    help="Keep the finished games of -o FILE and play only the rounds missing there.",
)
@tables_option()
@output_option()
def match(
    engine_a: str,
    engine_b: str,
    deck: str,
    openings: str | None,
    games: int | None,
    depth: int | None,
    movetime: float | None,
    control: str | None,
    timeout: float,
    margin: float,
    variant: str | None,
    max_plies: int,
    seed: int,
    resume: bool,
    tables_dir: str | None,
    no_tables: bool,
    output: str,
) -> None:
    """Play ENGINE_A against ENGINE_B, two programs speaking the Hub protocol (for pdn's own,
    "pdn engine --hub --depth 4"), over opening ballots, each ballot with both colours. An
    engine may be a name of the [engines] of the user's config.toml, as for pdn analyse
    --engine.

    The games are written as PDN (to -o, else standard output; to a file game by game, so
    that an interrupted match keeps its games and --resume plays the rest) with their
    ballot, engines, result and termination; the standings and the Elo difference with its
    95% interval follow on standard output (standard error when the games go there). A game
    ends with no move left, a draw rule of the variant, an illegal move from an engine (it
    loses), a position the endgame tables hold (pdn endgame build; --tables, --no-tables:
    adjudicated with their result, said in Termination), or --max-plies (a draw). An
    engine that crashes, says error, sends a line that
    cannot be read or runs over its time forfeits the game (said on standard error) and is
    started again; the match goes on.
    """
    from pdn.study.play.clock import TimeControl
    from pdn.study.play.hub import HubError
    from pdn.study.play.match import (
        Limits,
        ballots_of,
        engine_command,
        match_elo,
        openings_of,
        play_match,
    )
    from pdn.study.tournament import build_reports, games_to_records, render_text

    given = [name for name, value in (("--depth", depth), ("--movetime", movetime)) if value]
    if control is not None:
        given.append("--time")
    if len(given) > 1:
        raise click.UsageError(f"give one of --depth, --movetime and --time, not {given}")
    from pdn.study.play.engines import configured_engines

    try:
        named = configured_engines()
    except HubError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        commands = [engine_command(named.get(text, text)) for text in (engine_a, engine_b)]
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        clock = TimeControl.parse(control) if control is not None else None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--time") from None
    rules = engine.get_variant(variant) if variant is not None else None
    if openings is not None:
        try:
            ballots = openings_of(openings, rules)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--openings") from None
    else:
        if variant is not None and deck != "start":
            raise click.UsageError(
                "--variant goes with --ballots start (the other decks are English)"
            )
        ballots = ballots_of(deck, rules or engine.get_variant("english"))
    if games is None:
        games = 2 * len(ballots) if openings is not None else 2
    if resume and output == "-":
        raise click.UsageError("--resume reads the games of -o FILE: name the file")
    limits = Limits(depth, movetime, clock, timeout, margin)
    tables = tables_choice(tables_dir, no_tables)
    kept = _kept_games(output, (openings,) if openings else (), resume)
    played: list[Game] = list(kept.values())
    try:
        with _game_sink(output, bool(kept)) as write:
            for game in play_match(
                commands,
                ballots,
                games,
                max_plies=max_plies,
                seed=seed,
                labels=[engine_a, engine_b],
                limits=limits,
                shuffle=openings is None,
                done=kept,
                warn=lambda said: click.echo(f"pdn match: {said}", err=True),
                tables=tables,
            ):
                write(game, bool(played))
                played.append(game)
    except HubError as exc:
        raise click.ClickException(f"{exc} ({len(played)} games kept)") from exc
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        if played:
            played.sort(key=lambda game: int(game.tags.get("Round") or 0))
            text = render_text(build_reports(games_to_records(played)))
            elo = match_elo(played)
            if elo is not None:
                text += f"\nElo difference, {elo[0]} over {elo[1]}: {elo[2].text()}\n"
            click.echo(text, err=output == "-", nl=False)


def _kept_games(output: str, inputs: tuple[str, ...], resume: bool) -> dict[int, Game]:
    """The finished rounds of ``output`` when resuming (rewritten at once with only those,
    so that a game cut off by the interruption is played again); none otherwise, the
    file being checked as a place to write."""
    import os

    from pdn.reading.reader import read_games
    from pdn.study.play.match import rounds_played
    from pdn.writing.writer import write_game

    from .guard import guard_output
    from .streams import open_output

    if output == "-":
        return {}
    guard_output(output, inputs)
    if not resume or not os.path.exists(output):
        return {}
    kept = rounds_played(read_games(output))
    with open_output(output, inputs) as out:
        for at, game in enumerate(kept.values()):
            out.write(("\n" if at else "") + write_game(game))
    return kept


@contextlib.contextmanager
def _game_sink(output: str, append: bool) -> Iterator[Callable[[Game, bool], None]]:
    """A writer of games, one at a time: to standard output, or to ``output`` flushed to
    the disk after each game (a match is hours long: what is played is kept)."""
    import os

    if output == "-":

        def echo(game: Game, more: bool) -> None:
            from pdn.writing.writer import write_game

            sys.stdout.write(("\n" if more else "") + write_game(game))
            sys.stdout.flush()

        yield echo
        return
    from pdn.writing.writer import write_game

    with open(output, "a" if append else "w", encoding="utf-8", newline="") as handle:

        def write(game: Game, more: bool) -> None:
            handle.write(("\n" if more else "") + write_game(game))
            handle.flush()
            os.fsync(handle.fileno())

        yield write


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
    from pdn.study.play.hub import HubEngine

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
@tables_option()
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
    tables_dir: str | None,
    no_tables: bool,
    fmt: str,
    variant: str | None,
    jobs: int | None,
    output: str,
) -> None:
    """Analyse every game of FILES with an engine: each mainline move against the best.

    The engine is pdn's own, or --engine. A move that loses about a man (0.90) or more
    against the best is a blunder ($4), 0.40 or more a mistake ($2); a missed shot is a
    forced gain of a man not played; an only move the one move that does not lose a man. A
    verdict is given only when the search stands by it: it holds at the last two depths
    completed (depth d and d-1), or the loss is proven (a forced line to a lost end);
    otherwise the move is "unclear" in JSON, with no NAG and no comment. With --engine each
    move is valued by the engine's search of the position after it (--depth at least 2); an
    engine that stops, hangs, or answers garbage or an illegal move is stopped, the message
    says the game and the ply, and the games analysed before are written. Where the endgame
    tables (pdn endgame build; --tables, --no-tables) hold a position, the search takes their
    exact value, and what they prove stands at any depth: a move that "throws away a win" or
    "throws away a draw" ($4), one that "misses a win" they hold, and a result the game's
    last position contradicts ("the result 1-0 contradicts the tables: the position after
    ply k is a draw"), each with the tables' distance in plies. PDN output is each
    game as it was read, with at each blunder and mistake its NAG, a comment with the values
    and the engine's line as a variation, and a summary; JSON gives the figures of every
    ply. The progress bar counts the plies analysed against the plies of the input, with the
    time left, and the games (-q: none).
    """
    import json

    from pdn.collections.batch import default_jobs, usable_cores
    from pdn.study.play.analysis import AnalysisStopped, analyse_files, plies_in
    from pdn.text.progress import is_terminal
    from pdn.text.schema import SCHEMA

    if depth is not None and movetime is not None:
        raise click.UsageError("give --depth or --movetime, not both")
    if engine_text is not None and depth == 1:
        raise click.UsageError("--engine needs --depth 2 or more")
    from contextlib import nullcontext

    from pdn.study.play.engines import engine_args
    from pdn.study.play.evaluators import HubEvaluator
    from pdn.study.play.hub import HubError

    tables = tables_choice(tables_dir, no_tables)
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
                    tables=tables,
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
