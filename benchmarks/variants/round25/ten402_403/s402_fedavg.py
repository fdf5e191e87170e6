"""FedAvg simulation: one local model object reused for every client."""
import copy
import torch
import torch.nn as nn


def client_data(cid):
    g = torch.Generator().manual_seed(100 + cid)
    x = torch.randn(60, 5, generator=g) + cid * 0.5
    y = x @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [1.5]]) + 0.1 * torch.randn(60, 1, generator=g)
    return x, y


class Server:
    def __init__(self):
        self.model = nn.Linear(5, 1)

    def aggregate(self, states, weights):
        tot = sum(weights)
        new = {k: sum(w * s[k] for s, w in zip(states, weights)) / tot for k in states[0]}
        self.model.load_state_dict(new)


def local_update(local, global_state, data, epochs=5):
    local.load_state_dict(global_state)
    opt = torch.optim.SGD(local.parameters(), lr=0.05)
    x, y = data
    for _ in range(epochs):
        opt.zero_grad()
        ((local(x) - y) ** 2).mean().backward()
        opt.step()
    return local


torch.manual_seed(0)
server = Server()
local = nn.Linear(5, 1)
datasets = [client_data(c) for c in range(4)]
for rnd in range(5):
    global_sd = copy.deepcopy(server.model.state_dict())  # ok
    client_states, sizes = [], []
    for data in datasets:
        trained = local_update(local, global_sd, data)
        client_states.append(trained.state_dict())  # expect: TEN402
        sizes.append(len(data[0]))
    server.aggregate(client_states, sizes)
    with torch.no_grad():
        loss = sum(((server.model(x) - y) ** 2).mean().item() for x, y in datasets) / 4
    print(f"round {rnd} global loss {loss:.6f}")
print("weights", [round(v, 5) for v in server.model.weight.flatten().tolist()])
