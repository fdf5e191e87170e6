"""Snapshot collections: checkpoint averaging and per-epoch history."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def average_state_dicts(sds):
    keys = sds[0].keys()
    return {k: sum(sd[k].float() for sd in sds) / len(sds) for k in keys}


def train_and_average_last(model, data, epochs=6, keep_last=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    snapshots = []
    for epoch in range(epochs):
        for x, y in data:
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
        snapshots.append(model.state_dict())  # expect: TEN402
        snapshots = snapshots[-keep_last:]
    model.load_state_dict(average_state_dicts(snapshots))


def train_with_history(model, data, epochs=4):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    per_epoch = {}
    scores = {}
    for epoch in range(epochs):
        for x, y in data:
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
        per_epoch[epoch] = model.state_dict()  # expect: TEN402
        scores[epoch] = sum(F.mse_loss(model(x), y).item() for x, y in data)
    best_epoch = min(scores, key=scores.get)
    model.load_state_dict(per_epoch[best_epoch])
    return best_epoch


class TopKCheckpoints:
    def __init__(self, k=2):
        self.k = k
        self.entries = []

    def push(self, score, model):
        self.entries.append((score, model.state_dict()))  # expect: TEN402
        self.entries.sort(key=lambda e: e[0])
        self.entries = self.entries[: self.k]

    def best(self):
        return self.entries[0][1]


def train_topk(model, data, epochs=4):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    topk = TopKCheckpoints()
    for epoch in range(epochs):
        for x, y in data:
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
        topk.push(sum(F.mse_loss(model(x), y).item() for x, y in data), model)
    model.load_state_dict(topk.best())


def train_and_average_correct(model, data, epochs=6):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    snapshots = []
    for epoch in range(epochs):
        for x, y in data:
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
        snapshots.append(copy.deepcopy(model.state_dict()))  # ok: TEN402
    model.load_state_dict(average_state_dicts(snapshots[-3:]))


if __name__ == "__main__":
    data = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(2)]
    for fn in (train_and_average_last, train_with_history, train_topk, train_and_average_correct):
        fn(nn.Linear(3, 1), data)
