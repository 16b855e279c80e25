"""``rulepack render`` and ``rulepack replay --html``: pictures of positions.

The drawing lives in :mod:`rulepack.render` (the ``render`` extra: drawsvg,
cairosvg), imported here only when a picture is asked for, so that ``rulepack
--help`` and the other commands do not load it.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from rulepack.cli import args as cli_args
from rulepack.cli.errors import InvalidInput, echo, reported

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State

#: The output formats (``rulepack.render.output.FORMATS``).
FORMATS = ("svg", "png")
MISSING_EXTRA = ("pictures need the render extra (drawsvg, cairosvg): "
                 "pip install 'rulepack[render]'")


def need_render() -> None:
    """Exit 1 with a clear message when the render extra is not installed."""
    try:
        importlib.import_module("cairosvg")
        importlib.import_module("drawsvg")
    except (ImportError, OSError) as exc:   # OSError: no libcairo
        raise InvalidInput(f"{MISSING_EXTRA} ({exc})") from None


def is_record(source: str) -> bool:
    """A file that is not a ruleset (``.rules``, ``.yaml``, ``.json``) is a record."""
    from rulepack.loader import RULESET_SUFFIXES
    path = Path(source)
    return path.is_file() and path.suffix.lower() not in RULESET_SUFFIXES


def split_options(pairs: tuple[str, ...], output: str | None) -> tuple[list[str], str | None]:
    """``-o`` values: ``NAME=VALUE`` are game options; one without ``=`` is the
    output file (``-o pos.svg``), unless ``--output`` gives it.

    :raises click.UsageError: two output files.
    """
    options = [p for p in pairs if "=" in p]
    files = [p for p in pairs if "=" not in p]
    if output is not None:
        files.insert(0, output)
    if len(files) > 1:
        raise click.UsageError(f"more than one output file: {', '.join(files)}")
    return options, (files[0] if files else None)


def format_of(path: str | None, fmt: str | None) -> str:
    """The format to write: ``--format`` if given, else the extension of the
    output file (``.svg``, ``.png``), else SVG.

    :raises click.UsageError: an extension that is neither.
    """
    if fmt:
        return fmt.lower()
    if path is None or path == "-":
        return "svg"
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise click.UsageError(f"{path}: cannot tell the format from the extension "
                               f"{Path(path).suffix or '(none)'}; use .svg or .png, or --format")
    return suffix


def seat_of(view: str, seats: list[str]) -> int | None:
    """``--view``: ``table`` → None; a seat's number (from 1) or name → its index.

    :raises click.BadParameter: no such seat.
    """
    text = view.strip().lower()
    if text == "table":
        return None
    if text.isdigit() and 1 <= int(text) <= len(seats):
        return int(text) - 1
    for k, name in enumerate(seats):
        if name.lower() == text:
            return k
    raise click.BadParameter(f"{view!r} is not 'table', a seat number (1-{len(seats)}) "
                             f"or a seat name ({', '.join(seats)})", param_hint="'--view'")


def render_position(source: str, players: int | None, kinds: tuple[str, ...], seed: int,
                    option_pairs: tuple[str, ...], output: str | None, after: int | None,
                    step: int | None, view: str, fmt: str | None, max_decisions: int) -> None:
    """The work of ``rulepack render`` (see its help)."""
    options, path = split_options(option_pairs, output)
    fmt = format_of(path, fmt)
    need_render()
    from rulepack.render.output import encode, picture
    if is_record(source):
        if after is not None or players is not None or kinds or options:
            raise click.UsageError("a record fixes its game: --after, --players, --seat and "
                                   "game options are for a ruleset (use --step)")
        game, state, caption = record_state(source, step)
    else:
        if step is not None:
            raise click.UsageError("--step is for a record; a ruleset takes --after")
        game, state, caption = played_state(source, players, kinds, seed, options, after or 0,
                                            max_decisions)
    named = state.view(0)["seats"]
    assert isinstance(named, list)
    seats = list(named)
    seat = seat_of(view, seats)
    with reported():
        data = encode(picture(game, state, seat, caption), fmt)
    if path is None or path == "-":
        if fmt == "png" and sys.stdout.isatty():
            raise click.UsageError("a PNG picture needs a file: -o FILE.png")
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise InvalidInput(f"cannot write {path}: {exc.strerror}") from None
    echo(f"{path}: {game.title}, {caption}", err=True)


def played_state(ruleset: str, players: int | None, kinds: tuple[str, ...], seed: int,
                 options: list[str], after: int, max_decisions: int) -> tuple[Any, "State", str]:
    """A ruleset played by bots for ``after`` decisions, as ``rulepack play`` would."""
    from rulepack.render.positions import played
    game = cli_args.load_game(ruleset)
    parsed = cli_args.parse_options(options)
    if players is not None:
        with reported():
            game.instance(players, parsed)
    seats = [k.lower() for k in kinds]
    if players is None:
        players = len(seats) if seats else game.min_players
    if len(seats) > players:
        raise click.UsageError(f"{len(seats)} --seat options for --players {players}")
    seats += [cli_args.DEFAULT_BOT] * (players - len(seats))
    with reported():
        state = played(game, seats, seed, parsed, after, max_decisions)
    caption = f"seed {seed}, after {state.decisions} decisions"
    if state.decisions < after:
        caption += " (the game ended)"
    return game, state, caption


def record_state(record_path: str, step: int | None) -> tuple[Any, "State", str]:
    """A record replayed to ``step`` decisions (default: all)."""
    from rulepack.records import load_recorded_game, read_record
    from rulepack.render.positions import at_step
    with reported():
        record = read_record(record_path)
        game, warnings = load_recorded_game(record)
        for warning in warnings:
            click.echo(warning.format(), err=True)
        n = record.decisions if step is None else step
        state = at_step(record, n)
    return game, state, f"step {n} of {record.decisions}"


def page_view(view: str, seats: list[str]) -> str | int:
    """``replay --view``: ``all`` → ``"all"``; a seat's number (from 1) or name → its
    index (from 0).

    :raises click.BadParameter: no such seat (or ``table``: the table has no page).
    """
    text = view.strip().lower()
    if text == "all":
        return "all"
    seat = None
    if text != "table":
        try:
            seat = seat_of(view, seats)
        except click.BadParameter:
            pass
    if seat is None:
        raise click.BadParameter(f"{view!r} is not 'all', a seat number (1-{len(seats)}) or "
                                 f"a seat name ({', '.join(seats)})", param_hint="'--view'")
    return seat


def write_replay_page(record_path: str, html_path: str, view: str = "all") -> None:
    """``rulepack replay RECORD --html PAGE [--view SEAT]``: the replay viewer of a
    record, of every seat or of one (see :mod:`rulepack.render.replay_page`)."""
    need_render()
    from rulepack.records import read_record
    from rulepack.render.replay_page import inert, replay_html
    from rulepack.story import Teller
    with reported():
        record = read_record(record_path)
    seats = [inert(str(s)) for s in record.header["seats"]]     # the record's: shown inert
    whose = page_view(view, seats)
    with reported():
        page = replay_html(record, Teller(), whose)
    try:
        Path(html_path).write_text(page, encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"cannot write {html_path}: {exc.strerror}") from None
    who = "every seat" if whose == "all" else seats[int(whose)]
    echo(f"{html_path}: replay viewer of {who}, {record.decisions} decisions")
