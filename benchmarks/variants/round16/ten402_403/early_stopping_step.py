import io

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class EarlyStopper:
    """Tracks a validation metric; call step() once per epoch."""

    def __init__(self, model, patience=5, mode="max"):
        self.model = model
        self.patience = patience
        self.sign = 1.0 if mode == "max" else -1.0
        self.best = None
        self.wait = 0
        self._weights = None

    def step(self, metric):
        score = self.sign * metric
        if self.best is None or score > self.best:
            self.best = score
            self.wait = 0
            self._weights = {k: v for k, v in self.model.state_dict().items()}  # expect: TEN402
            return False
        self.wait += 1
        return self.wait > self.patience

    def restore_best(self):
        self.model.load_state_dict(self._weights)


class Patience(EarlyStopper):
    def step(self, metric):
        score = self.sign * metric
        if self.best is None or score > self.best:
            self.best = score
            self.wait = 0
            self._weights = {k: v.detach().clone() for k, v in self.model.state_dict().items()}  # ok
            return False
        self.wait += 1
        return self.wait > self.patience


def blobs(n):
    centers = torch.tensor([[2.0, 0.0], [-2.0, 0.5], [0.0, -2.0]])
    labels = torch.randint(0, 3, (n,))
    return centers[labels] + 1.1 * torch.randn(n, 2), labels


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    model.train()
    return acc


def run(stopper_type):
    torch.manual_seed(3)
    xtr, ytr = blobs(300)
    xva, yva = blobs(200)
    net = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 3))
    opt = torch.optim.Adam(net.parameters(), lr=0.05)
    stopper = stopper_type(net, patience=3)
    for epoch in range(30):
        perm = torch.randperm(len(xtr))
        for idx in perm.split(50):
            opt.zero_grad()
            nn.functional.cross_entropy(net(xtr[idx]), ytr[idx]).backward()
            opt.step()
        if stopper.step(accuracy(net, xva, yva)):
            break
    stopper.restore_best()
    blob = io.BytesIO()
    torch.save(net.state_dict(), blob)  # ok
    return stopper.best, accuracy(net, xva, yva), blob.tell()


def main():
    for t in (EarlyStopper, Patience):
        best, now, nbytes = run(t)
        print(t.__name__, "best val acc %.3f, restored %.3f (%d bytes)" % (best, now, nbytes))


if __name__ == "__main__":
    main()
