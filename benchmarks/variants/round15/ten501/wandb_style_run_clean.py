"""Experiment tracking through a wandb-like Run object; everything logged is a python number."""
import torch
import torch.nn as nn


class Run:
    def __init__(self, config):
        self.config = dict(config)
        self.history = []
        self.summary = {}

    def log(self, data, step=None):
        self.history.append({"_step": step, **data})
        self.summary.update(data)


def to_scalars(d):
    return {k: (v.item() if torch.is_tensor(v) else v) for k, v in d.items()}


def train(run, steps=6):
    torch.manual_seed(run.config["seed"])
    G = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))
    D = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
    opt_g = torch.optim.Adam(G.parameters(), lr=run.config["lr"])
    opt_d = torch.optim.Adam(D.parameters(), lr=run.config["lr"])
    bce = nn.BCEWithLogitsLoss()
    samples = []
    for step in range(steps):
        real = torch.randn(16, 2) + 1.5
        fake = G(torch.randn(16, 2))
        d_loss = bce(D(real), torch.ones(16, 1)) + bce(D(fake.detach()), torch.zeros(16, 1))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = bce(D(fake), torch.ones(16, 1))
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        run.log({"d_loss": d_loss.item(), "g_loss": g_loss.item()}, step=step)  # ok
        run.log(to_scalars({"fake_mean": fake.mean(), "real_mean": real.mean()}), step=step)  # ok
        samples.append(fake.detach().cpu().numpy())  # ok
    return samples


if __name__ == "__main__":
    run = Run({"lr": 2e-3, "seed": 0})
    samples = train(run)
    print(run.summary, len(run.history), len(samples))
