"""Keep (epoch, val_loss, weights) for every epoch and pick the best one at the end."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.linspace(-3, 3, 120).unsqueeze(1)
y = torch.sin(x) + 0.1 * torch.randn_like(x)
perm = torch.randperm(120)
tr, va = perm[:90], perm[90:]

model = nn.Sequential(nn.Linear(1, 32), nn.SiLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=2e-2)
history = []
for epoch in range(25):
    opt.zero_grad()
    F.mse_loss(model(x[tr]), y[tr]).backward()
    opt.step()
    with torch.no_grad():
        val = F.mse_loss(model(x[va]), y[va]).item()
    history.append((epoch, val, model.state_dict()))  # expect: TEN402

curve = [(e, round(v, 4)) for e, v, _ in history]  # ok
best_epoch, best_val, best_weights = min(history, key=lambda t: t[1])
model.load_state_dict(best_weights)
with torch.no_grad():
    print("best epoch", best_epoch, best_val, "reloaded", F.mse_loss(model(x[va]), y[va]).item())
print(curve[-3:])
