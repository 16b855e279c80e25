"""Each construct of the rules language, tested on its own with tiny inline rulesets.

Every test writes a few lines of ``.rules`` text, compiles it with
``rulepack.loads`` and checks what the construct does: the pieces it makes, where
pieces end up, what variables hold once the flow has run, which actions are legal,
what the views show, which errors are raised and where.

Most rulesets have no decision, so ``new_game`` runs the whole flow and the state
is terminal; the tests then read ``state.position.vars`` and ``state.position.zones``.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

import pytest

import rulepack
from rulepack.errors import OptionError, RulepackError, RulesetRuntimeError, SemanticError
from rulepack.engine.state import TERMINAL
from rulepack.engine.queries import visible


# ---------------------------------------------------------------------- helpers

def game(src: str):
    return rulepack.loads(textwrap.dedent(src))


def run(src: str, players: int = 2, seed: int = 0, options: dict | None = None):
    return game(src).new_game(players, seed, options)


def zone(st, label: str) -> list:
    """The content of the zone with this label (``"hand[player 1]"``)."""
    labels = [z.label for z in st.program.zones]
    assert label in labels, f"no zone {label!r} in {labels}"
    return st.position.zones[labels.index(label)]


def info(st, label: str):
    return next(z for z in st.program.zones if z.label == label)


def names(pieces) -> list[str]:
    return [p.name for p in pieces]


def attr(pieces, a: str) -> list:
    return [p.attrs[a] for p in pieces]


def evaluate(exprs: list[str], decls: str = "", players: int = 2, seed: int = 0,
             game_decl: str | None = None) -> list:
    """Evaluate expressions in the play block of a tiny ruleset; their values, in order."""
    head = game_decl or f"game t {{ players 2..5 }}"
    body = ",\n      ".join(exprs)
    src = f"{head}\n{decls}\nvar out = none\nplay {{\n  set out = [\n      {body}\n  ]\n}}\n"
    st = rulepack.loads(src).new_game(players, seed)
    assert st.is_terminal()
    return st.position.vars["out"]


def line_of(src: str, marker: str) -> int:
    """1-based line of the first line of ``src`` containing ``marker``."""
    for i, line in enumerate(src.splitlines(), 1):
        if marker in line:
            return i
    raise AssertionError(f"marker {marker!r} not in source")


def semantic_error_line(src: str) -> int | None:
    with pytest.raises(SemanticError) as exc:
        rulepack.loads(src)
    diags = exc.value.diagnostics
    assert diags, "a SemanticError without diagnostics"
    return diags[0].location.line


CARDS = """
game g { players 2..4 }
component card { n: 1..5 }
"""


# ====================================================================== components

COMPONENTS = """
game g { players 2..3 }
component cube {
  called "{colour} cube {n}"
  colour: red, blue
  n: 1..3
  copies 2
  double = n * 2
}
component token {
  shade: dark, light
}
attribute big of cube = n >= 2
attribute label = kind
"""


def test_component_attributes_are_a_cartesian_product():
    st = run(COMPONENTS)
    cubes = [p for p in st.program.pieces if p.kind == "cube"]
    combos = sorted({(p.attrs["colour"], p.attrs["n"]) for p in cubes})
    assert combos == sorted((c, n) for c in ("red", "blue") for n in (1, 2, 3))


def test_component_copies():
    st = run(COMPONENTS)
    cubes = [p for p in st.program.pieces if p.kind == "cube"]
    assert len(cubes) == 12                      # 2 colours x 3 numbers x 2 copies
    for c in ("red", "blue"):
        for n in (1, 2, 3):
            assert sum(1 for p in cubes if p.attrs["colour"] == c and p.attrs["n"] == n) == 2
    tokens = [p for p in st.program.pieces if p.kind == "token"]
    assert len(tokens) == 2                      # no copies: one of each


def test_copies_may_depend_on_attributes_and_players():
    src = """
    game g { players 2..4 }
    component chip { n: 1..3  copies if n == 1 then 3 else 1 }
    component set_piece { m: 1..2  copies count(players) }
    """
    for players in (2, 3, 4):
        st = run(src, players)
        chips = [p for p in st.program.pieces if p.kind == "chip"]
        assert sorted(attr(chips, "n")) == [1, 1, 1, 2, 3]
        sets = [p for p in st.program.pieces if p.kind == "set_piece"]
        assert len(sets) == 2 * players


def test_piece_ids_are_their_index():
    st = run(COMPONENTS)
    assert [p.id for p in st.program.pieces] == list(range(len(st.program.pieces)))


def test_called_names_pieces():
    st = run(COMPONENTS)
    cube_names = {p.name for p in st.program.pieces if p.kind == "cube"}
    assert cube_names == {f"{c} cube {n}" for c in ("red", "blue") for n in (1, 2, 3)}


def test_without_called_the_name_is_kind_and_values():
    st = run(COMPONENTS)
    assert {p.name for p in st.program.pieces if p.kind == "token"} == {"token dark", "token light"}


def test_derived_attribute_in_component():
    st = run(COMPONENTS)
    for p in st.program.pieces:
        if p.kind == "cube":
            assert p.attrs["double"] == 2 * p.attrs["n"]


def test_attribute_of_kind_declaration():
    st = run(COMPONENTS)
    for p in st.program.pieces:
        if p.kind == "cube":
            assert p.attrs["big"] is (p.attrs["n"] >= 2)
        else:
            assert "big" not in p.attrs


def test_attribute_without_of_applies_to_every_kind():
    st = run(COMPONENTS)
    for p in st.program.pieces:
        assert p.attrs["label"] == p.kind


def test_derived_attributes_usable_in_expressions():
    out = evaluate(["sum(cube.double)", "count(cube where big)",
                    "[c.name for c in cube if c.double == 6 and c.colour == red]"],
                   decls=COMPONENTS.split("\n", 2)[2])
    assert out == [2 * 2 * (2 + 4 + 6), 8, ["red cube 3", "red cube 3"]]


# ====================================================================== piecepack

def test_use_piecepack_imports_all_kinds():
    st = run("game g { players 2 }\nuse piecepack\n")
    kinds = {}
    for p in st.program.pieces:
        kinds[p.kind] = kinds.get(p.kind, 0) + 1
    assert kinds == {"tile": 24, "coin": 24, "die": 4, "pawn": 4}


def test_use_piecepack_with_a_selection_of_kinds():
    st = run("game g { players 2 }\nuse piecepack (tile)\n")
    assert {p.kind for p in st.program.pieces} == {"tile"}
    assert len(st.program.pieces) == 24
    assert {(p.attrs["suit"], p.attrs["rank"]) for p in st.program.pieces} == {
        (s, r) for s in ("suns", "moons", "crowns", "arms")
        for r in ("null", "ace", 2, 3, 4, 5)}
    assert "2 of suns" in names(st.program.pieces)


def test_kinds_left_out_of_use_are_unknown():
    src = "game g { players 2 }\nuse piecepack (tile)\nvar x = 0\nplay {\n  set x = count(coin)\n}\n"
    assert semantic_error_line(src) == 5


def test_use_of_an_unknown_library_component_is_an_error():
    with pytest.raises(RulepackError):
        rulepack.loads("game g { players 2 }\nuse piecepack (tile, meeple)\n")


RANKS_SORTED = ["(tile where suit == suns by rank).rank"]


def test_piecepack_default_rank_order():
    out = evaluate(RANKS_SORTED, decls="use piecepack (tile)")
    assert out == [["null", "ace", 2, 3, 4, 5]]


def test_order_redeclaration_changes_sorting():
    out = evaluate(RANKS_SORTED + ["(tile where suit == suns by rank descending).rank"],
                   decls="use piecepack (tile)\norder rank: null, 2, 3, 4, 5, ace")
    assert out == [["null", 2, 3, 4, 5, "ace"], ["ace", 5, 4, 3, 2, "null"]]


def test_order_redeclaration_changes_consecutive():
    def runs(order: str) -> list:
        decls = f"use piecepack (tile)\n{order}\npattern run: size 3, consecutive rank"
        groups = {
            "null-ace-2": "null, ace, 2",
            "4-5-ace": "4, 5, ace",
            "null-2-3": "null, 2, 3",
        }
        return evaluate([f"matches(run, tile where suit == suns and rank in [{g}])"
                         for g in groups.values()], decls=decls)
    assert runs("") == [True, False, False]
    assert runs("order rank: null, 2, 3, 4, 5, ace") == [False, True, True]


def test_order_may_leave_out_no_value():
    with pytest.raises(SemanticError):
        rulepack.loads("game g { players 2 }\nuse piecepack (tile)\norder rank: null, 2, 3\n")


def test_piecepack_attribute_added_by_ruleset():
    out = evaluate(["sum((tile where suit == moons).value)"],
                   decls="use piecepack (tile)\n"
                         "attribute value of tile = {null: 0, ace: 1, 2: 2, 3: 3, 4: 4, 5: 5}[rank]")
    assert out == [15]


# ====================================================================== options

OPTIONS = """
game g { players 2 }
option rounds_n: 1..5 = 3 "how many rounds"
option blind: bool = false
option shape: one of square, line = square
var got = none
play {
  set got = [rounds_n, blind, shape]
}
"""


def test_option_defaults():
    g = game(OPTIONS)
    assert g.default_options() == {"rounds_n": 3, "blind": False, "shape": "square"}
    assert run(OPTIONS).position.vars["got"] == [3, False, "square"]


def test_options_given():
    st = run(OPTIONS, options={"rounds_n": 5, "blind": True, "shape": "line"})
    assert st.position.vars["got"] == [5, True, "line"]


def test_options_given_as_strings_are_converted():
    st = run(OPTIONS, options={"rounds_n": "1", "blind": "yes", "shape": "line"})
    assert st.position.vars["got"] == [1, True, "line"]


@pytest.mark.parametrize("bad", [
    {"rounds_n": 0}, {"rounds_n": 6}, {"rounds_n": "many"}, {"rounds_n": 2.5},
    {"rounds_n": True}, {"blind": "maybe"}, {"shape": "circle"}, {"nosuch": 1},
])
def test_bad_option_values(bad):
    with pytest.raises(OptionError):
        run(OPTIONS, options=bad)


def test_bad_player_count_is_an_option_error():
    with pytest.raises(OptionError):
        run(OPTIONS, players=3)
    with pytest.raises(OptionError):
        run(OPTIONS, players=1)


def test_option_used_in_flow():
    src = """
    game g { players 2 }
    option n: 1..5 = 2
    var log = []
    play { rounds n times { set log = log + [round] } }
    """
    assert run(src).position.vars["log"] == [1, 2]
    assert run(src, options={"n": 4}).position.vars["log"] == [1, 2, 3, 4]


def test_one_of_option_values_can_be_compared_in_rules():
    """``option shape: one of square, line`` must let the rules say ``shape == line``."""
    src = """
    game g { players 2 }
    option shape: one of square, line = square
    var r = 0
    play {
      if shape == line { set r = 1 } else { set r = 2 }
    }
    """
    assert run(src, options={"shape": "line"}).position.vars["r"] == 1
    assert run(src).position.vars["r"] == 2


def test_option_default_outside_its_range_is_rejected():
    with pytest.raises((SemanticError, OptionError)):
        run("game g { players 2 }\noption n: 1..5 = 9\n")


# ====================================================================== zones

def test_stack_top_and_bottom():
    out = evaluate(["(top of s).n", "(bottom of s).n", "(top 2 of s).n", "(bottom 2 of s).n",
                    "(top 0 of s)"],
                   decls=CARDS.split("\n", 2)[2] + "zone s: stack\nsetup { move card to s }")
    assert out == [5, 1, [5, 4], [1, 2], []]


def test_move_at_bottom_of_a_stack():
    st = run(CARDS + """
    zone s: stack
    play {
      move card where n == 1 to s
      move card where n == 2 to s
      move card where n == 3 to s at bottom
    }
    """)
    assert attr(zone(st, "s"), "n") == [3, 1, 2]      # bottom first


def test_move_top_of_a_stack():
    st = run(CARDS + """
    zone s: stack
    zone t: stack
    play {
      move card to s
      move top of s to t
      move top 2 of s to t
    }
    """)
    assert attr(zone(st, "s"), "n") == [1, 2]
    assert attr(zone(st, "t"), "n") == [5, 4, 3]      # dealt one by one: 4 then 3 on top


def test_top_of_an_empty_stack_is_none():
    out = evaluate(["top of s", "count(s)"], decls="zone s: stack")
    assert out == [None, 0]


def test_row_keeps_the_order_of_arrival():
    st = run(CARDS + """
    zone r: row
    play {
      move card where n == 4 to r
      move card where n == 2 to r
      move card where n == 5 to r
    }
    """)
    assert attr(zone(st, "r"), "n") == [4, 2, 5]


def test_pile_keeps_piece_order():
    st = run(CARDS + """
    zone p: pile
    play {
      move card where n == 4 to p
      move card where n == 2 to p
      move card where n == 5 to p
    }
    """)
    assert attr(zone(st, "p"), "n") == [2, 4, 5]


def test_pile_keeps_piece_order_and_cannot_be_shuffled():
    """A pile is unordered: it is kept in piece order (views rely on it), so
    shuffling one is a located error rather than a silent break of that order."""
    st = run(CARDS + """
    zone p: pile
    play {
      move card to p
      move card where n == 1 to box
      move card where n == 1 to p
    }
    """)
    pieces = zone(st, "p")
    assert [p.id for p in pieces] == sorted(p.id for p in pieces)
    with pytest.raises(RulesetRuntimeError) as info:
        run(CARDS + """
    zone p: pile
    play {
      move card to p
      shuffle p
    }
    """)
    assert info.value.diagnostics[0].location.line is not None
    assert "pile" in info.value.diagnostics[0].message


GRID = """
game g { players 2 }
component cube { n: 1..24 }
zone board: grid 5 x 5 without [(3, 3)]
var ncells = 0
var labels = []
var rows = []
var free = 0
var centre = none
play {
  set ncells = count(cells(board))
  set labels = [c.row * 10 + c.col for c in cells(board)]
  move cube to board face up
  set free = count(empty(board))
  set centre = [at(c).n for c in cells(board) if c.row == 3 and c.col == 4]
}
"""


def test_grid_with_holes():
    st = run(GRID)
    assert st.position.vars["ncells"] == 24
    expected = [r * 10 + c for r in range(1, 6) for c in range(1, 6) if (r, c) != (3, 3)]
    assert st.position.vars["labels"] == expected
    assert 33 not in st.position.vars["labels"]
    assert st.position.vars["free"] == 0
    # filled row-major, skipping the hole: cell (3, 4) is the 13th cell
    assert st.position.vars["centre"] == [13]


def test_grid_view_lists_cells_without_the_hole():
    st = run(GRID)
    v = st.view(0)["zones"]["board"]
    assert (v["rows"], v["cols"]) == (5, 5)
    cells = [c["cell"] for c in v["cells"]]
    assert len(cells) == 24 and "c3" not in cells and cells[0] == "a1" and cells[-1] == "e5"


def test_grid_full_is_a_runtime_error():
    src = """
    game g { players 2 }
    component cube { n: 1..5 }
    zone board: grid 2 x 2
    play { move cube to board }
    """
    with pytest.raises(RulepackError):
        run(src)


def test_move_to_a_grid_cell_and_piece_cell():
    st = run("""
    game g { players 2 }
    component cube { n: 1..2 }
    zone board: grid 3 x 3 without (2, 2)
    var where_is = none
    play {
      move cube where n == 2 to cells(board)[4]
      set where_is = [(first(cube where n == 2).cell).row, (first(cube where n == 2).cell).col]
    }
    """)
    assert st.position.vars["where_is"] == [2, 3]        # cells a1 b1 c1 a2 c2 ...: the 5th is c2


def test_zone_per_player():
    st = run(CARDS + """
    zone hand: pile per player
    play {
      for p in players { move top of (card where zone == box) to hand[p] }
    }
    """, players=3)
    for i in range(3):
        label = f"hand[player {i + 1}]"
        assert info(st, label).owner == i
        assert len(zone(st, label)) == 1
    assert attr(zone(st, "hand[player 1]") + zone(st, "hand[player 2]") + zone(st, "hand[player 3]"),
                "n") == [5, 4, 3]


def test_zone_per_attribute():
    st = run("""
    game g { players 2 }
    component coin { suit: suns, moons, arms  rank: 1..3 }
    order suit: arms, suns, moons
    zone coins: stack per suit
    setup {
      for s in [suns, moons, arms] { move coin where suit == s to coins[s] }
    }
    """)
    labels = [z.label for z in st.program.zones if z.name == "coins"]
    assert labels == ["coins[arms]", "coins[suns]", "coins[moons]"]       # in the declared order
    for s in ("suns", "moons", "arms"):
        assert attr(zone(st, f"coins[{s}]"), "suit") == [s, s, s]


def test_zone_family_needs_an_index():
    src = "game g { players 2 }\nzone hand: pile per player\nvar x = 0\nplay {\n  set x = count(hand)\n}\n"
    assert semantic_error_line(src) == 5


VISIBILITY = """
game g { players 2 }
component card { n: 1..8 }
zone own: pile per player seen by owner
zone open: row seen by everyone
zone secret: stack, seen by nobody
zone plain: row
setup {
  move card where n == 1 to own[players[0]] face down
  move card where n == 2 to own[players[1]] face down
  move card where n == 3 to own[players[1]] face up
  move card where n == 4 to open face down
  move card where n == 5 to secret face down
  move card where n == 6 to secret face up
  move card where n == 7 to plain face down
  move card where n == 8 to plain face up
}
play { choose by players[0] { action "wait" { } } }
"""


def _shown_ids(view: dict) -> set[int]:
    out: set[int] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if "id" in x:
                out.add(x["id"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(view)
    return out


def test_seen_by_visibility_in_views():
    st = run(VISIBILITY)
    n_of = {p.id: p.attrs["n"] for p in st.program.pieces}
    seen0 = sorted(n_of[i] for i in _shown_ids(st.view(0)))
    seen1 = sorted(n_of[i] for i in _shown_ids(st.view(1)))
    # 1: own, face down, owner 0; 2: own of player 2 face down; 3 face up; 4 seen by everyone;
    # 5 face down in a nobody zone; 6 face up; 7 face down in a default (nobody) zone; 8 face up
    assert seen0 == [1, 3, 4, 6, 8]
    assert seen1 == [2, 3, 4, 6, 8]


def test_views_hide_hidden_pieces_completely():
    st = run(VISIBILITY)
    for p in (0, 1):
        text = json.dumps(st.view(p))
        hidden = [piece for piece in st.program.pieces if not visible(st.position, piece, p)]
        assert hidden
        for piece in hidden:
            assert f'"{piece.name}"' not in text
    # in a pile, hidden pieces are only counted
    own0 = st.view(1)["zones"]["own[player 1]"]
    assert own0["pieces"] == [] and own0["hidden"] == 1 and own0["count"] == 1
    # in ordered zones, a hidden piece keeps its place but shows only its kind
    secret = st.view(0)["zones"]["secret"]["pieces"]
    assert secret[0] == {"hidden": True, "kind": "card"} and secret[1]["name"] == "card 6"


def test_zone_infos_record_visibility():
    st = run(VISIBILITY)
    assert info(st, "own[player 1]").seen_by == "owner"
    assert info(st, "open").seen_by == "everyone"
    assert info(st, "secret").seen_by == "nobody"
    assert info(st, "plain").seen_by == "nobody"
    assert info(st, "secret").kind == "stack" and info(st, "plain").kind == "row"


def test_bad_visibility_is_an_error():
    with pytest.raises(SemanticError):
        rulepack.loads("game g { players 2 }\nzone z: row seen by somebody\n")


def test_view_legal_actions_only_for_the_decider():
    st = run(VISIBILITY)
    assert st.current_player == 0
    assert st.view(0)["legal_actions"] == ["wait"]
    assert st.view(1)["legal_actions"] == []


def test_view_and_result_do_not_change_the_state():
    """``view()`` and ``result()`` are reads: the state's JSON is the same after them."""
    st = run("""
    game g { players 2 }
    component card { n: 1..6 }
    zone a: pile per player
    score(q) = count(a[q] where n > 2)
    play {
      move card to a[players[0]]
      choose by players[0] { action "wait" { } }
    }
    """)
    before = json.dumps(st.to_json(), sort_keys=True)
    st.view(0)
    st.view(1)
    st.result()
    assert json.dumps(st.to_json(), sort_keys=True) == before


