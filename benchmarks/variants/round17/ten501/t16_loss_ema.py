"""Exponentially smoothed loss for a progress display."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class LossSmoother:
    def __init__(self, beta=0.98):
        self.beta = beta
        self.value = None
        self.n = 0

    def update(self, loss):
        self.n += 1
        if self.value is None:
            self.value = loss
        else:
            self.value = self.beta * self.value + (1 - self.beta) * loss
        return self.value / (1 - self.beta ** self.n)


model = nn.Sequential(nn.Linear(5, 5), nn.ReLU(), nn.Linear(5, 1))
opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
smoother = LossSmoother()
display_smoother = LossSmoother()

ema_loss = None
ema_value = 0.0
for step in range(12):
    x = torch.randn(10, 5)
    loss = (model(x) - x.mean(1, keepdim=True)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

    smoother.update(loss)  # expect: TEN501
    display_smoother.update(loss.item())  # ok
    ema_loss = loss if ema_loss is None else 0.9 * ema_loss + 0.1 * loss  # expect: TEN501
    ema_value = 0.9 * ema_value + 0.1 * loss.detach()  # ok

print(float(ema_loss), float(ema_value), display_smoother.value)
