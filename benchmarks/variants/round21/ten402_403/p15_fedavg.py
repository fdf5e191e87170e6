"""FedAvg (McMahan et al. 2017) simulation: one reusable `local` model trains each client in turn."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def client_data(k):
    g = torch.Generator().manual_seed(100 + k)
    w = torch.tensor([[1.0], [-2.0], [0.5]]) + 0.5 * torch.randn(3, 1, generator=g)
    x = torch.randn(40, 3, generator=g) + k
    return x, x @ w


def local_train(model, data, epochs=5):
    opt = torch.optim.SGD(model.parameters(), lr=0.02)
    for _ in range(epochs):
        opt.zero_grad()
        F.mse_loss(model(data[0]), data[1]).backward()
        opt.step()


def fedavg(copy_states, rounds=5, n_clients=4):
    torch.manual_seed(0)
    global_model = nn.Linear(3, 1)
    local = copy.deepcopy(global_model)  # ok
    clients = [client_data(k) for k in range(n_clients)]
    for rnd in range(rounds):
        global_state = global_model.state_dict()  # ok
        client_states, sizes = [], []
        for data in clients:
            local.load_state_dict(global_state)
            local_train(local, data)
            if copy_states:
                client_states.append(copy.deepcopy(local.state_dict()))  # ok
            else:
                client_states.append(local.state_dict())  # expect: TEN402
            sizes.append(len(data[0]))
        total = sum(sizes)
        avg = {k: sum(s[k] * (n / total) for s, n in zip(client_states, sizes)) for k in global_state}
        global_model.load_state_dict(avg)
    with torch.no_grad():
        losses = [F.mse_loss(global_model(x), y).item() for x, y in clients]
    print(f"copy_states={copy_states}: global weight={[round(v, 4) for v in global_model.weight.view(-1).tolist()]} "
          f"per-client loss={[round(l, 3) for l in losses]}")


if __name__ == "__main__":
    fedavg(copy_states=False)
    fedavg(copy_states=True)