# ====================================================================== statements

def test_move_face_up_and_down():
    st = run(CARDS + """
    zone r: row
    play {
      move card where n <= 2 to r face up
      move card where n >= 4 to r face down
      move card where n == 3 to r
    }
    """)
    faces = {p.attrs["n"]: st.position.face[p.id] for p in zone(st, "r")}
    assert faces == {1: True, 2: True, 4: False, 5: False, 3: False}


def test_move_keeps_the_face_when_none_is_given():
    st = run(CARDS + """
    zone r: row
    zone q: row
    play {
      move card to r face up
      move card where n == 2 to q
    }
    """)
    assert st.position.face[zone(st, "q")[0].id] is True


def test_flip():
    st = run(CARDS + """
    zone r: row
    play {
      move card to r face up
      flip card where n == 1
      flip card where n == 2 down
      flip card where n == 3 up
      flip r
    }
    """)
    faces = {p.attrs["n"]: st.position.face[p.id] for p in zone(st, "r")}
    # 1: up → over (down) → over (up); 2: down → up; 3: up → down; 4, 5: up → down
    assert faces == {1: True, 2: True, 3: False, 4: False, 5: False}


def test_face_pseudo_attribute():
    out = evaluate(["count(card where face == up)", "count(card where face == down)"],
                   decls="component card { n: 1..5 }\nzone r: row\n"
                         "setup { move card where n > 3 to r face up }")
    assert out == [2, 3]


