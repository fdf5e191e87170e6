"""A small Trainer class with train/validate methods."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)


class Trainer:
    def __init__(self, model, train_loader, val_loader, lr=1e-2):
        self.model = model
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.criterion = nn.BCEWithLogitsLoss()
        self.train_losses = []
        self.val_losses = []
        self.grad_norms = []
        self.best_val = float("inf")
        self.best_state = None

    def _train_epoch(self):
        self.model.train()
        for xb, yb in self.train_loader:
            out = self.model(xb).squeeze(-1)
            loss = self.criterion(out, yb)
            self.opt.zero_grad()
            loss.backward()
            self.grad_norms.append(nn.utils.clip_grad_norm_(self.model.parameters(), 5.0))  # ok
            self.opt.step()
            self.train_losses.append(loss)  # expect: TEN501

    @torch.no_grad()
    def _validate(self):
        self.model.eval()
        total, count = 0.0, 0
        for xb, yb in self.val_loader:
            out = self.model(xb).squeeze(-1)
            total = total + self.criterion(out, yb) * len(xb)
            count += len(xb)
        return total / count

    def fit(self, epochs):
        for epoch in range(epochs):
            self._train_epoch()
            val_loss = self._validate()
            self.val_losses.append(val_loss)  # ok
            if val_loss < self.best_val:
                self.best_val = val_loss.item()  # ok
                self.best_state = {k: v.clone() for k, v in self.model.state_dict().items()}  # ok
        return self


xs = torch.randn(80, 5)
ys = (xs[:, 0] + xs[:, 1] > 0).float()
train = DataLoader(TensorDataset(xs[:64], ys[:64]), batch_size=16, shuffle=True)
val = DataLoader(TensorDataset(xs[64:], ys[64:]), batch_size=8)
tr = Trainer(nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1)), train, val).fit(3)
print(len(tr.train_losses), tr.best_val)
