"""FedAvg simulation with a single model object shared by all simulated clients."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_clients(num_clients=4, n=48, d=6, seed=0):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(d, 1, generator=g)
    loaders = []
    for c in range(num_clients):
        x = torch.randn(n, d, generator=g) + 0.5 * c  # non-iid shift per client
        y = x @ w + 0.1 * torch.randn(n, 1, generator=g)
        loaders.append(DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True))
    return loaders


def local_train(model, loader, epochs=1, lr=0.01):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    for _ in range(epochs):
        for xb, yb in loader:
            opt.zero_grad()
            F.mse_loss(model(xb), yb).backward()
            opt.step()


def fedavg(states, sizes):
    total = float(sum(sizes))
    return {k: sum(sd[k] * (n / total) for sd, n in zip(states, sizes)) for k in states[0]}


def run_rounds(model, client_loaders, rounds=3, local_epochs=2):
    for r in range(rounds):
        global_weights = model.state_dict()  # expect: TEN402
        client_states, sizes = [], []
        for loader in client_loaders:
            model.load_state_dict(global_weights)
            local_train(model, loader, epochs=local_epochs)
            client_states.append({k: v.clone() for k, v in model.state_dict().items()})  # ok
            sizes.append(len(loader.dataset))
        model.load_state_dict(fedavg(client_states, sizes))
        print(f"round {r}: aggregated {len(client_states)} clients")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    run_rounds(nn.Linear(6, 1), make_clients())
