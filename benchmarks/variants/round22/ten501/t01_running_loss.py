"""Plain regression loop: the classic running-loss mistakes next to the fixes."""
import torch
from torch import nn

torch.manual_seed(0)

X = torch.randn(96, 8)
Y = X @ torch.randn(8, 1) + 0.1 * torch.randn(96, 1)

model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()

running_loss = 0.0
running_loss_val = 0.0
epoch_losses = []
epoch_losses_det = []
seen = 0
input_mass = torch.zeros(())
target_hist = []

for epoch in range(2):
    for start in range(0, len(X), 16):
        xb, yb = X[start:start + 16], Y[start:start + 16]
        opt.zero_grad()
        pred = model(xb)
        loss = loss_fn(pred, yb)
        loss.backward()
        opt.step()

        running_loss += loss  # expect: TEN501
        epoch_losses.append(loss)  # expect: TEN501
        running_loss_val += loss.item()  # ok
        epoch_losses_det.append(loss.detach())  # ok
        seen += xb.shape[0]  # ok
        input_mass += xb.sum()  # ok
        target_hist.append(yb)  # ok

print("epochs done", float(running_loss) / seen, running_loss_val / len(epoch_losses_det))
print(len(epoch_losses), float(input_mass), len(target_hist))
