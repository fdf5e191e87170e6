"""Parameter/gradient statistics tracked during training, all collected without grad."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class ParamMonitor:
    def __init__(self, model):
        self.model = model
        self.history = defaultdict(list)
        self._prev = None

    @torch.no_grad()
    def snapshot(self):
        for name, p in self.model.named_parameters():
            self.history[name + "/norm"].append(p.norm())  # ok
            if p.grad is not None:
                self.history[name + "/grad"].append(p.grad.norm())  # ok
                self.history[name + "/ratio"].append(p.grad.norm() / (p.norm() + 1e-12))  # ok

    def update_size(self):
        with torch.inference_mode():
            flat = torch.cat([p.reshape(-1) for p in self.model.parameters()])
            if self._prev is not None:
                self.history["update_size"].append((flat - self._prev).norm())  # ok
            self._prev = flat.clone()


def main(steps=4):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 10), nn.Tanh(), nn.Linear(10, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    monitor = ParamMonitor(model)
    l2_log, total_norms, decay_terms = [], [], []
    for step in range(steps):
        x = torch.randn(16, 6)
        y = x.sum(1, keepdim=True)
        l2 = sum(p.pow(2).sum() for p in model.parameters())
        loss = F.mse_loss(model(x), y) + 1e-4 * l2
        opt.zero_grad()
        loss.backward()
        monitor.snapshot()
        opt.step()
        monitor.update_size()
        l2_log.append(float(l2))  # ok
        decay_terms.append((1e-4 * l2).detach())  # ok
        with torch.no_grad():
            total_norms.append(torch.sqrt(sum(p.pow(2).sum() for p in model.parameters())))  # ok
    print(len(monitor.history), l2_log[-1], total_norms[-1].item())


if __name__ == "__main__":
    main()
