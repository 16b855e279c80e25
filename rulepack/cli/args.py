"""Reading command-line values: a ruleset argument, ``--option`` pairs, seats."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from rulepack.cli.errors import reported

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.game import Game

#: The seat kind played by a person at the keyboard.
HUMAN = "human"

#: The bot filling seats nobody asked for.
DEFAULT_BOT = "random"

# Written out, not imported, so that the commands can declare their options
# without loading the engine (``rulepack --help`` stays fast); tests/test_cli.py
# checks that they agree with the engine's.
#: The names of the agents of ``rulepack.agents.bots.AGENTS`` and ``SEARCH_AGENTS``, sorted.
AGENT_NAMES = ("first", "greedy", "ismcts", "lookahead", "mcts", "memory", "pimc", "random")
#: The agents that take options, ``NAME:OPTION=VALUE,...`` (``SEARCH_AGENTS``).
SEARCH_AGENT_NAMES = ("ismcts", "mcts", "pimc")
#: ``rulepack.engine.state.DEFAULT_MAX_DECISIONS``.
DEFAULT_MAX_DECISIONS = 100_000


def seat_kinds() -> list[str]:
    """Every name ``--seat`` accepts: the registered agents and ``human``."""
    return list(AGENT_NAMES) + [HUMAN]


if TYPE_CHECKING:  # pragma: no cover
    # click 8.5 types a ParamType by the value it makes and the input it takes; older
    # versions (the dependency allows click 8.1) cannot subscript it at run time
    _TextParamType = click.ParamType[str, object]
else:
    _TextParamType = click.ParamType


class AgentSpec(_TextParamType):
    """A ``--seat`` value: an agent name, ``human`` (if allowed), or a search agent
    with options, ``mcts:iterations=300,c=1.4``. Converted to its canonical text
    (lower case, no spaces); a bad one is a usage error (exit 2)."""

    name = "agent"

    def __init__(self, human: bool = True) -> None:
        self.human = human

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "KIND" if self.human else "AGENT"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value).strip().lower()
        if self.human and text == HUMAN:
            return text
        if text.partition(":")[0] not in AGENT_NAMES:
            kinds = seat_kinds() if self.human else list(AGENT_NAMES)
            self.fail(f"{value!r} is not one of {', '.join(kinds)} "
                      f"(search agents take options: {SEARCH_AGENT_NAMES[1]}:iterations=300)",
                      param, ctx)
        from rulepack.agents.bots import AgentSpecError, check_spec
        try:
            return check_spec(text)
        except AgentSpecError as exc:
            self.fail(str(exc), param, ctx)


#: What ``--seat`` says of search agents' options, in the commands' help.
SPEC_HELP = ("mcts, ismcts and pimc take options, e.g. ismcts:iterations=2000 or "
             "mcts:seconds=0.5,c=1.4 (see docs/agents.md)")


def jsonable(value: Any) -> Any:
    """A value of the engine as plain JSON data (see ``rulepack.engine.serialize.plain``)."""
    from rulepack.engine.serialize import plain
    return plain(value)


def load_game(ruleset: str) -> "Game":
    """A bundled ruleset name or a path → a compiled game (exit 1 on any problem)."""
    import rulepack
    with reported():
        return rulepack.load(ruleset)


def ruleset_source(ruleset: str) -> str:
    """How a record names the ruleset it was played with: a bundled name, or the
    path as the user gave it (``rulepack resume`` looks for a relative one from
    the current folder, then from the record's folder)."""
    return ruleset


def random_seed() -> int:
    """A seed nobody can guess: 63 bits from the operating system's random source."""
    import secrets
    return secrets.randbits(63)


def parse_options(pairs: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``("rounds=3", "blind=yes")`` → ``{"rounds": "3", "blind": "yes"}``.

    Values stay text: the game converts and checks them against its options.

    :raises click.BadParameter: a pair without ``=`` or without a name (usage error).
    """
    options: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="'--option'")
        options[name] = value.strip()
    return options


def resolve_seats(seats: tuple[str, ...] | list[str], players: int | None,
                  game: "Game") -> list[str]:
    """The kind of every seat, from ``--seat`` and ``--players``.

    - only ``--players N``: N random bots;
    - only ``--seat``: one seat each;
    - both: the given seats first, the rest random bots;
    - neither: one human against random bots, at the ruleset's smallest player count.

    The player count itself is checked by the game (exit 1 with its message).

    :raises click.UsageError: more seats than players.
    """
    kinds = [s.lower() for s in seats]
    if players is None:
        if kinds:
            return kinds
        return [HUMAN] + [DEFAULT_BOT] * (game.min_players - 1)
    if len(kinds) > players:
        raise click.UsageError(f"{len(kinds)} --seat options for --players {players}")
    return kinds + [DEFAULT_BOT] * (players - len(kinds))
