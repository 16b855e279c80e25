"""Issue 36's check of the generated rulebooks: positions of seeded games for readers
who know a game only from its rulebook, and the score of their answers.

For each game (Multzo 3 players, Mismemory 2, Multiplay 3, PackKub 4), 20 positions:
a game with seed ``s`` is played by random bots (the bots' choices seeded too) to a
decision point chosen from the seed; the question is the screen of the player to
move there as ``rulepack play`` shows it to that player (their view, every zone,
the variables) and the last lines of the game's story as they saw it. PackKub's
positions are "non-rearranging": the player to move has not yet opened (their plays
cannot touch the table). A reader answers with every action the player may take, each
written as the rulebook writes actions; an answer matches when its set of texts equals
the texts of ``legal_actions()`` there.

    .venv/bin/python benchmarks/rulebook_check/questions.py write   # rulebooks + questions
    .venv/bin/python benchmarks/rulebook_check/questions.py score   # answers/*.json → figures

Files (in this folder): ``<game>.rulebook.md`` (what ``rulepack rulebook GAME -n N``
writes), ``<game>.questions.json`` (id → screen), ``answers/<reader>.<game>.json``
(id → list of action texts) and ``scores.json``.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

import rulepack
from rulepack import story as cli_events
from rulepack.cli import render
from rulepack.engine.rng import Rng
from rulepack.rulebook.book import rulebook
from rulepack.rulebook.output import markdown

HERE = Path(__file__).resolve().parent
GAMES = {"multzo": 3, "mismemory": 2, "multiplay": 3, "packkub": 4}
QUESTIONS = 20
STORY_LINES = 14


def _fits(name: str, state: Any) -> bool:
    if name == "packkub":
        opened = state.position.vars.get("opened")
        return isinstance(opened, list) and not opened[state.current_player]
    return True


def position(name: str, players: int, seed: int) -> tuple[Any, list[str]] | None:
    """The state at the decision the seed picks, and the story its player saw."""
    game = rulepack.load(name)
    state = game.new_game(players, seed=seed)
    rng = Rng(seed * 7919 + 1)
    target = 5 + rng.below(60)
    story: dict[int, list[str]] = {p: [] for p in range(players)}
    seats = [str(s) for s in state.view(0)["seats"]]
    candidates: list[tuple[Any, list[str]]] = []
    for step in range(target + 40):
        if state.is_terminal():
            break
        if step >= target and _fits(name, state) and not state.is_chance_node():
            p = state.current_player
            return state, story[p][-STORY_LINES:]
        actions = state.legal_actions()
        action = actions[rng.below(len(actions))]
        new = cli_events.step(state, action, list(range(players)))
        for viewer, evs in new.items():
            if viewer is not None:
                story[viewer] += [render.event_text(e, seats, viewer).plain for e in evs]
    del candidates
    return None


def screen(name: str, state: Any, story: list[str]) -> str:
    game = rulepack.load(name)
    p = state.current_player
    view = state.view(p)
    per_player = {v["name"] for v in game.ir.get("variables", []) if v.get("per_player")}
    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None, force_terminal=False)
    console.print(render.view_renderable(view, game.title, per_player,
                                         render.chance_names(game.ir), compact=False))
    seats = [str(s) for s in view["seats"]]
    text = out.getvalue()
    text += "\nWhat happened lately, as you saw it:\n" + "\n".join(f"  {s}" for s in story)
    text += f"\n\nYou are {seats[p]}, and it is your decision now."
    return text


def write() -> None:
    for name, players in GAMES.items():
        book = rulebook(rulepack.load(name), players, pictures=False)
        text, _ = markdown(book, None)
        (HERE / f"{name}.rulebook.md").write_text(text, encoding="utf-8")
        questions: dict[str, dict[str, Any]] = {}
        seed = 1
        while len(questions) < QUESTIONS:
            found = position(name, players, seed)
            if found is not None:
                state, story = found
                questions[f"{name}-{seed}"] = {"seed": seed, "screen": screen(name, state, story)}
            seed += 1
        (HERE / f"{name}.questions.json").write_text(
            json.dumps({k: v["screen"] for k, v in questions.items()}, indent=1,
                       ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{name}: {len(questions)} questions, seeds {[v['seed'] for v in questions.values()]}")


def legal(name: str, seed: int) -> set[str]:
    found = position(name, GAMES[name], seed)
    assert found is not None
    return {a.text for a in found[0].legal_actions()}


def score() -> None:
    results: dict[str, Any] = {}
    for path in sorted((HERE / "answers").glob("*.json")):
        reader, name = path.stem.split(".")
        answers = json.loads(path.read_text(encoding="utf-8"))
        right = 0
        wrong: list[str] = []
        for qid, given in answers.items():
            seed = int(qid.rsplit("-", 1)[1])
            if set(given) == legal(name, seed):
                right += 1
            else:
                wrong.append(qid)
        results.setdefault(name, {})[reader] = {"right": right, "asked": len(answers),
                                                "wrong": wrong}
    for name, readers in results.items():
        right = sum(r["right"] for r in readers.values())
        asked = sum(r["asked"] for r in readers.values())
        print(f"{name}: {right}/{asked} = {right / max(asked, 1):.0%} "
              + " ".join(f"{k} {v['right']}/{v['asked']}" for k, v in readers.items()))
    (HERE / "scores.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    {"write": write, "score": score}[sys.argv[1] if len(sys.argv) > 1 else "write"]()
