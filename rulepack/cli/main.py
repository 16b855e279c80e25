"""The ``rulepack`` command: a click group of thin commands.

Each command reads its arguments, calls the library and shows the outcome; the
work lives in the other modules of :mod:`rulepack.cli` and in the library.
Exit codes: 0 ok, 1 invalid input (located messages on stderr), 2 usage error.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rulepack import __version__
from rulepack.cli import args as cli_args
from rulepack.cli import export
from rulepack.cli.errors import InvalidInput, echo, reported
from rulepack.printable import printable_json

if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path

    from rich.console import Console

    from rulepack.agents.bots import Agent
    from rulepack.engine.state import State
    from rulepack.game import Game
    from rulepack.records import RecordWriter

#: A command's function, as a click option decorator takes and returns it.
Command = TypeVar("Command", bound=Callable[..., object])

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def make_console() -> "Console":
    """A console on the current stdout (so click's test runner captures it) that
    shows ruleset text inert (see :mod:`rulepack.cli.console`)."""
    from rulepack.cli.console import make_console as safe_console
    return safe_console()


def print_json(data: object) -> None:
    """JSON on stdout; texts in it carry no character a terminal acts on."""
    click.echo(printable_json(json.dumps(data, indent=2, ensure_ascii=False)))


def option_flag(f: Command) -> Command:
    return click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
                        help="Set a game option (repeatable), e.g. -o rounds=3.")(f)


def ruleset_flag(f: Command) -> Command:
    return click.option("--ruleset", metavar="RULESET", default=None,
                        help="Use this ruleset (a bundled name or a path) instead of the one "
                             "the record names.")(f)


def verbose_flag(f: Command) -> Command:
    return click.option("--verbose", "-v", is_flag=True,
                        help="Show every zone (empty ones too), every variable (those named "
                             "_x too) and every piece of a stack; the default screen is "
                             "compact.")(f)



def seat_lineup(game: Game, agents: tuple[str, ...], players: int | None) -> tuple[int, list[str]]:
    """The player count and one agent name per seat, from ``--seat`` options (none or
    one: every seat plays it; else one per seat) and ``--players``.

    :raises click.UsageError: as many ``--seat`` options as players, or one, or none.
    """
    names = [a.lower() for a in agents]
    if players is None:
        players = len(names) if len(names) > 1 else game.min_players
    if len(names) <= 1:
        names = (names or [cli_args.DEFAULT_BOT]) * max(players, 0)
    elif len(names) != players:
        raise click.UsageError(f"{len(names)} --seat options for --players {players}")
    return players, names

@contextmanager
def progress_bar(console: Console, label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A transient rich progress bar of ``total`` games; yields ``advance(done)``.

    It is redrawn by ``advance`` (at most ten times a second), not by a thread of
    its own: a process running one thread may fork its workers
    (:func:`rulepack.analysis.runner.can_fork`)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True,
                  auto_refresh=False) as progress:
        task = progress.add_task("games", total=total)
        drawn = [0.0]

        def advance(done: int) -> None:
            progress.update(task, completed=done)
            now = time.monotonic()
            if now - drawn[0] >= 0.1 or done >= total:
                drawn[0] = now
                progress.refresh()
        yield advance


def max_decisions_flag(f: Command) -> Command:
    return click.option("--max-decisions", type=click.IntRange(min=1),
                        default=cli_args.DEFAULT_MAX_DECISIONS, show_default=True,
                        help="Stop a game with an error after this many decisions.")(f)


def print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: the version, and whether the pattern searches, the random
    number generator, the moves and the history log run compiled."""
    if not value or ctx.resilient_parsing:
        return
    import rulepack.patterns.match  # noqa: F401  (the package decides on import)
    from rulepack.engine import rng
    from rulepack.engine import native as engine_native
    from rulepack.patterns.native import describe
    click.echo(f"rulepack, version {__version__}\npattern searches: {describe()}\n"
               f"random numbers: {rng.describe()}\nmoves: {engine_native.describe('moves')}"
               f"\nhistory log: {engine_native.describe('log')}")
    ctx.exit()


@click.group(context_settings=CONTEXT)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=print_version, help="Show the version and exit.")
def main() -> None:
    """Play, check and simulate tabletop games written as rulesets.

    A RULESET is the name of a bundled ruleset (see `rulepack list`) or the path
    of a .rules, .yaml or .json file.
    """


