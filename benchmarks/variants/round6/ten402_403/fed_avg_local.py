"""FedAvg / FedProx simulation where clients return weight deltas.

Client code follows the shape of Flower NumPyClient-style trainers:
receive global weights, train locally, send back (local - global).
"""
import copy

import torch
from torch import nn


def make_model():
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))


class LocalClient:
    def __init__(self, data, device="cpu", lr=0.1, epochs=3, mu=0.0):
        self.x, self.y = data
        self.device = torch.device(device)
        self.model = make_model().to(self.device)
        self.lr = lr
        self.epochs = epochs
        self.mu = mu

    def fit(self, global_state):
        self.model.load_state_dict(global_state)
        start = {k: v.to(self.device) for k, v in self.model.state_dict().items()}  # expect: TEN402
        anchor = [p.detach().clone() for p in self.model.parameters()]  # ok
        opt = torch.optim.SGD(self.model.parameters(), lr=self.lr)
        for _ in range(self.epochs):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(self.model(self.x), self.y)
            if self.mu > 0:
                loss = loss + 0.5 * self.mu * sum(((p - a) ** 2).sum() for p, a in zip(self.model.parameters(), anchor))
            loss.backward()
            opt.step()
        delta = {k: v - start[k] for k, v in self.model.state_dict().items()}
        return delta, len(self.x)


def fedavg_round(global_model, clients):
    broadcast = copy.deepcopy(global_model.state_dict())  # ok
    results = [c.fit(broadcast) for c in clients]
    total = sum(n for _, n in results)
    new_state = {}
    for k, v in broadcast.items():
        new_state[k] = v + sum(d[k] * (n / total) for d, n in results)
    global_model.load_state_dict(new_state)
    return max(float(d[k].abs().max()) for d, _ in results for k in d)


if __name__ == "__main__":
    torch.manual_seed(0)
    gm = make_model()
    clients = [LocalClient((torch.randn(20, 8), torch.randint(0, 2, (20,))), mu=0.01) for _ in range(3)]
    for rnd in range(3):
        print("round", rnd, "largest client update:", fedavg_round(gm, clients))
