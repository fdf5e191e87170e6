"""Evolutionary architecture search over a weight-sharing supernet (SPOS-style)."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


CHOICES = ("k3", "k5", "k7", "skip")


def mutate(arch, prob=0.1):
    return tuple(random.choice(CHOICES) if random.random() < prob else op for op in arch)


def crossover(a, b):
    return tuple(random.choice(pair) for pair in zip(a, b))


class EvolutionSearcher:
    def __init__(self, supernet: nn.Module, train_loader, val_loader, n_layers,
                 population=50, generations=20, adapt_steps=20, device="cuda"):
        self.supernet = supernet.to(device)
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.n_layers = n_layers
        self.population = population
        self.generations = generations
        self.adapt_steps = adapt_steps
        self.device = device
        self._supernet_ckpt = None
        self.history = {}

    def random_arch(self):
        return tuple(random.choice(CHOICES) for _ in range(self.n_layers))

    def _adapt(self, arch):
        """A few steps on the sampled path plus BN recalibration before ranking it."""
        params = [p for p in self.supernet.parameters() if p.requires_grad]  # ok
        opt = torch.optim.SGD(params, lr=1e-3, momentum=0.9)
        self.supernet.train()
        for m in self.supernet.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.reset_running_stats()
                m.momentum = None
        for step, (x, y) in enumerate(self.train_loader):
            if step >= self.adapt_steps:
                break
            x, y = x.to(self.device), y.to(self.device)
            loss = F.cross_entropy(self.supernet(x, arch), y)
            opt.zero_grad()
            loss.backward()
            opt.step()

    @torch.no_grad()
    def _accuracy(self, arch, max_batches=20):
        self.supernet.eval()
        correct = total = 0
        for i, (x, y) in enumerate(self.val_loader):
            if i >= max_batches:
                break
            x, y = x.to(self.device), y.to(self.device)
            correct += (self.supernet(x, arch).argmax(-1) == y).sum().item()
            total += y.numel()
        return correct / max(total, 1)

    def evaluate(self, arch):
        if arch in self.history:
            return self.history[arch]
        self._adapt(arch)
        acc = self._accuracy(arch)
        self.supernet.load_state_dict(self._supernet_ckpt)
        self.history[arch] = acc
        return acc

    def search(self):
        self._supernet_ckpt = self.supernet.state_dict().copy()  # expect: TEN402
        pop = [self.random_arch() for _ in range(self.population)]
        for gen in range(self.generations):
            scored = sorted(pop, key=self.evaluate, reverse=True)
            parents = scored[: self.population // 4]
            print(f"gen {gen}: best={self.history[parents[0]]:.4f} {parents[0]}")
            children = [mutate(random.choice(parents)) for _ in range(self.population // 2)]
            children += [crossover(*random.sample(parents, 2)) for _ in range(self.population // 4)]
            pop = parents + children
        best = max(self.history, key=self.history.get)
        return best, self.history[best]