SHUFFLE = """
game g { players 2 }
component card { n: 1..20 }
zone s: stack
play {
  move card to s
  shuffle s
}
"""


def test_shuffle_is_determined_by_the_seed():
    orders = {}
    for seed in range(6):
        a = attr(zone(run(SHUFFLE, seed=seed), "s"), "n")
        b = attr(zone(run(SHUFFLE, seed=seed), "s"), "n")
        assert a == b
        assert sorted(a) == list(range(1, 21))
        orders[seed] = tuple(a)
    assert len(set(orders.values())) > 1
    assert tuple(range(1, 21)) not in orders.values()


def test_shuffle_is_a_chance_event_in_history():
    st = run(SHUFFLE)
    kinds = [getattr(h, "kind", None) for h in st.history]
    assert kinds == ["shuffle"]


def test_shuffle_of_a_grid_keeps_holes_and_empty_cells():
    st = run("""
    game g { players 2 }
    component cube { n: 1..5 }
    zone board: grid 3 x 3 without [(2, 2)]
    play { move cube to board  shuffle board }
    """, seed=4)
    board = zone(st, "board")
    assert len(board) == 8
    assert sum(1 for p in board if p is not None) == 5


def test_let_and_tuple_let():
    st = run("""
    game g { players 2 }
    var out = none
    play {
      let a = 3
      let (b, c) = (4, 5)
      set out = [a, b, c, a * b + c]
    }
    """)
    assert st.position.vars["out"] == [3, 4, 5, 17]


