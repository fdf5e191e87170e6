"""Toy federated averaging: a pool of clients with non-IID linear data."""
import copy

import torch
from torch import nn


def make_clients(n_clients=4, n=40, dim=6):
    g = torch.Generator().manual_seed(1)
    clients = []
    for c in range(n_clients):
        w_true = torch.randn(dim, 1, generator=g) + c
        x = torch.randn(n, dim, generator=g)
        clients.append((x, x @ w_true + 0.1 * torch.randn(n, 1, generator=g)))
    return clients


def local_train(model, data, epochs=3, lr=0.05):
    x, y = data
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(epochs):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def average(states, sizes):
    total = float(sum(sizes))
    return {k: sum(s[k] * (n / total) for s, n in zip(states, sizes)) for k in states[0]}


def round_shared_worker(global_model, worker, clients):
    """Reuses one worker module for every client to save allocations."""
    updates, sizes = [], []
    for data in clients:
        worker.load_state_dict(global_model.state_dict())
        local_train(worker, data)
        updates.append({k: v for k, v in worker.state_dict().items()})  # expect: TEN402
        sizes.append(len(data[0]))
    global_model.load_state_dict(average(updates, sizes))
    return updates


def round_fresh_copies(global_model, clients, server_lr=1.0):
    prev = {k: v.clone() for k, v in global_model.state_dict().items()}  # ok
    updates, sizes = [], []
    for data in clients:
        client = copy.deepcopy(global_model)  # ok
        local_train(client, data)
        updates.append(client.state_dict())  # ok
        sizes.append(len(data[0]))
    avg = average(updates, sizes)
    new = {k: prev[k] + server_lr * (avg[k] - prev[k]) for k in prev}
    global_model.load_state_dict(new)
    return updates


def distinct(updates):
    w = [u["weight"].flatten() for u in updates]
    return sum(int(not torch.equal(w[0], v)) for v in w[1:])


if __name__ == "__main__":
    torch.manual_seed(0)
    clients = make_clients()
    g1 = nn.Linear(6, 1)
    g2 = copy.deepcopy(g1)  # ok
    worker = nn.Linear(6, 1)
    for r in range(3):
        u1 = round_shared_worker(g1, worker, clients)
        u2 = round_fresh_copies(g2, clients)
        print(f"round {r}: shared-worker distinct updates={distinct(u1)}, fresh distinct={distinct(u2)}")
    x_all = torch.cat([c[0] for c in clients])
    y_all = torch.cat([c[1] for c in clients])
    with torch.no_grad():
        print("loss shared", nn.functional.mse_loss(g1(x_all), y_all).item())
        print("loss fresh ", nn.functional.mse_loss(g2(x_all), y_all).item())
