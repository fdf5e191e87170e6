"""Keep the k best checkpoints in memory and average them at the end."""
import copy
import io

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class InMemoryTopK:
    def __init__(self, k=3):
        self.k = k
        self.entries = []  # (score, epoch, state)

    def offer(self, score, epoch, model):
        if len(self.entries) < self.k or score < self.entries[-1][0]:
            state = copy.copy(model.state_dict())  # expect: TEN402
            self.entries.append((score, epoch, state))
            self.entries.sort(key=lambda e: e[0])
            del self.entries[self.k:]

    def averaged(self):
        keys = self.entries[0][2].keys()
        return {k: sum(e[2][k].float() for e in self.entries) / len(self.entries) for k in keys}


class SerializedTopK(InMemoryTopK):
    def offer(self, score, epoch, model):
        if len(self.entries) < self.k or score < self.entries[-1][0]:
            buf = io.BytesIO()
            torch.save(model.state_dict(), buf)  # ok
            buf.seek(0)
            state = torch.load(buf)  # ok
            self.entries.append((score, epoch, state))
            self.entries.sort(key=lambda e: e[0])
            del self.entries[self.k:]


def task(n):
    t = torch.linspace(0, 6.28, n).unsqueeze(1)
    return t, torch.sin(3 * t) + 0.1 * torch.randn(n, 1)


def score(model, x, y):
    with torch.no_grad():
        return nn.functional.mse_loss(model(x), y).item()


def train_with(manager):
    torch.manual_seed(11)
    x, y = task(256)
    xv, yv = task(64)
    model = nn.Sequential(nn.Linear(1, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(30):
        perm = torch.randperm(256)
        for idx in perm.split(32):
            opt.zero_grad()
            nn.functional.mse_loss(model(x[idx]), y[idx]).backward()
            opt.step()
        manager.offer(score(model, xv, yv), epoch, model)
    kept = [(round(s, 4), e) for s, e, _ in manager.entries]
    model.load_state_dict(manager.averaged())
    return kept, score(model, xv, yv)


def main():
    for mgr in (InMemoryTopK(3), SerializedTopK(3)):
        kept, avg_score = train_with(mgr)
        print(type(mgr).__name__, kept, "averaged-weights val mse %.4f" % avg_score)


if __name__ == "__main__":
    main()
