"""Federated averaging with a single reusable worker model."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def make_clients(n=4):
    clients = []
    for i in range(n):
        x = torch.randn(32, 5)
        w = torch.zeros(5, 1)
        w[i % 5] = 3.0
        clients.append((x, x @ w))
    return clients


def local_update(worker, data, epochs=5):
    x, y = data
    opt = torch.optim.SGD(worker.parameters(), lr=0.1)
    for _ in range(epochs):
        opt.zero_grad()
        nn.functional.mse_loss(worker(x), y).backward()
        opt.step()


def fed_round(global_model, worker, clients, deep):
    global_sd = global_model.state_dict()  # ok
    uploads = []
    for data in clients:
        worker.load_state_dict(global_sd)  # ok
        local_update(worker, data)
        if deep:
            uploads.append(copy.deepcopy(worker.state_dict()))  # ok
        else:
            uploads.append(worker.state_dict())  # expect: TEN402
    averaged = {k: torch.stack([u[k] for u in uploads]).mean(0) for k in global_sd}
    global_model.load_state_dict(averaged)
    spread = torch.stack([u["weight"] for u in uploads]).std(0).sum().item()
    return spread


clients = make_clients()
for deep in (False, True):
    torch.manual_seed(1)
    global_model = nn.Linear(5, 1, bias=False)
    worker = nn.Linear(5, 1, bias=False)
    spreads = [fed_round(global_model, worker, clients, deep) for _ in range(3)]
    w = global_model.weight.detach().squeeze().tolist()
    print(f"deep={deep} client spread={[round(s, 4) for s in spreads]} global={[round(v, 2) for v in w]}")
