"""Expressions compiled to Python source (rulepack/compiler/codegen.py).

The generated functions and the closures they replace must give the same games;
every expression of the bundled rulesets but a chance event is generated; and the
text of a ruleset reaches the generated source only as a ``repr()`` or not at all.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import golden
import rulepack
from rulepack.errors import RulesetRuntimeError, SemanticError
from rulepack.engine.values import Player
from rulepack.cli.main import main
from rulepack.compiler import codegen
from rulepack.compiler.build import with_player
from rulepack.engine import effects
from rulepack.loader import bundled_rulesets
from click.testing import CliRunner
from rulepack.engine.outcome import score
from rulepack.compiler.instance import instance_of

ROOT = Path(__file__).resolve().parent.parent

#: One recorded game of each ruleset (and a few options), replayed on closures only.
SAMPLE = [("multzo", "multzo 3p", 1), ("multiplay", "multiplay 2p", 0),
          ("mismemory", "mismemory 3p blind=true", 0), ("mismemory", "mismemory 2p grid=line", 1),
          ("packkub", "packkub 2p rounds=1 six_pack=true", 0), ("tic-tac-toe", "tic-tac-toe 2p", 3),
          ("connect-four", "connect-four 2p", 2)]


@pytest.fixture
def closures_only(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(codegen, "ENABLED", False)
    golden.game.cache_clear()
    yield
    golden.game.cache_clear()


@pytest.mark.parametrize("ruleset, config, seed", SAMPLE)
def test_closures_play_the_recorded_games_too(closures_only, ruleset, config, seed):
    state = golden.new_game(golden.find_config(config), seed)
    assert not instance_of(state.program).exprs.source.generated      # really the closures
    assert state.program.code == state.program.steps and not instance_of(state.program).flow_source
    assert all(c.generate is None for c in state.program.choices)
    record = golden.find_record(golden.read(ruleset), config, seed)
    assert golden.check_game(record) is None


@pytest.mark.parametrize("name", bundled_rulesets())
def test_every_expression_of_a_bundled_ruleset_is_generated_but_chance(name):
    game = rulepack.load(name)
    inst = game.instance(game.min_players, {})
    inst.prepare()
    source = inst.exprs.source
    assert source.failures == []
    assert source.generated
    text = source.module_source()
    # every root the flow, scores and guards evaluate, random() included
    roots = {g.name for g in source.generated}
    # and the score as a function of the player (score_of), if there is a score
    assert ("score_of" in roots) == (inst.score_fn is not None) == (inst.score_of is not None)
    roots.discard("score_of")
    assert roots == {f"expr_{i}" for i in range(len(roots))}
    assert compile(text, "<module>", "exec")      # the printed module is valid Python


@pytest.mark.parametrize("name", bundled_rulesets())
def test_the_flow_of_a_bundled_ruleset_is_generated(name):
    """Every basic block of the flow and every decision's legal actions are
    generated functions (a block starts at the start, at every jump target and
    decision, and after every unconditional jump)."""
    game = rulepack.load(name)
    inst = game.instance(game.max_players, {})
    assert inst.code is inst.steps and not inst.flow_source   # nothing generated yet
    inst.prepare()
    blocks = [f for f in inst.code if getattr(f, "__name__", "").startswith("B")]
    assert inst.code[0].__name__ == "B0"
    assert all(inst.code[c.pc].__name__ == f"B{c.pc}" for c in inst.choices)
    assert all(c.generate is not None and c.generate.__name__ == f"A{c.index}"
               for c in inst.choices)
    assert len(blocks) < len(inst.steps)         # blocks hold several instructions
    assert compile(inst.flow_source, "<flow>", "exec")


def test_an_error_in_a_generated_block_is_located_at_its_instruction(tmp_path):
    """A block runs several instructions; the failing one's rule is the location."""
    path = tmp_path / "fails.rules"
    path.write_text(
        "game fails { players 2 }\n"
        "component cube { number: 1..2 }\n"
        "zone box2: pile\n"
        "var x = 0\n"
        "play {\n"
        "  set x = 1\n"
        "  set x = x + 1\n"
        "  move cube to box2\n"
        "  set x = x // (x - 2)\n"       # (division by zero: only play knows)
        "  turns from 0 {\n"
        "    choose { action \"pass\" { end game } }\n"
        "  }\n"
        "}\n")
    game = rulepack.load(str(path))
    inst = game.instance(2, {})
    inst.prepare()
    assert inst.code[0].__name__ == "B0"
    with pytest.raises(RulesetRuntimeError) as err:
        game.new_game(players=2)
    where = err.value.diagnostics[0].location
    assert (where.line, where.column) == (9, 3)


def test_language_suite_passes_on_closures_alone():
    """Every construct test of tests/test_language.py, run with the generator off (in one
    process: ``-n 0``, not the two xdist workers of the suite's own options)."""
    env = dict(os.environ, RULEPACK_CODEGEN="0")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-n", "0",
                           "-p", "no:cacheprovider", "tests/test_language.py"],
                          cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:]


HOSTILE = r'''
game t { players 2 }
const weird = "'); __import__('os').system('touch SENTINEL') #\n\"\u202e ŝ }}{{"
const __import__ = 3
var __class__ = 0
var strange = 1
define __builtins__(x) = x + __import__
define exec(y) = [c for c in [weird, "x"] if c == y]
play {
  set __class__ = __builtins__(strange)
  set strange = count(exec(weird))
}
'''


def test_ruleset_text_never_runs_as_code(tmp_path):
    sentinel = tmp_path / "pwned"
    src = HOSTILE.replace("SENTINEL", str(sentinel))
    state = rulepack.loads(src).new_game(2, 0)
    assert state.position.vars["__class__"] == 4 and state.position.vars["strange"] == 1
    module = instance_of(state.program).exprs.source.module_source()
    assert not sentinel.exists()
    # the hostile text appears only inside repr() string literals, never as code
    for line in module.splitlines():
        if "__import__(" in line:
            assert "'); __import__(\\'os\\')" in line or "\\'); __import__" in line, line
    # names of the ruleset are never identifiers of the generated code
    code_lines = [line.split("#")[0] for line in module.splitlines()]
    assert not any("__builtins__(" in line or "__class__" in line for line in code_lines)
    exec(compile(module, "<module>", "exec"), {})  # the printed module defines functions only
    assert not sentinel.exists()


