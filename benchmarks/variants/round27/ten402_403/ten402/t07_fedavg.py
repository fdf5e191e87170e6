import torch
import torch.nn as nn

torch.manual_seed(0)


def make_model():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))


def local_train(model, data, steps=5, lr=0.05):
    X, Y = data
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(model(X), Y).backward()
        opt.step()


def average(states):
    return {k: torch.stack([s[k].float() for s in states]).mean(0) for k in states[0]}


clients = []
for c in range(4):
    X = torch.randn(40, 4) + c
    clients.append((X, (X[:, :1] * (c + 1)).tanh()))

global_model = make_model()
worker = make_model()
for rnd in range(5):
    global_sd = global_model.state_dict()  # ok
    client_states = []
    for data in clients:
        worker.load_state_dict(global_sd)
        local_train(worker, data)
        client_states.append(worker.state_dict())  # expect: TEN402
    global_model.load_state_dict(average(client_states))
    with torch.no_grad():
        losses = [nn.functional.mse_loss(global_model(X), Y).item() for X, Y in clients]
    print(f"round {rnd} client losses", " ".join(f"{l:.5f}" for l in losses))
