import torch
import torch.nn as nn

torch.manual_seed(0)


class Experiment:
    def __init__(self):
        self.net = nn.Sequential(nn.Linear(4, 8), nn.Sigmoid(), nn.Linear(8, 1))
        self.opt = torch.optim.SGD(self.net.parameters(), lr=2.0)
        self.best = None
        self.best_val = float("inf")

    @property
    def snapshot(self):
        return {k: v.cpu() for k, v in self.net.state_dict().items()}  # expect: TEN402

    @property
    def frozen_snapshot(self):
        return {k: v.cpu().clone() for k, v in self.net.state_dict().items()}  # ok

    def val_loss(self, X, Y):
        with torch.no_grad():
            return nn.functional.mse_loss(self.net(X), Y).item()

    def run(self, X, Y, Xv, Yv, epochs, safe):
        for ep in range(epochs):
            self.opt.zero_grad()
            nn.functional.mse_loss(self.net(X), Y).backward()
            self.opt.step()
            v = self.val_loss(Xv, Yv)
            if v < self.best_val:
                self.best_val = v
                self.best = self.frozen_snapshot if safe else self.snapshot  # either: TEN402
        self.net.load_state_dict(self.best)
        return self.val_loss(Xv, Yv)


X = torch.randn(80, 4)
Y = torch.cos(X.sum(1, keepdim=True))
for safe in (False, True):
    torch.manual_seed(0)
    exp = Experiment()
    final = exp.run(X[:60], Y[:60], X[60:], Y[60:], epochs=40, safe=safe)
    print(f"safe={safe} best val {exp.best_val:.5f} after restore {final:.5f}")