def test_set_and_set_per_player_and_reset():
    st = run("""
    game g { players 3 }
    var total = 10
    var hits per player = 0
    var snapshot = none
    var after_reset = none
    play {
      set total = total + 5
      set hits[players[1]] = 7
      set hits[players[2]] = hits[players[1]] + 1
      set snapshot = [total, hits]
      reset total
      reset hits
      set after_reset = [total, hits]
    }
    """, players=3)
    assert st.position.vars["snapshot"] == [15, [0, 7, 8]]
    assert st.position.vars["after_reset"] == [10, [0, 0, 0]]


def test_set_per_player_does_not_touch_other_lists():
    st = run("""
    game g { players 2 }
    var a per player = []
    var kept = none
    play {
      set kept = a
      set a[players[0]] = [1]
    }
    """)
    assert st.position.vars["a"] == [[1], []]
    assert st.position.vars["kept"] == [[], []]


def test_for_loop_with_where_filter():
    st = run(CARDS + """
    var got = []
    play {
      for c in card where n > 2 and n != 4 { set got = got + [c.n] }
    }
    """)
    assert st.position.vars["got"] == [3, 5]


def test_for_loop_with_tuple_binding():
    st = run("""
    game g { players 2 }
    var got = []
    play {
      for (a, b) in [(1, 2), (3, 4)] { set got = got + [a * 10 + b] }
    }
    """)
    assert st.position.vars["got"] == [12, 34]


def test_nested_for_loops():
    st = run("""
    game g { players 2 }
    var got = []
    play {
      for i in 1..3 { for j in 1..2 { set got = got + [(i, j)] } }
    }
    """)
    assert st.position.vars["got"] == [(i, j) for i in (1, 2, 3) for j in (1, 2)]


def test_if_else_chain():
    src = """
    game g { players 2 }
    option v: 1..3 = 1
    var got = none
    play {
      if v == 1 { set got = 10 } else if v == 2 { set got = 20 } else { set got = 30 }
    }
    """
    assert [run(src, options={"v": v}).position.vars["got"] for v in (1, 2, 3)] == [10, 20, 30]


def test_if_without_else():
    st = run("game g { players 2 }\nvar x = 1\nplay { if x > 5 { set x = 0 } }\n")
    assert st.position.vars["x"] == 1


def test_while():
    st = run("""
    game g { players 2 }
    var i = 0
    var log = []
    play {
      while i < 4 { set i = i + 1  set log = log + [i] }
      while false { set i = 100 }
    }
    """)
    assert st.position.vars["i"] == 4 and st.position.vars["log"] == [1, 2, 3, 4]


def test_repeat_until_runs_at_least_once():
    st = run("""
    game g { players 2 }
    var i = 0
    var j = 0
    play {
      repeat { set i = i + 1 } until i >= 3
      repeat { set j = j + 1 } until true
    }
    """)
    assert st.position.vars["i"] == 3 and st.position.vars["j"] == 1


def test_rounds_n_times_with_round():
    st = run("""
    game g { players 2 }
    var log = []
    play { rounds 3 times { set log = log + [round] } }
    """)
    assert st.position.vars["log"] == [1, 2, 3]


def test_rounds_zero_times():
    st = run("""
    game g { players 2 }
    var log = []
    play { rounds 0 times { set log = log + [round] } }
    """)
    assert st.position.vars["log"] == []


def test_rounds_until():
    st = run("""
    game g { players 2 }
    var log = []
    play { rounds until round >= 4 { set log = log + [round] } }
    """)
    assert st.position.vars["log"] == [1, 2, 3, 4]


def test_end_round():
    st = run("""
    game g { players 2 }
    var a = []
    var b = []
    play {
      rounds 3 times {
        set a = a + [round]
        if round == 2 { end round }
        set b = b + [round]
      }
    }
    """)
    assert st.position.vars["a"] == [1, 2, 3] and st.position.vars["b"] == [1, 3]


def test_turns_from_until_with_current_and_next():
    st = run("""
    game g { players 3 }
    var log = []
    play {
      turns from players[1] until count(log) >= 5 {
        set log = log + [(current, next)]
      }
    }
    """, players=3)
    assert st.position.vars["log"] == [(1, 2), (2, 0), (0, 1), (1, 2), (2, 0)]


def test_turns_until_is_checked_after_each_turn():
    st = run("""
    game g { players 3 }
    var log = []
    play {
      turns from players[0] until current == players[1] { set log = log + [current] }
    }
    """, players=3)
    assert st.position.vars["log"] == [0, 1]


def test_turns_decisions_go_to_the_current_player():
    st = run("""
    game g { players 3 }
    var n = 0
    play {
      turns from players[2] until n >= 4 {
        choose { action "play" { set n = n + 1 } }
      }
    }
    """, players=3)
    seen = []
    while not st.is_terminal():
        seen.append(st.current_player)
        st.apply("play")
    assert seen == [2, 0, 1, 2]
    assert st.current_player == TERMINAL


CHOOSE = """
game g { players 2 }
component card { n: 1..4 }
zone pool: row
zone hand: pile per player
setup { move card to pool face up }
play {
  turns from players[0] until count(pool) == 0 {
    choose {
      action "take {c}" for c in pool where n != 3 {
        move c to hand[current]
      }
      action "take {a} and {b}" for a in pool for b in pool if a.n < b.n and b.n - a.n == 2 {
        move a to hand[current]
        move b to hand[current]
      }
      action "give {c} to {p}" for c in pool for p in others if c.n == 3 {
        move c to hand[p]
      }
      action "pass" if count(pool) < 3 { }
      action "never" if false { }
    }
  }
}
"""


def test_choose_with_parameters_and_guards():
    st = run(CHOOSE)
    assert st.current_player == 0
    texts = [a.text for a in st.legal_actions()]
    assert texts == ["take card 1", "take card 2", "take card 4",
                     "take card 1 and card 3", "take card 2 and card 4",
                     "give card 3 to player 2"]


