import copy
import torch
import torch.nn as nn

torch.manual_seed(0)


class EarlyStopping:
    def __init__(self, patience=3):
        self.patience = patience
        self.best_loss = float("inf")
        self.best_state = None
        self.bad_epochs = 0

    def step(self, val_loss, model):
        if val_loss < self.best_loss:
            self.best_loss = val_loss
            self.best_state = model.state_dict()  # expect: TEN402
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience


X = torch.randn(128, 8)
w_true = torch.randn(8, 1)
y = X @ w_true + 0.1 * torch.randn(128, 1)
Xv, yv = X[:32], y[:32]
Xt, yt = X[32:], y[32:]

model = nn.Linear(8, 1)
init_state = copy.deepcopy(model.state_dict())  # ok
opt = torch.optim.SGD(model.parameters(), lr=0.35)
stopper = EarlyStopping(patience=3)
lossf = nn.MSELoss()

for epoch in range(40):
    opt.zero_grad()
    loss = lossf(model(Xt), yt)
    loss.backward()
    opt.step()
    # noisy "lr bump" after epoch 12 makes the model diverge
    if epoch >= 12:
        with torch.no_grad():
            for p in model.parameters():
                p.add_(0.2 * torch.randn_like(p))
    with torch.no_grad():
        vl = lossf(model(Xv), yv).item()
    print(f"epoch {epoch} val {vl:.5f}")
    if stopper.step(vl, model):
        print("early stop at", epoch)
        break

model.load_state_dict(stopper.best_state)
with torch.no_grad():
    print(f"restored val {lossf(model(Xv), yv).item():.5f} best {stopper.best_loss:.5f}")
    drift = sum((model.state_dict()[k] - init_state[k]).abs().sum() for k in init_state)
print(f"drift from init {drift.item():.5f}")
