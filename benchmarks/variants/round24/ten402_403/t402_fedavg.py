"""FedAvg simulation: one client model object is reused for every client."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


def local_train(model, data, epochs=3, lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = data
    for _ in range(epochs):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def average(states, weights):
    total = sum(weights)
    return {k: sum(w * s[k] for s, w in zip(states, weights)) / total for k in states[0]}


def fed_round(server, client, datasets, safe):
    global_sd = server.state_dict()  # ok
    updates, sizes = [], []
    for data in datasets:
        client.load_state_dict(global_sd)
        local_train(client, data)
        if safe:
            updates.append(copy.deepcopy(client.state_dict()))  # ok
        else:
            updates.append(client.state_dict())  # expect: TEN402
        sizes.append(len(data[0]))
    server.load_state_dict(average(updates, sizes))


def make_clients(n=4):
    w = torch.randn(5, 1)
    out = []
    for i in range(n):
        x = torch.randn(10 + 5 * i, 5) + 0.2 * i
        out.append((x, x @ w + 0.1 * i))
    return out


if __name__ == "__main__":
    datasets = make_clients()
    for safe in (True, False):
        torch.manual_seed(3)
        server = nn.Linear(5, 1)
        client = nn.Linear(5, 1)
        for _ in range(3):
            fed_round(server, client, datasets, safe)
        with torch.no_grad():
            loss = sum(nn.functional.mse_loss(server(x), y).item() for x, y in datasets)
        print(f"safe={safe} global loss {loss:.6f} bias {server.bias.item():.6f}")