# ---------------------------------------------------------------------- list
@main.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def list_command(as_json: bool) -> None:
    """List the bundled rulesets."""
    from rich import box
    from rich.table import Table

    import rulepack
    from rulepack.cli.console import text
    from rulepack.errors import RulepackError
    from rulepack.loader import bundled_rulesets
    rows: list[dict[str, Any]] = []
    for name in bundled_rulesets():
        try:
            game = rulepack.load(name, check=False)
        except RulepackError as exc:
            rows.append({"name": name, "error": exc.diagnostics[0].message})
            continue
        rows.append({"name": name, "title": game.title, "min_players": game.min_players,
                     "max_players": game.max_players, "options": sorted(game.options)})
    if as_json:
        print_json(rows)
        return
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("name", style="bold")
    table.add_column("title")
    table.add_column("players", justify="center")
    table.add_column("options")
    for row in rows:
        if "error" in row:
            table.add_row(row["name"], text(f"error: {row['error']}", style="red"), "", "")
            continue
        lo, hi = row["min_players"], row["max_players"]
        table.add_row(row["name"], text(row["title"]), f"{lo}-{hi}" if lo != hi else str(lo),
                      text(", ".join(row["options"]) or "—"))
    make_console().print(table)


# ---------------------------------------------------------------------- validate
@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="RULESET...")
@click.option("--json", "as_json", is_flag=True, help="Print the diagnostics as a JSON list.")
def validate(paths: tuple[str, ...], as_json: bool) -> None:
    """Check rulesets: syntax, schema, meaning, and warnings.

    Prints FILE:LINE:COL: error: ... for each problem and FILE: ok for each
    valid ruleset. Exits with 1 if any ruleset has an error.
    """
    from rulepack.validation import check_path
    found: list[dict[str, Any]] = []
    failed = False
    for path in paths:
        diagnostics = check_path(path)
        errors = [d for d in diagnostics if d.severity == "error"]
        failed = failed or bool(errors)
        if as_json:
            found.extend(d.to_json() for d in diagnostics)
            continue
        for d in diagnostics:
            click.echo(d.with_source().format())
        if not errors:
            echo(f"{path}: ok")
    if as_json:
        print_json(found)
    if failed:
        sys.exit(1)


# ---------------------------------------------------------------------- play
@main.command()
@click.argument("ruleset")
@click.option("--seat", "--agent", "seats", multiple=True, metavar="KIND",
              type=cli_args.AgentSpec(),
              help=f"Who plays the next seat: {', '.join(cli_args.seat_kinds())} (repeatable; "
                   f"--agent is another name for it); {cli_args.SPEC_HELP}.")
@click.option("--players", "-n", type=int,
              help="Number of players; seats not given by --seat are random bots.")
@click.option("--seed", type=int, default=None,
              help="Seed of every shuffle and bot choice (default: drawn from the operating "
                   "system, and kept off the screen until the game ends when a human plays).")
@option_flag
@max_decisions_flag
@click.option("--json", "as_json", is_flag=True,
              help="Bots only: print the result as JSON. There players are numbered from 0, "
                   "as in the Python API: \"winners\": [0] is player 1 of the screen, and "
                   "scores and returns are lists in seat order.")
@click.option("--no-chance", is_flag=True, help="Do not print chance events (shuffles...).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), metavar="PATH",
              help="Write the game's record here as it goes (default for a game with a "
                   "human seat: a new file in the records folder).")
