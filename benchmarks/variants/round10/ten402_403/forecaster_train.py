"""Training for a multi-horizon load forecaster (N-BEATS-like MLP stack).

Includes rollback on divergence and averaging of the last few epoch checkpoints.
"""
import collections
import copy
import math

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, lookback, horizon, width=512):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(lookback, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
        self.backcast = nn.Linear(width, lookback)
        self.forecast = nn.Linear(width, horizon)

    def forward(self, x):
        h = self.fc(x)
        return self.backcast(h), self.forecast(h)


class NBeats(nn.Module):
    def __init__(self, lookback=168, horizon=24, n_blocks=6):
        super().__init__()
        self.blocks = nn.ModuleList([Block(lookback, horizon) for _ in range(n_blocks)])

    def forward(self, x):
        residual, out = x, 0.0
        for b in self.blocks:
            back, fc = b(residual)
            residual = residual - back
            out = out + fc
        return out


def smape(pred, target, eps=1e-6):
    return (2 * (pred - target).abs() / (pred.abs() + target.abs() + eps)).mean()


@torch.no_grad()
def validate(model, loader, device):
    model.eval()
    losses = [smape(model(x.to(device)), y.to(device)).item() for x, y in loader]
    return sum(losses) / len(losses)


def train_forecaster(model, train_loader, val_loader, epochs=100, lr=1e-3, keep_last=5):
    device = next(model.parameters()).device
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    last_good = None
    recent = collections.deque(maxlen=keep_last)

    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            loss = smape(model(x.to(device)), y.to(device))
            if not torch.isfinite(loss):
                if last_good is not None:
                    model.load_state_dict(last_good)
                for g in opt.param_groups:
                    g["lr"] *= 0.5
                opt.state.clear()
                continue
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()

        val = validate(model, val_loader, device)
        print(f"epoch {epoch}: val sMAPE={val:.4f}")
        if math.isfinite(val):
            last_good = copy.copy(model.state_dict())  # expect: TEN402
        recent.append({k: v.to(device) for k, v in model.state_dict().items()})  # expect: TEN402

    averaged = {k: torch.stack([sd[k].float() for sd in recent]).mean(0) for k in recent[0]}
    final = {k: v.cpu().clone() for k, v in model.state_dict().items()}  # ok
    model.load_state_dict(averaged)
    avg_val = validate(model, val_loader, device)
    print(f"checkpoint average of last {len(recent)} epochs: val sMAPE={avg_val:.4f}")
    return model, final
