import copy
import torch
import torch.nn as nn

torch.manual_seed(0)


def make_model():
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))


def client_data(cid, n=50):
    g = torch.Generator().manual_seed(100 + cid)
    x = torch.randn(n, 4, generator=g)
    w = torch.tensor([1.0, -2.0, 0.5, cid * 0.3])
    return x, (x @ w).unsqueeze(1)


def local_update(model, data, epochs=5, lr=0.1):
    x, y = data
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(epochs):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()


def fed_avg(states, weights):
    total = sum(weights)
    return {k: sum(w * s[k] for s, w in zip(states, weights)) / total for k in states[0]}


server = make_model()
worker = make_model()  # one model object reused for every client to save memory
clients = [client_data(c) for c in range(4)]
sizes = [len(d[0]) + 10 * c for c, d in enumerate(clients)]

for rnd in range(5):
    global_state = copy.deepcopy(server.state_dict())  # ok
    local_states = []
    for data in clients:
        worker.load_state_dict(global_state)
        local_update(worker, data)
        local_states.append(worker.state_dict())  # expect: TEN402
    server.load_state_dict(fed_avg(local_states, sizes))
    with torch.no_grad():
        losses = [nn.functional.mse_loss(server(x), y).item() for x, y in clients]
    print(f"round {rnd} client losses", [round(l, 6) for l in losses])
