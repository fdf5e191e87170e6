"""A trainer that keeps a short window of recent losses to smooth its logging."""
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, window=5, use_roll=False):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.losses = torch.zeros(window)
        self.use_roll = use_roll

    def _record(self, loss):
        if self.use_roll:
            self.losses = torch.roll(self.losses, 1)  # ok
        else:
            self.losses[1:] = self.losses[:-1]  # expect: TEN403
        self.losses[0] = loss

    def train_step(self, x, y):
        self.opt.zero_grad()
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward()
        self.opt.step()
        self._record(loss.item())
        return self.losses.mean().item()


for use_roll in (False, True):
    torch.manual_seed(0)
    tr = Trainer(nn.Linear(3, 1), use_roll=use_roll)
    x, y = torch.randn(16, 3), torch.randn(16, 1)
    try:
        for _ in range(7):
            smooth = tr.train_step(x, y)
        print("roll=%s smoothed loss %.6f" % (use_roll, smooth))
    except RuntimeError as e:
        print("roll=%s RuntimeError: %s" % (use_roll, str(e).split(".")[0]))
