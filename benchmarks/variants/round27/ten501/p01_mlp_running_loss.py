"""Plain MLP regression loop with a couple of running statistics."""
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
X = torch.randn(64, 8)
y = X.sum(dim=1, keepdim=True) * 0.3

running_loss = 0.0
epoch_loss = 0.0
loss_curve = []
raw_history = []
for step in range(12):
    idx = torch.randint(0, 64, (16,))
    pred = model(X[idx])
    loss = nn.functional.mse_loss(pred, y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    running_loss += loss  # expect: TEN501
    epoch_loss += loss.item()  # ok
    loss_curve.append(loss.detach())  # ok
    raw_history = raw_history + [loss]  # expect: TEN501

print("running", running_loss.item())
print("epoch", round(epoch_loss, 4))
print("raw", len(raw_history))
print("last", [round(v.item(), 4) for v in loss_curve[-3:]])
