"""A compiled ruleset: the factory of game states.

:class:`Game` holds the validated IR and builds one
:class:`~rulepack.compiler.instance.Instance` per player count and options
(cached); :meth:`Game.new_game` starts a state from a seed.
"""

from __future__ import annotations

import re

from typing import Any

from rulepack.errors import Location, OptionError, SemanticError
from rulepack.compiler.instance import Instance
from rulepack.engine.state import DEFAULT_MAX_DECISIONS, State, new_position, state_from_json


class Game:
    """A ruleset ready to play.

    :param ir: the merged ruleset IR (libraries already resolved).
    :param file: where it came from, for messages.
    """

    def __init__(self, ir: dict[str, Any], file: str = "<string>") -> None:
        self.ir = ir
        self.file = file
        game = ir.get("game") or {}
        self.name: str = game.get("name", "ruleset")
        self.title: str = game.get("title") or self.name
        self.source: str | None = game.get("source")
        lo, hi = game.get("players", [2, 2])
        self.min_players: int = lo
        self.max_players: int = hi
        self.options: dict[str, dict[str, Any]] = {o["name"]: o for o in ir.get("options", [])}
        self._check_declarations(game)
        self._instances: dict[tuple[int, tuple[tuple[str, Any], ...]], Instance] = {}

    def _check_declarations(self, game: dict[str, Any]) -> None:
        """Player range and option declarations that no schema can check.

        :raises SemanticError: located at the offending declaration.
        """
        def at(node: dict[str, Any]) -> Location:
            pos = node.get("at") or [None, None]
            return Location(self.file, pos[0] or None, pos[1] or None)
        players_at = {"at": game.get("players_at") or game.get("at")}
        if self.min_players > self.max_players:
            raise SemanticError.at(f"players {self.min_players}..{self.max_players}: the smallest "
                                   "count comes first", at(players_at), code="bad-players")
        if self.min_players < 1:
            raise SemanticError.at("a game needs at least one player", at(players_at),
                                   code="bad-players")
        seen: set[str] = set()
        for spec in self.ir.get("options", []):
            name = spec["name"]
            if name in seen:
                raise SemanticError.at(f"option {name!r} is declared twice", at(spec),
                                       code="duplicate-name")
            seen.add(name)
        for name, spec in self.options.items():
            if spec["type"] == "int" and spec["min"] > spec["max"]:
                raise SemanticError.at(f"option {name}: {spec['min']}..{spec['max']} is empty",
                                       at(spec), code="bad-option")
            try:
                _convert(name, spec, _literal(spec["default"]), self.file)
            except OptionError as exc:
                raise SemanticError.at(f"the default of option {name} is not one of its values: "
                                       f"{exc.diagnostics[0].message}", at(spec),
                                       code="bad-option-default") from None

    def __repr__(self) -> str:
        return f"<Game {self.name} {self.min_players}-{self.max_players} players>"

    # ------------------------------------------------------------------ options
    def default_options(self) -> dict[str, Any]:
        """Each option's default value."""
        return {name: _literal(o["default"]) for name, o in self.options.items()}

    def parse_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """Complete and check options; string values (from a command line) are converted.

        :raises OptionError: unknown option or a value outside its type or range.
        """
        values = self.default_options()
        for name, raw in (given or {}).items():
            spec = self.options.get(name)
            if spec is None:
                known = ", ".join(sorted(self.options)) or "none"
                raise OptionError.at(f"{self.name} has no option {name!r} (options: {known})",
                                     Location(self.name), code="unknown-option")
            values[name] = _convert(name, spec, raw, self.name)
        return values

    # ------------------------------------------------------------------ instances
    def instance(self, players: int, options: dict[str, Any] | None = None) -> Instance:
        """The compiled instance for a player count and (completed) options.

        :raises OptionError: bad player count or options.
        :raises SemanticError: the ruleset cannot be compiled for them.
        """
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise OptionError.at(
                f"{self.title} is for {self.min_players}-{self.max_players} players, not {players}",
                Location(self.name), code="player-count")
        opts = self.parse_options(options)
        key = (players, tuple(sorted(opts.items())))
        inst = self._instances.get(key)
        if inst is None:
            inst = Instance(self.ir, players, opts, self.file)
            self._instances[key] = inst
        return inst

    def new_game(self, players: int | None = None, seed: int = 0,
                 options: dict[str, Any] | None = None,
                 max_decisions: int = DEFAULT_MAX_DECISIONS, generate: bool = True,
                 chance: str = "sampled") -> State:
        """Start a game: run the setup and the flow up to the first decision.

        :param players: number of seats (default: the ruleset's minimum).
        :param seed: fixes every shuffle and random choice.
        :param options: option name → value (strings are converted).
        :param max_decisions: the game is stopped with an error past this many decisions
            (at most the decisions the ruleset declares, ``at most N decisions``).
        :param generate: ``False``: if the ruleset has not been played yet, play this
            game on the compiler's closures instead of generating Python code first
            (for a one-off look, such as ``validate``'s dry run).
        :param chance: ``"sampled"`` (chance drawn inside ``apply()`` from the seed)
            or ``"explicit"`` (the state stops at chance nodes: ``current_player``
            is ``CHANCE``; see :mod:`rulepack.engine.chance`).
        :raises OptionError: bad player count or options.
        :raises ValueError: an unknown chance mode.
        :raises RulesetRuntimeError: the ruleset fails while setting up.
        """
        inst = self.instance(players if players is not None else self.min_players, options)
        if inst.longest is not None:
            max_decisions = min(max_decisions, inst.longest)
        return State(new_position(inst.program(generate), seed, max_decisions, chance))

    def state_from_json(self, data: dict[str, Any],
                        max_decisions: int = DEFAULT_MAX_DECISIONS) -> State:
        """Rebuild a state from ``State.to_json()`` output (its flow run on to its
        pending decision, if it had one).

        :raises RulesetRuntimeError: the data does not fit the ruleset."""
        program = self.instance(int(data["players"]), data.get("options") or {}).program()
        return state_from_json(program, data, max_decisions)


