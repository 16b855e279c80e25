"""Pictures of positions: SVG and PNG of the table or of one player's view, and an
HTML replay viewer for records.

Everything is drawn from the ruleset's declarations and from views (what a seat
may know, :func:`rulepack.engine.views.build_view`), never from hidden state:

- :mod:`.appearance`: how a piece looks, from its component (piecepack tiles,
  coins, dice and pawns; other components from their attributes and ``draw``
  hints);
- :mod:`.pieces`: one piece (or its back) as SVG shapes;
- :mod:`.blocks`: boxes of known size that lay themselves out;
- :mod:`.zones`: a zone by its kind (grid, row, stack, pile, groups);
- :mod:`.tableview`: the table's view (what every seat sees) and a seat's view;
- :mod:`.picture`: a whole view as an SVG drawing, and its bytes (SVG or PNG);
- :mod:`.positions`: the states to draw (a ruleset after N decisions, a record
  at a step, every step of a record);
- :mod:`.replay_page`: the self-contained HTML replay viewer.

Needs the ``render`` extra (drawsvg, cairosvg); the CLI imports this package only
for ``rulepack render`` and ``rulepack replay --html``.
"""
