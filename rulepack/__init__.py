"""rulepack: a rules-as-data interpreter for piecepack and other tabletop games.

Typical use::

    import rulepack
    game = rulepack.load("multzo")
    state = game.new_game(players=3, seed=1)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    print(state.result())
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.versions import RULEPACK_VERSION as __version__

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.game import Game


def load(name_or_path: Any, check: bool = True) -> "Game":
    """Load a bundled ruleset by name (``"multzo"``) or a ruleset file by path.

    :raises rulepack.errors.RulepackError: with a located message for any problem.
    """
    from rulepack.loader import load as _load
    return _load(name_or_path, check)


def loads(text: str, filename: str = "<string>", check: bool = True) -> "Game":
    """Compile a ruleset from ``.rules`` text."""
    from rulepack.loader import loads as _loads
    return _loads(text, filename, check)


__all__ = ["load", "loads", "__version__"]
