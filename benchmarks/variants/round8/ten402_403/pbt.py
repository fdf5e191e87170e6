"""Small synchronous Population Based Training driver (single process, CPU workers)."""
import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

torch.set_num_threads(2)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.fc = nn.Linear(32 * 7 * 7, 10)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def perturb(hparams, factors=(0.8, 1.2)):
    out = dict(hparams)
    out["lr"] = hparams["lr"] * random.choice(factors)
    out["momentum"] = min(0.99, max(0.0, hparams["momentum"] * random.choice(factors)))
    return out


class Member:
    def __init__(self, idx, hparams, train_loader, val_loader):
        self.idx = idx
        self.hparams = hparams
        self.model = SmallCNN()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=hparams["lr"], momentum=hparams["momentum"])
        self.train_loader = train_loader
        self.val_loader = val_loader
        self._it = iter(train_loader)
        self.score = float("-inf")
        self.steps = 0

    def _next_batch(self):
        try:
            return next(self._it)
        except StopIteration:
            self._it = iter(self.train_loader)
            return next(self._it)

    def train(self, n_steps):
        self.model.train()
        for _ in range(n_steps):
            x, y = self._next_batch()
            self.optimizer.zero_grad()
            F.cross_entropy(self.model(x), y).backward()
            self.optimizer.step()
            self.steps += 1

    @torch.no_grad()
    def evaluate(self, max_batches=20):
        self.model.eval()
        hit = n = 0
        for i, (x, y) in enumerate(self.val_loader):
            if i >= max_batches:
                break
            hit += (self.model(x).argmax(1) == y).sum().item()
            n += y.numel()
        self.score = hit / n
        return self.score

    def set_hparams(self, hparams):
        self.hparams = hparams
        for g in self.optimizer.param_groups:
            g["lr"] = hparams["lr"]
            g["momentum"] = hparams["momentum"]


class PBT:
    def __init__(self, members, ready_steps=200, frac=0.25):
        self.members = members
        self.ready_steps = ready_steps
        self.frac = frac
        self.best = {}

    def record(self, member):
        prev = self.best.get(member.idx)
        if prev is not None and member.score <= prev["score"]:
            return
        weights = {k: v.cpu() for k, v in member.model.state_dict().items()}  # expect: TEN402
        opt_state = copy.deepcopy(member.optimizer.state_dict())  # ok
        self.best[member.idx] = {
            "score": member.score,
            "weights": weights,
            "opt": opt_state,
            "hparams": dict(member.hparams),
        }

    def exploit_and_explore(self):
        ranked = sorted(self.members, key=lambda m: m.score)
        n = max(1, int(len(ranked) * self.frac))
        for member in ranked[:n]:
            donor = random.choice(ranked[-n:])
            entry = self.best[donor.idx]
            member.model.load_state_dict(entry["weights"])
            member.optimizer.load_state_dict(entry["opt"])
            member.set_hparams(perturb(entry["hparams"]))
            print(f"member {member.idx} <- member {donor.idx} (score {entry['score']:.4f})")

    def run(self, rounds):
        for r in range(rounds):
            for m in self.members:
                m.train(self.ready_steps)
                m.evaluate()
                self.record(m)
            print(f"round {r}: " + " ".join(f"{m.idx}:{m.score:.3f}" for m in self.members))
            self.exploit_and_explore()
        winner = max(self.members, key=lambda m: m.score)
        torch.save(winner.model.state_dict(), "pbt_winner.pt")  # ok
        return winner


def main(population=8, rounds=20):
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    train = datasets.MNIST("data", True, tf, download=True)
    val = datasets.MNIST("data", False, tf)
    members = []
    for i in range(population):
        hp = {"lr": 10 ** random.uniform(-3, -0.5), "momentum": random.uniform(0.5, 0.99)}
        members.append(Member(i, hp, DataLoader(train, 64, shuffle=True), DataLoader(val, 256, shuffle=True)))
    PBT(members).run(rounds)


if __name__ == "__main__":
    main()
