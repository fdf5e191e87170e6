"""Small regression trainer used for the ablation sweeps."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MLPRegressor(nn.Module):
    def __init__(self, d_in=16, d_hidden=64, d_out=1):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, d_hidden), nn.GELU(), nn.Linear(d_hidden, d_hidden), nn.GELU())
        self.head = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.head(self.body(x))


class Trainer:
    def __init__(self, model, optimizer, train_loader, val_loader, max_epochs=2, clip=1.0):
        self.model = model
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.max_epochs = max_epochs
        self.clip = clip
        self.epoch_loss = 0.0
        self.grad_norms = []
        self.val_history = []
        self.global_step = 0

    def _step(self, batch):
        x, y = batch
        pred = self.model(x)
        loss = F.mse_loss(pred, y)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        gnorm = nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.optimizer.step()
        return loss, gnorm

    def train_epoch(self):
        self.model.train()
        self.epoch_loss = 0.0
        for batch in self.train_loader:
            loss, gnorm = self._step(batch)
            self.epoch_loss += loss  # expect: TEN501
            self.grad_norms.append(gnorm)  # ok
            self.global_step += 1
        return self.epoch_loss / len(self.train_loader)

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        val_loss = 0.0
        for x, y in self.val_loader:
            val_loss += F.mse_loss(self.model(x), y)  # ok
        return val_loss / len(self.val_loader)

    def fit(self):
        for epoch in range(self.max_epochs):
            train_loss = self.train_epoch()
            val_loss = self.validate()
            self.val_history.append(val_loss)  # ok
            print(f"epoch {epoch} step {self.global_step} train {train_loss.item():.4f} val {val_loss.item():.4f}")
        return self.val_history


if __name__ == "__main__":
    torch.manual_seed(0)
    w = torch.randn(16, 1)
    xs = torch.randn(600, 16)
    ys = xs @ w + 0.1 * torch.randn(600, 1)
    train_dl = DataLoader(TensorDataset(xs[:500], ys[:500]), batch_size=32, shuffle=True)
    val_dl = DataLoader(TensorDataset(xs[500:], ys[500:]), batch_size=100)
    net = MLPRegressor()
    trainer = Trainer(net, torch.optim.AdamW(net.parameters(), lr=3e-3), train_dl, val_dl, max_epochs=3)
    trainer.fit()
    print("grad norm requires_grad:", trainer.grad_norms[0].requires_grad)
