"""Sharpness-aware minimisation (two-step optimizer wrapper)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.5, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups

    def _grad_norm(self):
        return torch.norm(torch.stack([p.grad.norm(p=2) for g in self.param_groups
                                       for p in g["params"] if p.grad is not None]), p=2)

    @torch.no_grad()
    def first_step(self):
        scale_base = self._grad_norm() + 1e-12
        for group in self.param_groups:
            scale = group["rho"] / scale_base
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
        scale_base = self._grad_norm() + 1e-12
        for group in self.param_groups:
            scale = group["rho"] / scale_base
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data.clone()  # ok
                p.add_(p.grad * scale)


class SAMDelta(SAM):
    """Stores the perturbation instead of the old weights."""

    @torch.no_grad()
    def first_step(self):
        scale_base = self._grad_norm() + 1e-12
        for group in self.param_groups:
            scale = group["rho"] / scale_base
            for p in group["params"]:
                if p.grad is None:
                    continue
                e_w = p.grad * scale
                self.state[p]["e_w"] = e_w  # ok
                p.add_(e_w)

    @torch.no_grad()
    def second_step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.sub_(self.state[p]["e_w"])  # ok
        self.base_optimizer.step()


def run(cls):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = cls(model.parameters(), torch.optim.SGD, lr=0.1)
    x, y = torch.randn(48, 4), torch.randint(0, 3, (48,))
    for _ in range(10):
        F.cross_entropy(model(x), y).backward()
        opt.first_step()
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.second_step()
        opt.zero_grad()
    with torch.no_grad():
        return round(F.cross_entropy(model(x), y).item(), 4)


if __name__ == "__main__":
    for cls in (SAM, SAMFixed, SAMDelta):
        print(cls.__name__, run(cls))