def test_choose_applies_the_chosen_action():
    st = run(CHOOSE)
    st.apply("take card 1 and card 3")
    assert attr(zone(st, "hand[player 1]"), "n") == [1, 3]
    assert st.current_player == 1
    assert [a.text for a in st.legal_actions()] == ["take card 2", "take card 4",
                                                    "take card 2 and card 4", "pass"]
    st.apply("pass")
    assert st.current_player == 0
    st.apply(st.legal_actions()[1])          # by index: "take card 4"
    assert [a.text for a in st.legal_actions()] == ["take card 2", "pass"]
    assert attr(zone(st, "hand[player 1]"), "n") == [1, 3, 4]
    st.apply("take card 2")
    assert st.is_terminal()
    assert attr(zone(st, "hand[player 2]"), "n") == [2]


def test_illegal_actions_are_refused():
    st = run(CHOOSE)
    with pytest.raises(ValueError):
        st.apply("never")
    with pytest.raises(ValueError):
        st.apply("pass")          # guard false: 4 cards in the pool
    with pytest.raises(ValueError, match="apply_id"):
        st.apply(0)               # never a position in the legal list
    with pytest.raises(ValueError):
        st.apply(99)


def test_action_parameter_bindings():
    st = run("""
    game g { players 2 }
    var got = none
    play {
      choose by players[0] {
        action "pick {a}-{b}" for (a, b) in [(1, 2), (3, 4)] { set got = a * 10 + b }
      }
    }
    """)
    assert [a.text for a in st.legal_actions()] == ["pick 1-2", "pick 3-4"]
    st.apply("pick 3-4")
    assert st.position.vars["got"] == 34


def test_action_bindings_count_cells_from_1_as_the_language_does():
    """``bindings()`` gives a cell as the rules read it: ``row`` and ``col`` from 1
    (``c.row``, ``c.col``, ``cell(board, ROW, COLUMN)``), its zone's label, and ``b3``
    as its text; in a tuple or a list too. The action's text is unchanged."""
    st = run("""
    game g { players 2 }
    zone board: grid 2 x 3
    var seen = []
    play {
      choose by players[0] {
        action "at {c}" for c in cells(board) { set seen = [c.row, c.col] }
        action "pair {a} {b}" for (a, b) in [(cell(board, 2, 3), [cell(board, 1, 2)])] { }
      }
    }
    """)
    legal = st.legal_actions()
    texts = [a.text for a in legal]
    assert texts[:6] == ["at a1", "at b1", "at c1", "at a2", "at b2", "at c2"]
    c2 = legal[5].bindings()["c"]
    assert (c2.row, c2.col, c2.zone, str(c2)) == (2, 3, "board", "c2")
    pair = legal[6].bindings()
    assert (pair["a"].row, pair["a"].col) == (2, 3) and str(pair["a"]) == "c2"
    assert [(c.row, c.col, str(c)) for c in pair["b"]] == [(1, 2, "b1")]
    assert texts[6] == "pair c2 b1"
    st.apply(legal[5])
    assert st.position.vars["seen"] == [c2.row, c2.col]       # what the rules read


def test_no_legal_action_is_a_runtime_error():
    with pytest.raises(RulepackError):
        run("""
        game g { players 2 }
        play { choose by players[0] { action "never" if false { } } }
        """)


def test_choose_by_another_player():
    st = run("""
    game g { players 3 }
    var who = none
    play {
      turns from players[0] {
        choose by next {
          action "ok" { set who = current }
          action "stop" { end game }
        }
      }
    }
    """, players=3)
    assert st.current_player == 1 and st.position.vars["current"] == 0
    assert st.view(1)["legal_actions"] == ["ok", "stop"]
    assert st.view(0)["legal_actions"] == []
    st.apply("ok")
    assert st.position.vars["who"] == 0
    assert st.current_player == 2 and st.position.vars["current"] == 1
    st.apply("stop")
    assert st.is_terminal()


def test_end_game_with_winners():
    st = run("""
    game g { players 3 }
    var after = false
    play {
      end game winners [players[2], players[0]]
      set after = true
    }
    """, players=3)
    assert st.is_terminal()
    assert st.position.vars["after"] is False
    r = st.result()
    assert r["winners"] == [0, 2] and r["draw"] is False and r["returns"] == [1.0, 0.0, 1.0]


def test_end_game_without_winners_or_scores_is_a_draw():
    st = run("game g { players 2 }\nplay { end game }\n")
    r = st.result()
    assert st.is_terminal() and r["winners"] == [] and r["draw"] is True


def test_end_game_inside_an_action_ends_at_once():
    st = run("""
    game g { players 2 }
    var n = 0
    play {
      turns from players[0] {
        choose { action "go" { set n = n + 1 } action "win" { end game winners [current] } }
        set n = n + 100
      }
    }
    """)
    st.apply("go")
    st.apply("win")
    assert st.is_terminal() and st.result()["winners"] == [1]
    assert st.position.vars["n"] == 101


def test_end_turn():
    st = run("""
    game g { players 3 }
    var log = []
    var n = 0
    play {
      turns from players[0] until n >= 4 {
        set n = n + 1
        choose { action "pass" { } action "skip" { end turn } }
        set log = log + [current]
      }
    }
    """, players=3)
    for text in ("pass", "skip", "pass", "skip"):
        st.apply(text)
    assert st.is_terminal()
    assert st.position.vars["log"] == [0, 2]


def test_do_phase():
    st = run("""
    game g { players 2 }
    var log = []
    phase first { set log = log + [1]  do second }
    phase second { set log = log + [2] }
    play {
      do first
      do second
      rounds 2 times { do first }
    }
    """)
    assert st.position.vars["log"] == [1, 2, 2, 1, 2, 1, 2]


def test_eliminate():
    st = run("""
    game g { players 3 }
    var log = []
    var seen = none
    play {
      eliminate players[1]
      set seen = [active, is_active(players[1])]
      turns from players[0] until count(log) >= 4 { set log = log + [(current, others)] }
    }
    """, players=3)
    assert st.position.active == [True, False, True]
    assert st.position.vars["seen"] == [[0, 2], False]
    assert st.position.vars["log"] == [(0, [2]), (2, [0]), (0, [2]), (2, [0])]


def test_end_round_from_inside_turns():
    st = run("""
    game g { players 3 }
    var log = []
    play {
      rounds 2 times {
        turns from players[0] {
          set log = log + [(round, current)]
          if current == players[1] { end round }
        }
      }
    }
    """, players=3)
    assert st.position.vars["log"] == [(1, 0), (1, 1), (2, 0), (2, 1)]


def test_end_turn_inside_a_phase_done_from_turns():
    st = run("""
    game g { players 2 }
    var log = []
    phase inner { set log = log + [current]  end turn }
    play {
      turns from players[0] until count(log) >= 3 { do inner  set log = log + [100] }
    }
    """)
    assert st.position.vars["log"] == [0, 1, 0]


def test_turns_from_an_eliminated_player_start_at_the_next():
    st = run("""
    game g { players 3 }
    var log = []
    play {
      eliminate players[0]
      turns from players[0] until count(log) >= 2 { set log = log + [current] }
    }
    """, players=3)
    assert st.position.vars["log"] == [1, 2]


def test_eliminated_players_do_not_win():
    st = run("""
    game g { players 3 }
    var pts per player = 5
    score(p) = pts[p]
    winner highest score
    play {
      set pts[players[2]] = 9
      eliminate players[2]
    }
    """, players=3)
    assert st.result()["winners"] == [0, 1]


# ====================================================================== expressions

