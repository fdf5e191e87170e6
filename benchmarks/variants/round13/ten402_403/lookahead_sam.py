"""Optimizer wrappers: Lookahead (k fast steps, one slow step) and SAM."""
import torch
from torch import nn


class Lookahead:
    def __init__(self, base_optimizer, k=5, alpha=0.5):
        self.base = base_optimizer
        self.k = k
        self.alpha = alpha
        self.counter = 0
        self.param_groups = base_optimizer.param_groups  # ok
        self.slow_weights = [[p.detach() for p in g["params"]] for g in self.param_groups]  # expect: TEN402

    def zero_grad(self, set_to_none=True):
        self.base.zero_grad(set_to_none=set_to_none)

    @torch.no_grad()
    def step(self):
        self.base.step()
        self.counter += 1
        if self.counter % self.k:
            return
        for group, slow_group in zip(self.param_groups, self.slow_weights):
            for fast, slow in zip(group["params"], slow_group):
                slow.add_(fast - slow, alpha=self.alpha)
                fast.copy_(slow)


class SAM(torch.optim.Optimizer):
    """Sharpness-aware minimisation: ascend to w + e(w), take the gradient there."""

    def __init__(self, params, base_cls=torch.optim.SGD, rho=0.05, **kwargs):
        super().__init__(params, dict(rho=rho, **kwargs))
        self.base = base_cls(self.param_groups, **kwargs)

    @torch.no_grad()
    def first_step(self):
        grads = [p.grad.norm(2) for g in self.param_groups for p in g["params"] if p.grad is not None]
        grad_norm = torch.norm(torch.stack(grads), 2)
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
                if "old_p" in self.state[p]:
                    p.data = self.state[p]["old_p"]
        self.base.step()


def demo(steps=10):
    torch.manual_seed(0)
    x, y = torch.randn(40, 6), torch.randn(40, 1)
    net = nn.Linear(6, 1)
    opt = Lookahead(torch.optim.SGD(net.parameters(), lr=0.1), k=3)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(net(x), y).backward()
        opt.step()

    net2 = nn.Linear(6, 1)
    sam = SAM(net2.parameters(), lr=0.1, rho=0.1)
    for _ in range(steps):
        nn.functional.mse_loss(net2(x), y).backward()
        sam.first_step()
        sam.zero_grad()
        nn.functional.mse_loss(net2(x), y).backward()
        sam.second_step()
        sam.zero_grad()
    return net, opt, net2, sam


if __name__ == "__main__":
    net, opt, net2, sam = demo()
    print("lookahead weight norm", net.weight.norm().item())
    print("sam weight norm", net2.weight.norm().item())
