"""A tiny seeded random number generator whose whole state is one integer.

SplitMix64 (Steele, Lea, Flood 2014): fast in pure Python, trivially cloned,
serialised and compared, which is what tree search and game records need.
Every shuffle, roll and random choice of a game draws from the state's
generator; agents draw from their own.

:class:`Rng` is the compiled generator of :mod:`rulepack.engine.splitmix` when
it was built (``pip install`` compiles it with mypyc, as the pattern searches),
and the Python class of this module (:data:`PyRng`) otherwise: both give the
same numbers from the same seed, the compiled one in a third of the time.
"""

from __future__ import annotations

import importlib.machinery
from functools import lru_cache
import os
from pathlib import Path
from typing import TYPE_CHECKING, Sequence, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.chance import ChanceNode

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix_seed(*parts: int | str) -> int:
    """Derive a 64-bit seed from several parts (a game seed and a seat, say)."""
    state = 0x243F6A8885A308D3
    for part in parts:
        if isinstance(part, str):
            value = _text_value(part)
        else:
            value = part & _MASK
        # one SplitMix64 step from state ^ value: its output is the new state
        z = ((state ^ value) + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        state = z ^ (z >> 31)
    return state


@lru_cache(maxsize=256)
def _text_value(text: str) -> int:
    """The number a text stands for in :func:`mix_seed` (the same few texts,
    "game", "agent"..., are mixed into every seed: worked out once each)."""
    value = 0
    for ch in text.encode("utf-8"):
        value = (value * 131 + ch) & _MASK
    return value


class PyRng:
    """SplitMix64 generator.

    :param seed: any integer; the same seed gives the same sequence.
    """

    __slots__ = ("state",)
    #: an explicit-chance generator draws only given outcomes (rulepack.engine.chance)
    explicit = False
    #: the chance node it waits at (explicit chance only)
    node: "ChanceNode | None" = None

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def clone(self) -> "Rng":
        """An independent generator at the same point of the sequence."""
        r = PyRng.__new__(PyRng)
        r.state = self.state
        return r

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1``. :raises ValueError: if ``n < 1``."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        state = (self.state + _GOLDEN) & _MASK
        self.state = state
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]

    def weighted(self, weights: Sequence[int]) -> int:
        """An index ``i`` drawn with probability ``weights[i] / sum(weights)``
        (whole numbers, at least one positive)."""
        x = self.below(sum(weights))
        for i, w in enumerate(weights):
            if x < w:
                return i
            x -= w
        raise ValueError("weighted() needs a positive weight")  # pragma: no cover

    def roll(self, faces: Sequence[object], weights: Sequence[int] | None, label: str) -> int:
        """The index of the face a die (named ``label``) rolls: uniform over
        ``faces``, or by ``weights``. One face takes no random number."""
        if len(faces) == 1:
            return 0
        return self.below(len(faces)) if weights is None else self.weighted(weights)

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates shuffle in place."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            # below(i + 1), inline
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = state


#: the generator: :class:`PyRng`, or the compiled one where it may be used (below)
Rng = PyRng


def compiled_generator() -> type | None:
    """The compiled generator (:mod:`rulepack.engine.splitmix`), or ``None`` when it
    must not be used: not built, ``RULEPACK_PURE_PYTHON=1``, or built from another
    text than the source's (checked as the pattern searches are: ``native.sums``).
    Imported only then: as Python, its 64-bit words would not wrap around."""
    if os.environ.get("RULEPACK_PURE_PYTHON") == "1":
        return None
    from rulepack.patterns import native
    here = Path(__file__).resolve().parent
    if native.extension_of("splitmix", here) is None or native.stale(here, ("splitmix",)):
        return None
    from rulepack.engine import splitmix
    loader = getattr(splitmix.__spec__, "loader", None)
    if not isinstance(loader, importlib.machinery.ExtensionFileLoader):
        return None     # pragma: no cover - the extension exists but was not taken
    return splitmix.Rng


if not TYPE_CHECKING:
    # the compiled generator where it may be used: the same numbers, 2-3 times faster
    Rng = compiled_generator() or PyRng


def describe() -> str:
    """``"compiled (mypyc)"`` or ``"pure Python"``: which generator :class:`Rng` is."""
    return "compiled (mypyc)" if Rng is not PyRng else "pure Python"