@click.option("--no-record", is_flag=True, help="Write no record.")
@verbose_flag
def play(ruleset: str, seats: tuple[str, ...], players: int | None, seed: int | None,
         option_pairs: tuple[str, ...], max_decisions: int, as_json: bool,
         no_chance: bool, record_path: str | None, no_record: bool, verbose: bool) -> None:
    """Play a game at the terminal, or watch bots play one.

    \b
    rulepack play multzo --seat human --seat random   # you against a bot
    rulepack play multzo --players 4 --seed 7         # watch four bots
    rulepack play multzo --seat human --seat human    # two people, one screen

    With no --seat and no --players, you play against random bots with the
    smallest number of players the game allows. A game with a human seat is
    recorded as it goes ($RULEPACK_RECORDS, else ~/.local/state/rulepack/records),
    so that `rulepack resume RECORD` takes it up again after a quit.
    """
    from rulepack.cli.session import make_agents
    if record_path and no_record:
        raise click.UsageError("--record and --no-record exclude each other")
    options = cli_args.parse_options(option_pairs)
    game = cli_args.load_game(ruleset)
    if players is not None:
        with reported():
            game.instance(players, options)       # the game's own message for a bad count
    kinds = cli_args.resolve_seats(seats, players, game)
    if as_json and cli_args.HUMAN in kinds:
        raise click.UsageError("--json plays bots only (all seats must be agents)")
    if seed is None:
        seed = cli_args.random_seed()
    with reported():
        state = game.new_game(len(kinds), seed=seed, options=options,
                              max_decisions=max_decisions)
    if as_json:
        from rulepack.agents.bots import play_out
        bots = make_agents(kinds, seed)
        if record_path:
            from rulepack.records import RecordWriter
            try:
                writer = RecordWriter(record_path, game, state,
                                      cli_args.ruleset_source(ruleset), kinds)
            except OSError as exc:
                raise InvalidInput(f"cannot write the record {record_path}: "
                                   f"{exc.strerror}") from None
            with reported():
                play_recorded(state, bots, writer)
        else:
            with reported():
                play_out(state, [bots[p] for p in range(len(kinds))])
        data = {"ruleset": game.name, "title": game.title, "seed": seed,
                "players": len(kinds), "seats": kinds,
                "options": cli_args.jsonable(game.parse_options(options)),
                "decisions": state.decisions}
        data.update(cli_args.jsonable(state.result()))
        print_json(data)
        return
    recorder = None
    if not no_record and (record_path or cli_args.HUMAN in kinds):
        from rulepack.cli.recording import default_record_path
        from rulepack.records import RecordWriter
        path: str | Path = record_path or "the records folder"
        try:
            path = record_path or default_record_path(game)
            recorder = RecordWriter(path, game, state, cli_args.ruleset_source(ruleset), kinds)
        except OSError as exc:
            raise InvalidInput(f"cannot write the record {path}: {exc.strerror}") from None
    run_session(game, state, kinds, seed, no_chance, recorder, verbose=verbose)


def play_recorded(state: State, bots: dict[int, Agent], recorder: RecordWriter) -> None:
    """Bots play ``state`` to its end, every decision written to the record."""
    from rulepack.errors import RulepackError
    from rulepack.agents.bots import play_out
    try:
        play_out(state, [bots[p] for p in range(len(bots))], after_action=recorder.after)
    except RulepackError:
        recorder.stop(state, "error")
        raise
    except KeyboardInterrupt:
        recorder.stop(state, "quit")
        raise
    recorder.finish(state)


