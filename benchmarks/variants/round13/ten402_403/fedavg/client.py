"""Client side: one reusable worker trains a shared local model on each shard."""
import copy

import torch
from torch import nn


def make_client_shards(n_clients=4, n_per_client=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    true_w = torch.randn(5, 1, generator=g)
    shards = []
    for c in range(n_clients):
        x = torch.randn(n_per_client, 5, generator=g) + 0.5 * c
        y = x @ true_w + 0.1 * torch.randn(n_per_client, 1, generator=g)
        shards.append((x, y))
    return shards


class LocalWorker:
    """To save memory a single model instance is reused for every client."""

    def __init__(self, model_fn, lr=0.05, local_epochs=2, batch_size=8):
        self.model = model_fn()
        self.lr = lr
        self.local_epochs = local_epochs
        self.batch_size = batch_size

    def local_update(self, global_state, shard):
        self.model.load_state_dict(global_state)  # ok
        opt = torch.optim.SGD(self.model.parameters(), lr=self.lr)
        x, y = shard
        for _ in range(self.local_epochs):
            for idx in torch.randperm(len(x)).split(self.batch_size):
                opt.zero_grad()
                nn.functional.mse_loss(self.model(x[idx]), y[idx]).backward()
                opt.step()
        return self.model.state_dict()  # either

    def local_update_detached(self, global_state, shard):
        """Same as local_update but hands back an independent copy."""
        trained = self.local_update(global_state, shard)
        return copy.deepcopy(trained)  # ok

    def evaluate(self, state, shard):
        self.model.load_state_dict(state)
        x, y = shard
        with torch.no_grad():
            return nn.functional.mse_loss(self.model(x), y).item()
