"""FedAvg simulation with a handful of clients on a shared CPU."""
import copy
from typing import Dict, List

import torch
from torch import nn


def mlp():
    return nn.Sequential(nn.Flatten(), nn.Linear(784, 200), nn.ReLU(), nn.Linear(200, 10))


def local_update(global_model, loader, epochs=1, lr=0.05):
    model = copy.deepcopy(global_model)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    crit = nn.CrossEntropyLoss()
    last = None
    n_samples = 0
    for _ in range(epochs):
        for x, y in loader:
            loss = crit(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            last = loss
            n_samples += len(y)  # ok
    return model.state_dict(), last, n_samples


def average(states: List[Dict[str, torch.Tensor]], weights: List[int]):
    total = float(sum(weights))
    out = {}
    for key in states[0]:
        out[key] = sum(s[key] * (w / total) for s, w in zip(states, weights))  # ok
    return out


def run(client_loaders, rounds=50, frac=0.5):
    global_model = mlp()
    n_clients = len(client_loaders)
    round_loss = [None] * rounds
    per_client_last = {}
    for r in range(rounds):
        chosen = torch.randperm(n_clients)[: max(1, int(frac * n_clients))].tolist()
        states, sizes, finals = [], [], []
        for cid in chosen:
            sd, last, n = local_update(global_model, client_loaders[cid])
            states.append(sd)  # ok
            sizes.append(n)  # ok
            finals.append(last)  # ok
            per_client_last[cid] = last.item()  # ok
        global_model.load_state_dict(average(states, sizes))
        round_loss[r] = torch.stack(finals).mean()  # expect: TEN501
        print(f"round {r}: clients {chosen} loss {round_loss[r].item():.4f}")
    return global_model, round_loss
