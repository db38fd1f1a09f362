"""The commands that pick games out of a collection, each written as read: ``select`` (by
tags, positions, material, verdicts), ``dedupe`` (repeats left out) and ``split`` (one file
per event, round, player...)."""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

import click

from pdn import engine
from pdn.text.safe_text import printable

from .guard import InputPath, OutputPath
from .inputs import NotPdn, progress_bar, say_damage, say_recoded, sources_of
from .options import (
    encoding,
    files_argument,
    output_folder_option,
    output_option,
    quiet_option,
    recursive,
    variant_option,
)
from .streams import EXIT_PROBLEMS, open_output

if TYPE_CHECKING:
    from pdn.collections.copying import AsRead
    from pdn.collections.selection import Picked
    from pdn.reading.cutting import RawGame

T = TypeVar("T")
U = TypeVar("U")


def _regex(pattern: str | None, param: str) -> re.Pattern[str] | None:
    """A case-insensitive regular expression from an option, or a usage error."""
    if pattern is None:
        return None
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise click.BadParameter(f"{pattern!r}: {exc}", param_hint=param) from exc


def _parsed(parse: Callable[[U], T], text: U | None, param: str) -> T | None:
    """``parse(text)`` for an option value, a ValueError becoming a usage error."""
    if text is None:
        return None
    try:
        return parse(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=param) from exc


def _check_fen(fen: str | None) -> None:
    """A --fen that no variant can read is a usage error, not a silent empty selection."""
    if fen is None:
        return
    errors = []
    for rules in engine.VARIANTS.values():
        try:
            engine.Position.from_fen(fen, rules)
            return
        except engine.FenError as exc:
            errors.append(str(exc))
    raise click.BadParameter(f"{fen!r}: {errors[0]}", param_hint="--fen")


def _check_line(moves: tuple[str, ...] | None, text: str | None) -> None:
    """A --moves line that no variant can play from its standard start is said: only games
    set up by a FEN tag can then match (it is no usage error, as they may)."""
    if moves is None:
        return
    from pdn.collections.selection import line_position

    for rules in engine.VARIANTS.values():
        if line_position(engine.Position.start(rules), moves) is not None:
            return
    click.echo(
        printable(
            f"Warning: --moves {text!r} cannot be played from the start position under any "
            "rules: only games set up by a FEN tag can match"
        ),
        err=True,
    )


