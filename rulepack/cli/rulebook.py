"""``rulepack rulebook RULESET [-n PLAYERS] [-o FILE.md|.html|.pdf]``: a ruleset's
rules in English (:mod:`rulepack.rulebook`), as Markdown on the terminal or in a
file of the format its extension names."""

from __future__ import annotations

from pathlib import Path

import click

from rulepack.cli.args import parse_options
from rulepack.cli.errors import InvalidInput, reported


@click.command("rulebook")
@click.argument("ruleset")
@click.option("-n", "--players", type=int, default=None,
              help="The player count the rulebook is written for (default: the smallest).")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE|FILE",
              help="A game option (repeatable), e.g. -o rounds=3; a value without '=' is the "
                   "output file: .md (pictures as .svg files beside it), .html (one "
                   "self-contained page) or .pdf (needs the browser extra and Chromium).")
@click.option("--output", metavar="FILE", type=click.Path(dir_okay=False),
              help="The rulebook's file (default: Markdown on the terminal, no pictures).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="The seed of the games the rulebook plays for its pictures, its example and "
                   "the length of a game.")
def rulebook_command(ruleset: str, players: int | None, option_pairs: tuple[str, ...],
                     output: str | None, seed: int) -> None:
    """Write the rules of RULESET in plain English: overview, components, setup (with a
    picture), play, terms, scoring (with an example), the end of the game, options.

    \b
    rulepack rulebook multzo
    rulepack rulebook packkub -n 4 -o packkub.html
    rulepack rulebook backgammon -o doubling=true -o backgammon.md
    """
    from rulepack.cli.pictures import split_options
    from rulepack.loader import load
    from rulepack.rulebook.book import rulebook
    from rulepack.rulebook.output import markdown, write
    options, path = split_options(option_pairs, output)
    with reported():
        game = load(ruleset)
        book = rulebook(game, players, parse_options(options), seed=seed,
                        pictures=path is not None)
        if path is None:
            text, _ = markdown(book, None)
            click.echo(text, nl=False)
            return
        try:
            written = write(book, Path(path))
        except (ValueError, RuntimeError) as exc:
            raise InvalidInput(str(exc)) from None
    click.echo(f"{path}: the rulebook of {book.title} for {book.players} players"
               + (f" (and {len(written) - 1} pictures)" if len(written) > 1 else ""), err=True)
