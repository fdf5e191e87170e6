# Diagnostics: which layers actually move during training, and by how much per step.
from operator import attrgetter

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(12, 24)
        self.mix = nn.Linear(24, 24)
        self.head = nn.Linear(24, 3)
        self.frozen = nn.Linear(3, 3)
        self.frozen.requires_grad_(False)

    def forward(self, x):
        h = torch.relu(self.embed(x))
        h = torch.relu(self.mix(h)) + h
        return self.frozen(self.head(h))


class UpdateRatioMonitor:
    def __init__(self, model, names):
        self.model = model
        self.names = names
        self.prev = {n: attrgetter(n)(model).data for n in names}  # expect: TEN402

    def ratios(self):
        out = {}
        for n in self.names:
            cur = attrgetter(n)(self.model).detach()
            out[n] = ((cur - self.prev[n]).norm() / cur.norm()).item()
        self.prev = {n: attrgetter(n)(self.model).detach().clone() for n in self.names}  # ok
        return out


def layers_that_moved(model, train_fn):
    names = [n for n, _ in model.named_children()]
    start = {n: getattr(model, n).weight for n in names}  # expect: TEN402
    train_fn()
    return [n for n in names if not torch.equal(getattr(model, n).weight, start[n])]


def layers_that_moved_fixed(model, train_fn):
    names = [n for n, _ in model.named_children()]
    start = {n: getattr(model, n).weight.detach().clone() for n in names}  # ok
    train_fn()
    return [n for n in names if not torch.equal(getattr(model, n).weight, start[n])]


def main():
    model = Encoder()
    x = torch.randn(200, 12)
    y = torch.randint(0, 3, (200,))
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)  # ok

    def train_some(steps=20):
        for _ in range(steps):
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()

    monitor = UpdateRatioMonitor(model, ["embed.weight", "mix.weight", "head.weight"])
    for chunk in range(3):
        train_some(10)
        print("update ratios", {k: round(v, 5) for k, v in monitor.ratios().items()})
    print("moved (live refs):", layers_that_moved(model, train_some))
    print("moved (cloned):   ", layers_that_moved_fixed(model, train_some))


if __name__ == "__main__":
    main()
