"""Utilities around a small keyword-spotting model: export, parameter stats, feature buffers."""
import copy
import os

import torch
import torch.nn as nn


class KWS(nn.Module):
    def __init__(self, n_mels=40, n_keywords=12):
        super().__init__()
        self.frontend = nn.Sequential(nn.Conv1d(n_mels, 64, 3, padding=1), nn.ReLU())
        self.gru = nn.GRU(64, 64, batch_first=True)
        self.cls = nn.Linear(64, n_keywords)

    def forward(self, mels):  # (B, n_mels, T)
        h = self.frontend(mels).transpose(1, 2)
        _, last = self.gru(h)
        return self.cls(last[-1])


def param_report(model: nn.Module) -> dict:
    sd = model.state_dict()  # ok
    return {k: (tuple(v.shape), float(v.float().norm())) for k, v in sd.items()}


def flat_weights(model: nn.Module) -> torch.Tensor:
    return torch.cat([p.detach().reshape(-1) for p in model.parameters()])  # ok


def export(model: nn.Module, out_dir: str, step: int) -> str:
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"kws_{step:06d}.pt")
    torch.save({"step": step, "model": model.state_dict()}, path)  # ok
    return path


def frozen_frontend_copy(model: KWS) -> nn.Module:
    clone = copy.deepcopy(model.frontend)  # ok
    return clone.eval().requires_grad_(False)


class FeatureRing:
    """Rolling log-mel context for streaming inference; width is exactly two hops."""

    def __init__(self, n_mels=40, hop=50):
        self.hop = hop
        self.buf = torch.zeros(n_mels, 2 * hop)

    def push(self, frames: torch.Tensor) -> torch.Tensor:
        h = self.hop
        self.buf[:, :h] = self.buf[:, h:]  # ok
        self.buf[:, h:] = frames  # ok
        return self.buf


def delta_features(mels: torch.Tensor) -> torch.Tensor:
    d = torch.zeros_like(mels)
    d[..., 1:] = mels[..., 1:] - mels[..., :-1]  # ok
    return d


def preemphasis_(wave: torch.Tensor, coef: float = 0.97) -> torch.Tensor:
    wave[..., 1:] = wave[..., 1:] - coef * wave[..., :-1]  # ok
    return wave


def train_briefly(steps=50):
    model = KWS()
    reference = frozen_frontend_copy(model)
    ref_state = reference.state_dict()  # ok
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    before = flat_weights(model)
    for _ in range(steps):
        x = torch.randn(8, 40, 100)
        y = torch.randint(0, 12, (8,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    moved = (flat_weights(model) - before).norm().item()
    drift = sum((a - b).abs().sum().item() for a, b in zip(reference.state_dict().values(), ref_state.values()))
    return moved, drift


if __name__ == "__main__":
    print(train_briefly(5))
    print(param_report(KWS())["cls.weight"][0])
