"""Plain regression script: per-epoch running totals of the loss."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(96, 6)
true_w = torch.randn(6, 1)
Y = X @ true_w + 0.1 * torch.randn(96, 1)

model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()

epoch_means = []
for epoch in range(3):
    epoch_loss = 0.0
    epoch_loss_f = 0.0
    running_mae = 0.0
    for i in range(0, 96, 16):
        xb, yb = X[i:i + 16], Y[i:i + 16]
        pred = model(xb)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss  # expect: TEN501
        epoch_loss_f += loss.item()  # ok
        running_mae += (pred - yb).abs().mean().item()  # ok
    epoch_means.append(epoch_loss_f / 6)  # ok
    print(f"epoch {epoch}: mse={epoch_loss_f / 6:.4f} mae={running_mae / 6:.4f} (tensor total {float(epoch_loss):.3f})")
