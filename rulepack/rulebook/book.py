"""A rulebook: a ruleset's rules in English, in the usual order, for one player
count and options.

:func:`rulebook` builds a :class:`Rulebook` — overview (players, length, goal),
components (with counts for the player count), setup (with a picture of the
position after it), play (the turn and its choices, each phase), terms (the
ruleset's defines, constants and patterns), scoring (with a worked example from a
seeded game), the end of the game and winning, options and variants — from the
ruleset's IR through :class:`~rulepack.rulebook.english.English`. Every line
carries the source position of the rule it says (:meth:`Rulebook.positions`), so a
test can check that the rulebook says every rule of the ruleset
(:func:`rule_positions`). The pictures are SVG text, made when the ``render`` extra
is installed (``None`` otherwise).
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, cast

from rulepack.engine.rng import Rng
from rulepack.rulebook.english import English, Line

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State
    from rulepack.game import Game

#: random games played to say how long a game lasts (at most this many decisions each)
LENGTH_GAMES = 5
LENGTH_LIMIT = 3000


@dataclass
class Picture:
    """A picture of a position: its caption and its SVG (``None`` without the
    ``render`` extra)."""

    caption: str
    svg: str | None


@dataclass
class Section:
    """A part of the rulebook: a title, paragraphs (lines at depth 0 read as
    paragraphs when ``listed`` is false) and pictures after them."""

    title: str
    lines: list[Line] = field(default_factory=list)
    listed: bool = True
    pictures: list[Picture] = field(default_factory=list)
    intro: list[str] = field(default_factory=list)


@dataclass
class Rulebook:
    """A ruleset's rulebook for ``players`` players and ``options``."""

    title: str
    players: int
    options: dict[str, Any]
    sections: list[Section]
    #: the positions of the conditions the options decide (said by what they decide)
    decided: list[list[int]] = field(default_factory=list)

    def positions(self) -> set[tuple[int, int]]:
        """The source positions ``(line, column)`` of the rules the rulebook says."""
        return {(ln.at[0], ln.at[1]) for s in self.sections for ln in s.lines
                if ln.at is not None} | {(at[0], at[1]) for at in self.decided}

    def section(self, title: str) -> Section:
        """The section with this title. :raises KeyError: none has it."""
        for s in self.sections:
            if s.title == title:
                return s
        raise KeyError(title)


def rule_positions(ir: dict[str, Any]) -> set[tuple[int, int]]:
    """The source positions of a ruleset's rules: every statement and action of its
    flow, and its declarations (zones, patterns, constants, defines, variables,
    options, score, winner, requirements) — what a rulebook must say."""
    out: set[tuple[int, int]] = set()
    for key in ("setup", "play"):
        for n in nodes(ir.get(key)):
            if _is_rule(n):
                out.add((n["at"][0], n["at"][1]))
    for phase in ir.get("phases") or []:
        for n in nodes(phase.get("body")):
            if _is_rule(n):
                out.add((n["at"][0], n["at"][1]))
    for key in ("zones", "patterns", "constants", "defines", "variables", "options",
                "requirements"):
        for decl in ir.get(key) or []:
            if decl.get("at"):
                out.add((decl["at"][0], decl["at"][1]))
    for key in ("score", "winner"):
        decl = ir.get(key)
        if decl and decl.get("at"):
            out.add((decl["at"][0], decl["at"][1]))
    return out


_STATEMENTS = {"move", "flip", "rotate", "shuffle", "roll", "let", "set", "reset", "for", "if",
               "while", "repeat", "maximize", "rounds", "turns", "choose", "end", "do",
               "eliminate", "claim", "arrange", "say", "action"}


def nodes(ir: Any) -> Iterator[dict[str, Any]]:
    """Every dict of an IR tree in source order (a node before what it holds)."""
    if isinstance(ir, dict):
        yield ir
        for key, value in ir.items():
            if key != "at":
                yield from nodes(value)
    elif isinstance(ir, list):
        for item in ir:
            yield from nodes(item)


def _is_rule(n: dict[str, Any]) -> bool:
    if n.get("k") == "if" and not isinstance(n.get("then"), list):
        return False        # an if ... then ... else expression, not a statement
    return n.get("k") in _STATEMENTS and bool(n.get("at"))


