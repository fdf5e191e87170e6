import copy
import torch
import torch.nn as nn

torch.manual_seed(0)


class EarlyStopping:
    """Stop when the validation loss has not improved for `patience` epochs."""

    def __init__(self, patience=3, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best_loss = float("inf")
        self.best_state = None
        self.best_optim = None
        self.counter = 0

    def step(self, val_loss, model, optimizer):
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.best_state = model.state_dict()  # expect: TEN402
            self.best_optim = copy.deepcopy(optimizer.state_dict())  # ok
            self.counter = 0
        else:
            self.counter += 1
        return self.counter >= self.patience


def make_data(n, noise):
    x = torch.randn(n, 8)
    w = torch.linspace(-1, 1, 8)
    y = x @ w + noise * torch.randn(n)
    return x, y.unsqueeze(1)


xtr, ytr = make_data(32, 0.8)
xva, yva = make_data(64, 0.0)
model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
stopper = EarlyStopping(patience=4)

for epoch in range(40):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(xtr), ytr)
    loss.backward()
    opt.step()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(xva), yva).item()
    if stopper.step(val, model, opt):
        print(f"early stop at epoch {epoch}")
        break

model.load_state_dict(stopper.best_state)
opt.load_state_dict(stopper.best_optim)
with torch.no_grad():
    restored = nn.functional.mse_loss(model(xva), yva).item()
print(f"best recorded val {stopper.best_loss:.6f}")
print(f"val after restoring best {restored:.6f}")
print("momentum buffer norm", round(opt.state_dict()["state"][0]["momentum_buffer"].norm().item(), 6))
