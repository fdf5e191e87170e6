# plain research script: track initial and best weights inline
import copy
import torch
from torch import nn

torch.manual_seed(0)
X = torch.randn(128, 10)
w_true = torch.randn(10, 1)
Y = (X @ w_true > 0).float()
Xv = torch.randn(64, 10)
Yv = (Xv @ w_true + 1.5 * torch.randn(64, 1) > 0).float()

model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=1.0)
crit = nn.BCEWithLogitsLoss()

init = copy.deepcopy(model.state_dict())  # ok
best = model.state_dict()  # ok
best_acc = -1.0
for epoch in range(15):
    perm = torch.randperm(128)
    for i in range(0, 128, 32):
        idx = perm[i:i + 32]
        opt.zero_grad()
        crit(model(X[idx]), Y[idx]).backward()
        opt.step()
    with torch.no_grad():
        acc = ((model(Xv) > 0).float() == Yv).float().mean().item()
    if acc > best_acc:
        best_acc = acc
        best = model.state_dict()  # expect: TEN402
    print(epoch, round(acc, 4))

drift = sum((model.state_dict()[k] - init[k]).norm().item() for k in init)
print("drift from init", round(drift, 4))
model.load_state_dict(best)
with torch.no_grad():
    final = ((model(Xv) > 0).float() == Yv).float().mean().item()
print("best acc", best_acc, "acc after loading best", final)
