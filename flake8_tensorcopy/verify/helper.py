"""What a claim's check function gets: torch, the device, tensor factories and a speed harness."""
from __future__ import annotations

import statistics
import time
import warnings
from contextlib import contextmanager
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from .tensors import make

from . import stats

#: timing rounds per configuration (full run, --quick); each round is one ABBA pair, the unit of
#: the paired statistics
ROUNDS = 16
QUICK_ROUNDS = 12


class Helper:
    def __init__(self, torch, device: str, quick: bool, sampler=None) -> None:
        self.torch = torch
        self.device = device
        self.quick = quick
        #: ``sampler(a, b, env, no_grad, rounds) -> (per_a, per_b)`` in seconds per round; the
        #: default times the statements for real. Tests pass synthetic timings here.
        self.sampler = sampler or self.measure

    # -- tensors -----------------------------------------------------------------------------
    def make(self, kind: str, seed: int = 0):
        return make(self.torch, kind, self.device, seed)

    def leaf(self, *shape, dtype=None):
        t = self.torch.randn(*shape, dtype=dtype or self.torch.float32, device=self.device)
        return t.requires_grad_(True)

    def shares_memory(self, a, b) -> bool:
        return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()

    @contextmanager
    def warnings(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield caught

    def error(self, fn: Callable[[], Any]) -> Optional[str]:
        """The ``Type: first line`` of what ``fn`` raises, or None."""
        try:
            fn()
        except Exception as exc:  # claims about errors compare these strings
            return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return None

    # -- speed -------------------------------------------------------------------------------
    def measure(self, a: str, b: str, env: Dict[str, Any], no_grad: bool,
                rounds: int = ROUNDS) -> Tuple[List[float], List[float]]:
        """Interleaved (ABBA) timing of two statements: per round, the smaller of A's two runs and
        the smaller of B's (interference from other processes only ever adds time).

        Only the statement is timed. For ``no_grad`` rows grad mode is switched off around the
        timing calls (grad mode is thread-local and the Timer runs the statement in this thread),
        so entering the ``with`` block is not part of what is measured.
        """
        from torch.utils.benchmark import Timer

        torch = self.torch
        min_run = 0.01 if self.quick else 0.05
        glb = dict(env)
        glb["torch"] = torch
        ta = Timer(a, globals=glb, **self._clock())
        tb = Timer(b, globals=glb, **self._clock())
        per_a: List[float] = []
        per_b: List[float] = []
        with warnings.catch_warnings(), torch.set_grad_enabled(not no_grad):
            warnings.simplefilter("ignore")
            ta.timeit(3)  # warm up both (allocator, dispatcher caches)
            tb.timeit(3)
            for i in range(rounds):
                order = (ta, tb, tb, ta) if i % 2 == 0 else (tb, ta, ta, tb)
                got: Dict[int, List[float]] = {id(ta): [], id(tb): []}
                for timer in order:
                    got[id(timer)].append(timer.blocked_autorange(min_run_time=min_run).median)
                per_a.append(min(got[id(ta)]))
                per_b.append(min(got[id(tb)]))
        return per_a, per_b

    def _clock(self) -> Dict[str, Any]:
        """CPU rows use the process's CPU time (every thread of this process, none of the time
        spent waiting for a CPU), so the load of other processes does not enter the timings; CUDA
        rows keep the Timer's wall clock, which synchronises the device."""
        return {"timer": time.process_time} if self.device == "cpu" else {}

    @property
    def clock_name(self) -> str:
        return "process CPU time" if self.device == "cpu" else "wall time, device synchronised"

    def no_grad_entry_cost(self) -> Dict[str, float]:
        """What entering ``with torch.no_grad():`` costs per statement (excluded from timings)."""
        from torch.utils.benchmark import Timer

        glb = {"torch": self.torch}
        with_block = Timer("with torch.no_grad():\n    pass", globals=glb, **self._clock())
        bare = Timer("pass", globals=glb, **self._clock())
        min_run = 0.01 if self.quick else 0.05
        w = with_block.blocked_autorange(min_run_time=min_run).median
        b = bare.blocked_autorange(min_run_time=min_run).median
        return {"with_no_grad_us": w * 1e6, "bare_us": b * 1e6, "entry_cost_us": (w - b) * 1e6}

    def time_pair(self, a: str, b: str, env: Dict[str, Any], no_grad: bool,
                  rounds: Optional[int] = None) -> Dict[str, Any]:
        """Medians, IQRs, the paired ratio and difference with exact 95% intervals, the p-value."""
        if rounds is None:
            rounds = QUICK_ROUNDS if self.quick else ROUNDS
        per_a, per_b = self.sampler(a, b, env, no_grad, rounds)
        med_a, med_b = statistics.median(per_a), statistics.median(per_b)
        cmp = stats.paired_comparison(per_a, per_b)
        return {
            "a_median_us": med_a * 1e6,
            "b_median_us": med_b * 1e6,
            "a_iqr_us": _iqr(per_a) * 1e6,
            "b_iqr_us": _iqr(per_b) * 1e6,
            "ratio": cmp["ratio"], "ratio_low": cmp["ratio_low"], "ratio_high": cmp["ratio_high"],
            "diff_us": cmp["diff"] * 1e6, "diff_low_us": cmp["diff_low"] * 1e6,
            "diff_high_us": cmp["diff_high"] * 1e6,
            "p": cmp["p"],
            "rounds": len(per_a),
            "a_slower_rounds": sum(x > y for x, y in zip(per_a, per_b)),
        }

    def speed_claim(self, a: str, b: str, setup: Callable[[int, bool], Dict[str, Any]],
                    scope: Iterable[Tuple[int, bool, bool]],
                    extra: Iterable[Tuple[int, bool, bool]] = (),
                    min_effect: float = stats.MIN_EFFECT) -> Tuple[str, dict]:
        """Claim: ``a`` is slower than ``b`` by at least ``min_effect`` in every
        (n, requires_grad, no_grad) of ``scope``.

        A configuration holds when the whole 95% interval of the ratio A/B is at or above
        ``1 + min_effect``, does not hold when it is wholly below, and is not shown otherwise.
        ``extra`` configurations are measured and reported (full runs) without being claimed;
        the runner controls their false discovery rate across the whole run.
        """
        rows = []
        verdicts = []
        scope = list(scope)
        configs = [(c, True) for c in scope]
        if not self.quick:
            configs += [(c, False) for c in extra if c not in set(scope)]
        for (n, rg, no_grad), claimed in configs:
            r = self.time_pair(a, b, setup(n, rg), no_grad)
            r.update({"n": n, "requires_grad": rg, "mode": "no_grad" if no_grad else "grad",
                      "claimed": claimed})
            if claimed:
                r["verdict"] = stats.claimed_verdict(r["ratio_low"], r["ratio_high"], min_effect)
                verdicts.append(r["verdict"])
            rows.append(r)
        return stats.combine(verdicts), {"a": a, "b": b, "min_effect": min_effect,
                                         "clock": self.clock_name, "rows": rows}


def _iqr(xs: Sequence[float]) -> float:
    if len(xs) < 4:
        return 0.0
    q = statistics.quantiles(xs, n=4)
    return q[2] - q[0]

