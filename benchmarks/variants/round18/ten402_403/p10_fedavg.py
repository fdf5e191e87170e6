"""Federated averaging with a single reusable client model."""
import copy

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLIENTS = 4
CLIENT_DATA = []
for cid in range(N_CLIENTS):
    x = torch.randn(40, 6) + cid * 0.3
    CLIENT_DATA.append((x, x @ torch.linspace(-1, 1, 6).unsqueeze(1) + 0.1 * cid))


def local_train(model, data, epochs=3, lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = data
    for _ in range(epochs):
        for xb, yb in zip(x.split(10), y.split(10)):
            opt.zero_grad()
            nn.functional.mse_loss(model(xb), yb).backward()
            opt.step()


def fedavg(states, weights):
    total = float(sum(weights))
    avg = {}
    for key in states[0]:
        avg[key] = sum(w / total * sd[key] for sd, w in zip(states, weights))
    return avg


def run_round(global_model, local_model, keep):
    client_states, sizes = [], []
    for cid, data in enumerate(CLIENT_DATA):
        local_model.load_state_dict(global_model.state_dict())  # ok
        local_train(local_model, data)
        client_states.append(keep(local_model))  # expect: TEN402
        sizes.append(len(data[0]))
    global_model.load_state_dict(fedavg(client_states, sizes))
    return client_states


def keep_live(model):
    return model.state_dict()  # either


def keep_copy(model):
    return copy.deepcopy(model).state_dict()  # ok


def run_round_copied(global_model, local_model):
    client_states, sizes = [], []
    for data in CLIENT_DATA:
        local_model.load_state_dict(global_model.state_dict())
        local_train(local_model, data)
        client_states.append(keep_copy(local_model))  # ok
        sizes.append(len(data[0]))
    global_model.load_state_dict(fedavg(client_states, sizes))
    return client_states


def run_round_fresh(global_model):
    client_states, sizes = [], []
    for data in CLIENT_DATA:
        client = copy.deepcopy(global_model)  # ok
        local_train(client, data)
        client_states.append(client.state_dict())  # ok
        sizes.append(len(data[0]))
    global_model.load_state_dict(fedavg(client_states, sizes))
    return client_states


def report(tag, global_model, states):
    spread = sum((states[0][k] - states[-1][k]).abs().sum().item() for k in states[0])
    loss = sum(nn.functional.mse_loss(global_model(x), y).item() for x, y in CLIENT_DATA)
    print(tag, "client spread", round(spread, 4), "global loss", round(loss, 4))


def main():
    torch.manual_seed(0)
    global_model = nn.Linear(6, 1)
    local_model = copy.deepcopy(global_model)  # ok
    for rnd in range(3):
        states = run_round(global_model, local_model, keep=keep_live)
    report("reused client, live state", global_model, states)

    torch.manual_seed(0)
    global_model = nn.Linear(6, 1)
    local_model = copy.deepcopy(global_model)
    for rnd in range(3):
        states = run_round_copied(global_model, local_model)
    report("reused client, copied    ", global_model, states)

    torch.manual_seed(0)
    global_model = nn.Linear(6, 1)
    for rnd in range(3):
        states = run_round_fresh(global_model)
    report("fresh client per round   ", global_model, states)


if __name__ == "__main__":
    main()
