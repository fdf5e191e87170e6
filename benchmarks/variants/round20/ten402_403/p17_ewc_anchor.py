"""Continual learning with an EWC penalty anchored at the task-A solution."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class EWC:
    def __init__(self, model, x, y, anchor_style):
        self.model = model
        if anchor_style == "data":
            self.star = {n: p.data for n, p in model.named_parameters()}  # expect: TEN402
        elif anchor_style == "view":
            self.star = {n: p.detach().view(-1) for n, p in model.named_parameters()}  # expect: TEN402
        else:
            self.star = {n: p.detach().clone().view(-1) for n, p in model.named_parameters()}  # ok
        model.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        self.fisher = {n: p.grad.detach().pow(2).clone() for n, p in model.named_parameters()}  # ok

    def penalty(self):
        total = 0.0
        for n, p in self.model.named_parameters():
            total = total + (self.fisher[n].view(-1) * (p.view(-1) - self.star[n].view(-1)) ** 2).sum()
        return total


def task(seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(64, 5, generator=g)
    return x, x @ torch.randn(5, 1, generator=g)


for style in ("data", "view", "clone"):
    torch.manual_seed(0)
    model = nn.Linear(5, 1)
    (xa, ya), (xb, yb) = task(1), task(2)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(60):
        opt.zero_grad()
        nn.functional.mse_loss(model(xa), ya).backward()
        opt.step()
    ewc = EWC(model, xa, ya, style)
    pens = []
    for _ in range(60):
        opt.zero_grad()
        pen = ewc.penalty()
        (nn.functional.mse_loss(model(xb), yb) + 2000.0 * pen).backward()
        opt.step()
        pens.append(pen.item())
    with torch.no_grad():
        forget = nn.functional.mse_loss(model(xa), ya).item()
    print(f"anchor={style} max_penalty={max(pens):.4f} task_A_loss_after_B={forget:.3f}")
