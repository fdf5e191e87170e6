"""Synchronous federated server with sample-weighted averaging."""
import random

import torch

from .metrics import evaluate_global


class FedServer:
    def __init__(self, model, clients, test_loader, device="cpu", frac=0.1, local_epochs=1, lr=0.01, seed=0):
        self.model = model.to(device)
        self.clients = clients
        self.test_loader = test_loader
        self.device = device
        self.frac = frac
        self.local_epochs = local_epochs
        self.lr = lr
        self.rng = random.Random(seed)
        self.history = []

    @property
    def global_state(self):
        return {k: v.clone() for k, v in self.model.state_dict().items()}

    def aggregate(self, updates):
        total = sum(u.num_samples for u in updates)
        avg = {k: torch.zeros_like(v, dtype=torch.float32) for k, v in updates[0].state.items()}
        for u in updates:
            w = u.num_samples / total
            for k, v in u.state.items():
                avg[k] += w * v.float()  # ok
        ref = self.model.state_dict()
        return {k: v.to(ref[k].dtype) for k, v in avg.items()}

    def run_round(self, rnd):
        k = max(1, int(self.frac * len(self.clients)))
        selected = self.rng.sample(self.clients, k)
        updates = []
        for client in selected:
            upd = client.local_train(self.global_state, epochs=self.local_epochs, lr=self.lr)
            updates.append(upd)
            self.history.append((rnd, upd.cid, upd.loss))  # ok
        self.model.load_state_dict(self.aggregate(updates))
        test_loss, test_acc = evaluate_global(self.model, self.test_loader, self.device)
        mean_train = sum(u.loss for u in updates) / len(updates)
        print(f"round {rnd:4d}  clients {k}  train {mean_train:.4f}  test {test_loss:.4f}  acc {test_acc:.4f}")
        return test_acc

    def fit(self, rounds):
        return [self.run_round(r) for r in range(rounds)]
