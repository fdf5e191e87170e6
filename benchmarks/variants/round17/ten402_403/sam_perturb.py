"""Sharpness-aware minimisation: perturb, recompute grads, go back, step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_cls, rho=0.05, **kw):
        super().__init__(params, dict(rho=rho, **kw))
        self.base = base_cls(self.param_groups, **kw)

    def _grad_norm(self):
        norms = [p.grad.norm() for g in self.param_groups for p in g["params"] if p.grad is not None]
        return torch.stack(norms).norm()

    def _remember(self, p):
        self.state[p]["old_p"] = p.data  # expect: TEN402

    def _restore(self, p):
        p.data = self.state[p]["old_p"]

    @torch.no_grad()
    def first_step(self):
        scale_base = self._grad_norm() + 1e-12
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is None:
                    continue
                self._remember(p)
                p.add_(p.grad, alpha=g["rho"] / scale_base.item())

    @torch.no_grad()
    def second_step(self):
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is not None:
                    self._restore(p)
        self.base.step()


class SafeSAM(SAM):
    def _remember(self, p):
        self.state[p]["old_p"] = p.detach().clone()  # ok

    def _restore(self, p):
        p.copy_(self.state[p]["old_p"])  # ok


def train(opt_cls):
    torch.manual_seed(5)
    clf = nn.Sequential(nn.Linear(5, 20), nn.ReLU(), nn.Linear(20, 2))
    opt = opt_cls(clf.parameters(), torch.optim.SGD, rho=0.1, lr=0.1, momentum=0.5)
    x = torch.randn(80, 5)
    y = (x.norm(dim=1) > 2.2).long()
    for _ in range(15):
        F.cross_entropy(clf(x), y).backward()
        opt.first_step()
        opt.zero_grad()
        F.cross_entropy(clf(x), y).backward()
        opt.second_step()
        opt.zero_grad()
    with torch.no_grad():
        return F.cross_entropy(clf(x), y).item()


if __name__ == "__main__":
    print("SAM (aliasing)", round(train(SAM), 4))
    print("SAM (cloning)", round(train(SafeSAM), 4))
