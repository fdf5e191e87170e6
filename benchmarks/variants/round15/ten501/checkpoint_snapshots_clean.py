"""Best-checkpoint tracking, weight snapshots and gradient logging without graphs."""
import copy

import torch
import torch.nn as nn


class ModelCheckpoint:
    def __init__(self, mode="min"):
        self.mode = mode
        self.best_score = None
        self.best_state = None
        self.scores = []

    def step(self, score, model):
        score = float(score)
        self.scores.append(score)
        if self.best_score is None or score < self.best_score:
            self.best_score = score
            self.best_state = copy.deepcopy(model.state_dict())
            return True
        return False


def train(model, batches, epochs=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    ckpt = ModelCheckpoint()
    snapshots, grad_log, state_history = [], [], []
    improved = []
    for epoch in range(epochs):
        for x, y in batches:
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            grad_log.append([p.grad.clone() for p in model.parameters()])  # ok
            opt.step()
        snapshots.append([p.detach().clone() for p in model.parameters()])  # ok
        state_history.append(copy.deepcopy(model.state_dict()))  # ok
        with torch.no_grad():
            val = sum(nn.functional.mse_loss(model(x), y) for x, y in batches) / len(batches)
        improved.append(ckpt.step(val, model))  # ok
    return ckpt, snapshots, grad_log, improved


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 1))
    batches = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(3)]
    ckpt, snaps, grads, improved = train(model, batches)
    print(round(ckpt.best_score, 4), len(snaps), len(grads), improved)