def test_arithmetic():
    out = evaluate(["1 + 2 * 3", "(1 + 2) * 3", "2 - 3 - 4", "7 // 2", "7 % 3", "-7 // 2",
                    "6 / 3", "7 / 2", "-(2 + 3)", "abs(-4)"])
    assert out == [7, 9, -5, 3, 1, -4, 2, 3.5, -5, 4]


def test_list_concatenation_with_plus():
    assert evaluate(["[1, 2] + [3]", "[1] + 2"]) == [[1, 2, 3], [1, 2]]


def test_division_by_zero_is_a_runtime_error():
    with pytest.raises(RulepackError):
        evaluate(["1 // 0"])


@pytest.mark.parametrize("expr", [
    "1 // 0", "{1: 10}[2]", "1 + none", "[1] < 2", 'sum(["a"])', "top -1 of [1]",
    "first(card).n < none",
    # values of mixed kinds, as a designer could easily write (piecepack ranks are
    # symbols and numbers): these must be located errors too, never Python exceptions
    'max([1, "a"])', 'min([1, "a"])', '-"a"', 'abs("a")', "is_active(7)", "1 in 3",
])
def test_runtime_errors_are_located_rulepack_errors(expr):
    src = f"game g {{ players 2 }}\ncomponent card {{ n: 1..3 }}\nvar out = none\nplay {{\n" \
          f"  set out = {expr}   # HERE\n}}\n"
    with pytest.raises(RulepackError) as exc:
        rulepack.loads(src).new_game(2, 0)
    assert exc.value.diagnostics[0].location.line == line_of(src, "# HERE")


def test_comparisons():
    out = evaluate(["1 < 2", "2 <= 2", "3 > 4", "4 >= 5", "1 == 1", "1 != 1",
                    "not 1 == 2", "true and false", "true or false", "none == none"])
    assert out == [True, True, False, False, True, False, True, False, True, True]


def test_in_and_not_in():
    out = evaluate(["2 in [1, 2, 3]", "5 in [1, 2, 3]", "5 not in [1, 2, 3]",
                    "first(card) in s", "last(card) in s", "last(card) not in s",
                    "3 in {3: 1}"],
                   decls="component card { n: 1..3 }\nzone s: row\n"
                         "setup { move card where n == 1 to s }")
    assert out == [True, False, True, True, False, True, True]


def test_where_filter_and_attribute_of_a_list():
    out = evaluate(["(card where n % 2 == 0).n", "count(card where n > 10)",
                    "(card where colour == red and n >= 2).name"],
                   decls="component card { colour: red, blue  n: 1..4 }")
    assert out == [[2, 4, 2, 4], 0, ["card red 2", "card red 3", "card red 4"]]


def test_sort_by_and_descending():
    out = evaluate(["(card by n descending).n", "(card where colour == blue by n).n",
                    "(card by colour).colour"],
                   decls="component card { colour: red, blue  n: 1..3 }\norder colour: blue, red")
    assert out == [[3, 3, 2, 2, 1, 1], [1, 2, 3], ["blue"] * 3 + ["red"] * 3]


def test_top_n_of_a_list():
    assert evaluate(["top 2 of [1, 2, 3, 4]", "bottom 2 of [1, 2, 3, 4]", "top of [1, 2, 3]"]) \
        == [[4, 3], [1, 2], 3]


def test_list_comprehension():
    out = evaluate(["[c.n * 10 for c in card if c.n % 2 == 1]", "[i * i for i in 1..4]",
                    "[a + b for (a, b) in [(1, 2), (3, 4)]]"],
                   decls="component card { n: 1..5 }")
    assert out == [[10, 30, 50], [1, 4, 9, 16], [3, 7]]


def test_argmax():
    out = evaluate(["argmax q in [1, 2, 3, 4] by q % 3",
                    "argmax q in [1, 2, 4, 5] by q % 3",
                    "argmax q in [1, 2, 3, 4, 5] if q != 2 by q % 3",
                    "argmax q in [] by q",
                    "argmax q in [3, 1, 2] by [q % 2, q]"])
    assert out == [[2], [2, 5], [5], [], [3]]


def test_only():
    assert evaluate(["only([7])", "only([1, 2])", "only([])"]) == [7, None, None]


def test_distinct():
    assert evaluate(["distinct([1, 2, 1, 3, 2])", "distinct(card.colour)"],
                    decls="component card { colour: red, blue  n: 1..3 }") \
        == [[1, 2, 3], ["red", "blue"]]


def test_aggregates():
    out = evaluate(["count(card)", "count(card where n > 2)", "count([])", "sum(card.n)",
                    "sum([])", "max(card.n)", "min(card.n)", "max([])", "min([])",
                    "any([false, true])", "any([])", "all([true, false])", "all([])",
                    "first([4, 5])", "last([4, 5])"],
                   decls="component card { n: 1..5 }")
    assert out == [5, 3, 0, 15, 0, 5, 1, None, None, True, False, False, True, 4, 5]


def test_map_literal_indexing():
    out = evaluate(["{1: 10, 2: 20}[2]", "m[blue]", "m[red] + m[blue]", "[1, 2, 3][0]"],
                   decls="component card { colour: red, blue }\nconst m = {red: 1, blue: 2}")
    assert out == [20, 2, 3, 1]


def test_missing_map_key_is_a_runtime_error():
    with pytest.raises(RulepackError):
        evaluate(["{1: 10}[2]"])


def test_if_then_else_expression():
    assert evaluate(["if 1 > 2 then 10 else 20", "if true then [1] else []"]) == [20, [1]]


def test_constants():
    out = evaluate(["k", "k * 2", "pairs[1]"],
                   decls="const k = 21\nconst pairs = [(a, 1), (b, 2)]")
    assert out == [21, 42, ("b", 2)]


def test_players_builtins():
    out = evaluate(["players", "count(players)", "order(players[2])", "after(players[3])"],
                   players=4)
    assert out == [[0, 1, 2, 3], 4, [2, 3, 0, 1], 0]


RANDOM = """
game g { players 2 }
var r = none
play { set r = random([10, 20, 30, 40]) }
"""


def test_random_is_a_chance_event_in_history():
    st = run(RANDOM, seed=1)
    events = [h for h in st.history if getattr(h, "kind", None) == "random"]
    assert len(events) == 1
    assert events[0].outcome == st.position.vars["r"]
    assert st.position.vars["r"] in (10, 20, 30, 40)


def test_random_is_determined_by_the_seed():
    values = {seed: run(RANDOM, seed=seed).position.vars["r"] for seed in range(30)}
    assert all(run(RANDOM, seed=s).position.vars["r"] == v for s, v in values.items())
    assert len(set(values.values())) > 1


def test_random_of_an_empty_list_is_a_runtime_error():
    with pytest.raises(RulepackError):
        run("game g { players 2 }\nvar r = none\nplay { set r = random([]) }\n")


# ====================================================================== patterns

PATTERNS = """
use piecepack (tile)
order rank: null, 2, 3, 4, 5, ace
pattern flush: size 4, same suit
pattern prime: size 4, distinct suit
pattern set3: size 3..4, same rank
pattern run: size 3..4, consecutive rank
pattern all_ranks: covers rank
pattern low_pair: size 2, each rank in [2, 3]
pattern either: set3 or run
pattern four_high: size 4, each rank != null, distinct rank, same suit
"""


def tiles(*specs: str) -> str:
    """``tiles("2 suns", "ace moons")`` → an expression for that group of tiles."""
    conds = []
    for spec in specs:
        rank, suit = spec.split()
        conds.append(f"(suit == {suit} and rank == {rank})")
    return "(tile where " + " or ".join(conds) + ")"