@click.command()
@files_argument()
@click.option(
    "--tag",
    "tag_filters",
    multiple=True,
    metavar="NAME=REGEX",
    help="Keep games whose tag NAME (any case) matches REGEX (repeatable: all must match).",
)
@click.option(
    "--where",
    "where_filters",
    multiple=True,
    metavar="EXPR",
    help="A tag compared: WhiteRating>=1950, Date<1990.06, Round!=3 (= != < <= > >=; numbers "
    "as numbers, *Date tags as dates, else text). Repeatable: all must hold.",
)
@click.option("--any", "where_any", is_flag=True, help="One --where holding is enough.")
@click.option("--player", metavar="REGEX", help="Black or White matches.")
@click.option("--black", metavar="REGEX", help="Black matches.")
@click.option("--white", metavar="REGEX", help="White matches.")
@click.option("--event", metavar="REGEX", help="Event matches.")
@click.option(
    "--date-from", metavar="DATE", help="Dated on or after DATE (YYYY, YYYY.MM or YYYY.MM.DD)."
)
@click.option("--date-to", metavar="DATE", help="Dated on or before DATE.")
@click.option(
    "--result",
    "result_filters",
    multiple=True,
    metavar="RESULT",
    help="1-0, 0-1, 2-0, 0-2, 1-1, 1/2-1/2, draw, unknown... (repeatable: any). Read "
    "as the first mover's outcome, so 1-0 also keeps 2-0 (Result tag, else the "
    "terminator).",
)
@variant_option(
    help="Keep the games of this variant: the rules pdn validate replays them under (the "
    "GameType tag, else a game without one is replayed: a failing guess is retried).",
    name="variant_filter",
)
@click.option(
    "--min-plies", type=click.IntRange(0), default=None, help="At least N mainline plies."
)
@click.option("--max-plies", type=click.IntRange(0), default=None, help="At most N mainline plies.")
@click.option(
    "--ballot",
    type=click.IntRange(1, 174),
    default=None,
    help="English games on ACF ballot N, by position (transpositions count): the first "
    "three plies replayed under English rules, and a game without GameType that they put on "
    "the ballot replayed whole, as validate does, for its rules.",
)
@click.option(
    "--fen", default=None, help="The mainline passes through this position (side to move included)."
)
@click.option(
    "--fen-pattern",
    default=None,
    metavar="PATTERN",
    help="The mainline reaches a position with these pieces, e.g. '?:W18,K22:B15' "
    "(turn B, W or ?; other squares may hold anything).",
)
@click.option(
    "--material",
    default=None,
    metavar="FIRST:SECOND",
    help="Pieces at the end of the mainline: first mover first (3K:2K, 2M1K:3K, 5:4) "
    "or by colour (W3K:B2K).",
)
@click.option(
    "--material-at-any",
    default=None,
    metavar="FIRST:SECOND",
    help="As --material, at any position of the mainline.",
)
@click.option(
    "--moves",
    "moves_line",
    default=None,
    metavar="LINE",
    help="The mainline reaches the position after this line of moves, at the same ply "
    "(e.g. '11-15 23-19 8-11 22-17'; transpositions count).",
)
@click.option(
    "--mark",
    is_flag=True,
    help="Add a {select: ...} comment after the move where --moves, --fen, --fen-pattern, "
    "--material or --material-at-any was met.",
)
@click.option(
    "--clean",
    "verdict",
    flag_value="clean",
    default=None,
    help="Games validation replays without an error (games of variants without rules "
    "are neither clean nor broken).",
)
@click.option("--broken", "verdict", flag_value="broken", help="Games with an error.")
@click.option(
    "--cut-at-error",
    is_flag=True,
    help="Write a game with an error in its mainline up to that error; the rest "
    "follows word for word in ';' comment lines.",
)
@click.option(
    "--games",
    "numbers",
    default=None,
    metavar="N,M-K",
    help="Games by number, counted from 1 across FILES in the order read (for one file, the "
    "numbers the other commands give): 5,10-20 (a range such as 30- runs to the end).",
)
@click.option("--invert", is_flag=True, help="Keep the games that do NOT match.")
@click.option("--first", type=click.IntRange(1), default=None, help="Stop after N games.")
@click.option("--count", "count_only", is_flag=True, help="Print only the number of games.")
@click.option(
    "--rest",
    type=OutputPath(writable=True),
    default=None,
    metavar="FILE",
    help="Write every game not kept to FILE, as read, in the same pass (with --first, the "
    "games after the first N too): the output and FILE hold all the games.",
)
@quiet_option()
@output_option()
def select(
    files: tuple[str, ...],
    tag_filters: tuple[str, ...],
    where_filters: tuple[str, ...],
    where_any: bool,
    player: str | None,
    black: str | None,
    white: str | None,
    event: str | None,
    date_from: str | None,
    date_to: str | None,
    result_filters: tuple[str, ...],
    variant_filter: str | None,
    min_plies: int | None,
    max_plies: int | None,
    ballot: int | None,
    fen: str | None,
    fen_pattern: str | None,
    material: str | None,
    material_at_any: str | None,
    moves_line: str | None,
    mark: bool,
    verdict: str | None,
    cut_at_error: bool,
    numbers: str | None,
    invert: bool,
    first: int | None,
    count_only: bool,
    rest: str | None,
    output: str,
) -> None:
    """Keep the games of FILES that meet every condition given, in order, written as read.

    Written as read: each game's text byte for byte, each line with the line end it has in
    its file (CRLF, LF or CR), an output starting with the BOM of its first game's file; a
    UTF-16 file's games are written in UTF-8 (with its BOM), said in a note on standard
    error; bytes the file's encoding cannot read are written as U+FFFD, each said as
    FILE:LINE:COL (the exit status is not changed).

    Standard error ends with one line, N kept of M games read (not with --count, whose number is
    the answer). Exit status: 0 when a game was kept, 1 when none was (as grep: a script can
    tell an empty selection), or when an input was not PDN; 2 on usage errors.

    Regular expressions are case-insensitive and may match anywhere in the value
    (anchor them with ^ and $). Dates: a game's date with ? parts stands for every day it
    could be (1990.??.?? is all of 1990, 19??.??.?? the century) and is kept when any of them
    lies in --date-from..--date-to; a partial bound is its first day (--date-from) or last day
    (--date-to); a game without a known year fails any date bound. Tag conditions never parse
    the moves; --fen and --ballot replay the mainline only as far as they need.

    --where compares a tag with a value: as numbers when the value is one, as PDN dates for a
    tag named *Date (a date with ? parts meets it when a day it stands for would; != is the
    opposite of =), else as text (any case). A missing tag, or one that cannot be read so
    (a rating of ?), meets no comparison.
    """
    from pdn.collections.selection import (
        Selection,
        parse_date_bound,
        parse_line,
        parse_material,
        parse_numbers,
        parse_pattern,
        parse_results,
        parse_where,
        partition_games,
    )

    tags = []
    for item in tag_filters:
        name, sep, pattern = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{item!r} is not NAME=REGEX", param_hint="--tag")
        compiled = _regex(pattern, "--tag")
        assert compiled is not None
        tags.append((name.strip(), compiled))
    _check_fen(fen)
    where = [_parsed(parse_where, item, "--where") for item in where_filters]
    if where_any and not where:
        raise click.UsageError("--any ORs the --where conditions: give some")
    moves = _parsed(parse_line, moves_line, "--moves")
    _check_line(moves, moves_line)
    if mark and not (moves or fen or fen_pattern or material or material_at_any):
        raise click.UsageError(
            "--mark marks where --moves, --fen, --fen-pattern, --material or "
            "--material-at-any was met: give one"
        )
    if mark and (invert or cut_at_error):
        raise click.UsageError("--mark cannot go with --invert or --cut-at-error")
    selection = Selection(
        tags=tags,
        where=[comparison for comparison in where if comparison is not None],
        where_any=where_any,
        player=_regex(player, "--player"),
        black=_regex(black, "--black"),
        white=_regex(white, "--white"),
        event=_regex(event, "--event"),
        date_from=_parsed(lambda t: parse_date_bound(t, upper=False), date_from, "--date-from"),
        date_to=_parsed(lambda t: parse_date_bound(t, upper=True), date_to, "--date-to"),
        results=_parsed(parse_results, result_filters or None, "--result"),
        variant=engine.get_variant(variant_filter).name if variant_filter else None,
        min_plies=min_plies,
        max_plies=max_plies,
        ballot=ballot,
        fen=fen,
        fen_pattern=_parsed(parse_pattern, fen_pattern, "--fen-pattern"),
        material=_parsed(parse_material, material, "--material"),
        material_at_any=_parsed(parse_material, material_at_any, "--material-at-any"),
        moves=moves,
        mark=mark,
        verdict="clean" if verdict == "clean" else "broken" if verdict == "broken" else None,
        invert=invert,
        first=first,
        games=_parsed(parse_numbers, numbers, "--games"),
        cut_at_error=cut_at_error,
    )
    if rest is not None and (
        rest == output
        or (rest != "-" and output != "-" and Path(rest).resolve() == Path(output).resolve())
    ):
        raise click.UsageError("--rest and -o must be different files")
    from pdn.collections.copying import AsRead

    chosen = read = left = cut = 0
    not_pdn = NotPdn()
    sources = sources_of(files)
    # A bar when games are parsed or replayed (positions, verdicts, plies): the slow cases.
    with contextlib.ExitStack() as stack:
        progress = stack.enter_context(progress_bar(files, slow=selection.needs_game()))
        out = stack.enter_context(open_output(output, files))
        others = None if rest is None else stack.enter_context(open_output(rest, files))
        copy = stack.enter_context(contextlib.closing(AsRead(encoding(), say_recoded)))
        picks = partition_games(
            progress.sources(sources),
            selection,
            on_problem=not_pdn,
            encoding=encoding(),
            every=others is not None,
        )
        for picked in picks:
            read += 1
            if not picked.kept:
                if others is not None:
                    _copied(copy, others, picked, first=not left)
                    left += 1
                continue
            if not count_only:
                _copied(copy, out, picked, first=not chosen)
            chosen += 1
            cut += picked.cut
        progress.close()  # before the count, which stays on screen
        if count_only:
            out.write(f"{chosen}\n")
    if cut:
        click.echo(f"note: {cut} games cut at their first error (the rest in comments)", err=True)
    if not count_only:
        click.echo(printable(_kept_line(chosen, read, rest, left)), err=True)
    not_pdn.exit()
    if not chosen:
        sys.exit(EXIT_PROBLEMS)