def run_session(game: Game, state: State, kinds: list[str], seed: int, no_chance: bool,
                recorder: RecordWriter | None, agents: dict[int, Agent] | None = None,
                resumed: bool = False, verbose: bool = False) -> None:
    """Play at the console to the end or to a quit; the record (if any) ends with
    the result, or a stop line and the command that resumes it."""
    from rich.text import Text

    from rulepack.cli.interactive import Quit
    from rulepack.cli.session import Session
    from rulepack.errors import RulepackError
    console = make_console()
    try:
        with reported():
            try:
                Session(game, state, kinds, seed, console, show_chance=not no_chance,
                        agents=agents, recorder=recorder, resumed=resumed,
                        verbose=verbose).run()
            except RulepackError:
                if recorder is not None:
                    recorder.stop(state, "error")
                raise
    except (Quit, KeyboardInterrupt):
        # no seed: the game may be resumed, and the seed gives every hidden piece away
        console.print(Text(f"Game abandoned after {state.decisions} decisions.", style="bold"))
        if recorder is not None:
            recorder.stop(state, "quit")
            console.print(Text(f"Resume it with: rulepack resume {recorder.path}",
                               overflow="fold"))
        return
    if recorder is not None:
        console.print(Text(f"Record: {recorder.path}", style="dim", overflow="fold"))


# ---------------------------------------------------------------------- records
@main.command()
@click.argument("record_path", metavar="RECORD", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help="Print the replayed result as JSON (players numbered from 0: "
                   "\"winners\": [0] is player 1 of the screen).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="PAGE",
              help="Also write a replay viewer here: one self-contained HTML page with the "
                   "picture of every step, the move list, previous/next (arrow keys) and a "
                   "choice of seat (needs the render extra).")
@click.option("--view", "page_view", default="all", show_default=True, metavar="SEAT",
              help="With --html: whose page. 'all': every seat's, and the table's move list "
                   "naming every hidden piece (for after the game); a seat's number (from 1) "
                   "or name: that seat's page alone, holding only what it may know.")
@ruleset_flag
def replay(record_path: str, as_json: bool, html_path: str | None, page_view: str,
           ruleset: str | None) -> None:
    """Re-execute a game record and verify it.

    Plays the recorded decisions from the recorded seed and checks every action,
    chance event and the result against the record. Exits with 1 at the first
    difference, located at its line of the record.

    \b
    rulepack replay game.jsonl --html game.html   # and a page to step through it
    rulepack replay game.jsonl --html p2.html --view 2   # player 2's page alone
    """
    if page_view != "all" and html_path is None:
        raise click.UsageError("--view is for the page: give --html PAGE too")
    from rulepack.records import read_record
    from rulepack.records import replay as replay_record
    with reported():
        record = read_record(record_path)
        done = replay_record(record, ruleset=ruleset)
    for warning in done.warnings:
        click.echo(warning.format(), err=True)
    state = done.state
    header = record.header
    if as_json:
        data = {"record": record_path, "ruleset": header["ruleset"]["name"],
                "players": header["players"], "seed": header["seed"],
                "decisions": state.decisions, "finished": record.finished}
        data.update(cli_args.jsonable(state.result()))
        print_json(data)
        return
    if html_path is not None:
        from rulepack.cli.pictures import write_replay_page
        write_replay_page(record_path, html_path, page_view)
    what = f"{done.game.title}, {header['players']} players, seed {header['seed']}"
    if record.finished:
        winners = ", ".join(header["seats"][w] for w in state.result()["winners"]) or "none"
        echo(f"{record_path}: ok: {what}, {state.decisions} decisions, winners: {winners}")
    elif state.is_terminal():
        echo(f"{record_path}: ok: {what}, over after {state.decisions} decisions "
             "(the record has no result line)")
    else:
        echo(f"{record_path}: ok: {what}, interrupted after {state.decisions} "
             f"decisions (rulepack resume {record_path} goes on with it)")


@main.command()
@click.argument("source", metavar="RULESET|RECORD")
@click.option("--players", "-n", type=int,
              help="Number of players (default: the smallest, or one per --seat).")
@click.option("--seat", "seats", multiple=True, metavar="AGENT",
              type=cli_args.AgentSpec(human=False),
              help="The bot of the next seat (repeatable; the rest are random bots).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of every shuffle and bot choice, as for `rulepack play`.")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE|FILE",
              help="A game option (repeatable), e.g. -o rounds=3; a value without '=' is the "
                   "output file (-o pos.svg).")
