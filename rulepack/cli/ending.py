"""How a game ends and who wins, in a few lines read from any ruleset.

The lines quote the ruleset's own words (its ``winner`` and ``score`` declarations,
the ``until``/``times`` of the outermost ``rounds``/``turns`` loop of ``play``, and its
``end game`` statements) so that they are right for every game without knowing any.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulepack.ir import nodes

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.game import Game

#: At most this many ``end game`` statements are quoted.
MAX_END_QUOTES = 3


def _source_lines(game: "Game") -> list[str]:
    path = game.ir.get("file")
    try:
        return Path(path).read_text(encoding="utf-8").splitlines() if path else []
    except (OSError, UnicodeDecodeError):
        return []


def _quote(lines: list[str], node: Any) -> str | None:
    """The source from a node's position to the end of its line, without a final ``{``."""
    at = node.get("at") if isinstance(node, dict) else None
    if not at or not lines or not 1 <= at[0] <= len(lines):
        return None
    text = lines[at[0] - 1][max(at[1] - 1, 0):]
    if "#" in text:
        text = text[:text.index("#")]
    text = text.rstrip().removesuffix("{").strip()
    return text or None


def ending(game: "Game") -> list[str]:
    """Short lines: when the game ends (``Ends: ...``) and who wins (``Wins: ...``).

    :returns: one to six lines of plain text.
    """
    lines = _source_lines(game)
    ir = game.ir
    solo = game.max_players == 1          # a patience: no winner is a loss, not a draw
    out = []
    loop = next((s for s in ir.get("play") or [] if isinstance(s, dict)
                 and s.get("k") in ("rounds", "turns")), None)
    if loop is not None and (loop.get("until") or loop.get("times")):
        if loop.get("until"):
            quoted = _quote(lines, loop["until"])
            out.append(f"Ends: {loop['k']} are played until {quoted}" if quoted else
                       f"Ends: after the {loop['k']} of play are over")
        else:
            quoted = (_quote(lines, loop["times"]) or "").removesuffix("times").strip()
            out.append(f"Ends: after {quoted} {loop['k']}" if quoted else
                       f"Ends: after the {loop['k']} of play are over")
    ends = [n for n in nodes([ir.get("play"), ir.get("phases")])
            if n.get("k") == "end" and n.get("what") == "game"]
    quotes = []
    for n in ends:
        q = _quote(lines, n)
        if q and q not in quotes:
            quotes.append(q)
    if quotes:
        shown = "; ".join(f"'{q}'" for q in quotes[:MAX_END_QUOTES])
        more = f" and {len(quotes) - MAX_END_QUOTES} more" if len(quotes) > MAX_END_QUOTES else ""
        out.append(f"{'Also ends' if out else 'Ends'} when a rule says so: {shown}{more}")
    winner = ir.get("winner")
    score = ir.get("score")
    if winner:
        formula = _quote(lines, score) if score else None
        line = f"Wins: the {winner['rule']} score; tied players share the win"
        out.append(line + (f" ({formula})" if formula else ""))
    elif any(n.get("winners") for n in ends):
        otherwise = "lost" if solo else "a draw"
        out.append("Wins: whoever the rule that ends the game names; "
                   f"a game that ends otherwise is {otherwise}")
    else:
        out.append("Wins: nobody by score (the ruleset declares no winner): every end is "
                   + ("lost" if solo else "a draw"))
    teams = (ir.get("game") or {}).get("teams")
    if teams:
        quoted = _quote(lines, teams[0])       # from the first team to the end of the line
        out.append("Teams: partners share one result; a team's score is the sum of its "
                   "players' scores, and the winner rule compares teams"
                   + (f" ({quoted})" if quoted else ""))
    return out
