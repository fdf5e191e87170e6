"""Exponential moving average of model parameters.

Typical use::

    ema = ExponentialMovingAverage(model.parameters(), decay=0.999)
    for batch in loader:
        ...
        optimizer.step()
        ema.update(model.parameters())

    with ema.average_parameters(model.parameters()):
        val_metrics = evaluate(model, val_loader)
"""
import contextlib

import torch


class ExponentialMovingAverage:
    def __init__(self, parameters, decay=0.9999, use_num_updates=True):
        if not 0.0 <= decay <= 1.0:
            raise ValueError("decay must be in [0, 1]")
        parameters = list(parameters)
        self.decay = decay
        self.num_updates = 0 if use_num_updates else None
        self.shadow_params = [p.detach().clone() for p in parameters if p.requires_grad]  # ok
        self.collected_params = None

    @torch.no_grad()
    def update(self, parameters):
        decay = self.decay
        if self.num_updates is not None:
            self.num_updates += 1
            decay = min(decay, (1 + self.num_updates) / (10 + self.num_updates))
        one_minus_decay = 1.0 - decay
        params = [p for p in parameters if p.requires_grad]
        for s, p in zip(self.shadow_params, params):
            s.sub_(one_minus_decay * (s - p))

    @torch.no_grad()
    def copy_to(self, parameters):
        """Write the averaged values into ``parameters``."""
        params = [p for p in parameters if p.requires_grad]
        for s, p in zip(self.shadow_params, params):
            p.data.copy_(s.data)

    def store(self, parameters):
        """Remember the current parameters so that :meth:`restore` can put them back."""
        self.collected_params = [p.data for p in parameters]  # expect: TEN402

    @torch.no_grad()
    def restore(self, parameters):
        if self.collected_params is None:
            raise RuntimeError("restore() called without a preceding store()")
        for c, p in zip(self.collected_params, parameters):
            p.data.copy_(c)
        self.collected_params = None

    @contextlib.contextmanager
    def average_parameters(self, parameters):
        parameters = list(parameters)
        self.store(parameters)
        self.copy_to(parameters)
        try:
            yield
        finally:
            self.restore(parameters)

    def state_dict(self):
        return {
            "decay": self.decay,
            "num_updates": self.num_updates,
            "shadow_params": self.shadow_params,
        }

    def load_state_dict(self, state):
        self.decay = state["decay"]
        self.num_updates = state["num_updates"]
        if len(state["shadow_params"]) != len(self.shadow_params):
            raise ValueError("shadow parameter count mismatch")
        for s, loaded in zip(self.shadow_params, state["shadow_params"]):
            s.copy_(loaded)


def train_epoch(model, loader, optimizer, ema, loss_fn, device):
    model.train()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = loss_fn(model(x), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        ema.update(model.parameters())


def validate_with_ema(model, ema, loader, evaluate_fn):
    with ema.average_parameters(model.parameters()):
        return evaluate_fn(model, loader)
