"""Best-model records stored in dataclasses, namedtuples and helper-written dicts."""
import copy
from collections import namedtuple
from dataclasses import dataclass, field
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

Snapshot = namedtuple("Snapshot", ["epoch", "score", "weights"])


@dataclass
class BestRecord:
    score: float = float("-inf")
    weights: Optional[dict] = None
    epochs: list = field(default_factory=list)


def train_epoch(model, opt, x, y):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    return -loss.item()


def with_dataclass(model, x, y, epochs=4):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    record = BestRecord()
    for e in range(epochs):
        score = train_epoch(model, opt, x, y) if e else 10.0
        if score > record.score:
            record = BestRecord(score=score, weights=model.state_dict(), epochs=[e])  # expect: TEN402
    model.load_state_dict(record.weights)
    return record


def with_dataclass_attr(model, x, y, epochs=4):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    record = BestRecord()
    for e in range(epochs):
        score = train_epoch(model, opt, x, y)
        if score > record.score:
            record.score = score
            record.weights = model.state_dict()  # expect: TEN402
    model.load_state_dict(record.weights)


def with_namedtuple(model, x, y, epochs=4):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    best = None
    for e in range(epochs):
        score = train_epoch(model, opt, x, y)
        if best is None or score > best.score:
            best = Snapshot(e, score, model.state_dict())  # expect: TEN402
    model.load_state_dict(best.weights)
    return best.epoch


def remember_best(store, model, score):
    if score > store.get("score", float("-inf")):
        store["score"] = score
        store["weights"] = model.state_dict()  # expect: TEN402


def with_helper(model, x, y, epochs=4):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    store = {}
    for e in range(epochs):
        remember_best(store, model, train_epoch(model, opt, x, y))
    model.load_state_dict(store["weights"])


def with_namedtuple_ok(model, x, y, epochs=4):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    best = None
    for e in range(epochs):
        score = train_epoch(model, opt, x, y)
        if best is None or score > best.score:
            best = Snapshot(e, score, copy.deepcopy(model.state_dict()))  # ok
    model.load_state_dict(best.weights)


def summary_only(model, x, y):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    rec = Snapshot(0, 0.0, model.state_dict())  # ok
    n_tensors = len(rec.weights)
    train_epoch(model, opt, x, y)
    return n_tensors, rec.epoch


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    for fn in (with_dataclass, with_namedtuple):
        m = nn.Linear(4, 1)
        opt_ref = torch.optim.SGD(m.parameters(), lr=0.05)
        fn(m, x, y)
    # direct check: the record's weights are the model's live tensors
    m = nn.Linear(4, 1)
    rec = with_dataclass(m, x, y)
    print("record weights are live:", rec.weights["weight"].data_ptr() == m.weight.data_ptr(), "epoch", rec.epochs)
