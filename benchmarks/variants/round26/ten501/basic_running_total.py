"""Plain regression loop that keeps a running epoch loss."""
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
X = torch.randn(64, 8)
Y = X.sum(1, keepdim=True) * 0.3

history, history_f = [], []
for epoch in range(3):
    running_loss = 0.0
    running_loss_f = 0.0
    for i in range(0, 64, 8):
        xb, yb = X[i:i + 8], Y[i:i + 8]
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
        running_loss += loss  # expect: TEN501
        running_loss_f += loss.item()  # ok
    history.append(running_loss / 8)  # expect: TEN501
    history_f.append(running_loss_f / 8)  # ok
    print(f"epoch {epoch} loss {history[-1].item():.4f} {history_f[-1]:.4f}")