def pat(exprs: list[str]) -> list:
    return evaluate(exprs, decls=PATTERNS)


def test_pattern_size_and_same():
    out = pat([f"matches(flush, {tiles('2 suns', '3 suns', '4 suns', 'ace suns')})",
               f"matches(flush, {tiles('2 suns', '3 suns', '4 suns')})",
               f"matches(flush, {tiles('2 suns', '3 suns', '4 suns', '5 suns', 'ace suns')})",
               f"matches(flush, {tiles('2 suns', '3 suns', '4 suns', 'ace moons')})"])
    assert out == [True, False, False, False]


def test_pattern_distinct():
    out = pat([f"matches(prime, {tiles('2 suns', '2 moons', '2 crowns', '2 arms')})",
               f"matches(prime, {tiles('2 suns', '3 suns', '2 crowns', '2 arms')})"])
    assert out == [True, False]


def test_pattern_size_range():
    out = pat([f"matches(set3, {tiles('2 suns', '2 moons', '2 crowns')})",
               f"matches(set3, {tiles('2 suns', '2 moons', '2 crowns', '2 arms')})",
               f"matches(set3, {tiles('2 suns', '2 moons')})"])
    assert out == [True, True, False]


def test_pattern_consecutive_in_declared_order():
    out = pat([f"matches(run, {tiles('4 suns', '5 moons', 'ace crowns')})",
               f"matches(run, {tiles('null suns', '2 moons', '3 crowns')})",
               f"matches(run, {tiles('5 suns', 'ace moons', 'null crowns')})",
               f"matches(run, {tiles('2 suns', '3 moons', '5 crowns')})",
               f"matches(run, {tiles('2 suns', '3 moons', '3 crowns', '4 arms')})"])
    assert out == [True, True, False, False, False]


def test_pattern_covers():
    every_rank = tiles("null suns", "2 moons", "3 crowns", "4 arms", "5 suns", "ace moons")
    out = pat([f"matches(all_ranks, {every_rank})",
               f"matches(all_ranks, {tiles('null suns', '2 moons', '3 crowns', '4 arms', '5 suns')})",
               "matches(all_ranks, tile)"])
    assert out == [True, False, True]


def test_pattern_each():
    out = pat([f"matches(low_pair, {tiles('2 suns', '3 moons')})",
               f"matches(low_pair, {tiles('2 suns', '4 moons')})",
               f"matches(four_high, {tiles('2 suns', '3 suns', '4 suns', 'ace suns')})",
               f"matches(four_high, {tiles('null suns', '3 suns', '4 suns', 'ace suns')})"])
    assert out == [True, False, True, False]


def test_pattern_union():
    out = pat([f"matches(either, {tiles('2 suns', '2 moons', '2 crowns')})",
               f"matches(either, {tiles('2 suns', '3 moons', '4 crowns')})",
               f"matches(either, {tiles('2 suns', '3 moons', '5 crowns')})"])
    assert out == [True, True, False]


def test_best_returns_the_largest_matching_subgroup():
    hand = tiles("2 suns", "2 moons", "2 crowns", "2 arms", "3 suns")
    out = pat([f"count(best(set3, {hand}))", f"best(set3, {hand}).rank",
               f"count(best(run, {tiles('2 suns', '3 moons', '4 crowns', '4 arms')}))",
               f"best(flush, {hand})",
               f"count(best(either, {tiles('2 suns', '3 moons', '4 crowns', '5 arms', '2 arms')}))",
               f"count(best(either, {tiles('2 suns', '2 moons', '2 crowns', '3 moons', '4 suns')}))"])
    assert out == [4, [2, 2, 2, 2], 3, [], 4, 3]


def test_best_subgroup_matches():
    hand = tiles("2 suns", "3 moons", "4 crowns", "4 arms", "5 suns", "ace suns")
    out = pat([f"matches(run, best(run, {hand}))", f"count(best(run, {hand}))",
               f"best(run, {hand}).rank"])
    assert out[0] is True and out[1] == 4
    assert sorted(out[2], key=[2, 3, 4, 5, "ace"].index) in ([2, 3, 4, 5], [3, 4, 5, "ace"])


def test_patterns_are_values():
    out = pat([f"[matches(p, {tiles('2 suns', '3 suns', '4 suns', '5 suns')}) "
               "for p in [flush, prime, set3, run]]"])
    assert out == [[True, False, False, True]]


def test_pattern_on_a_derived_attribute():
    """Derived attributes (``attribute value of tile = ...``) are attributes like the others."""
    out = evaluate(["matches(same_value, card where n in [1, 4])",
                    "matches(same_value, card where n in [1, 2])"],
                   decls="component card { n: 1..6 }\n"
                         "attribute parity of card = n % 3\n"
                         "pattern same_value: size 2, same parity")
    assert out == [True, False]


# ====================================================================== scoring

SCORING = """
game g { players 3 }
component chip { n: 1..6 }
zone won: pile per player
score(p) = sum(won[p].n)
winner %s score
setup {
  move chip where n in [1, 4] to won[players[0]]
  move chip where n in [2, 3] to won[players[1]]
  move chip where n in [%s] to won[players[2]]
}
"""


def test_scores_and_winner_highest():
    st = run(SCORING % ("highest", "6"), players=3)
    r = st.result()
    assert r["scores"] == [5, 5, 6]
    assert r["winners"] == [2] and r["returns"] == [0.0, 0.0, 1.0] and not r["draw"]


def test_winner_lowest():
    st = run(SCORING % ("lowest", "6"), players=3)
    assert st.result()["winners"] == [0, 1]          # a shared tie


def test_winner_highest_shared_tie():
    st = run(SCORING % ("highest", "5"), players=3)
    r = st.result()
    assert r["scores"] == [5, 5, 5] and r["winners"] == [0, 1, 2]


def test_score_function_usable_in_rules():
    st = run("""
    game g { players 3 }
    var pts per player = 0
    var leader = none
    score(p) = pts[p] * 2
    play {
      set pts[players[1]] = 4
      set leader = [argmax q in players by score(q), score(players[1])]
    }
    """, players=3)
    assert st.position.vars["leader"] == [[1], 8]


def test_scores_none_without_score_rule():
    assert run("game g { players 2 }\n").result()["scores"] is None


# ====================================================================== semantic errors

def err(body: str, decls: str = "") -> str:
    return f"game g {{ players 2 }}\ncomponent card {{ colour: red, blue  n: 1..3 }}\n" \
           f"var x = 0\n{decls}\nplay {{\n{body}\n}}\n"


