"""``rulepack ppn``: Portable Piecepack Notation records in.

- ``rulepack ppn import FILE.ppn [--ruleset NAME] [-o RECORD.jsonl]``: play every
  game of a record file as a game of its ruleset (see :mod:`rulepack.ppn.importer`),
  and write each as a rulepack record that ``replay``, ``render`` and ``analyze``
  take;
- ``rulepack ppn check DIR``: import every record of a folder, one line a game
  (moves, result, ok or the first error); exit 1 on any error;
- ``rulepack ppn export RECORD.jsonl [-o FILE.ppn]``: a rulepack record written as
  PPN (:mod:`rulepack.ppn.export`), which ``ppn import`` reads back to the same game.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from rulepack.errors import Diagnostic, Location, RulepackError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.ppn.importer import MoveError
    from rulepack.game import Game
    from rulepack.ppn.importer import Imported
    from rulepack.ppn.movetext import Game as Record


@click.group("ppn")
def ppn_group() -> None:
    """Portable Piecepack Notation (PPN) records: import them as rulepack games."""


def _read(path: Path) -> "list[Record]":
    from rulepack.loader import read_text
    from rulepack.ppn.movetext import read_ppn
    return read_ppn(read_text(path, str(path)), str(path))


def _ruleset(game: "Record", ruleset: str | None, file: str) -> "tuple[str, Game]":
    """The ruleset's name as given or as the GameType names it, and the ruleset."""
    from rulepack.loader import load
    from rulepack.ppn.importer import ruleset_of
    name = ruleset or ruleset_of(game)
    if name is None:
        raise RulepackError(Diagnostic("the record has no GameType to name its ruleset: give "
                                       "one with --ruleset", Location(file), code="ppn-ruleset"))
    try:
        return name, load(name)
    except RulepackError:
        if ruleset is not None:
            raise
        raise RulepackError(Diagnostic(
            f"no ruleset {name!r} for the record's GameType (give one with --ruleset)",
            Location(file), code="ppn-ruleset")) from None


def _summary(imported: "Imported") -> str:
    from rulepack.engine.values import player_name
    state = imported.state
    moves = sum(1 for _, action in imported.moves if action is not None)
    if not state.is_terminal():
        return f"{moves} moves, the game goes on"
    winners = state.result()["winners"]
    names = state.program.seat_names
    who = ", ".join(player_name(w, names) for w in winners) or "nobody"
    return f"{moves} moves, {who} {'wins' if len(winners) == 1 else 'win'}"


@ppn_group.command("import")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--ruleset", default=None, metavar="RULESET",
              help="The ruleset (a bundled name or a path); default: the record's GameType.")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              help="Write the game as a rulepack record (one file per game: -1, -2... "
                   "before the extension when the file holds several).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="The seed of the games (their chance events); a record that does not "
                   "give one is imported with the first seed from this one whose chance "
                   "lets its moves be played.")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="A ruleset option beyond those the GameType gives (repeatable).")
@click.option("--picture", type=click.Path(path_type=Path), default=None,
              help="On a move that is no legal action: draw the position there to this "
                   "file (.svg or .png; the render extra).")
def import_command(file: Path, ruleset: str | None, output: Path | None, seed: int,
                   option_pairs: tuple[str, ...], picture: Path | None) -> None:
    """Play a PPN record's games as games of their ruleset, move by move: each move
    is the one legal action that relocates the pieces as the move says.

      rulepack ppn import four-field-kono.ppn -o game.jsonl
    """
    from rulepack.cli.args import parse_options
    from rulepack.cli.errors import InvalidInput, reported
    from rulepack.ppn.importer import MoveError, import_game
    options = parse_options(option_pairs)
    with reported():
        games = _read(file)
        for k, record in enumerate(games, 1):
            name, game = _ruleset(record, ruleset, str(file))
            try:
                imported = import_game(record, game, str(file), seed, options=options)
            except MoveError as exc:
                _show_failure(game, exc, picture)
                raise
            label = f"{file}" + (f" game {k}" if len(games) > 1 else "")
            click.echo(f"{label}: {_summary(imported)}")
            if output is not None:
                path = output if len(games) == 1 else \
                    output.with_name(f"{output.stem}-{k}{output.suffix}")
                try:
                    _write(path, game, imported, name)
                except OSError as exc:
                    raise InvalidInput(f"cannot write the record {path}: {exc.strerror}") \
                        from None
                click.echo(f"  record: {path}")


