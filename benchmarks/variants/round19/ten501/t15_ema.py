"""Exponential moving averages: smoothed loss for the progress bar and an EMA copy of weights."""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


class EMATracker:
    def __init__(self, beta=0.9):
        self.beta = beta
        self.value = None

    def update(self, x):
        self.value = x if self.value is None else self.beta * self.value + (1 - self.beta) * x
        return self.value


class ModelEMA:
    def __init__(self, model, decay=0.99):
        self.ema = copy.deepcopy(model).eval()
        self.decay = decay

    def update(self, model):
        with torch.no_grad():
            for e, p in zip(self.ema.parameters(), model.parameters()):
                e.copy_(e * self.decay + (1 - self.decay) * p)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(5, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    ema_model = ModelEMA(model)
    tracker_bad, tracker_ok = EMATracker(), EMATracker()
    smooth_loss = None
    smooth_loss_f = None
    for step in range(6):
        x, y = torch.randn(16, 5), torch.randn(16, 1)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_model.update(model)
        if smooth_loss is None:
            smooth_loss = loss  # either
            smooth_loss_f = loss.item()  # ok
        else:
            smooth_loss = 0.98 * smooth_loss + 0.02 * loss  # expect: TEN501
            smooth_loss_f = 0.98 * smooth_loss_f + 0.02 * loss.item()  # ok
        tracker_bad.update(loss)  # expect: TEN501
        tracker_ok.update(loss.detach())  # ok
    with torch.no_grad():
        ema_pred = ema_model.ema(torch.ones(1, 5))
    print(float(smooth_loss), smooth_loss_f, float(tracker_bad.value), float(tracker_ok.value), float(ema_pred))


if __name__ == "__main__":
    main()
