"""FedProx local training: a proximal term keeps clients near the round's global weights."""
import copy

import torch
from torch import nn
import torch.nn.functional as F


def client_data(n_clients=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = []
    for c in range(n_clients):
        x = torch.randn(30, 4, generator=g) * (1 + c)
        y = (x[:, c % 4] > 0).long()
        out.append((x, y))
    return out


def local_train(model, data, mu=0.1, epochs=3, lr=0.05):
    global_params = [p.detach().clone() for p in model.parameters()]  # ok
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = data
    for _ in range(epochs):
        opt.zero_grad()
        prox = sum((p - g).pow(2).sum() for p, g in zip(model.parameters(), global_params))
        (F.cross_entropy(model(x), y) + 0.5 * mu * prox).backward()
        opt.step()
    drift = sum((p.detach() - g).norm().item() for p, g in zip(model.parameters(), global_params))
    return {k: v.clone() for k, v in model.state_dict().items()}, drift  # ok


def aggregate(states, weights):
    total = sum(weights)
    avg = {k: torch.zeros_like(v, dtype=torch.float32) for k, v in states[0].items()}  # ok
    for sd, w in zip(states, weights):
        for k in avg:
            avg[k] += sd[k].float() * (w / total)
    return avg


def run(rounds=3, seed=0):
    torch.manual_seed(seed)
    clients = client_data(seed=seed)
    global_model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    local = copy.deepcopy(global_model)  # ok
    drifts = []
    for _ in range(rounds):
        start = global_model.state_dict()  # ok
        states, sizes = [], []
        for data in clients:
            local.load_state_dict(start)
            sd, drift = local_train(local, data)
            states.append(sd)
            sizes.append(len(data[0]))
            drifts.append(drift)
        global_model.load_state_dict(aggregate(states, sizes))
    return global_model, drifts


if __name__ == "__main__":
    model, drifts = run()
    print("mean client drift", sum(drifts) / len(drifts))
