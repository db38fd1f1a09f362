"""The commands that study a collection: ``openings`` (the ballot of each game), ``explore``
(the opening tree at a position), ``novelty`` (where each game leaves an archive) and
``report`` (standings, crosstables, results by round)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import click

from pdn import engine
from pdn.text.safe_text import printable

from .guard import InputPath
from .inputs import (
    NotPdn,
    ReadingErrors,
    archive_files,
    games_of,
    progress_bar,
    recorded_games_of,
    sources_of,
)
from .options import (
    encoding,
    files_argument,
    format_option,
    jobs_option,
    names_option,
    output_option,
    quiet_option,
    variant_option,
)
from .streams import open_output

if TYPE_CHECKING:
    from pdn.game.model import Game
    from pdn.reading.recording import Recorded
    from pdn.text.names import Aliases


@click.command()
@files_argument()
@click.option("--stats", is_flag=True, help="Per ballot: games, wins, draws and score.")
@click.option(
    "--ballot",
    type=click.IntRange(1, 174),
    default=None,
    help="Extract the games of ACF ballot N as PDN (to -o).",
)
@format_option("text", "csv", "json", "markdown")
@click.option(
    "--sort",
    type=click.Choice(["ballot", "games"]),
    default="ballot",
    show_default=True,
    help="Order of the --stats rows: by ballot number, or most played first.",
)
@quiet_option()
@output_option()
def openings(
    files: tuple[str, ...], stats: bool, ballot: int | None, fmt: str, sort: str, output: str
) -> None:
    """Classify each English game by its ACF three-move ballot (by position, so
    transpositions are caught), two-move opening or 11-man ballot.

    CSV: a cell that starts with = + - @ (or a tab) gets a ' in front, so that a spreadsheet
    shows it as text instead of running it as a formula; plain numbers such as -1, and a lone
    -, are left as they are. Control characters from the file are shown as \\x1b and so on.
    """
    from collections import Counter

    from pdn.rules.openings import BALLOT_PLIES, Opening, ballot_stats, classify
    from pdn.rules.replay_report import Report
    from pdn.rules.replays import Replays
    from pdn.writing.openings_render import (
        empty_stats_note,
        opening_row,
        render_openings_chunks,
        render_stats,
    )
    from pdn.writing.writer import write_game

    replays = Replays()

    def replayed() -> Iterator[Report]:
        # Nothing is written back: each game read for its replay, with its opening's steps.
        for name, game in recorded_games_of(files, first_steps=BALLOT_PLIES):
            yield replays.of(game, name)

    with open_output(output, files) as out:
        if ballot is not None:
            extracted = 0
            for name, game in games_of(files):
                opening = classify(game, replays.of(game, name))
                if opening.kind == "ballot" and opening.number == ballot:
                    out.write(("\n" if extracted else "") + write_game(game))
                    extracted += 1
        elif stats:
            kinds: Counter[str] = Counter()  # what the games were, to say why no row
            variants: Counter[str] = Counter()

            def classified() -> Iterator[tuple[Opening, str | None]]:
                for report in replayed():
                    game = report.game
                    opening = classify(game, report)
                    kinds[opening.kind] += 1
                    if opening.kind == "not-english":
                        variants[report.variant_name or "unknown"] += 1
                    yield opening, game.result

            # Tallied game by game: the memory does not grow with the input.
            table = ballot_stats(classified())
            if sort == "games":
                table.sort(key=lambda row: -row.games)
            out.write(render_stats(table, fmt))
            if not table:
                note = empty_stats_note(kinds, variants)
                click.echo(f"note: the table is empty: {note}", err=True)
        else:
            # One row per game, written as it comes in CSV and JSON (text and Markdown size
            # their columns from every row first).
            rows = (
                opening_row(report.game, classify(report.game, report)) for report in replayed()
            )
            for chunk in render_openings_chunks(rows, fmt):
                out.write(chunk)


@click.command()
@files_argument()
@click.option(
    "--moves",
    "line",
    metavar="LINE",
    default=None,
    help='Explore the position after this line from the start ("11-15 23-19 8-11").',
)
@click.option("--fen", default=None, help="Explore this position.")
@click.option(
    "--depth",
    type=click.IntRange(0),
    default=30,
    show_default=True,
    help="Plies of each game that go into the tree (0: whole games).",
)
@click.option(
    "--min-games",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Show only replies played in at least this many games (html: follow only those).",
)
@click.option(
    "--plies",
    type=click.IntRange(0),
    default=10,
    show_default=True,
    help="html: how many plies below the position the page follows replies.",
)
@click.option(
    "--max-nodes",
    type=click.IntRange(1),
    default=5000,
    show_default=True,
    help="html: the most positions the page holds (the most played first).",
)
@format_option("text", "json", "html")
@variant_option()
@jobs_option()
@quiet_option()
@output_option()
def explore(
    files: tuple[str, ...],
    line: str | None,
    fen: str | None,
    depth: int,
    min_games: int,
    plies: int,
    max_nodes: int,
    fmt: str,
    variant: str | None,
    jobs: int | None,
    output: str,
) -> None:
    """The opening tree of FILES at one position (the start by default): the games that
    reached it, their results for the side to move, and every move played from it with the
    same figures. Positions, not move orders, are counted: transpositions merge.

    Each game is replayed under its rules, as validate replays it; the tree shows the
    variant most games are in (or --variant). A game that breaks off with an illegal move
    counts up to its last legal ply.

    --format html writes one self-contained page to click through the tree from the
    position: its board, figures and replies; a click on a reply goes to the position
    after it (the browser's back button steps back). The page holds the positions reached
    by replies played in at least --min-games games, up to --plies plies below the
    position, at most --max-nodes of them, the most played first (so the main lines are
    followed to their end before side lines near the position); it says how many replies
    lead to positions left out. OCA 2.0 from the start with the defaults: 5,000 positions,
    about 0.9 MB.
    """
    import json

    from pdn.collections.batch import default_jobs, usable_cores
    from pdn.study.explore.render import render_text, to_json
    from pdn.study.explore.tree import build, positions_asked

    if line is not None and fen is not None:
        raise click.UsageError("give --moves or --fen, not both")
    try:
        asked = positions_asked(line, fen, variant)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--moves") from exc
    sources = sources_of(files)
    jobs = default_jobs(sources) if jobs is None else (jobs or usable_cores())
    with progress_bar(files) as progress:
        tree = build(
            progress.sources(sources),
            depth,
            variant=variant,
            players_at=[p for p in asked.values() if not isinstance(p, str)],
            jobs=jobs,
            encoding=encoding(),
            tick=progress.tick,
            reading_errors=ReadingErrors(),
        )
        progress.close()
    rules = engine.get_variant(variant) if variant else tree.main_variant()
    if rules is None:
        raise click.ClickException("no game to explore in FILES")
    position = asked[rules.name]
    if isinstance(position, str):
        raise click.BadParameter(position, param_hint="--fen" if fen else "--moves")
    if fmt == "html":
        from pdn.collections.batch import page_name
        from pdn.view.explorer_page import explorer_html

        page = explorer_html(
            tree,
            position,
            min_games=min_games,
            plies=plies,
            max_nodes=max_nodes,
            line=line if line is not None else (None if fen is not None else ""),
            title="Explorer: " + ", ".join(page_name(s) for s in sources),
        )
        with open_output(output, files) as out:
            out.write(page)
        return
    node = tree.node(position)
    with open_output(output, files) as out:
        if fmt == "json":
            out.write(json.dumps(to_json(tree, node, min_games=min_games), indent=2) + "\n")
        else:
            out.write(render_text(tree, node, min_games=min_games))


_against_option = click.option(
    "--against",
    multiple=True,
    required=True,
    type=InputPath(),
    metavar="ARCHIVE",
    help="The archive to compare with (a file or folder; repeatable).",
)


@click.command()
@files_argument()
@_against_option
@format_option("text", "json")
@variant_option()
@jobs_option()
@quiet_option()
@output_option()
def novelty(
    files: tuple[str, ...],
    against: tuple[str, ...],
    fmt: str,
    variant: str | None,
    jobs: int | None,
    output: str,
) -> None:
    """The novelty of each game of FILES against ARCHIVE: the first ply after which the
    game is in a position no archive game reached (by any move order), with how many archive
    games reached the position before it and what they played there.

    Games are replayed as validate replays them, each under its rules; an archive game under
    other rules never matches (the summary says how many there were). A game whose mainline,
    as far as it is legal, is all in the archive has no novelty. --format json writes the
    records of docs/json.md. Reading errors are said on standard error as FILE:LINE:COL (a
    game still counts as far as it was read and is legal); exit status 1 when an input is not
    PDN at all.
    """
    import json

    from pdn.collections.batch import default_jobs, usable_cores
    from pdn.study.novelty import (
        archive_tree,
        novelty_of,
        novelty_text,
        replay_games,
        summary_text,
        to_json,
    )

    archive = archive_files(files, against, "--against")
    sources = sources_of(files)
    jobs = default_jobs([*sources, *archive]) if jobs is None else (jobs or usable_cores())
    reading = ReadingErrors()  # said as they come; an input that is not PDN exits 1
    with progress_bar(files + tuple(archive)) as progress:
        played = list(
            replay_games(
                progress.sources(sources),
                variant=variant,
                jobs=jobs,
                encoding=encoding(),
                tick=progress.tick,
                reading_errors=reading,
            )
        )
        tree = archive_tree(
            progress.sources(archive),
            played,
            variant=variant,
            jobs=jobs,
            encoding=encoding(),
            tick=progress.tick,
            reading_errors=reading,
        )
        progress.close()
    # An input that is not PDN was said: it has no game to list.
    found = [novelty_of(one, tree) for one in played if one.stopped != "not-pdn"]
    with open_output(output, files) as out:
        if fmt == "json":
            data = to_json(found, tree)
            out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        else:
            for each in found:
                out.write(printable(novelty_text(each)) + "\n")
            out.write(("\n" if found else "") + summary_text(found, tree) + "\n")


@click.command()
@files_argument()
@format_option("text", "markdown", "csv", "json", "html")
@click.option(
    "--points",
    default=None,
    help="Points for a win, a draw and a loss, e.g. 2,1,0 (default: as the results are "
    "written: 2,1,0 for 2-0/1-1 results, else 1,0.5,0).",
)
@click.option(
    "--table",
    type=click.Choice(["standings", "crosstable", "games", "openings"]),
    default="standings",
    show_default=True,
    help="Which table CSV output holds.",
)
@click.option(
    "--tiebreaks",
    default="sb,wins",
    show_default=True,
    metavar="LIST",
    help="What orders players equal on points, in order, then the name: sb "
    "(Sonneborn-Berger), buchholz (Solkoff), median-buchholz, truncated-solkoff (Buchholz "
    "less the lowest opponent, as FMJD Swiss events use), wins, delft (Delft scoring, as "
    "Dutch events use: 4-0 a win, 2-2 a draw, 3-1 a draw with 3 or more pieces ahead, a king "
    "counting 2, in the final position of its replayed moves; the notes name each 3-1, and "
    "each draw scored 2-2 because its moves do not replay). The page says the order.",
)
@click.option("--no-openings", is_flag=True, help="Skip the ballot of each game (faster).")
@click.option("--event", default=None, metavar="REGEX", help="Only the events this matches.")
@names_option()
@click.option(
    "--width",
    type=click.IntRange(20),
    default=None,
    help="Fold text tables wider than this (default: the terminal's width on a terminal).",
)
@click.option(
    "--dedupe",
    is_flag=True,
    help="Count a repeated game once (same moves, players, event and round).",
)
@variant_option()
@quiet_option()
@output_option()
def report(
    files: tuple[str, ...],
    fmt: str,
    points: str | None,
    table: str,
    tiebreaks: str,
    no_openings: bool,
    event: str | None,
    aliases: Aliases | None,
    width: int | None,
    dedupe: bool,
    variant: str | None,
    output: str,
) -> None:
    """Standings, crosstable, results by round, colour balance and ballots, per event.

    Players are ranked by points, then by the --tiebreaks in order (by default
    Sonneborn-Berger, then wins), then by name; players equal on all of them share a rank.
    With delft, every drawn game is replayed to its end for its final position.

    An event with more than 60 players gets no crosstable grid (it would grow with the square
    of the players); a line says so, and --format csv --table crosstable, like JSON, lists
    every pair of players that met.

    CSV: a cell that starts with = + - @ (or a tab) gets a ' in front, so that a spreadsheet
    shows it as text instead of running it as a formula; plain numbers such as -1 (points can
    be negative), and a lone -, are left as they are; results (0-1, 1/2-1/2) start with a
    digit. Control characters from the file are shown as \\x1b and so on.
    """
    import shutil

    from pdn.reading.recording import game_of
    from pdn.rules.openings import BALLOT_PLIES, classify
    from pdn.rules.replays import Replays
    from pdn.study import tournament as reports
    from pdn.study.tournament.delft import with_material
    from pdn.text.problems import Problem

    try:
        scheme = None if points is None else reports.parse_points(points)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--points") from exc
    try:
        order = reports.parse_tiebreaks(tiebreaks)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--tiebreaks") from exc
    if width is None and output == "-" and sys.stdout.isatty():
        width = shutil.get_terminal_size().columns
    delft = "delft" in order

    # What standard error says, the page says too (HTML and Markdown):
    # pdn.study.tournament.render_chunks.
    page_warnings: list[str] = []
    not_pdn = NotPdn(page_warnings)

    def records() -> Iterator[reports.GameRecord]:
        repeats = _Repeats(dedupe, page_warnings)
        replays = Replays(variant)
        with_games: set[str] = set()
        # Nothing is written back: each game read for its replay, with its opening's steps.
        read = recorded_games_of(files, first_steps=BALLOT_PLIES, not_pdn=not_pdn)
        for name, recorded in read:
            game = game_of(recorded)
            if any(p.code == "not-pdn" for p in game.errors):
                with_games.add(name)  # said already (and on the page)
                continue
            if not (game.tags or recorded.mainline_moves() or game.terminator is not None):
                continue  # text between games (or a file of no games): nothing to report
            with_games.add(name)
            if repeats.skip(name, recorded):
                replays.skip(recorded, name)
                continue
            label = None
            # Delft scoring weighs a draw's final position: its replay's.
            draw = delft and reports.parse_result(game.tags.get("Result", "")) == (0.5, 0.5)
            replayed = None
            # Who moved first: under the rules validate replays the game under (a failing
            # guess retried), read without a replay only where they are certain.
            rules = variant
            if no_openings and replays.certain(game) and not draw:
                replays.skip(recorded, name)
            else:
                replayed = replays.of(recorded, name)
                rules = rules or replayed.variant_name
                if not no_openings:
                    opening = classify(game, replayed)
                    label = f"ACF {opening.number}" if opening.kind == "ballot" else None
            # index: the game's number in its file, as validate and the warnings give it.
            record = reports.game_record(game, rules, opening=label, index=game.index)
            if draw and replayed is not None:
                record = with_material(record, replayed)
            yield record
        for name in dict.fromkeys(files):
            if name not in with_games:
                not_pdn(name, Problem("not-pdn", "no PDN game in this file", line=1, column=1))
        repeats.summary()  # after the last game, before the first event is written

    # One event at a time: the records wait on disk, not in memory
    # (pdn.study.tournament.EventStore).
    try:
        built = reports.iter_reports(
            records(), scheme, aliases=aliases, event=event, tiebreaks=order
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--event") from exc
    with open_output(output, files) as out:
        chunks = reports.render_chunks(built, fmt, table=table, width=width, warnings=page_warnings)
        for chunk in chunks:
            out.write(chunk)
    not_pdn.exit()


class _Repeats:
    """Warns of repeated games on standard error (pdn.collections.duplicates.pairing_key); with
    ``dedupe``, says which are left out of the counts."""

    #: Repeats listed one by one on a page (standard error lists them all).
    SHOWN = 20

    def __init__(self, dedupe: bool, page: list[str] | None = None) -> None:
        from pdn.collections.duplicates import Deduper

        self.dedupe = dedupe
        self.seen = Deduper()
        self.count = 0
        self.page = [] if page is None else page

    def skip(self, name: str, read: Game | Recorded) -> bool:
        """Whether to leave a game out: it repeats an earlier game and ``dedupe`` is on."""
        from pdn.collections.duplicates import Place, pairing_key
        from pdn.collections.inputs import page_name
        from pdn.reading.recording import game_of

        game = game_of(read)
        place = Place(name, game.line, game.index)
        first = self.seen.check(pairing_key(read), place)
        if first is None:
            return False
        self.count += 1
        how = "counted once" if self.dedupe else "counted again"

        def said(name: Callable[[str], str]) -> str:
            return (
                f"{name(place.file)}:{place.line}:1: warning: game {game.index} repeats "
                f"{name(first.file)}:{first.line} (game {first.index}), {how}"
            )

        click.echo(printable(said(str)), err=True)
        if self.count <= self.SHOWN:
            self.page.append(said(page_name))  # a page names the file, not the user's folders
        return self.dedupe

    def summary(self) -> None:
        """One closing line when any game was repeated."""
        if self.count > self.SHOWN:
            self.page.append(
                f"... {self.count - self.SHOWN} more repeats (standard error lists all)"
            )
        if self.count and not self.dedupe:
            line = f"warning: {self.count} repeated games counted again; --dedupe counts each once"
            click.echo(line, err=True)
            self.page.append(line)
        elif self.count:
            self.page.append(f"{self.count} repeated games counted once (--dedupe)")