def _literal(node: Any) -> Any:
    if isinstance(node, dict) and node.get("k") == "lit":
        return node["value"]
    if isinstance(node, dict) and node.get("k") == "name":
        return node["name"]
    return node


def _convert(name: str, spec: dict[str, Any], raw: Any, file: str) -> Any:
    kind = spec["type"]

    def fail(expected: str) -> OptionError:
        return OptionError.at(f"option {name} must be {expected}, not {raw!r}", Location(file),
                              code="bad-option")
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("true", "yes", "1", "on"):
            return True
        if text in ("false", "no", "0", "off"):
            return False
        raise fail("true or false")
    if kind == "int":
        if isinstance(raw, float) or isinstance(raw, bool):
            raise fail(f"a whole number from {spec['min']} to {spec['max']}")
        # digits 0-9 only: int() would also take '٣' or '1_000'
        if isinstance(raw, str) and not re.fullmatch(r"\s*[+-]?[0-9]+\s*", raw):
            raise fail(f"a whole number from {spec['min']} to {spec['max']}")
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise fail(f"a whole number from {spec['min']} to {spec['max']}") from None
        if isinstance(raw, bool) or not spec["min"] <= value <= spec["max"]:
            raise fail(f"a whole number from {spec['min']} to {spec['max']}")
        return value
    if kind == "text":
        if not isinstance(raw, (str, int)) or isinstance(raw, bool) or len(str(raw)) > 10_000:
            raise fail("a text (at most 10000 characters)")
        return str(raw)
    choices = [_literal(v) for v in spec["values"]]
    for c in choices:
        if str(c) == str(raw):
            return c
    raise fail("one of " + ", ".join(str(c) for c in choices))