SEMANTIC_ERRORS = {
    "unknown name": err("  set x = nosuch + 1   # HERE"),
    "unknown name in a where": err("  set x = count(card where colr == red)   # HERE"),
    "unknown attribute": err("  set x = first(card).weight   # HERE"),
    "unknown attribute in sort": err("  set x = card by weight   # HERE"),
    "unknown function": err("  set x = frobnicate(1)   # HERE"),
    "wrong arity": err("  set x = count(1, 2)   # HERE"),
    "wrong arity best": err("  set x = 1\n  set x = best(card)   # HERE"),
    "set of an undeclared variable": err("  set y = 1   # HERE"),
    "reset of an undeclared variable": err("  reset y   # HERE"),
    "set [] of a plain variable": err("  set x[players[0]] = 1   # HERE"),
    "local shadowing an attribute (let)": err("  let colour = 1   # HERE"),
    "local shadowing an attribute (for)": err("  for n in [1, 2] {   # HERE\n  }"),
    "local shadowing a variable": err("  let x = 1   # HERE"),
    "unknown phase": err("  do nothing   # HERE"),
    "recursive phase": err("  do a", decls="phase a { do b }\nphase b {\n  do a   # HERE\n}"),
    "self-recursive phase": err("  do a", decls="phase a {\n  do a   # HERE\n}"),
    "end turn outside turns": err("  set x = 1\n  end turn   # HERE"),
    "end round outside rounds": err("  end round   # HERE"),
    "random() inside an action guard": err(
        '  choose by players[0] {\n    action "go" if random([true, false]) { }   # HERE\n  }'),
    "random() inside an action parameter": err(
        '  choose by players[0] {\n    action "go {v}" for v in [random([1, 2])] { }   # HERE\n  }'),
    "action text naming a non-parameter": err(
        '  choose by players[0] {\n    action "take {t}" { }   # HERE\n  }'),
    "action text naming a non-parameter (with params)": err(
        '  choose by players[0] {\n    action "take {c} and {d}" for c in card { }   # HERE\n  }'),
    "unknown name in a phase": err("  do a", decls="phase a {\n  set x = nosuch   # HERE\n}"),
    "unknown name in score": err("", decls="score(p) = nosuch   # HERE"),
    "unknown zone in move": err("  move card to nowhere   # HERE"),
    "score() without a score rule": err("  set x = score(players[0])   # HERE"),
}


@pytest.mark.parametrize("case", sorted(SEMANTIC_ERRORS))
def test_semantic_errors_are_located(case):
    src = SEMANTIC_ERRORS[case]
    assert semantic_error_line(src) == line_of(src, "# HERE")


def test_semantic_error_messages_name_the_problem():
    with pytest.raises(SemanticError) as exc:
        rulepack.loads(SEMANTIC_ERRORS["unknown name"], filename="bad.rules")
    d = exc.value.diagnostics[0]
    assert "nosuch" in d.message
    assert d.location.file == "bad.rules"
    assert d.location.column is not None
    assert str(exc.value).startswith(f"bad.rules:{d.location.line}:")


def test_every_semantic_error_case_compiles_when_fixed():
    """The error cases are minimal: the same ruleset without the faulty line loads."""
    base = err("  set x = 1")
    rulepack.loads(base)


def test_an_error_inside_an_unused_phase_is_reported():
    """A mistake in a phase that no ``do`` reaches must not go unnoticed."""
    src = err("  set x = 1", decls="phase orphan {\n  set x = nosuch   # HERE\n}")
    with pytest.raises(SemanticError):
        rulepack.loads(src)


def test_an_unused_phase_is_reported():
    """DESIGN.md: 'a phase that can never be reached' is a semantic error naming its place."""
    src = err("  set x = 1", decls="phase orphan {   # HERE\n  set x = 2\n}")
    assert semantic_error_line(src) == line_of(src, "# HERE")


def test_derived_attribute_reading_a_pseudo_attribute_is_a_located_error():
    """A derived attribute cannot read a state-dependent pseudo-attribute such as ``face``;
    the user must get a located RulepackError, never a Python traceback."""
    with pytest.raises(RulepackError):
        rulepack.loads("game g { players 2 }\ncomponent card { n: 1..3 }\n"
                       "attribute f of card = face\n")


# ---------------------------------------------------------------------- legal actions on demand

COUNTDOWN = """
game g { players 2 }
var left = 3
var last = 0
play {
  turns from 0 until left == 0 {
    choose {
      action "take {n}" for n in [1, 2, 3] if n <= left {
        set left = left - n
        set last = n
      }
      action "shout" if left == 99 { set left = 0 }
    }
  }
}
"""


def test_asking_for_the_legal_actions_changes_nothing_in_the_state():
    """Legal actions are computed when first asked for; trying the parameter values
    binds them for a moment, and they are put back: the state (its JSON, hidden
    information included) is the same before and after the question."""
    st = game(COUNTDOWN).new_game(2, 0)
    st.apply("take 1")
    before = json.dumps(st.to_json(), sort_keys=True)
    assert [a.text for a in st.legal_actions()] == ["take 1", "take 2"]
    assert json.dumps(st.to_json(), sort_keys=True) == before
    assert st.position.vars["n"] == 1                      # as the action taken bound it, not 2
    st.apply("take 2")
    assert st.position.vars["last"] == 2 and st.is_terminal()


def test_no_legal_action_at_a_later_decision_is_a_located_error_when_asked():
    """A decision with no legal action is the ruleset's mistake, located at its
    ``choose``; reported at the first decision by ``new_game``, at a later one as
    soon as the legal actions are asked for (which every player of the game does)."""
    stuck = COUNTDOWN.replace("if n <= left", "if n <= left and left == 3")
    st = game(stuck).new_game(2, 0)
    st.apply("take 1")                            # left is 2: nothing is legal now
    with pytest.raises(RulesetRuntimeError) as info:
        st.legal_actions()
    diagnostic = info.value.diagnostics[0]
    assert "no legal action" in diagnostic.message
    assert diagnostic.location.line == 7          # the choose
    with pytest.raises(RulesetRuntimeError):
        game(stuck.replace("var left = 3", "var left = 2")).new_game(2, 0)


ENDLESS = """
game g { players 2 }
var x = 0
play {
  turns from 0 until x > 100 {
    for p in players {
      set x = x
    }
    repeat {
      set x = x
    } until x < 100
    for q in players {
      set x = x + 0
    }
  }
}
"""


@pytest.mark.parametrize("loop, line", [("repeat", 9), ("turns", 5)])
def test_a_flow_that_never_reaches_a_decision_is_blamed_on_the_loop_going_round(loop, line):
    """Past the flow step limit (docs: §limits) the error is located at the loop that
    keeps going round, the outermost one still going: not at whichever instruction
    the limit happened to stop on, nor at an inner loop that ends each time."""
    src = ENDLESS if loop == "turns" else ENDLESS.replace("until x < 100", "until x > 100")
    with pytest.raises(RulesetRuntimeError) as info:
        game(src).new_game(2, 0)
    diagnostic = info.value.diagnostics[0]
    assert "100000 steps without a decision, going round this loop" in diagnostic.message
    assert diagnostic.location.line == line


# ---------------------------------------------------------------------- cell(GRID, ROW, COLUMN)

def test_cell_finds_a_cell_by_row_and_column():
    decls = "zone board: grid 3 x 4 without [(2, 2)]"
    out = evaluate(["cell(board, 2, 3)", "cell(board, 1, 1)", "cell(board, 2, 2)",
                    "cell(board, 4, 1)", "cell(board, 0, 1)",
                    "cell(board, 3, 4) == last(cells(board))",
                    "[cell(board, c.row, c.col) == c for c in cells(board)]"], decls)
    assert [str(c) for c in out[:2]] == ["c2", "a1"]
    assert out[2:5] == [None, None, None]       # a hole, and off the grid
    assert out[5] is True and all(out[6])


def test_cell_of_something_else_is_an_error():
    decls = "zone board: grid 2 x 2\nzone pile: pile"
    with pytest.raises(RulesetRuntimeError, match="pile is not a grid"):
        evaluate(["cell(pile, 1, 1)"], decls)
    with pytest.raises(RulesetRuntimeError, match="whole numbers, not 'a'"):
        evaluate(['cell(board, "a", 1)'], decls)
