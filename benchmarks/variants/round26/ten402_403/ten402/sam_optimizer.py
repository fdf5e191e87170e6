import torch
import torch.nn as nn

torch.manual_seed(0)


class SAM(torch.optim.Optimizer):
    """Sharpness-aware minimisation wrapped around a base optimizer (two-step form)."""

    def __init__(self, params, base_optimizer_cls, rho=0.05, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer_cls(self.param_groups, **kwargs)

    @torch.no_grad()
    def first_step(self):
        grad_norm = torch.norm(torch.stack([p.grad.norm() for g in self.param_groups for p in g["params"] if p.grad is not None]))
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data  # expect: TEN402
                p.add_(p.grad * scale)

    @torch.no_grad()
    def second_step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data = self.state[p]["old_p"]
        self.base_optimizer.step()


class SAMFixed(SAM):
    @torch.no_grad()
    def first_step(self):
        grad_norm = torch.norm(torch.stack([p.grad.norm() for g in self.param_groups for p in g["params"] if p.grad is not None]))
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data.clone()  # ok
                p.add_(p.grad * scale)


def train(opt_cls):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 1))
    opt = opt_cls(model.parameters(), torch.optim.SGD, rho=0.5, lr=0.05)
    X = torch.randn(64, 6)
    Y = X[:, :2].prod(1, keepdim=True)
    for _ in range(30):
        nn.functional.mse_loss(model(X), Y).backward()
        opt.first_step()
        opt.zero_grad()
        nn.functional.mse_loss(model(X), Y).backward()
        opt.second_step()
        opt.zero_grad()
    with torch.no_grad():
        return nn.functional.mse_loss(model(X), Y).item()


print(f"SAM      final loss {train(SAM):.6f}")
print(f"SAMFixed final loss {train(SAMFixed):.6f}")