def rulebook(game: "Game", players: int | None = None, options: dict[str, Any] | None = None,
             seed: int = 1, pictures: bool = True, examples: bool = True) -> Rulebook:
    """The rulebook of ``game`` for ``players`` (default: the fewest) and
    ``options`` (default: the ruleset's).

    :param seed: the seed of the games played for the length, the pictures and the
        worked example.
    :param pictures: draw the pictures (when the ``render`` extra is installed).
    :param examples: play seeded games for the length of a game and the worked example.
    :raises RulepackError: the options or player count do not fit the ruleset.
    :raises NoEnglish: a construct without English (a bug of this package).
    """
    n = players or game.min_players
    chosen = game.parse_options(options)
    ir = game.ir
    values: dict[str, Any] = dict(chosen)
    english = English(ir, values)
    sections = [
        _overview(game, n, chosen, english, seed if examples else None),
        _components(game, n, chosen, english),
        _setup(game, n, chosen, english, seed, pictures),
        *_play(ir, english),
        _terms(ir, english),
        _scoring(game, n, chosen, english, seed if examples else None, pictures),
        _ending(ir, english),
    ]
    if ir.get("options"):
        sections.append(_options(ir, english, chosen))
    return Rulebook(game.title, n, chosen, [s for s in sections if s.lines or s.intro or
                                             s.pictures], list(english.folded))


# ---------------------------------------------------------------------- sections
def _overview(game: "Game", n: int, chosen: dict[str, Any], english: English,
              seed: int | None) -> Section:
    lo, hi = game.min_players, game.max_players
    count = f"{lo}" if lo == hi else f"{lo} to {hi}"
    intro = [f"*{game.title}* is a game for {count} player{'s' if hi > 1 else ''}; this "
             f"rulebook is written for {n}."]
    source = (game.ir.get("game") or {}).get("source")
    if source:
        intro.append(f"Source of the rules: {source}.")
    seats = (game.ir.get("game") or {}).get("seats")
    if seats:
        intro.append("The seats, in turn order: " + ", ".join(seats[:n]) + ".")
    winner = game.ir.get("winner")
    if winner is not None:
        intro.append("Goal: " + english.winner(winner).text[0].lower() +
                     english.winner(winner).text[1:])
    else:
        intro.append("Goal: win as the rules below say (the game's end names its winners).")
    turns = None if seed is None else _length(game, n, chosen, seed)
    if turns is not None:
        intro.append(f"A game takes about {turns[0]} decisions ({turns[1]} turns) when the "
                     "moves are chosen at random.")
    return Section("Overview", [], intro=intro)


def _length(game: "Game", n: int, chosen: dict[str, Any], seed: int) -> tuple[int, int] | None:
    decisions: list[int] = []
    turns: list[int] = []
    for k in range(LENGTH_GAMES):
        state = game.new_game(n, seed=seed + k, options=chosen)
        rng = Rng(seed + k)
        steps = 0
        while not state.is_terminal() and steps < LENGTH_LIMIT:
            actions = state.legal_actions()
            state.apply(actions[rng.below(len(actions))])
            steps += 1
        if not state.is_terminal():
            return None
        decisions.append(state.decisions)
        turns.append(state.position.turns)
    return int(statistics.median(decisions)), int(statistics.median(turns))


def _components(game: "Game", n: int, chosen: dict[str, Any], english: English) -> Section:
    program = game.instance(n, chosen).program()
    kinds = Counter(p.kind for p in program.pieces)
    lines: list[Line] = []
    for kind, count in kinds.items():
        pieces = program.kind_pieces[kind]
        attrs: dict[str, list[Any]] = {}
        for p in pieces:
            for a, v in p.attrs.items():
                if v not in attrs.setdefault(a, []):
                    attrs[a].append(v)
        shown = "; ".join(f"{English.words(a)}: " + ", ".join(english.phrase(v) for v in vs)
                          for a, vs in attrs.items() if 1 < len(vs) <= 12)
        noun = English.words(kind) + ("s" if count > 1 else "")
        names = list(dict.fromkeys(p.name for p in pieces))
        named = ", ".join(f"“{x}”" for x in names[:2])
        lines.append(Line(f"{count} {noun}" + (f" ({shown})" if shown else "") +
                          f"; the game names them as {named}…" if count > 1 else
                          f"{count} {noun}, named “{pieces[0].name}”.", 0, None))
    shapes = {info.name: (info.rows, info.cols, [
        info.name_of(r, c) for r in range(info.rows) for c in range(info.cols)
        if (r, c) not in set(info.cells)]) for info in program.zones if info.kind == "grid"}
    places = [english.zone(z, shapes.get(z["name"])) for z in game.ir.get("zones") or []]
    section = Section("Components", lines + places)
    section.intro = ["The pieces, then the places they lie in:"]
    return section


def _setup(game: "Game", n: int, chosen: dict[str, Any], english: English, seed: int,
           pictures: bool) -> Section:
    section = Section("Setup", english.block(game.ir.get("setup")))
    if not section.lines:
        section.intro = ["There is nothing to set up."]
    if pictures:
        state = game.new_game(n, seed=seed, options=chosen)
        section.pictures.append(Picture(
            "The table after the setup (a game with seed "
            f"{seed}; what is hidden is drawn as the back of the piece)",
            _svg(game, state)))
    return section


