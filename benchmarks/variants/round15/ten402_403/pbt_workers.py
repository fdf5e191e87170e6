"""Population based training: exploit (copy the winner) and explore (perturb lr)."""
import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
X, Y = torch.randn(128, 4), torch.randn(128, 1)


class Worker:
    def __init__(self, wid):
        self.wid = wid
        self.model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.opt = torch.optim.SGD(self.model.parameters(), lr=10 ** random.uniform(-3, -1))
        self.ckpt = None
        self.score = float("-inf")

    def train_some(self, steps=10):
        for _ in range(steps):
            self.opt.zero_grad()
            F.mse_loss(self.model(X), Y).backward()
            self.opt.step()
        with torch.no_grad():
            self.score = -F.mse_loss(self.model(X), Y).item()

    def save_ready(self):
        self.ckpt = self.model.state_dict().copy()  # expect: TEN402
        self.ckpt_opt = copy.deepcopy(self.opt.state_dict())  # ok

    def rollback(self):
        self.model.load_state_dict(self.ckpt)
        self.opt.load_state_dict(self.ckpt_opt)


def exploit_and_explore(population):
    population.sort(key=lambda w: w.score)
    loser, winner = population[0], population[-1]
    loser.model.load_state_dict(winner.model.state_dict())  # ok
    loser.opt.load_state_dict(copy.deepcopy(winner.opt.state_dict()))  # ok
    for g in loser.opt.param_groups:
        g["lr"] *= random.choice([0.8, 1.2])


if __name__ == "__main__":
    pop = [Worker(i) for i in range(4)]
    for rnd in range(4):
        for w in pop:
            w.train_some()
            w.save_ready()
        exploit_and_explore(pop)
    for w in pop:
        w.train_some(steps=50)
        w.rollback()
    print(sorted(round(w.score, 4) for w in pop))
