"""An EarlyStopping helper in the style of the popular pytorch-tools snippet."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class EarlyStopping:
    def __init__(self, patience=3, delta=0.0):
        self.patience, self.delta = patience, delta
        self.counter, self.best_score, self.early_stop = 0, None, False
        self.val_loss_min = np.inf
        self.best_model_wts = None

    def __call__(self, val_loss, model):
        score = -val_loss
        if self.best_score is None or score > self.best_score + self.delta:
            self.best_score = score
            self.save_checkpoint(val_loss, model)
            self.counter = 0
        else:
            self.counter += 1
            self.early_stop = self.counter >= self.patience

    def save_checkpoint(self, val_loss, model):
        # keep the weights on the CPU so they do not occupy GPU memory
        self.best_model_wts = {k: v.cpu() for k, v in model.state_dict().items()}  # expect: TEN402
        self.val_loss_min = val_loss


class EarlyStoppingCopy(EarlyStopping):
    def save_checkpoint(self, val_loss, model):
        self.best_model_wts = {k: v.cpu().clone() for k, v in model.state_dict().items()}  # ok
        self.val_loss_min = val_loss


def run(stopper_cls):
    torch.manual_seed(0)
    x, y = torch.randn(80, 3), torch.randn(80, 1)
    model = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=3e-2)
    stopper = stopper_cls(patience=4)
    for epoch in range(60):
        opt.zero_grad()
        F.mse_loss(model(x[:60]), y[:60]).backward()
        opt.step()
        with torch.no_grad():
            val = F.mse_loss(model(x[60:]), y[60:]).item()
        stopper(val, model)
        if stopper.early_stop:
            break
    model.load_state_dict(stopper.best_model_wts)
    with torch.no_grad():
        return stopper.val_loss_min, F.mse_loss(model(x[60:]), y[60:]).item(), epoch


if __name__ == "__main__":
    print("cpu() snapshot:", run(EarlyStopping))
    print("cpu().clone() snapshot:", run(EarlyStoppingCopy))
