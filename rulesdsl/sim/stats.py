"""95% intervals for what a simulation measures, in pure Python (no numpy or scipy to install).

Four shapes cover every figure ``simulate`` and ``compare`` report:

* a mean over matches (hands per match, a margin): Student's t interval;
* a proportion of matches (a seat's wins, the first player's wins): Wilson's score interval, which
  stays inside [0, 1] and behaves at 0 and 1 where the normal approximation does not;
* a share or mean over *hands* (the share of hands that end a given way, points per hand of that
  ending): a ratio of two per-match sums, with a cluster-robust (delta method) interval, because the
  hands of one match are not independent of each other while the matches are;
* a difference between two rulesets played from the same seeds with the same bots: the *paired*
  difference, match by match, which cancels most of the luck of the deal the two runs share.

An ``Estimate`` is a value with its interval; the interval is ``None`` where it cannot be had (fewer
than two matches, or numbers too large for floating point: a ruleset's scores may grow without bound).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, Sequence

#: the normal quantile for a two-sided 95% interval
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A figure and its 95% interval (``low``/``high`` ``None`` when there is none); ``n`` is the
    number of independent units (matches) it rests on."""

    value: Optional[float]
    low: Optional[float] = None
    high: Optional[float] = None
    n: int = 0

    def excludes_zero(self) -> bool:
        """Whether the interval lies wholly on one side of 0 (a difference beyond chance)."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    def as_dict(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


# -------------------------------------------------------------------------- Student's t quantile

def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betai(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(ln)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * _betai(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


@lru_cache(maxsize=None)
def t975(df: int) -> float:
    """The 97.5% quantile of Student's t (the factor of a two-sided 95% interval); ``df`` >= 1."""
    if df < 1:
        raise ValueError("a t interval needs at least one degree of freedom")
    if df > 100_000:
        return Z95
    lo, hi = Z95, 20.0
    while t_cdf(hi, df) < 0.975:        # df = 1 needs 12.7
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < 0.975:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2


# -------------------------------------------------------------------------- the four shapes

def _floats(values: Sequence) -> Optional[list[float]]:
    """The values as floats, or None when one does not fit (a score of hundreds of digits)."""
    try:
        return [float(v) for v in values]
    except OverflowError:
        return None


def mean_interval(values: Sequence) -> Estimate:
    """The mean and its t interval.  Too-large numbers give their exact integer mean and no interval."""
    n = len(values)
    if n == 0:
        return Estimate(None, n=0)
    xs = _floats(values)
    if xs is None:
        return Estimate(sum(values) // n, n=n)
    m = math.fsum(xs) / n
    if n < 2:
        return Estimate(m, n=n)
    if all(x == xs[0] for x in xs):
        return Estimate(m, m, m, n)
    var = math.fsum((x - m) ** 2 for x in xs) / (n - 1)
    half = t975(n - 1) * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n)


def proportion_interval(k: int, n: int) -> Estimate:
    """``k`` successes in ``n`` trials: the proportion and its Wilson score interval."""
    if n == 0:
        return Estimate(None, n=0)
    p = k / n
    z2 = Z95 * Z95
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if k == 0 else min(p, max(0.0, centre - half))      # exact at the edges (rounding
    high = 1.0 if k == n else max(p, min(1.0, centre + half))     # would leave 0.9999999999999999)
    return Estimate(p, low, high, n)


def ratio_interval(nums: Sequence, dens: Sequence, share: bool = False) -> Estimate:
    """Sum(nums) / sum(dens) over matches (each match one (num, den) pair: say the hands that ended
    a way and all hands), with a cluster-robust delta-method t interval.  ``share`` clips it to [0, 1]."""
    n = len(nums)
    ys, xs = _floats(nums), _floats(dens)
    if n == 0 or ys is None or xs is None:
        return Estimate(None, n=n)
    total = math.fsum(xs)
    if total == 0:
        return Estimate(None, n=n)
    r = math.fsum(ys) / total
    if n < 2:
        return Estimate(r, n=n)
    xbar = total / n
    resid = [(y - r * x) / xbar for y, x in zip(ys, xs)]
    est = _interval_of_zero_mean(r, resid)
    if share and est.low is not None:
        return Estimate(r, max(0.0, est.low), min(1.0, est.high), n)
    return est


def _interval_of_zero_mean(centre: float, resid: list[float]) -> Estimate:
    """``centre`` with a t interval from per-match linearized residuals (which sum to about zero)."""
    n = len(resid)
    m = math.fsum(resid) / n
    var = math.fsum((u - m) ** 2 for u in resid) / (n - 1)
    half = t975(n - 1) * math.sqrt(var / n)
    return Estimate(centre, centre - half, centre + half, n)


def paired_difference(a: Sequence, b: Sequence) -> Estimate:
    """Mean of ``b[i] - a[i]`` (the same match under two rulesets) with its t interval."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    try:
        diffs = [y - x for x, y in zip(a, b)]
    except TypeError:
        return Estimate(None, n=len(a))
    return mean_interval(diffs)


def paired_ratio_difference(nums_a: Sequence, dens_a: Sequence, nums_b: Sequence, dens_b: Sequence) -> Estimate:
    """``ratio(b) - ratio(a)`` where each ratio is sum(nums) / sum(dens) over the same matches, with a
    delta-method interval on the per-match differences of the linearized residuals."""
    n = len(nums_a)
    ya, xa, yb, xb = _floats(nums_a), _floats(dens_a), _floats(nums_b), _floats(dens_b)
    if n == 0 or None in (ya, xa, yb, xb):
        return Estimate(None, n=n)
    ta, tb = math.fsum(xa), math.fsum(xb)
    if ta == 0 or tb == 0:
        return Estimate(None, n=n)
    ra, rb = math.fsum(ya) / ta, math.fsum(yb) / tb
    d = rb - ra
    if n < 2:
        return Estimate(d, n=n)
    xabar, xbbar = ta / n, tb / n
    resid = [(y2 - rb * x2) / xbbar - (y1 - ra * x1) / xabar for y1, x1, y2, x2 in zip(ya, xa, yb, xb)]
    if all(abs(u) < 1e-12 for u in resid) and ya == yb and xa == xb:
        return Estimate(0.0, 0.0, 0.0, n)            # the very same matches: exactly no difference
    return _interval_of_zero_mean(d, resid)
