"""Lookahead optimizer wrapper (Zhang et al. 2019): k fast steps, then slow <- slow + alpha (fast - slow)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Lookahead:
    def __init__(self, base, k=5, alpha=0.5, clone_slow=True):
        self.base = base
        self.k = k
        self.alpha = alpha
        self.step_count = 0
        if clone_slow:
            self.slow_weights = [[p.clone().detach() for p in group["params"]] for group in base.param_groups]  # ok
        else:
            self.slow_weights = [[p.detach() for p in group["params"]] for group in base.param_groups]  # expect: TEN402

    def zero_grad(self):
        self.base.zero_grad()

    @torch.no_grad()
    def step(self):
        self.base.step()
        self.step_count += 1
        if self.step_count % self.k:
            return
        for group, slows in zip(self.base.param_groups, self.slow_weights):
            for p, q in zip(group["params"], slows):
                q.add_(p - q, alpha=self.alpha)
                p.copy_(q)


def run(clone_slow):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = Lookahead(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9), clone_slow=clone_slow)
    g = torch.Generator().manual_seed(5)
    x = torch.randn(256, 10, generator=g)
    y = torch.sin(x[:, :1]) + 0.1 * x[:, 1:2]
    losses = []
    for step in range(42):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    slow_vs_fast = sum((q - p).norm().item() for p, q in zip(model.parameters(), opt.slow_weights[0]))
    print(f"clone_slow={clone_slow}: loss@10={losses[10]:.5f} loss@41={losses[41]:.5f} "
          f"sum|slow-fast| after 42 steps={slow_vs_fast:.5f}")


if __name__ == "__main__":
    run(clone_slow=False)
    run(clone_slow=True)
