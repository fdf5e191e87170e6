"""A small Learner wrapper whose accessors are used by a hyper-parameter loop."""
import copy
import math

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Learner:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-3)

    def get_weights(self):
        return self.model.state_dict()  # either

    def clone_weights(self):
        return copy.deepcopy(self.model.state_dict())  # ok

    def set_weights(self, weights):
        self.model.load_state_dict(weights)

    def cpu_weights(self):
        return {k: v.cpu() for k, v in self.model.state_dict().items()}  # either

    def train_epoch(self, x, y, bs=32):
        self.model.train()
        for i in range(0, len(x), bs):
            self.opt.zero_grad()
            nn.functional.smooth_l1_loss(self.model(x[i:i + bs]), y[i:i + bs]).backward()
            self.opt.step()

    @torch.no_grad()
    def evaluate(self, x, y):
        self.model.eval()
        return nn.functional.smooth_l1_loss(self.model(x), y).item()


def weight_norm(learner):
    weights = learner.cpu_weights()  # ok
    return math.sqrt(sum(float(w.pow(2).sum()) for w in weights.values()))


def make_regression(n, noise):
    x = torch.rand(n, 3) * 4 - 2
    y = (x[:, :1] ** 2 - x[:, 1:2] + torch.sin(3 * x[:, 2:])) + noise * torch.randn(n, 1)
    return x, y


def search(xtr, ytr, xva, yva, deep):
    torch.manual_seed(2)
    learner = Learner(nn.Sequential(nn.Linear(3, 64), nn.GELU(), nn.Linear(64, 1)), lr=0.1)
    best_loss = math.inf
    best = None
    for epoch in range(40):
        learner.train_epoch(xtr, ytr)
        loss = learner.evaluate(xva, yva)
        if loss < best_loss:
            best_loss = loss
            if deep:
                best = learner.clone_weights()  # ok
            else:
                best = learner.get_weights()  # expect: TEN402
    learner.set_weights(best)
    return best_loss, learner.evaluate(xva, yva), weight_norm(learner)


def main():
    xtr, ytr = make_regression(160, 0.4)
    xva, yva = make_regression(80, 0.4)
    for deep in (False, True):
        b, r, n = search(xtr, ytr, xva, yva, deep)
        print("deep=%s best=%.4f restored=%.4f |w|=%.3f" % (deep, b, r, n))


if __name__ == "__main__":
    main()
