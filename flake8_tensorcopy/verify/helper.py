"""What a claim's check function gets: torch, the device, tensor factories and a speed harness."""
from __future__ import annotations

import math
import statistics
import warnings
from contextlib import contextmanager
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from .tensors import make

#: one-sided sign test: a claim "A is slower than B" holds in a configuration only when A was
#: slower in at least this many of the paired rounds (P <= 0.02 under "no difference")
ROUNDS = 12
SIGN_THRESHOLD = 10


class Helper:
    def __init__(self, torch, device: str, quick: bool) -> None:
        self.torch = torch
        self.device = device
        self.quick = quick

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
    def time_pair(self, a: str, b: str, env: Dict[str, Any], no_grad: bool,
                  rounds: int = ROUNDS) -> Dict[str, Any]:
        """Interleaved (ABBA) timing of two statements; medians, IQRs and the paired sign test."""
        from torch.utils.benchmark import Timer

        torch = self.torch
        min_run = 0.01 if self.quick else 0.05
        glb = dict(env)
        glb["torch"] = torch
        prefix = "with torch.no_grad():\n    " if no_grad else ""

        def stmt(s: str) -> str:
            return prefix + s if no_grad else s

        ta = Timer(stmt(a), globals=glb)
        tb = Timer(stmt(b), globals=glb)
        per_a: List[float] = []
        per_b: List[float] = []
        slower = 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ta.timeit(3)  # warm up both (allocator, dispatcher caches)
            tb.timeit(3)
            for i in range(rounds):
                order = (ta, tb, tb, ta) if i % 2 == 0 else (tb, ta, ta, tb)
                got: Dict[int, List[float]] = {id(ta): [], id(tb): []}
                for timer in order:
                    got[id(timer)].append(timer.blocked_autorange(min_run_time=min_run).median)
                ra, rb = statistics.fmean(got[id(ta)]), statistics.fmean(got[id(tb)])
                per_a.append(ra)
                per_b.append(rb)
                slower += ra > rb
        med_a, med_b = statistics.median(per_a), statistics.median(per_b)
        return {
            "a_median_us": med_a * 1e6,
            "b_median_us": med_b * 1e6,
            "a_iqr_us": _iqr(per_a) * 1e6,
            "b_iqr_us": _iqr(per_b) * 1e6,
            "ratio": med_a / med_b if med_b else math.inf,
            "a_slower_rounds": slower,
            "rounds": rounds,
            "a_slower": slower >= SIGN_THRESHOLD,
            "b_slower": rounds - slower >= SIGN_THRESHOLD,
        }

    def speed_claim(self, a: str, b: str, setup: Callable[[int, bool], Dict[str, Any]],
                    scope: Iterable[Tuple[int, bool, bool]],
                    extra: Iterable[Tuple[int, bool, bool]] = ()) -> Tuple[bool, dict]:
        """Claim: ``a`` is slower than ``b`` in every (n, requires_grad, no_grad) of ``scope``.

        ``extra`` configurations are measured and reported (full runs) without being claimed.
        """
        rows = []
        holds = True
        configs = [(c, True) for c in scope]
        if not self.quick:
            configs += [(c, False) for c in extra if c not in set(scope)]
        for (n, rg, no_grad), claimed in configs:
            r = self.time_pair(a, b, setup(n, rg), no_grad)
            r.update({"n": n, "requires_grad": rg, "mode": "no_grad" if no_grad else "grad",
                      "claimed": claimed})
            rows.append(r)
            if claimed and not r["a_slower"]:
                holds = False
        return holds, {"a": a, "b": b, "rows": rows}


def _iqr(xs: Sequence[float]) -> float:
    if len(xs) < 4:
        return 0.0
    q = statistics.quantiles(xs, n=4)
    return q[2] - q[0]


SIZES = (1, 1_000, 100_000, 10_000_000)


def all_configs(sizes: Sequence[int] = SIZES):
    return [(n, rg, ng) for n in sizes for rg in (True, False) for ng in (False, True)]
