"""Pool-based active learning with MC-dropout BALD acquisition.

Following Gal et al. (2017), the classifier is retrained from the same
initialization after every acquisition round.
"""
import os

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Subset


class ActiveLearner:
    def __init__(self, model_fn, pool_set, test_set, init_labeled=20, acquire_per_round=10,
                 mc_samples=20, epochs=50, device="cuda", out_dir="al_runs"):
        self.model = model_fn().to(device)
        self.init_state = self.model.state_dict()  # expect: TEN402
        self.pool_set = pool_set
        self.test_loader = DataLoader(test_set, batch_size=512)
        rng = np.random.default_rng(0)
        perm = rng.permutation(len(pool_set))
        self.labeled = list(perm[:init_labeled])
        self.unlabeled = list(perm[init_labeled:])
        self.k = acquire_per_round
        self.T = mc_samples
        self.epochs = epochs
        self.device = device
        self.out_dir = out_dir
        os.makedirs(out_dir, exist_ok=True)

    def reset_model(self):
        self.model.load_state_dict(self.init_state)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3, weight_decay=2.5e-4)

    def fit(self):
        loader = DataLoader(Subset(self.pool_set, self.labeled), batch_size=64, shuffle=True)
        self.model.train()
        for _ in range(self.epochs):
            for x, y in loader:
                x, y = x.to(self.device), y.to(self.device)
                loss = F.cross_entropy(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

    @torch.no_grad()
    def bald_scores(self, indices):
        self.model.train()  # keep dropout active
        loader = DataLoader(Subset(self.pool_set, indices), batch_size=512)
        scores = []
        for x, _ in loader:
            x = x.to(self.device)
            probs = torch.stack([F.softmax(self.model(x), -1) for _ in range(self.T)])  # (T, B, C)
            mean = probs.mean(0)
            entropy = -(mean * mean.clamp_min(1e-10).log()).sum(-1)
            cond = -(probs * probs.clamp_min(1e-10).log()).sum(-1).mean(0)
            scores.append((entropy - cond).cpu())
        return torch.cat(scores)

    @torch.no_grad()
    def test_accuracy(self):
        self.model.eval()
        correct = 0
        for x, y in self.test_loader:
            correct += (self.model(x.to(self.device)).argmax(-1).cpu() == y).sum().item()
        return correct / len(self.test_loader.dataset)

    def run(self, rounds=100):
        curve = []
        for r in range(rounds):
            self.reset_model()
            self.fit()
            acc = self.test_accuracy()
            curve.append((len(self.labeled), acc))
            torch.save(self.model.state_dict(), os.path.join(self.out_dir, f"round{r:03d}.pt"))  # ok
            print(f"round {r}: labeled={len(self.labeled)} acc={acc:.4f}")

            subset = np.random.choice(self.unlabeled, size=min(2000, len(self.unlabeled)), replace=False)
            scores = self.bald_scores(list(subset))
            picked = set(subset[scores.topk(self.k).indices.numpy()].tolist())
            self.labeled += sorted(picked)
            self.unlabeled = [i for i in self.unlabeled if i not in picked]
        return curve