@click.option("--output", metavar="FILE", type=click.Path(dir_okay=False),
              help="The picture's file (default: SVG on stdout).")
@click.option("--after", type=click.IntRange(min=0),
              help="A ruleset: the decisions the bots play first (default 0: the setup).")
@click.option("--step", type=click.IntRange(min=0),
              help="A record: the decisions replayed (default: all of them).")
@click.option("--view", default="table", show_default=True, metavar="SEAT",
              help="Whose view: 'table' (what every seat sees), or a seat's number (from 1) "
                   "or name; pieces the viewer cannot see are drawn as their backs.")
@click.option("--format", "fmt", type=click.Choice(["svg", "png"], case_sensitive=False),
              help="Picture format (default: the output file's extension, else svg).")
@max_decisions_flag
def render(source: str, players: int | None, seats: tuple[str, ...], seed: int,
           option_pairs: tuple[str, ...], output: str | None, after: int | None,
           step: int | None, view: str, fmt: str | None, max_decisions: int) -> None:
    """Draw a position as SVG or PNG: a ruleset after bots played N decisions, or a
    record at a step.

    \b
    rulepack render multzo --seed 3 --after 20 -o pos.svg
    rulepack render packkub -n 4 --after 30 --view 2 -o hand.png
    rulepack render game.jsonl --step 40 --view table -o step40.svg

    Needs the render extra: pip install 'rulepack[render]'.
    """
    from rulepack.cli.pictures import render_position
    render_position(source, players, seats, seed, option_pairs, output, after, step, view,
                    fmt, max_decisions)


@main.command()
@click.argument("record_path", metavar="RECORD", type=click.Path(dir_okay=False))
@click.option("--seat", "seats", multiple=True, metavar="KIND",
              type=cli_args.AgentSpec(),
              help="Who plays each seat from now on (give one per seat; default: as recorded).")
@click.option("--no-chance", is_flag=True, help="Do not print chance events (shuffles...).")
@ruleset_flag
@verbose_flag
def resume(record_path: str, seats: tuple[str, ...], no_chance: bool,
           ruleset: str | None, verbose: bool) -> None:
    """Take up an interrupted game from its record.

    The recorded decisions are replayed (and verified), then the game goes on
    with the recorded seats, or the --seat kinds; the record is continued in the
    same file.
    """
    from rulepack.cli.recording import Resumed, append_writer
    from rulepack.records import read_record
    with reported():
        record = read_record(record_path)
    if record.finished:
        raise InvalidInput(f"{record_path}: the game is over (see rulepack replay {record_path})")
    kinds = [s.lower() for s in seats] or None
    if kinds is not None and len(kinds) != record.header["players"]:
        raise click.UsageError(f"{len(kinds)} --seat options for a game of "
                               f"{record.header['players']} players")
    with reported():
        resumed = Resumed(record, kinds, ruleset)
    for warning in resumed.warnings:
        click.echo(warning.format(), err=True)
    try:
        recorder = append_writer(resumed)
    except OSError as exc:
        raise InvalidInput(f"cannot write the record {record_path}: {exc.strerror}") from None
    if resumed.state.is_terminal():
        # cut off before its result line: the game is over, the record is completed
        recorder.finish(resumed.state)
        echo(f"{record_path}: the game was over after {resumed.state.decisions} "
             f"decisions; its result line is written now (see rulepack replay {record_path})")
        return
    run_session(resumed.game, resumed.state, resumed.kinds, resumed.seed, no_chance, recorder,
                agents=resumed.agents, resumed=True, verbose=verbose)


# ---------------------------------------------------------------------- simulate
@main.command()
@click.argument("ruleset")
@click.option("--games", "-g", type=click.IntRange(min=1), default=100, show_default=True,
              help="Number of games.")
