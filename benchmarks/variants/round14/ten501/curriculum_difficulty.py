"""Self-paced curriculum: per-sample losses decide which examples are trained on."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfPacedSampler:
    def __init__(self, n, start_frac=0.4, growth=1.3):
        self.n = n
        self.frac = start_frac
        self.growth = growth
        self.difficulty = torch.zeros(n)
        self.ema_difficulty = torch.zeros(n)
        self.seen_counts = torch.zeros(n, dtype=torch.long)
        self.score_table = {}

    def pick(self, bs):
        k = max(bs, int(self.frac * self.n))
        easiest = torch.argsort(self.ema_difficulty)[:k]
        return easiest[torch.randperm(k)[:bs]]

    def record(self, idx, per_sample_loss):
        self.difficulty[idx] = per_sample_loss
        self.ema_difficulty[idx] = 0.9 * self.ema_difficulty[idx] + 0.1 * per_sample_loss.detach()  # ok
        self.seen_counts[idx] += 1  # ok

    def advance(self):
        self.frac = min(1.0, self.frac * self.growth)


def main(rounds=3, steps=5, bs=16):
    torch.manual_seed(0)
    x = torch.randn(160, 8)
    noise = (torch.rand(160) < 0.2).float()
    y = ((x[:, 0] + x[:, 1] > 0).float() + noise).remainder(2).long()
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    sampler = SelfPacedSampler(len(x))
    for r in range(rounds):
        for _ in range(steps):
            idx = sampler.pick(bs)
            per_sample = F.cross_entropy(model(x[idx]), y[idx], reduction="none")
            loss = per_sample.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sampler.record(idx, per_sample)  # expect: TEN501
            sampler.score_table.update({int(i): v for i, v in zip(idx.tolist(), per_sample)})  # expect: TEN501
        sampler.advance()
        print(f"round {r}: frac={sampler.frac:.2f} loss={loss.item():.4f} "
              f"covered={(sampler.seen_counts > 0).sum().item()}")
    hardest = sorted(sampler.score_table, key=lambda i: float(sampler.score_table[i]))[-3:]
    print("hardest ids", hardest)


if __name__ == "__main__":
    main()
