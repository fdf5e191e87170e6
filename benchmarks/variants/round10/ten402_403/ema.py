"""Exponential moving average of model weights, swapped in for evaluation."""
import contextlib

import torch


class ModelEMA:
    def __init__(self, model, decay=0.9999, warmup=2000):
        self.decay = decay
        self.warmup = warmup
        self.num_updates = 0
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters() if p.requires_grad}  # ok
        self._stash = None

    def _decay(self):
        return min(self.decay, (1 + self.num_updates) / (10 + self.num_updates))

    @torch.no_grad()
    def update(self, model):
        self.num_updates += 1
        d = self._decay()
        for n, p in model.named_parameters():
            if n in self.shadow:
                self.shadow[n].lerp_(p.detach(), 1.0 - d)

    @torch.no_grad()
    def swap_in(self, model):
        self._stash = {n: p.data for n, p in model.named_parameters() if n in self.shadow}  # expect: TEN402
        for n, p in model.named_parameters():
            if n in self.shadow:
                p.data.copy_(self.shadow[n])

    @torch.no_grad()
    def swap_out(self, model):
        for n, p in model.named_parameters():
            if n in self._stash:
                p.data.copy_(self._stash[n])
        self._stash = None

    @contextlib.contextmanager
    def average_parameters(self, model):
        self.swap_in(model)
        try:
            yield model
        finally:
            self.swap_out(model)

    def state_dict(self):
        return {"shadow": self.shadow, "num_updates": self.num_updates, "decay": self.decay}


def train_with_ema(model, loader, val_fn, epochs, lr=3e-4, device="cuda"):
    model.to(device)
    ema = ModelEMA(model)
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema.update(model)
        raw = val_fn(model)
        with ema.average_parameters(model):
            smoothed = val_fn(model)
        print(f"epoch {epoch}: val={raw:.4f} val_ema={smoothed:.4f}")
    return model, ema