def _copied(copy: AsRead, out: TextIO, picked: Picked, *, first: bool) -> None:
    """Write a game picked into ``out`` as read (:mod:`pdn.collections.copying`: its file's BOM and
    line ends), saying its damaged bytes, written as U+FFFD."""
    copy.follow(picked.file)
    raw = picked.raw
    if raw is not None and raw.damage:
        _damage_said(picked.file, raw)
    out.write(copy.bom if first else copy.separator)
    out.write(copy.game(picked.text, None if raw is None else raw.line))


def _damage_said(name: str, raw: RawGame) -> None:
    """Say where a game holds damaged bytes, written as U+FFFD."""
    from pdn.collections.copying import damage_messages

    say_damage(name, raw.line, damage_messages(raw))


def _kept_line(chosen: int, read: int, rest: str | None, left: int) -> str:
    """The line ``select`` ends with: how many games it kept of how many it read."""
    line = f"{chosen} kept of {read} {'game' if read == 1 else 'games'} read"
    if rest is not None:
        line += f", {left} written to {'standard output' if rest == '-' else rest}"
    return line


@click.command()
@files_argument()
@click.option(
    "--by",
    "level",
    type=click.Choice(["text", "moves", "position"]),
    default="moves",
    show_default=True,
    help="text: the same text, white space aside; moves: the same mainline as replayed "
    "(10x14 for a quiet move, 28-19 for a capture, 25x9 for 25x18x9 are the moves played), "
    "tags aside; a game that does not replay cleanly: its moves replayed up to the first "
    "illegal one, then the rest as written; position: the same final position and players.",
)
@click.option(
    "--against",
    multiple=True,
    type=InputPath(),
    metavar="ARCHIVE",
    help="Also drop the games ARCHIVE already has (a file or folder, read but never "
    "written; repeatable).",
)
@click.option(
    "--duplicates-to",
    type=OutputPath(),
    default=None,
    metavar="FILE",
    help="Write the repeats dropped to FILE, each as read.",
)
@click.option(
    "--report",
    "report_to",
    type=OutputPath(),
    default=None,
    metavar="FILE",
    help="Write the list of repeats to FILE (FILE:LINE: game N repeats FILE:LINE (game M)); "
    "'-' for standard output, which then gets no games unless -o sends them elsewhere.",
)
@quiet_option()
@output_option()
def dedupe(
    files: tuple[str, ...],
    level: str,
    against: tuple[str, ...],
    duplicates_to: str | None,
    report_to: str | None,
    output: str,
) -> None:
    """Write the games of FILES without repeats, keeping the first of each, as read.

    Standard error gets one summary line (games read, repeats dropped); --report FILE lists
    each repeat and the game it repeats, --duplicates-to FILE writes the repeats themselves.
    With --against ARCHIVE, a game the archive already has is a repeat too (NEW --against
    ARCHIVE: the games of NEW that are not yet in ARCHIVE).

    Written as read: each game's text byte for byte, each line with the line end it has in
    its file (CRLF, LF or CR), an output starting with the BOM of its first game's file; a
    UTF-16 file's games are written in UTF-8 (with its BOM), said in a note on standard
    error; bytes the file's encoding cannot read are written as U+FFFD, each said as
    FILE:LINE:COL (the exit status is not changed).
    """
    from pdn.collections.batch import input_files
    from pdn.collections.copying import AsRead
    from pdn.collections.duplicates import LEVELS, dedupe_games
    from pdn.writing.writer import write_game

    by = LEVELS[LEVELS.index(level)]
    try:
        archive = tuple(input_files(against, recursive=recursive()))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--against") from exc
    inputs = files + archive
    if {Path(f).resolve() for f in files if f != "-"} & {Path(a).resolve() for a in archive}:
        raise click.UsageError("a FILE is also an --against ARCHIVE")
    report_path = Path(report_to or "-")
    # `--report games.pdn` (the old flag before the input) must not replace the games.
    if (
        report_to not in (None, "-")
        and report_path.suffix.lower() == ".pdn"
        and report_path.exists()
    ):
        raise click.UsageError(
            f"--report {report_to}: the report is a list, not PDN; refusing to overwrite "
            "a .pdn file (use --report - for standard output)"
        )
    named = [o for o in (output, duplicates_to, report_to) if o is not None and o != "-"]
    if len({Path(o).resolve() for o in named}) < len(named):
        raise click.UsageError("-o, --duplicates-to and --report must be different files")
    standard = [o for o in (duplicates_to, report_to) if o == "-"]
    if len(standard) > 1:
        raise click.UsageError("only one of --duplicates-to and --report can be -")
    # Standard output is the games' by default; a report or the repeats may take it instead.
    games_out = None if standard and output == "-" else output
    games = dropped = archived = written = repeats_written = 0
    not_pdn = NotPdn()
    with contextlib.ExitStack() as stack:
        copy = stack.enter_context(contextlib.closing(AsRead(encoding(), say_recoded)))
        out = None if games_out is None else stack.enter_context(open_output(games_out, inputs))
        copies = (
            None
            if duplicates_to is None
            else stack.enter_context(open_output(duplicates_to, inputs))
        )
        listing = None if report_to is None else stack.enter_context(open_output(report_to, inputs))
        progress = stack.enter_context(progress_bar(inputs))
        checked = dedupe_games(
            progress.sources(sources_of(files)),
            by,
            against=progress.sources(archive),
            on_problem=not_pdn,
            encoding=encoding(),
        )
        for seen in progress.count(checked):
            games += 1
            if seen.raw is not None:
                text = seen.raw.text
            else:
                assert seen.game is not None
                text = write_game(seen.game)
            goes = copies if seen.repeats is not None else out
            if goes is not None:
                # As read: its file's BOM and line ends, its damaged bytes said.
                copy.follow(seen.place.file)
                if seen.raw is not None and seen.raw.damage:
                    _damage_said(seen.place.file, seen.raw)
                first = not (repeats_written if goes is copies else written)
                start = copy.bom if first else copy.separator
                text = start + copy.game(text, None if seen.raw is None else seen.raw.line)
            if seen.repeats is not None:
                dropped += 1
                archived += seen.repeats.file in archive
                if listing is not None:
                    listing.write(
                        printable(
                            f"{seen.place}: game {seen.place.index} repeats {seen.repeats} "
                            f"(game {seen.repeats.index})"
                        )
                        + "\n"
                    )
                if copies is not None:
                    copies.write(text)
                    repeats_written += 1
                continue
            if out is not None:
                out.write(text)
            written += 1
        progress.close()  # before the summary, which stays on screen
    inside = f", {archived} of them in the archive" if archive else ""
    click.echo(f"{games} games, {dropped} repeats dropped (by {level}){inside}", err=True)
    not_pdn.exit()


