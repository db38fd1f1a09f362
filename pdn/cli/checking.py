"""``pdn validate``: replay every game and report every problem."""

from __future__ import annotations

import sys

import click

from .inputs import Emptiness, progress_bar, sources_of
from .options import (
    encoding,
    files_argument,
    format_option,
    jobs_option,
    output_option,
    quiet_option,
    variant_option,
)
from .streams import EXIT_CLEAN, EXIT_PROBLEMS, open_output


@click.command()
@files_argument()
@format_option("text", "json", "ndjson")
@variant_option()
@jobs_option()
@click.option("--notices", is_flag=True, help="Also show notices (draw claims, numbering).")
@quiet_option()
@output_option()
def validate(
    files: tuple[str, ...],
    fmt: str,
    variant: str | None,
    jobs: int | None,
    notices: bool,
    output: str,
) -> None:
    """Replay every game of FILES under its rules and report every problem.

    Problems are printed as FILE:LINE:COL: CODE: MESSAGE, grouped per game, then a summary.
    Exit status: 0 when every game is clean, 1 when any has an error, 2 on usage errors.
    """
    from pdn.collections.batch import (
        Summary,
        default_jobs,
        usable_cores,
        validate_files,
        verdict_text,
    )
    from pdn.text.schema import SCHEMA

    if fmt != "text":
        import json  # (the text report, the default, needs none of it)

    sources = sources_of(files)
    jobs = default_jobs(sources) if jobs is None else (jobs or usable_cores())
    summary = Summary()
    empty = Emptiness(files)
    with progress_bar(files) as progress, open_output(output, files) as out:
        if fmt == "json":
            out.write(f'{{"schema": "{SCHEMA}", "type": "verdicts", "games": [\n')
        first = True
        for verdict in validate_files(
            progress.sources(sources), variant=variant, jobs=jobs, encoding=encoding()
        ):
            summary.add(verdict)
            empty.saw(verdict.file)
            progress.tick()
            if fmt == "text":
                text = verdict_text(verdict, least="notice" if notices else "warning")
                if text:
                    out.write(text + "\n")
            elif fmt == "ndjson":
                out.write(json.dumps(verdict.to_dict(), ensure_ascii=False) + "\n")
            else:
                out.write(
                    ("" if first else ",\n") + json.dumps(verdict.to_dict(), ensure_ascii=False)
                )
            first = False
        progress.close()  # before the summary, which stays on screen
        empty.say()
        if fmt == "text":
            least = "notice" if notices else "warning"
            out.write(("\n" if summary.games else "") + summary.text(least=least) + "\n")
        elif fmt == "ndjson":
            out.write(json.dumps(summary.to_dict()) + "\n")
        else:
            out.write('\n], "summary": ' + json.dumps(summary.to_dict()) + "}\n")
    sys.exit(EXIT_PROBLEMS if summary.with_errors else EXIT_CLEAN)
