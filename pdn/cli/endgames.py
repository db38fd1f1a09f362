"""The ``endgame`` commands: ``build`` the endgame tables of a variant into the data folder,
``probe`` a position in them."""

from __future__ import annotations

import click

from pdn import engine

from .options import quiet_option, variant_option

#: The most pieces a build is asked for: beyond, a pure-Python build takes days.
MOST_PIECES = 6


@click.group()
def endgame() -> None:
    """Endgame tables built by pdn: win, draw or loss with the distance to the end, for every
    position of up to a few pieces (build them, then probe a position).

    The tables follow the variant's rules as the engine has them (flying kings, majority
    capture, crowning); a side with no legal move has lost, and draws by repetition or move
    counts are not part of them. Distances are in plies under best play.
    """


def _variant(name: str | None) -> engine.Variant:
    variant = engine.get_variant(name or "english")
    if variant.king_move_limit:
        raise click.BadParameter(
            f"no endgame tables for {variant.title}: its king-move limit is part of a position",
            param_hint="--variant",
        )
    return variant


_DIR_HELP = (
    "The tables' folder (default: $XDG_DATA_HOME/pdn/endgame or ~/.local/share/pdn/endgame)."
)


@endgame.command()
@variant_option()
@click.option(
    "--pieces",
    type=click.IntRange(2, MOST_PIECES),
    required=True,
    help="Build every material split of 2 to this many pieces.",
)
@click.option("--dir", "directory", type=click.Path(file_okay=False), default=None, help=_DIR_HELP)
@quiet_option()
def build(variant: str | None, pieces: int, directory: str | None) -> None:
    """Build the tables of every material of up to PIECES pieces, smallest first, each written
    atomically; tables already built (their header and checksum verified) are kept, so a build
    that was stopped goes on where it stopped."""
    from pdn.study.play.endgame import data_folder
    from pdn.text.progress import Progress

    from .options import quiet

    rules = _variant(variant)
    folder = directory or str(data_folder())
    wanted = engine.materials_up_to(pieces)
    total = engine.positions_to_build(rules, wanted)
    rows: list[engine.TableStats] = []
    with Progress([], quiet=quiet(), large=0, every=1, plies=total, unit=" positions") as bar:
        rows = engine.build_tables(rules, wanted, folder, progress=bar.advance)
    click.echo(f"{rules.title}, up to {pieces} pieces, in {folder}/{rules.name}:")
    click.echo(
        f"{'table':<12}{'positions':>12}{'wins':>12}{'draws':>12}{'losses':>12}{'longest':>9}"
    )
    for row in rows:
        state = "" if row.built else "  (kept)"
        click.echo(
            f"{row.material.name:<12}{row.positions:>12,}{row.wins:>12,}{row.draws:>12,}"
            f"{row.losses:>12,}{row.longest:>9}{state}"
        )
    click.echo(f"{len(rows)} tables, {sum(r.positions for r in rows):,} positions")


@endgame.command()
@click.option("--fen", required=True, help="The position (PDN FEN).")
@variant_option()
@click.option("--dir", "directory", type=click.Path(file_okay=False), default=None, help=_DIR_HELP)
def probe(fen: str, variant: str | None, directory: str | None) -> None:
    """Print the table value of the position --fen for the side to move, its best moves and
    the distance to the end in plies."""
    from pdn.engine import move_text
    from pdn.study.play.endgame import tables_for

    rules = _variant(variant)
    try:
        position = engine.Position.from_fen(fen, rules)
    except engine.FenError as exc:
        raise click.BadParameter(str(exc), param_hint="--fen") from exc
    tables = tables_for(rules, directory)
    found = tables.probe(position)
    if found is None:
        pieces = len(position.pieces())
        raise click.ClickException(
            f"no {rules.name} table holds this position ({pieces} pieces): build them with "
            f"pdn endgame build --variant {rules.name} --pieces {max(pieces, 2)}"
        )
    side = position.turn.label
    if found.result == "draw":
        click.echo(f"{side} to move: draw")
    else:
        verb = "wins" if found.result == "win" else "loses"
        click.echo(f"{side} to move {verb} in {found.distance} plies")
    best = tables.best_moves(position)
    if best:
        names = ", ".join(move_text(move, rules) for move, _ in best)
        click.echo(f"best moves: {names}")
    elif not position.legal_moves():
        click.echo("no legal move")
