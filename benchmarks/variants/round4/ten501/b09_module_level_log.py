"""Regression script that keeps global logs for a plotting helper at the end."""
import torch
import torch.nn as nn

LOSS_LOG = []
GRAD_NORMS = []
LR_LOG = []


def log_step(loss, grad_norm, lr):
    LOSS_LOG.append(loss)  # expect: TEN501
    GRAD_NORMS.append(grad_norm)  # ok
    LR_LOG.append(lr)  # ok


def plot_logs(path="/tmp/curves.txt"):
    with open(path, "w") as f:
        for loss, gn, lr in zip(LOSS_LOG, GRAD_NORMS, LR_LOG):
            f.write(f"{float(loss):.6f}\t{float(gn):.4f}\t{lr:.2e}\n")


class MLP(nn.Module):
    def __init__(self, d_in=10, d_h=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, d_h), nn.SiLU(), nn.Linear(d_h, d_h), nn.SiLU())
        self.out = nn.Linear(d_h, 1)

    def forward(self, x):
        return self.out(self.body(x)).squeeze(-1)


def run(n_steps=1000, bs=64):
    model = MLP()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=n_steps)
    for step in range(n_steps):
        x = torch.randn(bs, 10)
        y = x.pow(2).sum(1) + 0.1 * torch.randn(bs)
        pred = model(x)
        loss = nn.functional.smooth_l1_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
        opt.step()
        sched.step()
        log_step(loss, grad_norm, sched.get_last_lr()[0])
        if step % 200 == 0:
            print(step, loss.item())
    plot_logs()


if __name__ == "__main__":
    run()
