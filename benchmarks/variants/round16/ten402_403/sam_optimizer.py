import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SAM(torch.optim.Optimizer):
    """Sharpness-aware minimisation: ascend to w + e(w), take the gradient there,
    go back to w and let the base optimizer step."""

    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        super().__init__(params, dict(rho=rho, **kwargs))
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)

    def _remember(self, p):
        self.state[p]["old_p"] = p.data  # expect: TEN402

    @torch.no_grad()
    def first_step(self):
        norm = torch.norm(torch.stack([p.grad.norm(2) for g in self.param_groups
                                       for p in g["params"] if p.grad is not None]), 2)
        for group in self.param_groups:
            scale = group["rho"] / (norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self._remember(p)
                p.add_(p.grad * scale)

    @torch.no_grad()
    def second_step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data = self.state[p]["old_p"]
        self.base_optimizer.step()


class SAMCopy(SAM):
    def _remember(self, p):
        self.state[p]["old_p"] = p.detach().clone()  # ok


def checkerboard(n):
    x = torch.rand(n, 2) * 2 - 1
    y = ((x[:, 0].floor() + x[:, 1].floor()) % 2).long()
    return x, y


def train(opt_cls):
    torch.manual_seed(8)
    x, y = checkerboard(512)
    model = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
    opt = opt_cls(model.parameters(), torch.optim.SGD, rho=0.1, lr=0.05, momentum=0.9)
    w_start = model[0].weight.detach().clone()  # ok
    for epoch in range(25):
        for idx in torch.randperm(512).split(64):
            F.cross_entropy(model(x[idx]), y[idx]).backward()
            opt.first_step()
            opt.zero_grad()
            F.cross_entropy(model(x[idx]), y[idx]).backward()
            opt.second_step()
            opt.zero_grad()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    return acc, (model[0].weight.detach() - w_start).norm().item()


def main():
    for cls in (SAM, SAMCopy):
        acc, drift = train(cls)
        print(f"{cls.__name__:8s} train acc {acc:.3f} first-layer drift {drift:.3f}")


if __name__ == "__main__":
    main()