@click.option("--players", "-n", type=int, help="Number of players (default: the smallest).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the simulation; game i is seeded mix_seed(SEED, i).")
@option_flag
@click.option("--seat", "--agent", "agents", multiple=True, metavar="NAME",
              type=cli_args.AgentSpec(human=False),
              help=f"Agent of each seat, in order ({', '.join(cli_args.AGENT_NAMES)}); "
                   "one --seat for all seats. Default: random. --agent is another name "
                   f"for it; {cli_args.SPEC_HELP}.")
@max_decisions_flag
@click.option("--rotate", is_flag=True,
              help="Rotate the seats: game i puts the k-th --seat in seat (k + i) mod "
                   "players, and the summary shows each agent's results too.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, show_default=True,
              help="Play the games in this many processes (0: one per CPU); the results "
                   "do not depend on it.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the summary as JSON (each seat numbered from 1, as on the screen).")
def simulate(ruleset: str, games: int, players: int | None, seed: int,
             option_pairs: tuple[str, ...], agents: tuple[str, ...], max_decisions: int,
             rotate: bool, jobs: int, as_json: bool) -> None:
    """Let bots play many games and summarise them.

    Per seat: wins (a shared win counts for each winner), win rate with its 95%
    (Wilson) interval, and mean score; with --rotate, the same per --seat agent;
    in a game with teams, wins, losses and draws per team; then the mean length,
    draws, ties and speed. --json also has losses and draws per seat and agent
    (a one-player game without a winner is lost, not drawn).

    \b
    rulepack simulate multzo --games 500 --players 4 --jobs 4
    rulepack simulate multzo -n 3 --seat lookahead --seat random --seat random --rotate
    """
    from rulepack.cli.simulate import simulate as run
    from rulepack.cli.render import summary_renderable
    options = cli_args.parse_options(option_pairs)
    game = cli_args.load_game(ruleset)
    players, names = seat_lineup(game, agents, players)
    console = make_console()
    with reported():
        game.instance(players, options)
        if not as_json and console.is_terminal:
            with progress_bar(console, "simulating", games) as advance:
                summary = run(game, games, names, seed, options, max_decisions,
                              on_game=advance, rotate=rotate, jobs=jobs)
        else:
            summary = run(game, games, names, seed, options, max_decisions, rotate=rotate,
                          jobs=jobs)
    if as_json:
        print_json(summary)
    else:
        console.print(summary_renderable(summary))


# ---------------------------------------------------------------------- analyze
@main.command()
@click.argument("ruleset")
@click.option("--games", "-g", type=click.IntRange(min=1), default=100, show_default=True,
              help="Number of games per variant.")
@click.option("--players", "-n", type=int, help="Number of players (default: the smallest).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the analysis; game i is seeded mix_seed(SEED, i) in every variant.")
@option_flag
@click.option("--compare-option", "compare", multiple=True, metavar="NAME=V1,V2",
              help="One variant per value, side by side (repeatable: every combination).")
@click.option("--variant", "variant_sets", multiple=True, metavar="'NAME=V NAME=V'",
              help="A whole option set as one variant (repeatable).")
@click.option("--seat", "--agent", "agents", multiple=True, metavar="NAME",
              type=cli_args.AgentSpec(human=False),
              help=f"Agent of each seat, in order ({', '.join(cli_args.AGENT_NAMES)}); "
                   "one --seat for all seats. Default: random. --agent is another name "
                   f"for it; {cli_args.SPEC_HELP}.")
@click.option("--no-rotate", is_flag=True,
              help="Keep each --seat agent in its seat (default: game i puts the k-th agent in "
                   "seat (k + i) mod players).")
@click.option("--team", "teams", multiple=True, metavar="SEATS",
              help="Report these seats together as a team, e.g. --team 1,3 (repeatable).")
@max_decisions_flag
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, show_default=True,
              help="Workers: local processes, or with --cluster Ray workers (0: one per "
                   "CPU); the results do not depend on it.")
@click.option("--cluster", metavar="ray|auto|ray://HOST:PORT",
              help="Play on Ray (the ray extra): 'ray' starts a local cluster of --jobs "
                   "workers, 'auto' or ray://HOST:PORT joins a running one.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Stream every game's record to this JSON Lines file as it finishes.")
