"""The statistics behind speed verdicts, on synthetic timings: deterministic, never timed."""
import math
import random

import pytest

from flake8_tensorcopy.verify import stats
from flake8_tensorcopy.verify.stats import DOES_NOT_HOLD, HOLDS, NOT_SHOWN


def _timings(ratio, noise, rounds=12, seed=0, base=2e-6):
    """Paired per-round seconds: B around ``base``, A = B * ratio, each with relative noise."""
    rng = random.Random(seed)
    per_b = [base * (1 + rng.uniform(-noise, noise)) for _ in range(rounds)]
    per_a = [b * ratio * (1 + rng.uniform(-noise, noise)) for b in per_b]
    return per_a, per_b


def test_signed_rank_critical_values_match_the_published_table():
    # two-sided 5%: n=6..12 -> 0, 2, 3, 5, 8, 10, 13 (Wilcoxon signed-rank tables)
    assert [stats.critical_rank(n) for n in range(5, 13)] == [-1, 0, 2, 3, 5, 8, 10, 13]


def test_exact_p_value_matches_scipy():
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = random.Random(3)
    for _ in range(20):
        xs = [rng.gauss(0.3, 1.0) for _ in range(12)]
        ours = stats.signed_rank_p(xs)
        theirs = scipy_stats.wilcoxon(xs, method="exact").pvalue
        assert ours == pytest.approx(theirs, rel=1e-9)
    assert stats.signed_rank_p([1.0] * 12) == pytest.approx(2 / 4096)
    assert stats.signed_rank_p([0.0] * 12) == 1.0


def test_interval_is_the_walsh_order_statistics():
    xs = [float(i) for i in range(1, 13)]
    est, lo, hi = stats.walsh_interval(xs)
    walsh = sorted((xs[i] + xs[j]) / 2 for i in range(12) for j in range(i, 12))
    assert (lo, hi) == (walsh[13], walsh[78 - 1 - 13])
    assert est == pytest.approx(6.5)
    # too few rounds for 95%: the interval is unbounded, so nothing can be shown
    assert stats.walsh_interval([1.0, 2.0, 3.0])[1:] == (-math.inf, math.inf)


def test_a_consistent_3_percent_effect_is_not_a_5_percent_claim():
    """A sign test called A slower in 12/12 rounds here; the claim needs 5% and the interval says
    the effect is about 3%: it does not hold."""
    per_a, per_b = _timings(1.03, 0.002)
    cmp = stats.paired_comparison(per_a, per_b)
    assert all(a > b for a, b in zip(per_a, per_b))
    assert 1.0 < cmp["ratio_low"] <= cmp["ratio_high"] < 1.05
    assert stats.claimed_verdict(cmp["ratio_low"], cmp["ratio_high"]) == DOES_NOT_HOLD


def test_verdicts_from_synthetic_timings():
    cases = [((1.40, 0.01), HOLDS),        # clear effect, whole interval past 1.05
             ((1.06, 0.08), NOT_SHOWN),    # noisy 6%: the interval straddles 1.05
             ((1.00, 0.01), DOES_NOT_HOLD),
             ((0.80, 0.01), DOES_NOT_HOLD)]  # B is the slower one
    for (ratio, noise), want in cases:
        per_a, per_b = _timings(ratio, noise, seed=7)
        cmp = stats.paired_comparison(per_a, per_b)
        assert cmp["ratio_low"] <= cmp["ratio"] <= cmp["ratio_high"]
        assert cmp["diff_low"] <= cmp["diff"] <= cmp["diff_high"]
        got = stats.claimed_verdict(cmp["ratio_low"], cmp["ratio_high"])
        assert got == want, (ratio, noise, cmp)
        # the same timings always give the same numbers
        assert stats.paired_comparison(per_a, per_b) == cmp


def test_minimum_effect_is_a_parameter_of_the_claim():
    assert stats.claimed_verdict(1.08, 1.3, 0.05) == HOLDS
    assert stats.claimed_verdict(1.08, 1.3, 0.10) == NOT_SHOWN
    assert stats.claimed_verdict(1.02, 1.09, 0.10) == DOES_NOT_HOLD


def test_a_claim_holds_only_when_every_claimed_row_holds():
    assert stats.combine([HOLDS, HOLDS]) == HOLDS
    assert stats.combine([HOLDS, NOT_SHOWN]) == NOT_SHOWN
    assert stats.combine([NOT_SHOWN, DOES_NOT_HOLD]) == DOES_NOT_HOLD
    assert stats.combine([]) == NOT_SHOWN


def test_benjamini_hochberg():
    adjusted, rejected = stats.benjamini_hochberg([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert rejected == [True, True, True, True]
    adjusted, rejected = stats.benjamini_hochberg([0.01, 0.2, 0.03, 0.5], q=0.05)
    assert rejected == [True, False, False, False]
    assert stats.benjamini_hochberg([]) == ([], [])


def test_fdr_applies_to_unclaimed_rows_only():
    rows = [{"claimed": True, "p": 0.0005, "ratio": 1.5, "verdict": HOLDS}]
    rows += [{"claimed": False, "p": p, "ratio": r} for p, r in
             [(0.0005, 1.3), (0.0005, 0.8), (0.04, 1.1), (0.9, 1.0)]]
    assert stats.apply_fdr(rows) == 4
    assert rows[0]["verdict"] == HOLDS and "p_adjusted" not in rows[0]
    assert [r["verdict"] for r in rows[1:]] == [
        "A slower", "B slower", "no difference shown", "no difference shown"]
    # 0.04 alone would pass 0.05; among 4 tests it does not
    assert rows[3]["p_adjusted"] == pytest.approx(0.04 * 4 / 3)


def test_speed_claim_on_synthetic_timings():
    """Helper.speed_claim with a synthetic sampler: deterministic verdicts, extra rows unclaimed."""
    from flake8_tensorcopy.verify.helper import Helper

    effects = {1: 1.4, 10: 1.03, 100: 1.0}

    def sampler(a, b, env, no_grad, rounds):
        return _timings(effects[env["n"]], 0.002, rounds, seed=env["n"])

    def setup(n, rg):
        return {"n": n}

    quick = Helper(None, "cpu", quick=True, sampler=sampler)
    status, m = quick.speed_claim("A", "B", setup, scope=[(1, False, False)],
                                  extra=[(10, False, False)])
    assert status == HOLDS and [r["n"] for r in m["rows"]] == [1]  # quick: claimed rows only
    full = Helper(None, "cpu", quick=False, sampler=sampler)
    status, m = full.speed_claim("A", "B", setup, scope=[(1, False, False), (10, False, False)],
                                 extra=[(100, False, True)])
    assert status == DOES_NOT_HOLD  # the 3% row sinks the claim
    assert [(r["n"], r["claimed"], r["mode"]) for r in m["rows"]] == [
        (1, True, "grad"), (10, True, "grad"), (100, False, "no_grad")]
    assert m["rows"][0]["verdict"] == HOLDS and m["rows"][1]["verdict"] == DOES_NOT_HOLD
    for r in m["rows"]:
        assert r["ratio_low"] <= r["ratio"] <= r["ratio_high"] and 0 <= r["p"] <= 1
