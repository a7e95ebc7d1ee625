"""rulesdsl.sim.stats: the 95% intervals checked against published values, and their properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesdsl.sim.stats import (Estimate, mean_interval, paired_difference, paired_ratio_difference,
                                proportion_interval, ratio_interval, t975)

# Student's t, 97.5% quantiles (any statistics table)
T_TABLE = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 10: 2.2281, 20: 2.0860, 30: 2.0423,
           60: 2.0003, 120: 1.9799}


@pytest.mark.parametrize("df,value", sorted(T_TABLE.items()))
def test_t_quantile_matches_the_table(df, value):
    assert t975(df) == pytest.approx(value, abs=1e-4)


def test_t_quantile_tends_to_the_normal():
    assert t975(10 ** 6) == pytest.approx(1.95996, abs=1e-5)
    with pytest.raises(ValueError):
        t975(0)


def test_wilson_interval_of_50_in_100():
    e = proportion_interval(50, 100)
    assert e.value == 0.5 and e.n == 100
    assert (e.low, e.high) == (pytest.approx(0.40383, abs=1e-5), pytest.approx(0.59617, abs=1e-5))


def test_wilson_interval_at_the_edges():
    e = proportion_interval(0, 10)           # the normal approximation would give [0, 0]
    assert e.low == 0.0 and e.high == pytest.approx(0.27753, abs=1e-5)
    e = proportion_interval(10, 10)
    assert e.high == 1.0 and e.low == pytest.approx(0.72247, abs=1e-5)
    assert proportion_interval(0, 0).value is None


def test_t_interval_of_a_known_sample():
    # 1..5: mean 3, s = sqrt(2.5), half-width t(4) * s / sqrt(5) = 2.7764 * 0.70711 = 1.96324
    e = mean_interval([1, 2, 3, 4, 5])
    assert e.value == 3.0
    assert (e.low, e.high) == (pytest.approx(1.03676, abs=1e-5), pytest.approx(4.96324, abs=1e-5))


def test_mean_interval_degenerate_cases():
    assert mean_interval([]).value is None
    assert mean_interval([7]) == Estimate(7.0, None, None, 1)
    assert mean_interval([4, 4, 4]) == Estimate(4.0, 4.0, 4.0, 3)
    big = 10 ** 400                          # no float: the exact mean, no interval
    assert mean_interval([big, big + 2]) == Estimate(big + 1, None, None, 2)


def test_ratio_interval_weights_matches_by_their_hands():
    # 3 of 10 hands, then 1 of 2: 4 of 12 overall (not the mean of 0.3 and 0.5)
    e = ratio_interval([3, 1], [10, 2], share=True)
    assert e.value == pytest.approx(4 / 12)
    assert 0.0 <= e.low <= e.value <= e.high <= 1.0


def test_paired_difference_of_the_same_sample_is_exactly_zero():
    xs = [3, 9, 1, 4]
    assert paired_difference(xs, xs) == Estimate(0.0, 0.0, 0.0, 4)
    assert paired_ratio_difference([1, 2, 0], [5, 6, 7], [1, 2, 0], [5, 6, 7]) == Estimate(0.0, 0.0, 0.0, 3)


def test_paired_difference_is_the_mean_of_differences():
    # differences 1, 2, 3: mean 2, s = 1, half-width t(2) / sqrt(3) = 2.48414
    e = paired_difference([10, 10, 10], [11, 12, 13])
    assert e.value == 2.0 and e.low == pytest.approx(2 - 2.48414, abs=1e-5)
    assert e.excludes_zero() is False
    assert paired_difference([0] * 4, [5, 6, 5, 6]).excludes_zero()


values = st.lists(st.integers(-1000, 1000), min_size=2, max_size=40)


@given(values)
def test_a_mean_interval_holds_its_mean(xs):
    e = mean_interval(xs)
    assert e.low <= e.value <= e.high
    assert math.isclose(e.value, sum(xs) / len(xs), abs_tol=1e-9)


@given(st.integers(0, 500), st.integers(1, 500))
def test_a_wilson_interval_holds_its_proportion_inside_0_1(k, n):
    k = min(k, n)
    e = proportion_interval(k, n)
    assert 0.0 <= e.low <= e.value <= e.high <= 1.0


@given(values, st.integers(-50, 50))
def test_shifting_one_sample_shifts_the_paired_difference(xs, c):
    e = paired_difference(xs, [x + c for x in xs])
    assert e == Estimate(float(c), float(c), float(c), len(xs))


@given(st.integers(1, 200))
def test_t_quantiles_fall_towards_the_normal(df):
    assert t975(df + 1) < t975(df) and t975(df) > 1.95996
