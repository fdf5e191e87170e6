"""Federated averaging simulation with three clients."""
import copy

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 6)
        self.fc2 = nn.Linear(6, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def local_train(model, data, epochs=2):
    x, y = data
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(epochs):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()


def fedavg(states, sizes):
    total = float(sum(sizes))
    return {k: sum(s[k] * (n / total) for s, n in zip(states, sizes)) for k in states[0]}


torch.manual_seed(0)
clients = [(torch.randn(n, 4), torch.randn(n, 1) + i) for i, n in enumerate((10, 20, 30))]
global_model = Net()

# version A: one scratch model reused for all clients
scratch = Net()
for rnd in range(2):
    updates, sizes = [], []
    for data in clients:
        scratch.load_state_dict(global_model.state_dict())
        local_train(scratch, data)
        updates.append(dict(scratch.state_dict()))  # expect: TEN402
        sizes.append(len(data[0]))
    global_model.load_state_dict(fedavg(updates, sizes))
print("global A checksum: %.6f" % sum(p.sum().item() for p in global_model.parameters()))

# version B: a fresh copy of the global model per client
torch.manual_seed(0)
clients = [(torch.randn(n, 4), torch.randn(n, 1) + i) for i, n in enumerate((10, 20, 30))]
global_b = Net()
for rnd in range(2):
    updates, sizes = [], []
    for data in clients:
        client = copy.deepcopy(global_b)
        local_train(client, data)
        updates.append(client.state_dict())  # ok
        sizes.append(len(data[0]))
    global_b.load_state_dict(fedavg(updates, sizes))
print("global B checksum: %.6f" % sum(p.sum().item() for p in global_b.parameters()))