@click.command()
@files_argument()
@click.option(
    "--by",
    "grouping",
    required=True,
    metavar="event|round|ballot|variant|player|N",
    help="One file per event, round, ACF ballot, variant or player (a game goes to both "
    "players' files), or N games per file. A game's variant is the rules pdn validate "
    "replays it under (the GameType tag, else its replay's).",
)
@output_folder_option("folder", writable=True)
def split(files: tuple[str, ...], grouping: str, folder: str) -> None:
    """Split the games of FILES into files in a folder, written as read, with index.csv
    saying which game went where.

    File names come from tag values made safe: no path separators, '..', control
    characters or Windows reserved names, at most 100 bytes, unique even ignoring case; a
    symbolic link or an input file in the folder is never written through.

    Written as read: each game's text byte for byte, each line with the line end it has in
    its file (CRLF, LF or CR), an output starting with the BOM of its first game's file; a
    UTF-16 file's games are written in UTF-8 (with its BOM), said in a note on standard
    error; bytes the file's encoding cannot read are written as U+FFFD, each said as
    FILE:LINE:COL (the exit status is not changed).
    """
    from pdn.collections.splitting import GROUPINGS, INDEX_NAME, split_files

    by: str | int = grouping.lower()
    if isinstance(by, str) and by.isdigit():
        by = int(by)
        if by < 1:
            raise click.BadParameter("N is at least 1", param_hint="--by")
    elif by not in GROUPINGS:
        raise click.BadParameter(
            f"{grouping!r}: one of {', '.join(GROUPINGS)} or a number", param_hint="--by"
        )
    not_pdn = NotPdn()
    try:
        result = split_files(
            sources_of(files),
            folder,
            by,
            on_problem=not_pdn,
            encoding=encoding(),
            on_damage=_damage_said,
            on_recoded=say_recoded,
        )
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(
        printable(
            f"{result.games} games into {len(result.files)} files in {folder}; "
            f"{INDEX_NAME} lists where each went"
        )
    )
    not_pdn.exit()
