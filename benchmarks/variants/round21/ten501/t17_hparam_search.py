"""Grid search over learning rate / weight decay; train() returns its last loss to the caller."""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(256, 8)
Y = (X @ torch.randn(8, 1)).tanh() + 0.05 * torch.randn(256, 1)
X_val, Y_val = X[192:], Y[192:]
X_tr, Y_tr = X[:192], Y[:192]


def build_model(width):
    return nn.Sequential(nn.Linear(8, width), nn.ReLU(), nn.Linear(width, 1))


def train(lr, wd, width=32, epochs=8):
    model = build_model(width)
    opt = torch.optim.SGD(model.parameters(), lr=lr, weight_decay=wd, momentum=0.9)
    curve = []
    for epoch in range(epochs):
        for i in range(0, len(X_tr), 64):
            loss = F.mse_loss(model(X_tr[i:i + 64]), Y_tr[i:i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
        curve.append(loss.item())  # ok
    return model, loss, curve


def validate(model):
    model.eval()
    pred = model(X_val)
    return F.mse_loss(pred, Y_val)


results = {}
results_scalar = {}
trials = []
leaderboard = []
best_val, best_cfg = float("inf"), None

for lr, wd in itertools.product([0.01, 0.05], [0.0, 1e-3]):
    model, last_loss, curve = train(lr, wd)
    val_loss = validate(model)
    results[(lr, wd)] = last_loss  # expect: TEN501
    results_scalar[(lr, wd)] = last_loss.item()  # ok
    trials.append({"lr": lr, "wd": wd, "val": val_loss, "curve": curve})  # expect: TEN501
    leaderboard.append((float(val_loss), lr, wd))  # ok
    if val_loss.item() < best_val:
        best_val, best_cfg = val_loss.item(), (lr, wd)  # ok

leaderboard.sort()
print("leaderboard:", [(round(v, 4), lr, wd) for v, lr, wd in leaderboard])
print("best:", best_cfg, round(best_val, 4))
print("train losses:", {k: round(v.item(), 4) for k, v in results.items()})
print("val mean over trials:", torch.stack([t["val"] for t in trials]).mean().item(),
      "scalar mean:", sum(results_scalar.values()) / len(results_scalar))
