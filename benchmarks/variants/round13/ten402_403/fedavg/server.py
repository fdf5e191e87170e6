"""Server side of the FedAvg simulation."""
import copy

import torch
from torch import nn

from .client import LocalWorker, make_client_shards


def model_fn():
    return nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))


class FedAvgServer:
    def __init__(self, shards, rounds=3, safe_copies=False):
        torch.manual_seed(0)
        self.global_model = model_fn()
        self.worker = LocalWorker(model_fn)
        self.shards = shards
        self.rounds = rounds
        self.safe_copies = safe_copies
        self.history = []

    def aggregate(self, client_states, sizes):
        total = float(sum(sizes))
        avg = {}
        for key in client_states[0]:
            avg[key] = sum(s[key] * (n / total) for s, n in zip(client_states, sizes))
        return avg

    def run_round(self):
        global_state = copy.deepcopy(self.global_model.state_dict())  # ok
        client_states, sizes = [], []
        for shard in self.shards:
            if self.safe_copies:
                client_states.append(self.worker.local_update_detached(global_state, shard))  # ok
            else:
                client_states.append(self.worker.local_update(global_state, shard))  # expect: TEN402
            sizes.append(len(shard[0]))
        self.global_model.load_state_dict(self.aggregate(client_states, sizes))
        losses = [self.worker.evaluate(self.global_model.state_dict(), s) for s in self.shards]  # ok
        self.history.append(sum(losses) / len(losses))
        return client_states

    def fit(self):
        for _ in range(self.rounds):
            self.run_round()
        return self.history


if __name__ == "__main__":
    shards = make_client_shards()
    print("naive", FedAvgServer(shards).fit())
    print("copied", FedAvgServer(shards, safe_copies=True).fit())
