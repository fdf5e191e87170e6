"""Early stopping with best-checkpoint restore (classic Keras-style loop)."""
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(64, 8)
y = (X[:, :3].sum(1, keepdim=True) > 0).float()
Xv, yv = X[48:], y[48:]
X, y = X[:48], y[:48]

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=2.0)
loss_fn = nn.BCEWithLogitsLoss()

best_loss = float("inf")
best_state = None
best_state_copy = None
patience, bad_epochs = 3, 0
for epoch in range(25):
    model.train()
    opt.zero_grad()
    loss_fn(model(X), y).backward()
    opt.step()
    with torch.no_grad():
        val = loss_fn(model(Xv), yv).item()
    if val < best_loss:
        best_loss = val
        best_state = model.state_dict()  # expect: TEN402
        best_state_copy = copy.deepcopy(model.state_dict())  # ok
        bad_epochs = 0
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            break

model.load_state_dict(best_state)
with torch.no_grad():
    restored = loss_fn(model(Xv), yv).item()
model.load_state_dict(best_state_copy)
with torch.no_grad():
    restored_ok = loss_fn(model(Xv), yv).item()
print(f"best={best_loss:.4f} restored(alias)={restored:.4f} restored(copy)={restored_ok:.4f}")