def test_compile_format_python_prints_the_generated_module():
    result = CliRunner().invoke(main, ["compile", "tic-tac-toe", "--format", "python"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# Tic-Tac-Toe: 2 players")
    assert "def expr_0(st):" in result.output and "line" in result.output
    compile(result.output, "<printed>", "exec")
    bad = CliRunner().invoke(main, ["compile", "multzo", "--format", "python", "-n", "9"])
    assert bad.exit_code == 1 and "2-5 players" in bad.output


def test_a_where_inside_an_iterable_compiles():
    """Python forbids := in a comprehension's iterable: such iterables are hoisted."""
    src = textwrap.dedent('''
        game t { players 2 }
        component cube { called "{n}"  n: [1, 2, 3, 4, 5, 6] }
        zone pool: row
        var out = none
        var k = 2
        setup { move cube to pool face up }
        play {
          set out = [x.n * 2 for x in (pool where n % k == 0 and n // (k + 1) <= 1)]
        }
    ''')
    state = rulepack.loads(src).new_game(2, 0)
    assert state.position.vars["out"] == [4, 8]
    assert any("def W" in g.source for g in instance_of(state.program).exprs.source.generated)


ARITHMETIC_ON_A_HOISTED_VARIABLE = textwrap.dedent('''
    game t { players 2 }
    component cube { called "{n}"  n: [1, 2, 3, 4, 5, 6] }
    zone pool: row
    var out = none
    var k = K
    setup { move cube to pool face up }
    play {
      set out = [x.n for x in (pool where n % k == 0 and n // k <= 2 and n > k - 1)]
    }
''')


@pytest.mark.parametrize("k, expected", [(2, [2, 4]), (3, [3, 6]), (1, [1, 2]), (-2, [2, 4, 6])])
def test_arithmetic_on_a_variable_read_before_the_loop_tests_it_once(k, expected):
    """``n % k`` in a where, with ``k`` read once before the loop: whether ``k`` is a
    whole number (not 0) is tested there too, once, and the fast path is taken."""
    state = rulepack.loads(ARITHMETIC_ON_A_HOISTED_VARIABLE.replace("K", str(k))).new_game(2, 0)
    assert state.position.vars["out"] == expected
    src = "".join(g.source for g in instance_of(state.program).exprs.source.generated)
    assert "is int and H" in src and "!= 0)," in src       # the flag, set before the loop
    assert "type(T" not in src.split("for L")[-1]             # no test per element


@pytest.mark.parametrize("k, message, error", [
    ("0", "division by zero", RulesetRuntimeError),
    ("none", "cannot", RulesetRuntimeError),
    # a text is certainly not a number: the type check finds it before play
    ('"2"', "cannot take the remainder: a word ('2') is not a number", SemanticError)])
def test_arithmetic_on_a_hoisted_variable_keeps_its_errors(k, message, error):
    """The flag only chooses the fast path: a 0 or a value that is not a number
    still fails as the checked operators fail, located at the expression."""
    with pytest.raises(error) as err:
        rulepack.loads(ARITHMETIC_ON_A_HOISTED_VARIABLE.replace("K", k)).new_game(2, 0)
    assert message in str(err.value) and ":9:" in str(err.value)


#: Expressions whose generated code takes the typed shortcuts (known whole
#: numbers, constant lists of numbers, lists joined, pieces of a zone): each must
#: give what the closures give, errors included.
SHORTCUTS = [
    "[c.n % 4 for c in pool]", "[c.n // 2 - 1 for c in (pool where n * 2 >= 6)]",
    "count(pool) + 1", "[3 in [3, 5], 4 in [3, 5], true in [1, 2], [1] in [1, 2], none in [1]]",
    "[c.n in [2, 4] for c in pool]", "(pool where n > 4) + [1]",
    "[1, 2] + [c.n for c in pool if c.n < 2]", "[c.n % k for c in pool]",
    "[(c.n < k, 7 > c.n, c.n + k) for c in pool]", "1 % (k - 2)", "k in [2, 3]",
    "[c.face == up for c in pool]", "[c.face != down for c in (pool where n > 3)]",
    # a where's bare 'face': the candidate's face read from the face table
    "pool where face == up", "pool where face != up and n > 2", "pool where down == face",
    "sum(pool.n) + count(pool where n > k)",
    # argmax whose condition and key share a call: computed once per element
    "argmax c in pool if count([c]) > 0 by [count([c]), c.n]",
    "argmax c in pool if count([c]) > 0 by (if c.n > 3 then [count([c])] else count([c]))",
    "argmax c in pool if c.n > 2 and first([c]).n > 3 by first([c]).n",
    "argmax c in pool if first([c]).n % k == 0 by 0 - first([c]).n",
    # defines inline, arguments in locals; a constant side of and/or folded
    "[twice(c.n) for c in pool]", "twice(k + 1)", "odd_of([c.n for c in pool], k + 1)",
    "[c.n for c in pool if keep(c, k + 2)]", "odd_of(twice(k), 0)",
    "[strict and c.n > 2 for c in pool]", "[c.n > 2 or strict for c in pool]",
    "[keep(c, 3) and true for c in pool]",
]


@pytest.mark.parametrize("expr", SHORTCUTS)
def test_typed_shortcuts_agree_with_the_closures(expr, monkeypatch):
    src = textwrap.dedent(f'''
        game t {{ players 2 }}
        component cube {{ called "{{n}}"  n: [1, 2, 3, 4, 5, 6] }}
        zone pool: row
        var out = none
        var k = 2
        option strict: bool = false "a constant for and/or"
        define twice(x) = x * 2
        define odd_of(xs, m) = [y for y in xs if y % m == 1]
        define keep(c, lo) = strict or c.n >= lo
        setup {{ move cube to pool face up
                 flip top of pool down }}
        play {{
          set out = {expr}
        }}
    ''')

    def run():
        try:
            state = rulepack.loads(src).new_game(2, 0)
        except RulesetRuntimeError as exc:
            return ("error", str(exc).split(": ", 1)[-1])
        out = state.position.vars["out"]
        return ("value", repr(out), [type(v).__name__ for v in out] if isinstance(out, list) else None)

    generated = run()
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert run() == generated


def test_argmax_computes_a_call_of_its_condition_and_key_once():
    src = textwrap.dedent('''
        game t { players 2 }
        component cube { called "{n}"  n: [1, 2, 3] }
        zone pool: row
        var out = none
        setup { move cube to pool face up }
        play { set out = argmax c in pool if distinct([c.n]) != [] by count(distinct([c.n])) }
    ''')
    state = rulepack.loads(src).new_game(2, 0)
    assert [p.attrs["n"] for p in state.position.vars["out"]] == [1, 2, 3]
    (root,) = [g for g in instance_of(state.program).exprs.source.generated if "_distinct" in g.source]
    assert root.source.count("_distinct(") == 1


@pytest.mark.parametrize("up", [None, True, False])
def test_flip_one_is_flip_of_one_piece(up):
    """The generated flow flips one piece with flip_one: the same faces and the
    same reveals (zone, piece, place) as flip([piece])."""
    game = rulepack.load("mismemory")
    base = game.new_game(players=2, seed=4)
    for piece in [p for p in base.program.pieces if base.position.loc[p.id] != 0][:6]:
        for start in (False, True):
            a, b = base.clone(), base.clone()
            a.position.face[piece.id] = b.position.face[piece.id] = start
            effects.flip_one(a.position, piece, up)
            effects.flip(b.position, [piece], up)
            assert a.position.face == b.position.face
            # the same events, field by field (dataclass equality)
            assert a.history[len(base.history):] == b.history[len(base.history):]


#: ``for c in cells(GRID) where ...`` reading ``at(c)``: the generated code reads
#: each cell's piece beside it (the grid's slots in order), holes and empty cells included.
GRID_WHERES = [
    "at(c) != none and at(c).n > 2",
    "at(c) == none",
    "at(c) != none and c.row < 3",
    "at(c) != none and at(c).face == up",
    "at(c).n > 3",                            # none.n for the empty cells
    "count([x for x in cells(board) if at(x) == at(c)]) == 1",
]


def generated_and_closures(src: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """``out`` (or the error) after playing ``src``'s setup and flow to its first
    decision: with generated code, then on the closures alone."""
    def run() -> tuple[str, str]:
        try:
            state = rulepack.loads(src).new_game(2, 0)
        except RulesetRuntimeError as exc:
            return ("error", str(exc).split(": ", 1)[-1])
        return ("value", repr(state.position.vars["out"]))
    generated = run()
    monkeypatch.setattr(codegen, "ENABLED", False)
    return generated, run()


@pytest.mark.parametrize("cond", GRID_WHERES)
def test_a_where_over_grid_cells_reads_each_cells_piece_as_the_closures_do(cond, monkeypatch):
    src = textwrap.dedent(f'''
        game t {{ players 2 }}
        component cube {{ called "{{n}}"  n: [1, 2, 3, 4, 5] }}
        zone board: grid 3 x 3 without [(2, 2), (1, 3)]
        zone pool: row
        var out = []
        setup {{ move cube to pool face up
                 move top of pool to cells(board)[4]
                 move top of pool to cells(board)[1]
                 move top of pool to cells(board)[6]
                 flip at(cells(board)[1]) down }}
        play {{
          for c in cells(board) where {cond} {{
            set out = out + [(c.row, c.col)]
          }}
        }}
    ''')

    generated, closures = generated_and_closures(src, monkeypatch)
    assert closures == generated


def _zone_attribute_ruleset(discs: bool, read: str) -> str:
    return textwrap.dedent('''
        game t { players 2 }
        component cube { called "cube {n}"  n: [1, 2, 3, 4, 5, 6] }
        DISCS
        zone pool: row
        zone bag: pile
        var total = none
        var ns = none
        setup {
          move cube where n > 2 to pool face up
          move cube where n <= 2 to bag face up
        }
        play {
          set total = sum(pool.n) + sum(bag.n)
          set ns = READ
        }
    ''').replace("DISCS", 'component disc { called "disc {m}"  m: [10, 20] }' if discs else "") \
        .replace("READ", read)


def test_a_zones_attribute_is_read_piece_by_piece_and_summed_directly():
    """``sum(ZONE.ATTR)`` where every piece has ATTR as a whole number: each piece's
    value read directly into a list, summed by Python's own ``sum``."""
    state = rulepack.loads(_zone_attribute_ruleset(False, "bag.n")).new_game(2, 0)
    assert state.position.vars["total"] == 1 + 2 + 3 + 4 + 5 + 6
    assert sorted(state.position.vars["ns"]) == [1, 2]
    source = instance_of(state.program).flow_source + "".join(g.source for g in instance_of(state.program).exprs.source.generated)
    assert "sum([" in source and "attrs['n'] for" in source


def test_an_attribute_some_pieces_lack_keeps_the_checking_path():
    """Where some piece of the game lacks the attribute, ``ZONE.ATTR`` is read by the
    checking function: the same values, and the same error for a piece without it."""
    state = rulepack.loads(_zone_attribute_ruleset(True, "bag.n")).new_game(2, 0)
    assert state.position.vars["total"] == 21 and sorted(state.position.vars["ns"]) == [1, 2]
    source = instance_of(state.program).flow_source + "".join(g.source for g in instance_of(state.program).exprs.source.generated)
    assert "attrs['n'] for" not in source
    with pytest.raises(RulesetRuntimeError, match="has no attribute 'n'"):
        game = rulepack.loads(_zone_attribute_ruleset(True, "bag.n").replace(
            "move cube where n <= 2 to bag face up",
            "move cube where n <= 2 to bag face up\n  move disc to bag face up"))
        game.new_game(2, 0)


def test_a_maximal_runs_cells_are_read_as_pieces_or_none():
    """In ``maximal run ... where owner == X`` each cell's content is a piece or
    none: read without a type test, the run's list counted with ``len`` and its
    ``ends`` a new list — the same runs as before, holes and empty cells included."""
    src = textwrap.dedent('''
        game t { players 2 }
        component cube { called "{n}"  n: [1, 2, 3, 4, 5] }
        zone board: grid 1 x 7 without [(1, 4)]
        var runs = none
        var sizes = none
        setup {
          move cube to board face up
        }
        play {
          for x in board where n <= 2 { claim x for players[0] }
          set runs = [maximal run through c along (0, 1) where owner == players[0] for c in cells(board)]
          set sizes = [count(maximal run through c along (0, 1) where owner == players[0]) + count(ends(maximal run through c along (0, 1) where owner == players[0], (0, 1))) for c in cells(board)]
        }
    ''')
    state = rulepack.loads(src).new_game(2, 0)
    # cubes 1..5 fill columns 1, 2, 3, 5, 6 (4 is a hole, 7 stays empty); 1 and 2 claimed
    cols = [[c.col + 1 for c in run] for run in state.position.vars["runs"]]
    assert cols == [[1, 2], [1, 2], [], [], [], []]
    assert state.position.vars["sizes"] == [3, 3, 0, 0, 0, 0]       # the run, and its end at column 3
    source = instance_of(state.program).flow_source + "".join(g.source for g in instance_of(state.program).exprs.source.generated)
    assert "is not None else None) == " in source


PARAMETER_KINDS = textwrap.dedent('''
    game t { players 2 }
    component cube { called "{n}"  n: [1, 2, 3] }
    zone board: grid 2 x 2
    zone pool: row
    var seen = []
    setup { move cube to pool face up }
    play {
      choose by players[0] {
        action "put {x} at {c}" for x in pool for c in empty(board) {
          move x to c
          set seen = seen + [x.n, at(c).n, c.row]
        }
      }
      choose by players[0] {
        action "look at {d}" for d in cells(board) {
          CHANGE
          set seen = seen + [at(d)]
        }
      }
    }
''')


def test_an_actions_parameters_drawn_from_cells_or_a_zone_are_read_as_such():
    """``for c in empty(board)``: the parameter is a cell in the action's body, read
    without a type test (``at(c)`` directly; ``x.n`` of a piece from a zone)."""
    game = rulepack.loads(PARAMETER_KINDS.replace("CHANGE", ""))
    state = game.new_game(2, 0)
    put = state.legal_actions()[0]                     # the first cube at the first cell
    state.apply(put)
    look = [a for a in state.legal_actions() if a.text.endswith("a2")][0]
    state.apply(look)
    assert state.position.vars["seen"] == [1, 1, 1, None]
    source = instance_of(state.program).flow_source
    assert "type(V['c']) is Cell" not in source and "V['x'].attrs['n']" in source
    assert "type(V['d']) is Cell" not in source


def test_a_parameter_the_body_sets_keeps_its_type_tests():
    """A parameter changed by ``set`` in its action may hold anything after: no kind."""
    game = rulepack.loads(PARAMETER_KINDS.replace("CHANGE", "set d = none"))
    state = game.new_game(2, 0)
    state.apply(state.legal_actions()[0])
    with pytest.raises(RulesetRuntimeError, match=r"at\(\) needs a cell, not none"):
        state.apply(state.legal_actions()[0])          # at(none): the checked path's error
    assert "type(V['d']) is Cell" in instance_of(state.program).flow_source


@pytest.mark.parametrize("cond,by_slot", [
    ("at(c) != none and at(c).face == down", True),
    ("at(c) != none and at(c).face == down and c.col >= 1", False),
])
def test_a_parameters_where_and_the_action_lookups_are_one_loop(cond, by_slot, monkeypatch):
    """``action ... for c in cells(board) where at(c) != none and at(c).face == down``:
    the where's loop builds the legal actions itself (no list of cells first), and
    after ``at(c) != none`` the cell's piece is read as a piece — the same legal
    actions as the closures give, step by step. A condition that reads only what
    lies on the cell runs over the grid's slots and finds each action by its slot;
    one that reads the cell itself finds it by the cell."""
    src = textwrap.dedent('''
        game t { players 2 }
        component cube { called "{n}"  n: [1, 2, 3, 4, 5] }
        zone board: grid 2 x 3 without [(2, 2)]
        setup { move cube to board face down }
        play {
          turns from players[0] until count(board where face == down) == 0 {
            choose {
              action "turn {c}" for c in cells(board) where COND {
                flip at(c) up
              }
            }
          }
        }
    ''').replace("COND", cond)
    def texts(game):
        state, seen = game.new_game(2, 0), []
        while not state.is_terminal():
            legal = state.legal_actions()
            assert all(a is b for a, b in zip(legal, state.clone().legal_actions()))
            seen.append([a.text for a in legal])
            state.apply(legal[-1])
        return seen
    game = rulepack.loads(src)
    generated = texts(game)
    source = instance_of(game.new_game(2, 0).program).flow_source
    a0 = source[source.index("def A0"):]
    fused = [line for line in a0.split("\n") if "out += [" in line or "return [" in line]
    assert fused and "S0 =" not in a0
    assert ".id] is False)" in fused[0] and "is not None else" not in fused[0]
    # (one alternative listed by slot: its list is returned as it is made)
    assert ("zip(T, " in fused[0] and "return [a_ " in fused[0]) == by_slot
    assert ("out += [get(" in fused[0]) != by_slot
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert texts(rulepack.loads(src)) == generated
    assert [len(x) for x in generated] == [5, 4, 3, 2, 1]      # (every column is >= 1)


FAMILY_READS = [
    "count(hand[p])", "sum(hand[p].n)", "[c.n for c in hand[p]]", "hand[p]",
    "count(hand[1])", "count(hand[p + 4])", "count(hand[none])",
    "count(tray[p])", "[count(hand[q]) for q in players]", "count(hand[after(p)])",
]


@pytest.mark.parametrize("expr", FAMILY_READS)
def test_a_seats_zone_of_a_per_player_family_is_read_as_the_closures_do(expr, monkeypatch):
    """``hand[p]`` with ``p`` a seat reads the state's zone list directly; any other
    index (a number, a word, none) goes through the check and fails as it did."""
    src = textwrap.dedent(f'''
        game t {{ players 2 }}
        component cube {{ called "{{n}}"  n: [1, 2, 3, 4, 5, 6] }}
        zone hand: row per player
        zone tray: grid 2 x 2 per player
        var out = none
        var p = none
        setup {{ move top 2 of cube to hand[1]
                 move top of cube to hand[0]
                 move top of cube to tray[1] }}
        play {{
          set p = 1
          set out = {expr}
        }}
    ''')

    generated, closures = generated_and_closures(src, monkeypatch)
    assert closures == generated
    if "+ 4" in expr or "none" in expr:
        assert generated[0] == "error" and "zone hand has no" in generated[1]
    else:
        assert generated[0] == "value", generated


def test_a_restored_game_refuses_a_player_that_is_no_seat():
    from rulepack.errors import RulepackError
    game = rulepack.load("multzo")
    data = game.new_game(3, seed=1).to_json()
    data["variables"]["first"] = {"player": 7}
    with pytest.raises(RulepackError, match="no seat 7"):
        game.state_from_json(data)


@pytest.mark.parametrize("expr", ["random(1..6)", "random(4..4)", "random(3..1)",
                                  "[random(1..3), random(0..9)]"])
def test_a_random_number_of_a_literal_range_is_drawn_as_the_closures_draw_it(expr, monkeypatch):
    """``random(A..B)`` with whole-number ends: the numbers are a constant of the
    generated code; the draws, the chance events and an empty range's error are
    the closures'."""
    src = textwrap.dedent(f'''
        game t {{ players 2 }}
        var out = none
        play {{ set out = {expr} }}
    ''')
    generated, closures = generated_and_closures(src, monkeypatch)
    assert closures == generated
    if expr == "random(3..1)":
        assert generated[0] == "error" and generated[1].endswith("random() of an empty list")
    else:
        monkeypatch.setattr(codegen, "ENABLED", True)
        source = instance_of(rulepack.loads(src).new_game(2, 0).program).flow_source
        assert "_make_range" not in source and "_random_element(st, K" in source


def test_a_patterns_own_name_is_the_compiled_pattern_itself():
    src = textwrap.dedent('''
        game t { players 2 }
        component cube { called "{n}"  n: [1, 2, 3] }
        zone pool: row
        pattern trio: size 3, distinct n
        var out = none
        setup { move cube to pool face up }
        play { set out = [matches(trio, pool), count(best(trio, pool))] }
    ''')
    state = rulepack.loads(src).new_game(2, 0)
    assert state.position.vars["out"] == [True, 3]
    assert "_pattern(" not in instance_of(state.program).flow_source


@pytest.mark.parametrize("inner,hoisted", [
    ("for y in [1, 2, 3] where y != 2", True),          # reads no outer name: made once
    ("for y in [x, x + 1]", False),                      # reads x: made per x
    ("for y in [10 // count(pool) ]", True),             # fails if made: pool is empty...
])
def test_a_parameter_list_that_reads_no_outer_parameter_is_made_once(inner, hoisted, monkeypatch):
    """``action "..." for x in A for y in B``: where B reads no name A binds, the
    legal actions make B once, when the first x needs it (so an empty A never makes
    it, as before: no error from B); the same actions as the closures list."""
    outer = "[]" if "pool" in inner else "[1, 2]"
    src = textwrap.dedent(f'''
        game t {{ players 2 }}
        component cube {{ called "{{n}}"  n: [1, 2] }}
        zone pool: row
        var out = none
        play {{
          turns from players[0] until out != none {{
            choose {{
              action "pick {{x}} {{y}}" for x in {outer} {inner} {{ set out = [x, y] }}
              action "stop" {{ set out = 0 }}
            }}
          }}
        }}
    ''')
    game = rulepack.loads(src)
    state = game.new_game(2, 0)
    texts = [a.text for a in state.legal_actions()]
    source = instance_of(state.program).flow_source
    assert ("Y1 = None" in source) == hoisted
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert [a.text for a in rulepack.loads(src).new_game(2, 0).legal_actions()] == texts
    if outer == "[]":
        assert texts == ["stop"]                     # the empty outer list made no y
    else:
        assert len(texts) == 5                       # two x, two y each, and "stop"


def test_a_list_made_once_still_costs_its_budget_every_time(monkeypatch):
    """The inner list of ``for a in A for b in B`` made once is charged to the
    budget at every use: a decision that would list too much fails as before."""
    src = textwrap.dedent('''
        game t { players 2 }
        var x = 0
        play {
          turns from players[0] until x > 3 {
            choose {
              action "x {a} {b}" for a in 1..600 for b in 1..2000 where b > 1999 {
                set x = x + 1
              }
            }
          }
        }
    ''')
    def first_legal():
        try:
            return len(rulepack.loads(src).new_game(2, 0).legal_actions())
        except RulesetRuntimeError as exc:
            return str(exc).split(": ", 1)[-1]
    generated = first_legal()
    assert "over their budget" in str(generated)
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert first_legal() == generated


def test_a_parameter_list_whose_helper_reads_an_outer_parameter_is_made_per_value(monkeypatch):
    """The inner list of ``for q in players for c in maximal run ... where owner == q``
    reads ``q`` inside its helper function, not in the call: it is made for each q."""
    src = textwrap.dedent('''
        game t { players 2 }
        component cube { called "{n}"  n: [1, 2, 3, 4] }
        zone board: grid 1 x 4
        var out = none
        setup {
          move cube to board face up
          claim at(cells(board)[1]) for players[0]
          claim at(cells(board)[2]) for players[0]
          claim at(cells(board)[3]) for players[1]
        }
        play {
          turns from players[0] until out != none {
            choose {
              action "pick {q} {c}" for q in players for c in (maximal run through cells(board)[1] along (0, 1) where owner == q) {
                set out = c
              }
            }
          }
        }
    ''')
    state = rulepack.loads(src).new_game(2, 0)
    texts = [a.text for a in state.legal_actions()]
    assert "Y1 = None" not in instance_of(state.program).flow_source
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert [a.text for a in rulepack.loads(src).new_game(2, 0).legal_actions()] == texts
    assert len(texts) == 2                      # the first player's run of two cells


@pytest.mark.parametrize("cubes,rows", [(6, 2), (60, 1)])
def test_a_grids_count_is_its_pieces_count_either_way(cubes, rows, monkeypatch):
    """count(GRID): by the pieces located there (few pieces for the cells) or by
    the grid's empty cells (many): the closures' count, and 'in' a new list."""
    src = textwrap.dedent(f'''
        game t {{ players 2 }}
        component cube {{ called "{{n}}"  n: 1..{cubes} }}
        zone board: grid {rows} x 3
        zone pool: row
        var out = none
        setup {{ move cube to pool face up
                 move top of pool to cells(board)[0]
                 move top of pool to cells(board)[2] }}
        play {{ set out = [count(board), count(pool), 2 in [x.n for x in pool], {cubes} in [x.n for x in pool]] }}
    ''')
    generated, closures = generated_and_closures(src, monkeypatch)
    assert closures == generated
    assert generated[1].startswith(f"[2, {cubes - 2}, ")
    monkeypatch.setattr(codegen, "ENABLED", True)
    source = instance_of(rulepack.loads(src).new_game(2, 0).program).flow_source
    assert ("st.loc.count(" in source) == (cubes <= 4 * rows * 3)


LOOPS = textwrap.dedent('''
    game t { players 2 }
    var total = 0
    var rounds_seen = []
    play {
      turns from players[0] until total >= 500 {
        for i in 1..20 {
          set total = total + i
          if i % 3 == 0 {
            set rounds_seen = rounds_seen + [i]
          } else {
            say "{i} is not a multiple of three"
          }
        }
        choose { action "go on" { } }
      }
    }
''')


def test_a_loop_with_no_decision_goes_round_inside_its_block(monkeypatch):
    """A ``for`` whose body has no decision jumps back to its own block's start:
    the generated block goes round itself (``while True``), at most
    ``SELF_LOOP_ROUNDS`` times before it returns to ``State._run``, and gives the
    same game as the closures, past that many rounds (20 here). The short block
    of the ``else`` branch, which jumps back too, is taken into the loop."""
    def play(game):
        state = game.new_game(2, 0)
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        return state.position.vars["total"], state.position.vars["rounds_seen"], [str(e.text) for e in state.history]
    game = rulepack.loads(LOOPS)
    generated = play(game)
    assert generated[0] == 630 and generated[1] == [3, 6, 9, 12, 15, 18] * 3
    source = instance_of(game.new_game(2, 0).program).flow_source
    assert "while True:" in source and "if R_ < 8:" in source
    # the else branch (a short block that jumps back) is taken into the loop's block
    looping = next(b for b in source.split("\n\n\n") if "while True:" in b)
    assert "st.history.append(" in looping          # the else branch's say
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert play(rulepack.loads(LOOPS)) == generated


def test_a_loop_that_never_reaches_a_decision_is_still_stopped():
    """A ``while`` that never stops, with no decision, in one generated block that goes round
    itself: it returns to ``State._run`` every few rounds, which counts its steps,
    so the runaway is reported (located at the loop), not run for ever."""
    src = textwrap.dedent('''
        game t { players 2 }
        var n = 0
        play {
          while n >= 0 {
            set n = n + 1
          }
          turns from players[0] until n > 0 {
            choose { action "pass" { } }
          }
        }
    ''')
    game = rulepack.loads(src)
    inst = game.instance(2)
    inst.prepare()
    assert "while True:" in inst.flow_source
    with pytest.raises(RulesetRuntimeError) as err:
        game.new_game(2, 0)
    assert "without a decision" in str(err.value)
    assert err.value.diagnostics[0].location.line == 5


@pytest.mark.parametrize("name", ["multzo", "multiplay", "packkub", "pig"])
def test_the_generated_score_of_a_player_is_the_score_on_the_closures(name):
    """``score(p)`` runs as generated code of ``(state, p)`` (``Instance.score_of``):
    the same scores as the score's expression run with ``p`` set as a variable,
    at every step of a game, and the variables as they were."""
    import random as _random
    game = rulepack.load(name)
    state = game.new_game(game.min_players, 3)
    assert instance_of(state.program).score_of is not None
    rng = _random.Random(3)
    for _ in range(40):
        if state.is_terminal():
            break
        before = dict(state.position.vars)
        for seat in range(state.program.num_players):
            by_variable = with_player(instance_of(state.program).score_fn,
                                      instance_of(state.program).score_param)
            assert score(state.position, seat) == by_variable(state.position, Player(seat))
        assert state.position.vars == before
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def test_an_error_in_the_generated_score_is_located_at_the_score():
    """A score that cannot be computed fails as before: located at the ``score``
    declaration, whoever asks for it."""
    src = textwrap.dedent('''
        game t { players 2 }
        var bonus = none
        score(p) = 3 + bonus
        play {
          turns from players[0] until score(current) > 0 {
            choose { action "pass" { } }
          }
        }
    ''')
    game = rulepack.loads(src)
    state = game.new_game(2, 0)
    with pytest.raises(RulesetRuntimeError) as err:
        state.apply("pass")            # (the end of the turn asks for the score)
    assert "the score cannot be computed" in str(err.value)
    assert err.value.diagnostics[0].location.line == 4
    assert game.instance(2).score_of is not None


def _both(src: str, run: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """``run(game)`` on generated code and on the closures alone: (outcome, outcome),
    an outcome being the value or the error's text."""
    def outcome(game: Any) -> Any:
        try:
            return run(game)
        except Exception as exc:  # noqa: BLE001 - the error is the outcome compared
            return f"{type(exc).__name__}: {exc}"
    generated = outcome(rulepack.loads(src))
    monkeypatch.setattr(codegen, "ENABLED", False)
    return generated, outcome(rulepack.loads(src))


def test_an_argmax_whose_keys_cannot_be_compared_fails_as_on_the_closures(monkeypatch):
    """In the score (generated outside the flow's blocks): a located rule error, not
    a crash of the generated code."""
    src = textwrap.dedent('''
        game t { players 2 }
        score(p) = count(argmax q in [1, "a"] by q)
        play { turns from players[0] until true { choose { action "go" { } } } }
    ''')
    generated, closures = _both(src, lambda g: score(g.new_game(2, 0).position, 0), monkeypatch)
    assert generated == closures
    assert "argmax cannot compare" in generated and "<string>:3" in generated


def test_moving_nothing_into_an_arranged_zone_keeps_its_groups(monkeypatch):
    """``move top 2 of deck to table`` with the deck empty moves nothing: the groups
    of ``table`` stay as they were arranged."""
    src = textwrap.dedent('''
        game t { players 2 }
        component card { n: 1..3 }
        zone deck: stack
        zone table: groups
        pattern any3: size 1..3, same n
        setup {
          move card to table
          arrange table into any3
          move top 2 of deck to table
        }
        play { turns from players[0] until true { choose { action "a" { } } } }
    ''')
    generated, closures = _both(src, lambda g: g.new_game(2, 0).position.groupings, monkeypatch)
    assert generated == closures and list(generated.values()) == [(1, 1, 1)]


@pytest.mark.parametrize("extra", ["players", "nums"])
def test_joining_a_constant_list_keeps_the_size_limit(extra, monkeypatch):
    """A list joined to a constant one (``players``, a ``const``) past the
    limit of a million elements is refused, as on the closures."""
    src = textwrap.dedent('''
        game t { players 2 }
        const nums = [1, 2]
        var n = 0
        setup { set n = count([i for i in 1..999999] + EXTRA) }
        play { turns from players[0] until true { choose { action "go" { } } } }
    ''').replace("EXTRA", extra)
    generated, closures = _both(src, lambda g: g.new_game(2, 0).position.vars["n"], monkeypatch)
    assert generated == closures and "more than the limit" in generated


def test_the_score_of_a_ruleset_without_one_is_refused_as_before():
    game = rulepack.loads(textwrap.dedent('''
        game t { players 2 }
        play { turns from players[0] until true { choose { action "go" { } } } }
    '''))
    from rulepack.engine.runtime import RuleValueError
    with pytest.raises(RuleValueError, match="declares no score"):
        score(game.new_game(2, 0).position, 0)


def test_a_score_over_a_grids_cells_runs_as_on_the_closures(monkeypatch):
    """A score generated outside the flow's blocks walks a grid's cells (``zip``)."""
    src = textwrap.dedent('''
        game t { players 2 }
        component cube { n: 1..3 }
        zone board: grid 2 x 3
        score(p) = count(cells(board) where row == 1)
        setup { move cube to board }
        play { turns from players[0] until true { choose { action "go" { } } } }
    ''')
    generated, closures = _both(src, lambda g: score(g.new_game(2, 0).position, 0), monkeypatch)
    assert generated == closures == 3


@pytest.mark.parametrize("values", [
    "[1, 2, 3]",                       # made at the first listing, looked up after
    "[1, [2, 3], 4]",                  # a list cannot be a key: made each time
    "[[2, 3], 1]",
    "if count(log) > 1 then [1, 2, 5, 6] else [1, 2]",   # new values at a later listing
    "if count(log) > 1 then [1, [7], 2] else [1, 2]",
])
def test_a_parameters_actions_are_looked_up_or_made_as_on_the_closures(values, monkeypatch):
    """``for x in LIST``: the actions listed before are looked up all at once (a
    C loop), a new value or one that cannot be a key makes the list be built
    again, with nothing of the partial lookup left in it."""
    src = textwrap.dedent(f'''
        game t {{ players 2 }}
        var log = []
        play {{
          turns from players[0] until count(log) == 4 {{
            choose {{
              action "take {{x}}" for x in {values} {{ set log = log + [x] }}
              action "pass" {{ set log = log + [0] }}
            }}
          }}
        }}
    ''')

    def run(game: Any) -> Any:
        state = game.new_game(2, 0)
        listed = []
        while not state.is_terminal():
            legal = state.legal_actions()
            listed.append([a.text for a in legal])
            state.apply(legal[len(listed) % len(legal)])
        return listed, state.position.vars["log"]
    generated, closures = _both(src, run, monkeypatch)
    assert generated == closures
    assert len(generated[0]) == 4 and generated[0][0][-1] == "pass"


@pytest.mark.parametrize("expr", [
    "top 2 of pile", "bottom 2 of pile", "top 9 of pile", "bottom 1 of pile",
    "top of pile", "bottom of pile", "top of empty", "top 3 of empty",
    "top n of pile", "bottom n of pile", "top n of heaps[k]", "bottom n of heaps[k]",
    "top of heaps[k]", "top 2 of heaps[k]", "top n of heaps[blue]", "bottom of heaps[blue]",
])
@pytest.mark.parametrize("n", ["0", "2", "7", "-1", "true", "\"x\"", "none"])
def test_top_and_bottom_of_a_zones_list_are_read_as_on_the_closures(expr, n, monkeypatch):
    """``top N of ZONE`` of a named zone or a zone of a family, N a literal or a
    variable (a whole number or not): a slice of the zone's list, or the checked
    path's value or error."""
    src = textwrap.dedent(f'''
        game t {{ players 2 }}
        component cube {{ called "{{colour}} {{c}}"  colour: [red, blue]  c: [1, 2, 3] }}
        zone pile: stack
        zone empty: stack
        zone heaps: stack per colour
        var out = none
        var n = {n}
        var k = red
        setup {{
          move cube where c <= 2 to pile
          for x in [red, blue] {{ move cube where c > 2 and colour == x to heaps[x] }}
        }}
        play {{ set out = {expr}  turns from players[0] until true {{ choose {{ action "go" {{ }} }} }} }}
    ''')
    generated, closures = generated_and_closures(src, monkeypatch)
    assert generated == closures


@pytest.mark.parametrize("name", bundled_rulesets())
def test_every_instruction_runs_as_generated_code(name):
    """A game runs on generated code only: every instruction has a generated step
    (``S<pc>``, the flow an instruction at a time), every block start its block
    (``B<pc>``), every decision its generated legal actions; the compiler's
    closures are the reference backend (``RULEPACK_CODEGEN=0``) and run nothing."""
    game = rulepack.load(name)
    program = game.instance(game.min_players, {}).program()
    assert [f.__name__ for f in program.steps] == [f"S{pc}" for pc in range(len(program.steps))]
    assert all(f.__name__ in (f"B{pc}", f"S{pc}") for pc, f in enumerate(program.code))
    assert all(c.generate is not None for c in program.choices)


@pytest.mark.parametrize("name", bundled_rulesets())
def test_no_expression_of_a_bundled_ruleset_is_left_to_the_closures(name, monkeypatch):
    """The generator handles every construct the bundled rulesets use, at every
    player count: no root expression keeps its closure (the fallback of
    :meth:`codegen.SourceGen.function` for a construct it does not handle, which
    would run a construct a second way)."""
    left: list[str] = []
    real = codegen.Unsupported.__init__

    def note(self: Exception, *args: object) -> None:
        left.append(repr(args))
        real(self, *args)
    monkeypatch.setattr(codegen.Unsupported, "__init__", note)
    game = rulepack.load(name)
    for players in range(game.min_players, game.max_players + 1):
        program = game.instance(players, {}).program()
        assert program.steps
    assert left == []


def test_the_steps_are_compiled_when_first_run():
    """The flow an instruction at a time (``S<pc>``: the engine's probe of an
    endless loop) is compiled on its first call, not with the program (a game
    seldom runs it); then every step runs its own generated code, and the first
    instruction does what the game's start does."""
    from rulepack.engine.position import Position
    game = rulepack.load("pig")
    program = game.instance(2, {}).program()
    game.new_game(2, seed=4)
    assert {f.__code__.co_name for f in program.steps} == {"_lazy_step"}
    by_step, again = Position.empty(program, 4, 100), Position.empty(program, 4, 100)
    assert program.steps[0](by_step) == 1
    assert [f.__code__.co_name for f in program.steps] == \
        [f"S{pc}" for pc in range(len(program.steps))]
    assert program.steps[1](by_step) == 2          # the compiled step, called directly
    pc = 0
    while pc < 2:
        pc = program.steps[pc](again)
    assert by_step.vars == again.vars and by_step.zones == again.zones


def test_a_literal_compared_with_none_is_folded_without_a_python_warning():
    """``"5x5" != none`` (fuzzing found it): Python warns at ``is`` with a literal
    on standard error; the comparison of two literals is known when compiling."""
    import warnings
    text = ('game g { players 2 }\nvar x = 0\nplay {\n  if "5x5" != none { set x = 1 }\n'
            '  if none == "4x6" { set x = x + 10 }\n  if none == none { set x = x + 100 }\n'
            '  turns from 0 { choose { action "go" { end game } } }\n}\n')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        state = rulepack.loads(text).new_game(2, seed=0)
    assert [w for w in caught if issubclass(w.category, SyntaxWarning)] == []
    assert state.position.vars["x"] == 101


def test_an_operator_whose_sides_the_type_check_proves_numbers_has_no_test(monkeypatch):
    """Issue 34, item 4: ``total + pips[2]`` (a variable only ever given numbers,
    a map of numbers) is computed as it is, without a test of its sides; where a
    side's kind is not known (a key of a map), the test and its located error stay.
    Closures and generated code give the same."""
    src = textwrap.dedent('''
        game t { players 2 }
        const pips = {1: 1, 2: 2}
        var total = 0
        var out = none
        play {
          set total = total + pips[2]
          set out = [total - 1, total < 3, first([k for k in {total: 0}]) + 1]
          set out = out + [first([k for k in {"x": 0}]) + 1]
        }
    ''')
    program = rulepack.loads(src.replace('{"x": 0}', "{2: 0}")).new_game(2, 0).program
    lines = instance_of(program).flow_source.split("\n")
    [total] = [line for line in lines if "V['total'] = " in line]
    assert "(V['total'] + " in total and "_plus" not in total and "type(" not in \
        total.split("+", 1)[0]
    assert any("(V['total'] - 1)" in line and "(V['total'] < 3)" in line for line in lines)
    assert any("_plus(st, " in line for line in lines)      # the key of a map: tested
    generated, closures = generated_and_closures(src, monkeypatch)
    assert generated == closures and generated[0] == "error" and \
        generated[1].endswith("cannot add 'x' and 1")


def test_a_program_no_longer_used_is_freed():
    """The compiler's map from each program to its instance (instance_of) holds
    both weakly: a language server compiling on every keystroke, or a fuzzer, keeps
    no program it no longer uses (the map once kept them all: 55 KB a ruleset)."""
    import gc
    import weakref

    src = "game t { players 2 }\nvar n = 0\nplay { set n = n + 1 }\n"
    state = rulepack.loads(src).new_game(2, 0)
    program = weakref.ref(state.program)
    assert instance_of(state.program).num_players == 2     # alive while it is used
    del state
    gc.collect()
    assert program() is None
