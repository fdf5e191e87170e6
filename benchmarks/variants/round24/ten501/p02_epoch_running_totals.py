"""Plain regression loop with several running totals, the way a quick research script does it."""
import torch
import torch.nn as nn

torch.manual_seed(0)

X = torch.randn(96, 8)
W_true = torch.randn(8, 1)
Y = X @ W_true + 0.1 * torch.randn(96, 1)


def batches(bs=16):
    perm = torch.randperm(X.size(0))
    for i in range(0, X.size(0), bs):
        idx = perm[i:i + bs]
        yield X[idx], Y[idx]


model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
weight_decay = 1e-4

for epoch in range(3):
    epoch_loss = 0
    epoch_loss_val = 0.0
    running = torch.zeros(())
    total_reg = 0.0
    n_sign_ok = 0
    for xb, yb in batches():
        pred = model(xb)
        mse = ((pred - yb) ** 2).mean()
        reg = sum((p ** 2).sum() for p in model.parameters())
        loss = mse + weight_decay * reg
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss  # expect: TEN501
        epoch_loss_val += loss.item()  # ok
        running = running + loss.detach()  # ok
        total_reg += reg  # expect: TEN501
        n_sign_ok += ((pred > 0) == (yb > 0)).sum()  # ok
    print(epoch, float(epoch_loss), epoch_loss_val, running.item(), float(total_reg), int(n_sign_ok))
