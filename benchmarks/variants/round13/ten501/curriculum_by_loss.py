"""Self-paced curriculum: easy samples (low loss) first, harder ones phased in."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class LossCurriculum:
    def __init__(self, n, start_frac=0.5, growth=0.25):
        self.scores = torch.zeros(n)
        self.start_frac, self.growth = start_frac, growth
        self.epoch_means = []

    def update(self, idx, per_sample):
        with torch.no_grad():
            self.scores[idx] = per_sample  # ok

    def pool(self, epoch):
        frac = min(1.0, self.start_frac + self.growth * epoch)
        k = max(1, int(frac * len(self.scores)))
        return torch.argsort(self.scores)[:k]


def main(epochs=3, bs=10):
    torch.manual_seed(0)
    n = 40
    x = torch.randn(n, 6)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).long()
    model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    cur = LossCurriculum(n)
    difficulty_log, np_scores, ids_by_loss = [], [], {}
    for epoch in range(epochs):
        pool = cur.pool(epoch)
        pool = pool[torch.randperm(len(pool))]
        epoch_losses = []
        for start in range(0, len(pool), bs):
            idx = pool[start:start + bs]
            per = F.cross_entropy(model(x[idx]), y[idx], reduction="none")
            per.mean().backward()
            opt.step()
            opt.zero_grad()
            cur.update(idx, per)  # ok
            difficulty_log.extend(per.detach().tolist())  # ok
            ids_by_loss.update(zip(idx.tolist(), per.tolist()))  # ok
            np_scores.append(per.detach().cpu().numpy())  # ok
            epoch_losses.append(per.sum().item())  # ok
        cur.epoch_means.append(sum(epoch_losses) / len(pool))  # ok
        print(epoch, len(pool), f"{cur.epoch_means[-1]:.4f}")
    all_scores = np.concatenate(np_scores)
    return all_scores.mean(), len(ids_by_loss)


if __name__ == "__main__":
    print(main())
