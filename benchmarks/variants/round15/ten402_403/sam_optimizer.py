"""Sharpness-Aware Minimization: perturb, recompute the loss, restore and step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        super().__init__(params, dict(rho=rho, **kwargs))
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)

    def _grad_norm(self):
        return torch.norm(torch.stack([p.grad.norm(2) for g in self.param_groups for p in g["params"]
                                       if p.grad is not None]), 2)

    @torch.no_grad()
    def first_step(self):
        scale_base = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (scale_base + 1e-12)
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
        scale_base = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (scale_base + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data.clone()  # ok
                p.add_(p.grad * scale)


def train(opt_cls):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 20), nn.ReLU(), nn.Linear(20, 1))
    opt = opt_cls(model.parameters(), torch.optim.SGD, lr=0.05, rho=0.5)
    x, y = torch.randn(64, 5), torch.randn(64, 1)
    for _ in range(15):
        F.mse_loss(model(x), y).backward()
        opt.first_step()
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.second_step()
        opt.zero_grad()
    return F.mse_loss(model(x), y).item()


if __name__ == "__main__":
    print("SAM with aliased old_p:", train(SAM))
    print("SAM with cloned old_p:", train(SAMFixed))
