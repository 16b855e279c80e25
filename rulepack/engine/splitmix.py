"""SplitMix64 on machine words: the generator of :mod:`rulepack.engine.rng`, compiled.

This module is compiled to C by mypyc when rulepack is installed (``setup.py``)
and used only then: its arithmetic is on ``i64``, signed 64-bit words that wrap
around in C (the build passes ``-fwrapv``), where Python's integers would grow.
Run as Python it would give other numbers, so :mod:`rulepack.engine.rng` keeps
its own Python generator and takes this one only when it is compiled and built
from this very text (``rulepack/engine/native.sums``).

The numbers are those of ``rng.Rng`` exactly: the same state (a Python ``int``
in ``0 .. 2**64 - 1``, read and written through :attr:`Rng.state`), the same
draws and shuffles. The words hold the unsigned values' bits: right shifts mask
off the sign's copies, and the remainder of a negative word is taken of the
unsigned value it stands for.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, Sequence, TypeVar

from mypy_extensions import i64, mypyc_attr

T = TypeVar("T")

# (Final: compiled as constants of the C code, not looked up as globals at each use)
_MASK: Final = (1 << 64) - 1
#: 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9 and 0x94D049BB133111EB as signed words
_GOLDEN: Final[i64] = -7046029254386353131
_M1: Final[i64] = -4658895280553007687
_M2: Final[i64] = -7723592293110705685
#: the bits a logical right shift by 30, 27 and 31 keeps
_LOW30: Final[i64] = (1 << 34) - 1
_LOW27: Final[i64] = (1 << 37) - 1
_LOW31: Final[i64] = (1 << 33) - 1
_LOW63: Final[i64] = (1 << 63) - 1
_TOP62: Final[i64] = 1 << 62


def _word(value: int) -> i64:
    """The word of an unsigned 64-bit value (``0 <= value < 2**64``)."""
    return i64(value - (1 << 64)) if value >= (1 << 63) else i64(value)


def _unsigned(word: i64) -> int:
    """The unsigned value of a word."""
    return int(word) + (1 << 64) if word < 0 else int(word)


def _below(word: i64, n: i64) -> i64:
    """The unsigned value of ``word``, modulo ``n`` (``n >= 1``)."""
    if word >= 0:
        return word % n
    # 2**63 + (word & (2**63 - 1)), reduced without leaving 64 bits
    return ((word & _LOW63) % n + ((_TOP62 % n) * 2) % n) % n


def _mix(state: i64) -> i64:
    z: i64 = (state ^ ((state >> 30) & _LOW30)) * _M1
    z = (z ^ ((z >> 27) & _LOW27)) * _M2
    return z ^ ((z >> 31) & _LOW31)


@mypyc_attr(allow_interpreted_subclasses=True)
class Rng:
    """SplitMix64 generator (see :class:`rulepack.engine.rng.Rng`, whose API it has).

    :param seed: any integer; the same seed gives the same sequence.
    """

    explicit: ClassVar[bool] = False
    node: ClassVar[Any] = None

    def __init__(self, seed: int = 0) -> None:
        self._s: i64 = _word(seed & _MASK)

    @property
    def state(self) -> int:
        """The whole state: an integer in ``0 .. 2**64 - 1``."""
        return _unsigned(self._s)

    @state.setter
    def state(self, value: int) -> None:
        self._s = _word(value & _MASK)

    def clone(self) -> "Rng":
        """An independent generator at the same point of the sequence."""
        r = Rng()
        r._s = self._s
        return r

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1``. :raises ValueError: if ``n < 1``."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        s: i64 = self._s + _GOLDEN
        self._s = s
        if n > (1 << 62):
            return _unsigned(_mix(s)) % n
        return int(_below(_mix(s), i64(n)))

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
        raise ValueError("weighted() needs a positive weight")

    def roll(self, faces: Sequence[Any], weights: Sequence[int] | None, label: str) -> int:
        """The index of the face a die (named ``label``) rolls: uniform over
        ``faces``, or by ``weights``. One face takes no random number."""
        if len(faces) == 1:
            return 0
        return self.below(len(faces)) if weights is None else self.weighted(weights)

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates shuffle in place."""
        s: i64 = self._s
        i: i64 = len(items) - 1
        while i > 0:
            s = s + _GOLDEN
            j = _below(_mix(s), i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
        self._s = s
