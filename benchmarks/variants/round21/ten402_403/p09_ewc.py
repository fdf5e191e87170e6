"""Elastic Weight Consolidation (Kirkpatrick et al. 2017) on two synthetic regression tasks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class EWC:
    def __init__(self, model, data, clone_star):
        self.model = model
        x, y = data
        if clone_star:
            self.star = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
        else:
            self.star = {n: torch.as_tensor(p) for n, p in model.named_parameters()}  # expect: TEN402
        self.fisher = {n: torch.zeros_like(p) for n, p in model.named_parameters()}
        for i in range(len(x)):
            model.zero_grad()
            F.mse_loss(model(x[i:i + 1]), y[i:i + 1]).backward()
            for n, p in model.named_parameters():
                self.fisher[n] += p.grad.detach() ** 2 / len(x)

    def penalty(self):
        return sum((self.fisher[n] * (p - self.star[n]) ** 2).sum()
                   for n, p in self.model.named_parameters())


def task(seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(64, 4, generator=g)
    return x, x @ torch.randn(4, 1, generator=g)


def run(clone_star, lam=50.0):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
    A, B = task(1), task(2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(150):
        opt.zero_grad()
        F.mse_loss(model(A[0]), A[1]).backward()
        opt.step()
    loss_a_before = F.mse_loss(model(A[0]), A[1]).item()
    ewc = EWC(model, A, clone_star)
    pen_max = 0.0
    for _ in range(150):
        opt.zero_grad()
        pen = ewc.penalty()
        pen_max = max(pen_max, pen.item())
        (F.mse_loss(model(B[0]), B[1]) + lam * pen).backward()
        opt.step()
    with torch.no_grad():
        print(f"clone_star={clone_star}: taskA loss before B={loss_a_before:.4f} after B="
              f"{F.mse_loss(model(A[0]), A[1]).item():.4f} taskB loss={F.mse_loss(model(B[0]), B[1]).item():.4f} "
              f"max EWC penalty seen={pen_max:.5f}")


if __name__ == "__main__":
    run(clone_star=False)
    run(clone_star=True)
