"""Simulated federated client holding a private data shard."""
import torch
from torch import nn


def build_model():
    return nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 3))


class Client:
    def __init__(self, cid, x, y, lr=0.05, local_epochs=2, batch_size=16):
        self.cid = cid
        self.x, self.y = x, y
        self.model = build_model()
        self.lr = lr
        self.local_epochs = local_epochs
        self.batch_size = batch_size

    @property
    def num_examples(self):
        return len(self.x)

    def get_weights(self):
        return [p.data for p in self.model.parameters()]

    def get_weights_copy(self):
        return [p.detach().clone() for p in self.model.parameters()]

    @torch.no_grad()
    def set_weights(self, weights):
        for p, w in zip(self.model.parameters(), weights):
            p.copy_(w)

    def train(self):
        opt = torch.optim.SGD(self.model.parameters(), lr=self.lr)
        n = len(self.x)
        for _ in range(self.local_epochs):
            perm = torch.randperm(n)
            for i in range(0, n, self.batch_size):
                idx = perm[i:i + self.batch_size]
                opt.zero_grad()
                nn.functional.cross_entropy(self.model(self.x[idx]), self.y[idx]).backward()
                opt.step()
