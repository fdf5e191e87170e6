import random

import torch
import torch.nn as nn

from .client import Client


def make_model():
    return nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 2))


class Server:
    def __init__(self, clients, frac=0.5):
        self.global_model = make_model()
        self.worker_model = make_model()
        self.clients = clients
        self.frac = frac

    def round(self):
        chosen = random.sample(self.clients, max(1, int(self.frac * len(self.clients))))
        global_state = {k: v.detach().clone() for k, v in self.global_model.state_dict().items()}  # ok
        deltas, weights = [], []
        for client in chosen:
            delta, n = client.local_update(self.worker_model, global_state)
            deltas.append(delta)
            weights.append(n)
        total = float(sum(weights))
        new_state = {}
        for k, v in global_state.items():
            step = sum(d[k] * (w / total) for d, w in zip(deltas, weights))
            new_state[k] = v + step
        self.global_model.load_state_dict(new_state)


def synthetic_clients(n=8):
    clients = []
    for cid in range(n):
        shift = torch.randn(30) * 0.5
        batches = []
        for _ in range(5):
            x = torch.randn(20, 30) + shift
            batches.append((x, (x.sum(1) > 0).long()))
        clients.append(Client(cid, batches))
    return clients


if __name__ == "__main__":
    server = Server(synthetic_clients())
    for r in range(10):
        server.round()