@click.option("--resume", is_flag=True,
              help="Continue the interrupted analysis in --out instead of starting it anew.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="PAGE",
              help="Also write the report with plots as one self-contained HTML page "
                   "(the analysis extra: matplotlib).")
def analyze(ruleset: str, games: int, players: int | None, seed: int,
            option_pairs: tuple[str, ...], compare: tuple[str, ...],
            variant_sets: tuple[str, ...], agents: tuple[str, ...], no_rotate: bool,
            teams: tuple[str, ...], max_decisions: int, jobs: int, cluster: str | None,
            out_path: str | None, resume: bool, as_json: bool,
            html_path: str | None) -> None:
    """Report on a ruleset from many bot games: balance, length, decisiveness and
    drama, choice, and rule coverage (dead rules located), one column per variant.

    \b
    rulepack analyze multzo -n 3 --games 1000 --jobs 0
    rulepack analyze packkub -n 3 --compare-option jokers=0,2 --html report.html
    rulepack analyze multzo -n 3 --games 100000 --cluster ray --out multzo.jsonl
    """
    from rulepack.analysis.analyze import analyze as run
    from rulepack.analysis.runner import Backend
    from rulepack.cli.analyze import dead_rules, parse_team, report_renderable, variants
    if resume and out_path is None:
        raise click.UsageError("--resume continues the analysis in --out FILE")
    write_html: Any = None
    if html_path is not None:                # before the games, not after them
        try:
            from rulepack.analysis.html import write_html
        except ImportError:
            raise InvalidInput("--html needs matplotlib: pip install 'rulepack[analysis]'") \
                from None
    if cluster is not None and cluster != "ray" and cluster != "auto" and \
            not cluster.startswith("ray://"):
        raise click.BadParameter(f"{cluster!r} is not ray, auto or ray://HOST:PORT",
                                 param_hint="'--cluster'")
    base = cli_args.parse_options(option_pairs)
    columns = variants(base, compare, variant_sets)
    team_seats = [parse_team(t) for t in teams]
    game = cli_args.load_game(ruleset)
    players, names = seat_lineup(game, agents, players)
    console = make_console()
    backend = Backend(jobs=jobs, cluster=cluster)

    def go(on_game: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        try:
            return run(game, games, names, seed, columns, max_decisions, not no_rotate,
                       team_seats, backend, out_path, resume, on_game)
        except ImportError as exc:
            raise InvalidInput(f"{exc}: install the extra with pip install 'rulepack[ray]'")
        except OSError as exc:
            raise InvalidInput(f"cannot write {out_path}: {exc.strerror}") from None

    with reported():
        for options in columns:
            game.instance(players, options)
        declared = game.instance(players, columns[0]).teams
        if not team_seats and declared:
            # the ruleset's partnerships, unless --team says otherwise
            team_seats = [list(team) for team in declared]
        if not as_json and console.is_terminal:
            with progress_bar(console, "analysing", games * len(columns)) as advance:
                report = go(lambda done, total: advance(done))
        else:
            report = go()
    if write_html is not None:
        try:
            write_html(report, html_path)
        except OSError as exc:
            raise InvalidInput(f"cannot write {html_path}: {exc.strerror}") from None
    if as_json:
        print_json(report)
    else:
        from rulepack.cli.console import text
        console.print(report_renderable(report))
        for label, lines in dead_rules(report):
            console.print(text(f"dead rules ({label}):", style="bold red"))
            for line in lines:
                console.print(text(f"  {line}"), soft_wrap=True)
        if html_path is not None:
            console.print(text(f"report with plots: {html_path}"))


# ---------------------------------------------------------------------- compile
@main.command("compile")
@click.argument("ruleset")
@click.option("--format", "-f", "fmt", type=click.Choice(export.FORMATS), default="yaml",
              show_default=True, help="Output format.")
@click.option("--positions", is_flag=True,
              help="Keep the source positions (line, column) of the .rules text.")
@click.option("--players", "-n", type=int, default=None,
              help="With --format python: the player count (default: the fewest).")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="With --format python: a game option (repeatable).")
