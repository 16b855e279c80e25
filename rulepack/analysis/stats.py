"""Small statistics of many games: proportions with intervals, distributions.

Pure functions on plain numbers; nothing here knows a game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypedDict

#: The standard normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``successes`` out of ``trials``.

    Unlike the normal approximation (p ± z·sqrt(p(1-p)/n)), it stays within
    [0, 1] and is not empty at 0 or ``trials`` successes.
    ``wilson_interval(50, 100)`` is about ``(0.404, 0.596)``.

    :param successes: the number of successes, ``0 <= successes <= trials``.
    :param trials: the number of trials; with none, the interval is ``(0.0, 1.0)``.
    :param z: the normal quantile of the confidence level (1.96 for 95%).
    :returns: ``(low, high)``, ``0.0 <= low <= high <= 1.0``.
    :raises ValueError: ``successes`` outside ``0..trials``.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    if trials == 0:
        return (0.0, 1.0)
    n = trials
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) of sorted values, interpolating linearly
    between the two nearest ranks (numpy's default, "linear").

    :raises ValueError: no values, or ``q`` outside 0..100.
    """
    if not ordered:
        raise ValueError("the percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile {q} outside 0..100")
    pos = (len(ordered) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return float(ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo))


def distribution(values: Sequence[float]) -> dict[str, float | int | None]:
    """``{"count", "mean", "median", "p5", "p95", "min", "max"}`` of some values;
    every field but ``count`` is ``None`` when there are none."""
    if not values:
        return {"count": 0, "mean": None, "median": None, "p5": None, "p95": None,
                "min": None, "max": None}
    ordered = sorted(values)
    return {"count": len(ordered), "mean": math.fsum(ordered) / len(ordered),
            "median": percentile(ordered, 50), "p5": percentile(ordered, 5),
            "p95": percentile(ordered, 95), "min": ordered[0], "max": ordered[-1]}


class Rate(TypedDict):
    """A proportion (:func:`rate`): successes, their share of the trials, and its 95%
    Wilson interval ``[low, high]``."""

    count: int
    rate: float
    ci95: list[float]


def rate(successes: int, trials: int) -> Rate:
    """``{"count", "rate", "ci95": [low, high]}``: a proportion with its Wilson interval
    (``rate`` 0.0 when there are no trials)."""
    lo, hi = wilson_interval(successes, trials)
    return {"count": successes, "rate": successes / trials if trials else 0.0, "ci95": [lo, hi]}
