"""Sharpness-aware minimisation: perturb, take the gradient, then undo."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class SAM:
    def __init__(self, params, base_cls, rho=0.5, keep_copy=False, **kw):
        self.params = list(params)  # ok
        self.base = base_cls(self.params, **kw)
        self.rho = rho
        self.keep_copy = keep_copy
        self.saved = {}

    @torch.no_grad()
    def first_step(self):
        norm = torch.norm(torch.stack([p.grad.norm() for p in self.params]))
        for p in self.params:
            if self.keep_copy:
                self.saved[p] = p.data.clone()  # ok
            else:
                self.saved[p] = p.data  # expect: TEN402
            p.add_(p.grad * self.rho / (norm + 1e-12))

    @torch.no_grad()
    def second_step(self):
        for p in self.params:
            p.data = self.saved[p]
        self.base.step()

    def zero_grad(self):
        self.base.zero_grad()


for keep_copy in (False, True):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
    x = torch.randn(30, 3)
    y = x.prod(1, keepdim=True)
    start = [p.detach().clone() for p in model.parameters()]  # ok
    opt = SAM(model.parameters(), torch.optim.SGD, keep_copy=keep_copy, lr=0.0)
    loss_fn = nn.MSELoss()
    opt.zero_grad()
    loss_fn(model(x), y).backward()
    opt.first_step()
    opt.zero_grad()
    loss_fn(model(x), y).backward()
    opt.second_step()  # lr=0: weights should be back where they started
    back = all(torch.equal(a, b) for a, b in zip(start, model.parameters()))
    print(f"keep_copy={keep_copy} weights_restored_after_lr0_step={back}")