def compile_command(ruleset: str, fmt: str, positions: bool, players: int | None,
                    option_pairs: tuple[str, ...]) -> None:
    """Print a ruleset as data (IR) that stands alone, or as the Python code its
    expressions compile to.

    Saved as a .yaml or .json file, the output validates and plays as the original:
    rulepack compile multzo -f json > multzo.json && rulepack play multzo.json

    With --format python: the generated functions of one instance (player count and
    options), each marked with the line and column of its expression.
    """
    if fmt == "python":
        from rulepack.cli.args import parse_options
        click.echo(export.python_source(ruleset, players, parse_options(option_pairs)), nl=False)
        return
    ir = export.standalone_ir(ruleset, positions)
    click.echo(export.dump(ir, fmt), nl=False)


# ---------------------------------------------------------------------- editors
@main.command("fmt")
@click.argument("paths", nargs=-1, required=True, metavar="FILE...")
@click.option("--check", is_flag=True,
              help="Change nothing; exit with 1 if a file would be reformatted.")
def fmt_command(paths: tuple[str, ...], check: bool) -> None:
    """Rewrite .rules files in place in the canonical layout (every comment kept).

    FILE - reads standard input and writes the result to standard output.
    Layout only: the compiled ruleset stays the same. See docs/editors.md.
    """
    from rulepack.cli.formatting import format_paths
    sys.exit(format_paths(paths, check))


@main.command("lsp")
def lsp_command() -> None:
    """Run the language server over standard input and output (for editors).

    Needs the lsp extra: pip install 'rulepack[lsp]'. See docs/editors.md.
    """
    try:
        from rulepack.lsp.server import serve
    except ImportError as exc:
        raise InvalidInput(f"rulepack lsp needs the lsp extra (pip install 'rulepack[lsp]'): "
                           f"{exc}") from None
    serve()


@main.command("explain")
@click.argument("ruleset")
@click.option("--json", "as_json", is_flag=True, help="Print the description as JSON.")
@click.option("--types", "types", is_flag=True,
              help="Show the kind the type check infers for each variable, define and "
                   "name of each line (also of a ruleset the check refuses).")
@click.option("-n", "--players", type=int, default=None,
              help="With --types: the player count compiled (default: the smallest).")
def explain_command(ruleset: str, as_json: bool, types: bool, players: int | None) -> None:
    """Describe a ruleset: players, how it ends and who wins, options, components,
    zones, patterns, and the rulings it applies where the original rules are open
    (each cited at FILE:LINE of the ruleset; their texts are in docs/rulings.md).

    With --types: the kinds of its values, line by line (rulepack explain --types
    hightide.rules)."""
    from pathlib import Path

    from rulepack.cli.explain import explain, explain_data, explain_types
    from rulepack.loader import load, resolve
    with reported():
        path = resolve(ruleset)
        if types:
            from rulepack.loader import read_text
            from rulepack.validation import inferred_types
            text = read_text(Path(path), str(ruleset))
            found = inferred_types(text, str(ruleset), Path(path).suffix or ".rules", players)
            if as_json:
                print_json([vars(i) for i in found])
            else:
                make_console().print(explain_types(found, text))
            return
        game = load(ruleset)
        if as_json:
            print_json(explain_data(game, Path(path)))
        else:
            make_console().print(explain(game, Path(path)))


def _add_ppn() -> None:
    from rulepack.cli.ppn import ppn_group
    main.add_command(ppn_group)


_add_ppn()


def _add_rulebook() -> None:
    from rulepack.cli.rulebook import rulebook_command
    main.add_command(rulebook_command)


_add_rulebook()


def _add_serve() -> None:
    from rulepack.cli.serve import serve_command
    main.add_command(serve_command)


_add_serve()

if __name__ == "__main__":  # pragma: no cover
    main()
