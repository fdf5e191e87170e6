"""Monitor the update/weight ratio per layer (Karpathy's rule of thumb ~1e-3)."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def named_weights(model):
    return [(n, p) for n, p in model.named_parameters() if p.dim() > 1]


class RatioMonitor:
    def before_step(self, model):
        self.prev = [p.data for _, p in named_weights(model)]  # expect: TEN402
        self.prev_ok = [p.data.clone() for _, p in named_weights(model)]  # ok

    def after_step(self, model):
        out = []
        for (n, p), old, old_ok in zip(named_weights(model), self.prev, self.prev_ok):
            out.append((n, ((p.data - old).norm() / p.data.norm()).item(),
                        ((p.data - old_ok).norm() / p.data.norm()).item()))
        return out


model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
mon = RatioMonitor()
X, y = torch.randn(128, 8), torch.randint(0, 3, (128,))
for step in range(5):
    opt.zero_grad()
    nn.functional.cross_entropy(model(X), y).backward()
    mon.before_step(model)
    opt.step()
    for n, r, r_ok in mon.after_step(model):
        print(f"step {step} {n:8s} ratio {r:.3e} ratio(cloned) {r_ok:.3e}")
