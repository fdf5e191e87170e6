"""Sharpness-Aware Minimization: perturb, compute grad, restore, step."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_cls, rho=0.1, keep_copy=True, **kw):
        super().__init__(params, dict(rho=rho, **kw))
        self.base = base_cls(self.param_groups, **kw)
        self.keep_copy = keep_copy

    @torch.no_grad()
    def first_step(self):
        norm = torch.norm(torch.stack([p.grad.norm() for g in self.param_groups for p in g["params"] if p.grad is not None]))
        for g in self.param_groups:
            scale = g["rho"] / (norm + 1e-12)
            for p in g["params"]:
                if p.grad is None:
                    continue
                if self.keep_copy:
                    self.state[p]["old_p"] = p.data.clone()  # ok
                else:
                    self.state[p]["old_p"] = p.data  # expect: TEN402
                p.add_(p.grad * scale)

    @torch.no_grad()
    def second_step(self):
        for g in self.param_groups:
            for p in g["params"]:
                if "old_p" in self.state[p]:
                    p.data = self.state[p]["old_p"]
        self.base.step()


def train(keep_copy):
    torch.manual_seed(3)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = SAM(model.parameters(), torch.optim.SGD, rho=0.5, keep_copy=keep_copy, lr=0.1)
    x, y = torch.randn(24, 4), torch.randn(24, 1)
    for _ in range(4):
        ((model(x) - y) ** 2).mean().backward()
        opt.first_step()
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.second_step()
        opt.zero_grad()
    return ((model(x) - y) ** 2).mean().item()


print(f"SAM loss with copy={train(True):.4f} without={train(False):.4f}")
