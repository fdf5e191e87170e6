import torch
import torch.nn as nn

torch.manual_seed(0)


class BaseTrainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self.best, self.best_loss = None, float("inf")

    def get_state(self):
        return {k: v.detach().clone() for k, v in self.model.state_dict().items()}  # ok

    def train(self, X, Y, Xv, Yv, epochs):
        for ep in range(epochs):
            self.opt.zero_grad()
            nn.functional.smooth_l1_loss(self.model(X), Y).backward()
            self.opt.step()
            with torch.no_grad():
                v = nn.functional.smooth_l1_loss(self.model(Xv), Yv).item()
            if v < self.best_loss:
                self.best_loss = v
                self.best = self.get_state()  # either: TEN402
        self.model.load_state_dict(self.best)
        with torch.no_grad():
            return nn.functional.smooth_l1_loss(self.model(Xv), Yv).item()


class ParamOnlyTrainer(BaseTrainer):
    def get_state(self):
        return {n: p for n, p in self.model.named_parameters()}  # expect: TEN402


X = torch.randn(100, 3)
Y = torch.tanh(3 * X[:, :1]) + 0.3 * torch.randn(100, 1)
for cls in (BaseTrainer, ParamOnlyTrainer):
    torch.manual_seed(1)
    m = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))
    t = cls(m, lr=0.9)
    restored = t.train(X[:20], Y[:20], X[20:], Y[20:], epochs=60)
    print(f"{cls.__name__}: best {t.best_loss:.5f} restored {restored:.5f}")