def _play(ir: dict[str, Any], english: English) -> list[Section]:
    play = Section("Play", english.block(ir.get("play")))
    play.intro = ["The game runs as follows. Where a player chooses, the choices are written "
                  "as the game writes them (“draw {t} from the discards”: {t} is the piece "
                  "named)."]
    out = [play]
    phases = {p["name"]: p for p in ir.get("phases") or []}
    for name in _phase_order(ir, phases):
        phase = phases[name]
        section = Section(f"The {English.words(name)}", english.block(phase.get("body")))
        out.append(section)
    return out


def _phase_order(ir: dict[str, Any], phases: dict[str, Any]) -> list[str]:
    """Phases in the order the flow first plays them (then any never played)."""
    order: list[str] = []

    def visit(stmts: Any) -> None:
        for node in nodes(stmts):
            if node.get("k") == "do" and node.get("phase") in phases and \
                    node["phase"] not in order:
                order.append(node["phase"])
                visit(phases[node["phase"]].get("body"))
    visit(ir.get("setup"))
    visit(ir.get("play"))
    return order + [p for p in phases if p not in order]


def _terms(ir: dict[str, Any], english: English) -> Section:
    lines = [english.pattern(p) for p in ir.get("patterns") or []]
    lines += [english.constant(c) for c in ir.get("constants") or []]
    lines += [english.define(d) for d in ir.get("defines") or []]
    lines += [english.variable(v) for v in ir.get("variables") or []]
    lines += [english.requirement(r) for r in ir.get("requirements") or []]
    section = Section("Terms", lines)
    section.intro = ["The words the rules above use, and what the game keeps track of:"]
    return section


def _scoring(game: "Game", n: int, chosen: dict[str, Any], english: English,
             seed: int | None, pictures: bool) -> Section:
    ir = game.ir
    lines: list[Line] = []
    if ir.get("score"):
        lines.append(english.score(ir["score"]))
    if ir.get("winner"):
        lines.append(english.winner(ir["winner"]))
    section = Section("Scoring and winning", lines)
    if seed is None:
        return section
    # the worked example: the end of a seeded game played at random
    state = game.new_game(n, seed=seed, options=chosen)
    rng = Rng(seed)
    steps = 0
    while not state.is_terminal() and steps < LENGTH_LIMIT:
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])
        steps += 1
    if state.is_terminal():
        result = state.result()
        seats = [str(x) for x in cast("list[object]", state.view(0)["seats"])]
        scores = result.get("scores") or []
        shown = ", ".join(f"{seats[i]} {s}" for i, s in enumerate(scores))
        winners = result.get("winners") or []
        won = ", ".join(seats[w] for w in winners) or "nobody"
        with_scores = f" with the scores {shown}" if ir.get("score") and shown else ""
        section.intro.append(f"Example: a game with seed {seed}, every choice made at random, "
                             f"ended after {state.decisions} decisions{with_scores}; the "
                             f"winner{'s' if len(winners) > 1 else ''}: {won}.")
        if pictures:
            section.pictures.append(Picture(f"The end of that game (seed {seed})",
                                            _svg(game, state)))
    return section


def _ending(ir: dict[str, Any], english: English) -> Section:
    lines: list[Line] = []
    for key in ("setup", "play"):
        lines += [ln for ln in _ends(ir.get(key), english)]
    for phase in ir.get("phases") or []:
        lines += _ends(phase.get("body"), english)
    section = Section("The end of the game", lines)
    section.intro = ["The game ends where the rules above say so:"]
    return section


def _ends(stmts: Any, english: English) -> Iterator[Line]:
    for node in nodes(stmts):
        k = node.get("k")
        if k == "end" and node.get("what") == "game":
            yield from english.statement(node)
        elif k in ("rounds", "turns") and node.get("until") is not None:
            head = english.statement({**node, "body": []})
            yield from head


def _options(ir: dict[str, Any], english: English, chosen: dict[str, Any]) -> Section:
    lines = [english.option(o) for o in ir.get("options") or []]
    if english.elsewhere:
        lines.append(Line("Rules that apply only with other options:", 0, None))
        lines += english.elsewhere
    section = Section("Options and variants", lines)
    shown = ", ".join(f"{English.words(k)} = {english.phrase(v)}" for k, v in chosen.items())
    section.intro = [f"This rulebook is written for: {shown}."]
    return section


def _svg(game: "Game", state: "State") -> str | None:
    """The table's picture of ``state`` as SVG text, or ``None`` without the render
    extra."""
    try:
        from rulepack.render.output import encode, picture
    except ImportError:
        return None
    return encode(picture(game, state, None, ""), "svg").decode()
