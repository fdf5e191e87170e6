"""Tiny population based training: exploit (copy the leader) and explore (perturb lr)."""
import copy
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)


class Worker:
    def __init__(self, wid, lr):
        self.wid = wid
        self.lr = lr
        self.model = nn.Sequential(nn.Linear(3, 24), nn.Tanh(), nn.Linear(24, 1))
        self.opt = torch.optim.Adam(self.model.parameters(), lr=lr)

    def set_lr(self, lr):
        self.lr = lr
        for g in self.opt.param_groups:
            g["lr"] = lr

    def train(self, x, y, steps=30):
        for _ in range(steps):
            idx = torch.randint(0, len(x), (16,))
            self.opt.zero_grad()
            nn.functional.mse_loss(self.model(x[idx]), y[idx]).backward()
            self.opt.step()

    @torch.no_grad()
    def score(self, x, y):
        return nn.functional.mse_loss(self.model(x), y).item()


def exploit(leader, laggard):
    donor = leader.model.state_dict()  # ok
    laggard.model.load_state_dict(donor)
    laggard.opt.load_state_dict(copy.deepcopy(leader.opt.state_dict()))  # ok
    laggard.set_lr(leader.lr * random.choice([0.5, 2.0]))


class PBT:
    def __init__(self, n=4):
        self.workers = [Worker(i, lr) for i, lr in enumerate([1e-3, 3e-3, 1e-2, 3e-2][:n])]
        self.best_score = float("inf")
        self.best_state = None
        self.best_from = None

    def round(self, data):
        x, y, xv, yv = data
        for w in self.workers:
            w.train(x, y)
        ranked = sorted(self.workers, key=lambda w: w.score(xv, yv))
        top_score = ranked[0].score(xv, yv)
        if top_score < self.best_score:
            self.best_score = top_score
            self.best_state = ranked[0].model.state_dict()  # expect: TEN402
            self.best_from = ranked[0].wid
        exploit(ranked[0], ranked[-1])

    def best_model(self):
        model = nn.Sequential(nn.Linear(3, 24), nn.Tanh(), nn.Linear(24, 1))
        model.load_state_dict(self.best_state)
        return model


def make_data():
    x = torch.randn(300, 3)
    y = torch.sin(x.sum(1, keepdim=True)) + 0.05 * torch.randn(300, 1)
    return x[:200], y[:200], x[200:], y[200:]


def main():
    data = make_data()
    pbt = PBT()
    for r in range(6):
        pbt.round(data)
    final = pbt.best_model()
    with torch.no_grad():
        again = nn.functional.mse_loss(final(data[2]), data[3]).item()
    print("best recorded %.4f (worker %d), reloaded best scores %.4f" % (pbt.best_score, pbt.best_from, again))


if __name__ == "__main__":
    main()
