"""Sharpness-aware minimisation: perturb, re-evaluate, step from the old point."""
import torch
from torch import nn


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_cls, rho=0.05, keep_copy=True, **kw):
        super().__init__(params, dict(rho=rho, **kw))
        self.base = base_cls(self.param_groups, **kw)
        self.keep_copy = keep_copy

    @torch.no_grad()
    def first_step(self):
        grads = [p.grad for g in self.param_groups for p in g["params"] if p.grad is not None]
        norm = torch.norm(torch.stack([gr.norm(2) for gr in grads]), 2)
        for group in self.param_groups:
            scale = group["rho"] / (norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                if self.keep_copy:
                    self.state[p]["old_p"] = p.data.clone()  # ok
                else:
                    self.state[p]["old_p"] = p.data  # expect: TEN402
                p.add_(p.grad * scale)

    @torch.no_grad()
    def second_step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if "old_p" in self.state[p]:
                    p.data.copy_(self.state[p]["old_p"])
        self.base.step()

    def step(self, closure=None):
        raise RuntimeError("use first_step/second_step")


def run(keep_copy):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 20), nn.ReLU(), nn.Linear(20, 1))
    opt = SAM(model.parameters(), torch.optim.SGD, rho=0.5, keep_copy=keep_copy, lr=0.05)
    x, y = torch.randn(64, 5), torch.randn(64, 1)
    drift = []
    for _ in range(10):
        before = [p.detach().clone() for p in model.parameters()]  # ok
        nn.functional.mse_loss(model(x), y).backward()
        opt.first_step()
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.second_step()
        opt.zero_grad()
        drift.append(sum((p - b).norm().item() for p, b in zip(model.parameters(), before)))
    with torch.no_grad():
        loss = nn.functional.mse_loss(model(x), y).item()
    print(f"keep_copy={keep_copy}: mean step size {sum(drift) / len(drift):.4f}, final loss {loss:.4f}")


if __name__ == "__main__":
    run(keep_copy=False)
    run(keep_copy=True)
