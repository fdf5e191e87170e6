"""A small Trainer class with accessor methods for the weights."""
import copy

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.loss_fn = nn.MSELoss()
        self.history = []

    def get_weights(self):
        return self.model.state_dict()

    def set_weights(self, weights):
        self.model.load_state_dict(weights)

    def export_weights(self):
        return copy.deepcopy(self.model.state_dict())

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.loss_fn(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, data, epochs=10):
        best_loss = float("inf")
        best_weights = None
        safe_weights = None
        for epoch in range(epochs):
            losses = [self.train_step(x, y) for x, y in data]
            mean = sum(losses) / len(losses)
            self.history.append(mean)
            if mean < best_loss:
                best_loss = mean
                best_weights = self.get_weights()  # expect: TEN402
                safe_weights = self.export_weights()  # ok: TEN402
        self.set_weights(best_weights)
        return safe_weights


class Runner:
    """Wrapper whose checkpoint() returns the live dict; the caller keeps it across a fit."""

    def __init__(self, net):
        self.net = net
        self.opt = torch.optim.SGD(net.parameters(), lr=0.01)

    def checkpoint(self):
        return self.net.state_dict()

    def fit(self, x, y, steps=20):
        for _ in range(steps):
            self.opt.zero_grad()
            nn.functional.mse_loss(self.net(x), y).backward()
            self.opt.step()


def compare_before_after():
    runner = Runner(nn.Linear(4, 1))
    x, y = torch.randn(32, 4), torch.randn(32, 1)
    before = runner.checkpoint()  # expect: TEN402
    runner.fit(x, y)
    after = runner.checkpoint()  # ok: TEN402
    changed = {k: not torch.equal(before[k], after[k]) for k in after}
    print("changed:", changed)


if __name__ == "__main__":
    data = [(torch.randn(16, 4), torch.randn(16, 1)) for _ in range(4)]
    Trainer(nn.Linear(4, 1)).fit(data, epochs=3)
    compare_before_after()
