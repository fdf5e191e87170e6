import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best = None
        self.bad_epochs = 0
        self.should_stop = False

    def step(self, metric):
        if self.best is None or metric < self.best - self.min_delta:
            self.best = metric
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
            self.should_stop = self.bad_epochs >= self.patience
        return self.should_stop


def validate(model, xv, yv):
    return F.mse_loss(model(xv), yv)


def train(stopper, stopper_ok, epochs=6):
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.3)
    xv, yv = torch.randn(40, 4), torch.randn(40, 1)
    for epoch in range(epochs):
        for _ in range(3):
            x = torch.randn(16, 4)
            loss = F.mse_loss(model(x), x[:, :1])
            opt.zero_grad()
            loss.backward()
            opt.step()
        val_loss = validate(model, xv, yv)
        stop = stopper.step(val_loss)  # expect: TEN501
        stopper_ok.step(val_loss.item())  # ok
        print(f"epoch {epoch} val {val_loss.item():.4f} best {float(stopper_ok.best):.4f} stop={stop}")


if __name__ == "__main__":
    train(EarlyStopping(patience=10), EarlyStopping(patience=10))
