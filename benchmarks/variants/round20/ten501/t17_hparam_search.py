"""Grid search over learning rate and width; results kept per trial."""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(64, 5)
Y = (X[:, :2].sum(1) > 0).long()


def run_trial(lr, width, steps=15):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, width), nn.ReLU(), nn.Linear(width, 2))
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    curve = []
    for _ in range(steps):
        loss = F.cross_entropy(model(X), Y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        curve.append(loss.item())  # ok
    acc = (model(X).argmax(1) == Y).float().mean()
    return loss, acc, curve


results = {}
results_ok = {}
curves = []
accs = []
leaderboard = []

for lr, width in itertools.product([0.01, 0.1, 0.5], [4, 16]):
    final_loss, acc, curve = run_trial(lr, width)
    results[(lr, width)] = final_loss  # expect: TEN501
    results_ok[(lr, width)] = final_loss.item()  # ok
    curves.append(curve)  # ok
    accs.append(acc)  # ok
    leaderboard.append({"lr": lr, "width": width, "loss": final_loss})  # expect: TEN501

best = min(results_ok, key=results_ok.get)
print("best", best, round(results_ok[best], 4), "acc", round(float(max(accs)), 4))
print("trials", len(results), len(curves), round(float(leaderboard[0]["loss"]), 4))
