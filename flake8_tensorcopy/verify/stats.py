"""Paired statistics for speed comparisons: exact, deterministic, no torch.

Each timing round gives one pair ``(a_i, b_i)`` (A and B measured back to back, ABBA order). The
verifier reports, per configuration:

- the ratio A/B: the Hodges-Lehmann estimate of the per-round log ratios ``log(a_i / b_i)``,
  exponentiated, with the exact 95% confidence interval that inverts the Wilcoxon signed-rank test
  (order statistics of the Walsh averages);
- the difference A - B in the same way on ``a_i - b_i``;
- the exact two-sided signed-rank p-value of "no difference" (all ``2**n`` sign patterns are
  enumerated, ties and zeros included), used for the false discovery rate over unclaimed rows.

Everything here is a pure function of the timings: the same timings always give the same verdict.
"""
from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple

#: a claimed speed effect must be at least this large (A at least 5% slower than B)
MIN_EFFECT = 0.05
#: confidence level of every interval and the false discovery rate over unclaimed rows
LEVEL = 0.95
FDR_Q = 0.05

HOLDS = "holds"
DOES_NOT_HOLD = "does not hold"
NOT_SHOWN = "not shown"
ERROR = "error"
NOT_RUN = "not run"
STATUSES = (HOLDS, DOES_NOT_HOLD, NOT_SHOWN, ERROR, NOT_RUN)


def _signed_rank_counts(n: int) -> List[int]:
    """counts[k]: how many of the 2**n sign patterns give T+ == k (ranks 1..n, no ties)."""
    counts = [1]
    for r in range(1, n + 1):
        new = [0] * (len(counts) + r)
        for k, c in enumerate(counts):
            new[k] += c
            new[k + r] += c
        counts = new
    return counts


def critical_rank(n: int, level: float = LEVEL) -> int:
    """The largest ``c`` with P(T+ <= c) <= (1 - level) / 2 under the null; -1 if none."""
    counts = _signed_rank_counts(n)
    total = float(2 ** n)
    alpha2 = (1.0 - level) / 2.0
    acc, c = 0, -1
    for k, cnt in enumerate(counts):
        acc += cnt
        if acc / total <= alpha2 + 1e-12:
            c = k
        else:
            break
    return c


def walsh_interval(xs: Sequence[float], level: float = LEVEL) -> Tuple[float, float, float]:
    """(Hodges-Lehmann estimate, low, high) of the centre of ``xs``; exact signed-rank interval.

    With too few observations for the level (n < 6 at 95%) the interval is infinite.
    """
    n = len(xs)
    if n == 0:
        return math.nan, -math.inf, math.inf
    walsh = sorted((xs[i] + xs[j]) / 2.0 for i in range(n) for j in range(i, n))
    m = len(walsh)
    mid = m // 2
    est = walsh[mid] if m % 2 else (walsh[mid - 1] + walsh[mid]) / 2.0
    c = critical_rank(n, level)
    if c < 0:
        return est, -math.inf, math.inf
    return est, walsh[c], walsh[m - 1 - c]


def _ranks(values: Sequence[float]) -> List[float]:
    """Average ranks (1-based) of ``values``."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return ranks


def signed_rank_p(xs: Sequence[float]) -> float:
    """Exact two-sided p-value of the Wilcoxon signed-rank test of "centre is 0".

    Zeros are dropped (Wilcoxon's convention); ties get average ranks and the null distribution is
    enumerated over every sign pattern, so it stays exact with ties. Up to 20 non-zero values.
    """
    nz = [x for x in xs if x != 0]
    n = len(nz)
    if n == 0:
        return 1.0
    if n > 20:  # pragma: no cover - the verifier uses 12 to 16 rounds
        raise ValueError("signed_rank_p enumerates 2**n patterns; n must be <= 20")
    ranks = _ranks([abs(x) for x in nz])
    total = sum(ranks)
    observed = sum(r for r, x in zip(ranks, nz) if x > 0)
    dev = abs(observed - total / 2.0)
    extreme = 0
    # T+ over all sign patterns; ranks are multiples of 0.5, compare with a small tolerance
    sums = [0.0]
    for r in ranks:
        sums = sums + [s + r for s in sums]
    for s in sums:
        if abs(s - total / 2.0) >= dev - 1e-9:
            extreme += 1
    return min(1.0, extreme / float(len(sums)))


def paired_comparison(per_a: Sequence[float], per_b: Sequence[float],
                      level: float = LEVEL) -> Dict[str, float]:
    """Ratio A/B and difference A-B (seconds) with exact intervals, and the p-value of no difference."""
    if len(per_a) != len(per_b) or not per_a:
        raise ValueError("paired_comparison needs two equally long, non-empty lists of timings")
    logs = [math.log(a / b) for a, b in zip(per_a, per_b)]
    diffs = [a - b for a, b in zip(per_a, per_b)]
    r_est, r_lo, r_hi = walsh_interval(logs, level)
    d_est, d_lo, d_hi = walsh_interval(diffs, level)
    return {
        "ratio": math.exp(r_est), "ratio_low": math.exp(r_lo), "ratio_high": math.exp(r_hi),
        "diff": d_est, "diff_low": d_lo, "diff_high": d_hi,
        "p": signed_rank_p(logs), "n": len(logs), "level": level,
    }


def claimed_verdict(ratio_low: float, ratio_high: float, min_effect: float = MIN_EFFECT) -> str:
    """"A is slower than B by at least ``min_effect``": holds when the whole interval is past it,
    does not hold when the whole interval is short of it, not shown when it straddles it."""
    bound = 1.0 + min_effect
    if ratio_low >= bound:
        return HOLDS
    if ratio_high < bound:
        return DOES_NOT_HOLD
    return NOT_SHOWN


def combine(statuses: Sequence[str]) -> str:
    """A claim over several configurations: every one must hold (an intersection-union test, so
    no multiplicity correction is needed); one that does not hold decides; else not shown."""
    if not statuses:
        return NOT_SHOWN
    if ERROR in statuses:
        return ERROR
    if DOES_NOT_HOLD in statuses:
        return DOES_NOT_HOLD
    if all(s == HOLDS for s in statuses):
        return HOLDS
    return NOT_SHOWN


def benjamini_hochberg(ps: Sequence[float], q: float = FDR_Q) -> Tuple[List[float], List[bool]]:
    """(adjusted p-values, rejected) under Benjamini-Hochberg at false discovery rate ``q``."""
    m = len(ps)
    if m == 0:
        return [], []
    order = sorted(range(m), key=lambda i: ps[i])
    adjusted = [0.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, ps[i] * m / rank)
        adjusted[i] = running
    return adjusted, [a <= q for a in adjusted]


def unclaimed_verdict(ratio: float, rejected: bool) -> str:
    if not rejected:
        return "no difference shown"
    return "A slower" if ratio > 1.0 else "B slower"


def apply_fdr(rows: Sequence[Dict], q: float = FDR_Q) -> Optional[int]:
    """Adjust the p-values of every unclaimed row (in place); returns how many were tested."""
    tested = [r for r in rows if not r.get("claimed") and "p" in r]
    adjusted, rejected = benjamini_hochberg([r["p"] for r in tested], q)
    for r, adj, rej in zip(tested, adjusted, rejected):
        r["p_adjusted"] = adj
        r["verdict"] = unclaimed_verdict(r["ratio"], rej)
    return len(tested)
