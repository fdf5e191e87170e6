from collections import defaultdict

import torch
from torch.optim import Optimizer


class Lookahead(Optimizer):
    """Lookahead wrapper (Zhang et al., 2019): k fast steps, then interpolate
    the slow weights towards the fast weights and reset the fast weights."""

    def __init__(self, base_optimizer: Optimizer, k: int = 5, alpha: float = 0.5):
        if not 0.0 <= alpha <= 1.0:
            raise ValueError(f"invalid alpha {alpha}")
        self.base_optimizer = base_optimizer
        self.k = k
        self.alpha = alpha
        self.param_groups = base_optimizer.param_groups
        self.defaults = base_optimizer.defaults
        self.state = defaultdict(dict)
        self._fast_steps = 0
        self.slow_weights = [[p.data for p in group["params"]]  # expect: TEN402
                             for group in self.param_groups]

    @torch.no_grad()
    def _sync_slow(self):
        for group, slows in zip(self.param_groups, self.slow_weights):
            for p, slow in zip(group["params"], slows):
                slow.add_(p - slow, alpha=self.alpha)
                p.copy_(slow)

    def step(self, closure=None):
        loss = self.base_optimizer.step(closure)
        self._fast_steps += 1
        if self._fast_steps % self.k == 0:
            self._sync_slow()
        return loss

    def zero_grad(self, set_to_none: bool = True):
        self.base_optimizer.zero_grad(set_to_none=set_to_none)


class LookaheadFixed(Lookahead):
    def __init__(self, base_optimizer, k=5, alpha=0.5):
        super().__init__(base_optimizer, k, alpha)
        self.slow_weights = [[p.detach().clone() for p in group["params"]]  # ok
                             for group in self.param_groups]


class PerParamLookahead(Lookahead):
    """Keeps slow weights in the per-parameter state instead of a list."""

    def __init__(self, base_optimizer, k=5, alpha=0.5):
        super().__init__(base_optimizer, k, alpha)
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["slow"] = torch.empty_like(p).copy_(p)  # ok

    @torch.no_grad()
    def _sync_slow(self):
        for group in self.param_groups:
            for p in group["params"]:
                slow = self.state[p]["slow"]
                slow.add_(p - slow, alpha=self.alpha)
                p.copy_(slow)
