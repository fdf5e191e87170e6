"""Federated averaging with one reusable worker model for all clients."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def client_data(cid, n=40):
    g = torch.Generator().manual_seed(100 + cid)
    x = torch.randn(n, 5, generator=g) + cid * 0.3
    w = torch.tensor([[1.0], [-2.0], [0.5], [0.0], [1.5]])
    return x, x @ w + 0.1 * torch.randn(n, 1, generator=g)


def local_update(model, data, epochs=3, lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = data
    for _ in range(epochs):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()


def fedavg(rounds, deep):
    torch.manual_seed(0)
    server = nn.Linear(5, 1)
    worker = copy.deepcopy(server)  # ok
    datasets = [client_data(c) for c in range(4)]
    for _ in range(rounds):
        global_sd = server.state_dict()  # ok
        client_states = []
        for data in datasets:
            worker.load_state_dict(global_sd)  # ok
            local_update(worker, data)
            if deep:
                client_states.append({k: v.clone() for k, v in worker.state_dict().items()})  # ok
            else:
                client_states.append(worker.state_dict())  # expect: TEN402
        avg = {k: torch.stack([s[k] for s in client_states]).mean(0) for k in global_sd}
        server.load_state_dict(avg)
    x = torch.cat([d[0] for d in datasets])
    y = torch.cat([d[1] for d in datasets])
    with torch.no_grad():
        return nn.functional.mse_loss(server(x), y).item()


if __name__ == "__main__":
    print("shared-state fedavg loss", round(fedavg(5, deep=False), 4))
    print("cloned-state fedavg loss", round(fedavg(5, deep=True), 4))
