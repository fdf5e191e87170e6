"""FedAvg / FedProx server for simulations.

A single ``local_model`` is reused for every selected client so that GPU memory
stays flat no matter how many clients participate in a round.
"""
import logging
import random
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from .utils import clone_weights, get_weights, set_weights, weighted_average

log = logging.getLogger(__name__)


@dataclass
class Client:
    cid: int
    loader: DataLoader

    @property
    def num_samples(self):
        return len(self.loader.dataset)


def local_train(model, loader, device, epochs, lr, mu=0.0, anchor=None):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4)
    model.train()
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            if mu > 0.0 and anchor is not None:
                prox = sum((p - a).pow(2).sum() for p, a in zip(model.parameters(), anchor))
                loss = loss + 0.5 * mu * prox
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        correct += (model(x).argmax(1) == y).sum().item()
        total += y.numel()
    return correct / max(total, 1)


class FedAvgServer:
    def __init__(self, model_fn, clients, device, frac=0.1, local_epochs=1, lr=0.01, mu=0.0, seed=0):
        self.global_model = model_fn().to(device)
        self.local_model = model_fn().to(device)
        self.clients = clients
        self.device = device
        self.frac = frac
        self.local_epochs = local_epochs
        self.lr = lr
        self.mu = mu
        self.rng = random.Random(seed)
        self.best_acc = 0.0
        self.best_global = None

    def round(self, r):
        m = max(1, int(self.frac * len(self.clients)))
        selected = self.rng.sample(self.clients, m)
        global_weights = self.global_model.state_dict()  # ok
        anchor = [p.detach() for p in self.global_model.parameters()]  # ok

        updates = []
        for client in selected:
            set_weights(self.local_model, global_weights)
            local_train(self.local_model, client.loader, self.device, self.local_epochs,
                        self.lr, mu=self.mu, anchor=anchor)
            w = get_weights(self.local_model)  # expect: TEN402
            updates.append((w, client.num_samples))

        new_weights = weighted_average(updates)
        sq = 0.0
        for k, v in new_weights.items():
            if v.is_floating_point():
                sq += (v.float() - global_weights[k].float()).pow(2).sum().item()
        self.global_model.load_state_dict(new_weights)
        log.info("round %d: %d clients, ||update|| = %.4f", r, len(selected), sq ** 0.5)

    def fit(self, rounds, test_loader, eval_every=5):
        for r in range(rounds):
            self.round(r)
            if (r + 1) % eval_every == 0:
                acc = evaluate(self.global_model, test_loader, self.device)
                log.info("round %d: test acc %.4f", r, acc)
                if acc > self.best_acc:
                    self.best_acc = acc
                    self.best_global = clone_weights(self.global_model)  # ok
        if self.best_global is not None:
            self.global_model.load_state_dict(self.best_global)
        return self.best_acc
