"""R's random generator, as ppgames draws with it: a record's ``Seed``.

ppgames (github ``piecepackr/ppgames``) builds some starts by drawing with R's
generator after ``set.seed(Seed)`` (``withr::local_seed``): Relativity's coins,
Desfases'... To make the start such a record says from its seed, and any other
seed, rulepack draws as R does. :class:`RRandom` is R's defaults (R ≥ 3.6):

- ``set.seed(s)``: ``s`` as an unsigned 32-bit number, scrambled by 50 steps of
  the linear congruence ``s = 69069 s + 1 (mod 2**32)``, then 625 more steps give
  the Mersenne Twister's position (set to 624) and its 624 words (R's
  ``RNG.c``: ``Randomize``, ``FixupSeeds``);
- ``unif_rand()``: MT19937's tempered 32-bit output times 2.3283064365386963e-10,
  kept inside (0, 1) (``MT_genrand``, ``fixup``);
- ``R_unif_index(n)`` by rejection sampling: ``ceil(log2(n))`` random bits, 16 at
  a time, drawn again while the number is not below ``n``;
- ``sample.int(n, size, replace)``: without replacement, a pool ``0..n-1`` from
  which each draw takes ``pool[j]`` and puts the last in its place.

Checked against R 4.2.2's own draws (``tests/data/ppn/r-random.json``, made by
``Rscript tests/data/ppn/r-random.R``).
"""

from __future__ import annotations

import math

__all__ = ["RRandom"]

_N, _M = 624, 397
_I2_32M1 = 2.328306437080797e-10          # 1 / (2**32 - 1)


class RRandom:
    """R's generator after ``set.seed(seed)`` (Mersenne Twister, rejection sampling).

    :param seed: a whole number (R takes it modulo 2**32, as a C ``unsigned``).
    """

    def __init__(self, seed: int) -> None:
        s = seed & 0xFFFFFFFF
        for _ in range(50):
            s = (69069 * s + 1) & 0xFFFFFFFF
        words = []
        for _ in range(_N + 1):
            s = (69069 * s + 1) & 0xFFFFFFFF
            words.append(s)
        self._mti = _N                   # (the first word: the position, fixed up to N)
        self._mt = words[1:]

    def _genrand(self) -> float:
        mt = self._mt
        if self._mti >= _N:
            for kk in range(_N):
                y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % _N] & 0x7FFFFFFF)
                mt[kk] = mt[(kk + _M) % _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self._mti = 0
        y = mt[self._mti]
        self._mti += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y * 2.3283064365386963e-10

    def unif_rand(self) -> float:
        """R's ``unif_rand()``: a number in (0, 1) (``runif(1)``)."""
        v = self._genrand()
        if v <= 0.0:
            return 0.5 * _I2_32M1
        if 1.0 - v <= 0.0:
            return 1.0 - 0.5 * _I2_32M1
        return v

    def _bits(self, bits: int) -> int:
        v = 0
        for _ in range(0, bits + 1, 16):
            v = 65536 * v + int(math.floor(self.unif_rand() * 65536))
        return v & ((1 << bits) - 1)

    def unif_index(self, n: int) -> int:
        """R's ``R_unif_index(n)``: a whole number in ``0 .. n-1``, each as likely."""
        if n <= 0:
            return 0
        bits = math.ceil(math.log2(n))
        while True:
            v = self._bits(bits)
            if n > v:
                return v

    def sample_int(self, n: int, size: int | None = None, replace: bool = False) -> list[int]:
        """R's ``sample.int(n, size, replace)``: ``size`` numbers of ``1 .. n``
        (all of them, in a random order, by default).

        :raises ValueError: more numbers than ``n`` without replacement."""
        size = n if size is None else size
        if replace:
            return [self.unif_index(n) + 1 for _ in range(size)]
        if size > n:
            raise ValueError(f"cannot take a sample of {size} from {n} without replacement")
        pool = list(range(n))
        out = []
        for _ in range(size):
            j = self.unif_index(n)
            out.append(pool[j] + 1)
            pool[j] = pool[n - 1]
            n -= 1
        return out