def _show_failure(game: "Game", exc: "MoveError", picture: Path | None) -> None:
    """Where a record's move failed: the boards as text (standard error) and, with
    ``--picture``, drawn to that file. :raises InvalidInput: the picture cannot be
    drawn or written."""
    from rulepack.cli.errors import InvalidInput
    from rulepack.ppn.export import board_lines
    from rulepack.printable import printable
    click.echo(f"the position before the move ({exc.state.decisions} decisions played):",
               err=True)
    for line in board_lines(exc.state):
        click.echo("  " + printable(line), err=True)
    if picture is None:
        return
    fmt = picture.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png"):
        raise InvalidInput(f"--picture {picture}: the file's extension says the format: "
                           ".svg or .png")
    try:
        from rulepack.render.output import encode
        from rulepack.render.output import picture as draw
    except ImportError:
        raise InvalidInput("--picture needs the render extra: pip install "
                           "'rulepack[render]'") from None
    try:
        picture.write_bytes(encode(draw(game, exc.state, None, "where the record stops"), fmt))
    except OSError as exc_io:
        raise InvalidInput(f"cannot write {picture}: {exc_io.strerror}") from None
    click.echo(f"  picture: {picture}", err=True)


def _write(path: Path, game: "Game", imported: "Imported", source: str) -> None:
    """Write an imported game as a rulepack record: the same game replayed from its
    start, each decision the action the import found.

    :raises OSError: the file cannot be written."""
    from rulepack.records import RecordWriter
    state = imported.state
    fresh = game.new_game(state.program.num_players, seed=state.position.seed,
                          options=dict(state.program.options))
    writer = RecordWriter(path, game, fresh, source, ["human"] * fresh.program.num_players)
    for _, action in imported.moves:
        if action is None:
            continue
        legal = [a.text for a in fresh.legal_actions()]
        player, index, since = fresh.current_player, legal.index(action.text), len(fresh.history)
        fresh.apply(action.text)
        writer.after(fresh, player, index, since)
    if fresh.is_terminal():
        writer.finish(fresh)
    else:
        writer.stop(fresh, "record ends")


@ppn_group.command("check")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False))
@click.option("--ruleset", default=None, metavar="RULESET",
              help="The ruleset of every record (default: each record's GameType).")
def check_command(folder: Path, ruleset: str | None) -> None:
    """Import every record (*.ppn) of a folder: one line a game, with its moves and
    result, or its first error; exit 1 if any game does not import.

      rulepack ppn check my-records/
    """
    from rulepack.cli.errors import InvalidInput
    from rulepack.ppn.importer import import_game
    from rulepack.printable import printable
    files = sorted(folder.glob("*.ppn"))
    if not folder.is_dir():
        raise InvalidInput(f"{folder} is not a folder")
    failed = 0
    for file in files:
        try:
            games = _read(file)
        except RulepackError as exc:
            failed += 1
            click.echo(f"{file}: error: {printable(exc.diagnostics[0].message)}")
            continue
        for k, record in enumerate(games, 1):
            label = f"{file}" + (f" game {k}" if len(games) > 1 else "")
            try:
                _, game = _ruleset(record, ruleset, str(file))
                imported = import_game(record, game, str(file))
            except RulepackError as exc:
                failed += 1
                click.echo(f"{label}: error: {printable(exc.diagnostics[0].message)}")
                continue
            click.echo(f"{label}: {_summary(imported)}, ok")
    if not files:
        click.echo(f"{folder}: no .ppn files")
    if failed:
        raise SystemExit(1)


@ppn_group.command("export")
@click.argument("record", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              help="Write the PPN here (default: standard output).")
def export_command(record: Path, output: Path | None) -> None:
    """Write a rulepack record as PPN: each decision as the relocation it made on
    the game's PPN boards (grids with notation ppn), which ppn import reads back.

      rulepack ppn export game.jsonl -o game.ppn
    """
    from rulepack.cli.errors import InvalidInput, reported
    from rulepack.ppn.export import ppn_text
    from rulepack.records import load_recorded_game, read_record
    with reported():
        read = read_record(record)
        game, _ = load_recorded_game(read)
        header = read.header
        state = game.new_game(int(header["players"]), seed=int(header["seed"]),
                              options=dict(header.get("options") or {}))
        decisions = [(int(e["player"]), str(e["action"])) for _, e in read.entries
                     if e["type"] == "decision"]
        text = ppn_text(game, state, decisions, int(header["seed"]))
    if output is None:
        from rulepack.printable import printable
        click.echo(printable(text, newlines=True), nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"cannot write {output}: {exc.strerror}") from None
    click.echo(f"{output}: {len(decisions)} moves")
