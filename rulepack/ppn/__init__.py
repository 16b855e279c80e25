"""Portable Piecepack Notation (PPN): the piecepack community's game records.

:mod:`rulepack.ppn.movetext` reads a ``.ppn`` file into games (a YAML header and
numbered moves); :mod:`rulepack.ppn.table` carries out the relocations a move
describes on a table of pieces, as ppgames (Trevor L. Davis's R package) does.
"""
