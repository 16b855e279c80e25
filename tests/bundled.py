"""The bundled rulesets, each loaded once per test process and shared by the tests
that play them (a load parses, checks and compiles the ruleset: tens of
milliseconds each time). Tests of loading itself call ``rulepack.load``."""

from __future__ import annotations

import functools

import rulepack


@functools.cache
def bundled(name: str) -> rulepack.Game:
    """The bundled ruleset ``name`` (``rulepack.load(name)``), loaded at its first use
    in this process. Shared: a test plays states of it and never changes the game."""
    return rulepack.load(name)
