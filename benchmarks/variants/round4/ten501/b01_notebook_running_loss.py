# %% [markdown]
# Quick baseline on synthetic tabular data (notebook export)

# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

# %%
X = torch.randn(2048, 32)
w_true = torch.randn(32, 4)
y = (X @ w_true).argmax(dim=1)
ds = TensorDataset(X, y)
train_dl = DataLoader(ds, batch_size=64, shuffle=True)

# %%
net = nn.Sequential(
    nn.Linear(32, 128),
    nn.ReLU(),
    nn.Dropout(0.1),
    nn.Linear(128, 4),
).to(device)
opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)

# %%
EPOCHS = 5
for epoch in range(EPOCHS):
    net.train()
    running_loss = 0.0
    correct = 0
    seen = 0
    for xb, yb in train_dl:
        xb, yb = xb.to(device), yb.to(device)
        logits = net(xb)
        loss = F.cross_entropy(logits, yb)

        opt.zero_grad()
        loss.backward()
        opt.step()

        running_loss += loss  # expect: TEN501
        correct += (logits.argmax(1) == yb).sum().item()  # ok
        seen += yb.size(0)

    print(f"epoch {epoch}: loss={running_loss / len(train_dl):.4f} acc={correct / seen:.3f}")

# %%
torch.save(net.state_dict(), "/tmp/baseline_tabular.pt")
