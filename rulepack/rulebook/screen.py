"""The rules as a player sees them during play: the short rules (``?`` in ``rulepack
play``: the rulebook's play and end for this game's player count and options), the
header lines (how the game ends, who wins), why a game ended (the rule, in English)
and how each score was made where a score is not a plain sum."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rulepack.rulebook.book import nodes, rulebook
from rulepack.rulebook.english import English
from rulepack.rulebook.output import markdown

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State
    from rulepack.game import Game

#: the rulebook's sections the short rules keep
SHORT = ("Play", "Terms", "Scoring and winning", "The end of the game", "Options and variants")


def short_rules(game: "Game", players: int, options: dict[str, Any]) -> str:
    """The rules of the turn, the terms and the end, as Markdown: the rulebook's
    play sections (each phase's too) and its end, for this player count and options
    (no pictures, no example games)."""
    book = rulebook(game, players, options, pictures=False, examples=False)
    book.sections = [s for s in book.sections if s.title in SHORT or s.title.startswith("The ")]
    text, _ = markdown(book, None)
    return text


def ending_lines(game: "Game", players: int, options: dict[str, Any]) -> list[str]:
    """Two or three lines for the top of the screen: how the game ends (``Ends: …``)
    and who wins (``Wins: …``), in English, with the options' values."""
    ir = game.ir
    english = English(ir, dict(game.parse_options(options)))
    out: list[str] = []
    loop = next((s for s in ir.get("play") or [] if isinstance(s, dict)
                 and s.get("k") in ("rounds", "turns")), None)
    if loop is not None and loop.get("until") is not None:
        out.append(f"Ends: {loop['k']} are played until {english.clause(loop['until'])}.")
    elif loop is not None and loop.get("times") is not None:
        out.append(f"Ends: after {english.phrase(loop['times'])} {loop['k']}.")
    ends = [n for n in nodes(ir.get("play")) if n.get("k") == "end" and n.get("what") == "game"]
    for phase in ir.get("phases") or []:
        ends += [n for n in nodes(phase.get("body")) if n.get("k") == "end" and
                 n.get("what") == "game"]
    reasons = []
    for n in ends:
        reason = _reason(ir, n["at"], english)
        if reason and reason not in reasons:
            reasons.append(reason)
    if reasons:
        shown = "; or ".join(reasons[:3]) + ("; or as other rules say" if len(reasons) > 3 else "")
        out.append(f"{'Also ends' if out else 'Ends'}: {shown}.")
    winner = ir.get("winner")
    if winner is not None:
        out.append("Wins: " + _lower(english.winner(winner).text))
    else:
        out.append("Wins: whoever the rule that ends the game names.")
    return out


def why_ended(game: "Game", state: "State", options: dict[str, Any]) -> str | None:
    """Why the game ended, in English (``The game ended because …``), or ``None`` if
    it has not ended or the rule is not known."""
    at = state.position.ended
    if not state.is_terminal() or at is None:
        return None
    english = English(game.ir, dict(game.parse_options(options)))
    node = _find(game.ir, at)
    if node is None:
        return None
    if node.get("k") == "end":
        reason = _reason(game.ir, at, english)
        return f"The game ended: {reason}." if reason else "The game ended by its rules."
    if node.get("k") in ("rounds", "turns"):
        if node.get("until") is not None:
            return f"The game ended because {english.clause(node['until'])}."
        if node.get("times") is not None:
            return f"The game ended after {english.phrase(node['times'])} {node['k']}."
    return "The game ended: its play was over."


def score_lines(game: "Game", state: "State", options: dict[str, Any]) -> list[str]:
    """How each player's score was made, where the score is not a plain sum (its
    formula's outer operation with each operand's value): ``player 1: 21 × 2 = 42``."""
    score = game.ir.get("score")
    if not score or not state.is_terminal():
        return []
    expr = score["expr"]
    if not (isinstance(expr, dict) and expr.get("k") == "op" and
            expr.get("op") in ("*", "/", "//", "-", "%")):
        return []
    from rulepack.engine.values import Player
    players = state.program.num_players
    chosen = game.parse_options(options)
    inst = game.instance(players, chosen)
    param = score.get("player", "p")
    scope = inst.scope().with_locals(param)
    operands = [inst.exprs.compile(a, scope) for a in expr["args"]]
    english = English(game.ir, dict(chosen))
    symbol = {"*": "×", "/": "÷", "//": "÷", "-": "−", "%": "mod"}[expr["op"]]
    seats = [str(s) for s in cast("list[object]", state.view(0)["seats"])]
    scores = state.scores() or []
    out = [f"Score = {english.phrase(expr)}:"]
    for p in range(players):
        position = state.position.copy()
        position.vars[param] = Player(p)
        parts = [fn(position) for fn in operands]
        shown = f" {symbol} ".join(str(x) for x in parts)
        out.append(f"  {seats[p]}: {shown} = {scores[p] if p < len(scores) else '?'}")
    return out


def plain(markdown_text: str) -> str:
    """The rulebook's Markdown for a terminal: headings underlined in words, no
    emphasis marks."""
    out = []
    for line in markdown_text.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            out += [title.upper() if line.startswith("# ") else title, ""] \
                if not line.startswith("## ") else ["", title, "-" * len(title)]
            continue
        out.append(line.replace("**", "").replace("*", ""))
    return "\n".join(out).strip() + "\n"


# ---------------------------------------------------------------------- helpers
def _lower(text: str) -> str:
    return text[0].lower() + text[1:] if text else text


def _find(ir: dict[str, Any], at: list[int]) -> dict[str, Any] | None:
    for key in ("setup", "play"):
        for n in nodes(ir.get(key)):
            if n.get("at") == list(at) and n.get("k") is not None:
                return n
    for phase in ir.get("phases") or []:
        for n in nodes(phase.get("body")):
            if n.get("at") == list(at) and n.get("k") is not None:
                return n
    return None


def _path(stmts: Any, at: list[int], above: list[tuple[dict[str, Any], str]]
          ) -> list[tuple[dict[str, Any], str]] | None:
    """The statements (and which branch: ``then``, ``else``, ``body``) that hold the
    statement at ``at``, outermost first."""
    for node in stmts or []:
        if not isinstance(node, dict):
            continue
        if node.get("at") == list(at) and node.get("k") == "end":
            return above
        for branch in ("then", "else", "body", "actions"):
            inner = node.get(branch)
            if isinstance(inner, list):
                found = _path(inner, at, above + [(node, branch)])
                if found is not None:
                    return found
    return None


def _reason(ir: dict[str, Any], at: list[int], english: English) -> str | None:
    """What leads to the ``end game`` at ``at``: the conditions of the ``if``s and
    the actions around it (``if the stack holds nothing``, ``after “claim victory”``)."""
    blocks = [ir.get("setup"), ir.get("play")] + [p.get("body") for p in ir.get("phases") or []]
    for block in blocks:
        path = _path(block, at, [])
        if path is None:
            continue
        parts = []
        for node, branch in path:
            if node.get("k") == "if" and english.known(node["cond"]) is (branch == "else"):
                return None         # a rule the options rule out
            if node.get("k") == "action" and node.get("guard") is not None and \
                    english.known(node["guard"]) is False:
                return None
            if node.get("k") == "if" and branch == "then":
                parts.append(f"when {english.clause(node['cond'])}")
            elif node.get("k") == "if" and branch == "else":
                parts.append(f"unless {english.clause(node['cond'])}")
            elif node.get("k") == "action":
                parts.append(f"after “{node['text']}”")
        return ", ".join(parts) if parts else "when the rules reach its end"
    return None
