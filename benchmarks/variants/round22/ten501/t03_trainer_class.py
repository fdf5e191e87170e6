"""A small Trainer object: the step method does backward, fit() keeps the results."""
import math

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Trainer:
    def __init__(self, model, lr=0.1, clip=1.0):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.sched = torch.optim.lr_scheduler.StepLR(self.opt, step_size=3, gamma=0.5)
        self.criterion = nn.SmoothL1Loss()
        self.clip = clip
        self.loss_history = []
        self.epoch_loss = 0
        self.grad_norms = []
        self.lrs = []
        self.best_loss = math.inf

    def _forward_loss(self, batch):
        x, y = batch
        return self.criterion(self.model(x), y)

    def _step(self, batch):
        self.opt.zero_grad()
        loss = self._forward_loss(batch)
        loss.backward()
        total_norm = nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.grad_norms.append(total_norm)  # ok
        self.opt.step()
        return loss

    def fit(self, loader, epochs):
        for _ in range(epochs):
            self.epoch_loss = 0
            for batch in loader:
                loss = self._step(batch)
                self.loss_history.append(loss)  # expect: TEN501
                self.epoch_loss += loss  # expect: TEN501
                self.best_loss = min(self.best_loss, loss.item())  # ok
            self.sched.step()
            self.lrs.append(self.opt.param_groups[0]["lr"])  # ok
        return self


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(80, 4)
    y = torch.sin(x.sum(1, keepdim=True))
    loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)
    net = nn.Sequential(nn.Linear(4, 24), nn.SiLU(), nn.Linear(24, 1))
    t = Trainer(net).fit(loader, epochs=4)
    print(len(t.loss_history), round(t.best_loss, 4), t.lrs, float(t.epoch_loss.detach()))
