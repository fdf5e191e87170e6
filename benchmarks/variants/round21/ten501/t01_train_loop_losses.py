"""Plain supervised regression loop with the usual loss bookkeeping."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(256, 10)
W_true = torch.randn(10, 1)
Y = X @ W_true + 0.1 * torch.randn(256, 1)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

losses = []
loss_values = []
running_loss = 0.0
epoch_loss_sum = 0.0
smoothed = None
batch_size = 32

for epoch in range(3):
    perm = torch.randperm(X.size(0))
    epoch_losses = []
    for i in range(0, X.size(0), batch_size):
        idx = perm[i:i + batch_size]
        xb, yb = X[idx], Y[idx]

        optimizer.zero_grad()
        pred = model(xb)
        loss = F.mse_loss(pred, yb)
        loss.backward()
        optimizer.step()

        losses.append(loss)  # expect: TEN501
        loss_values.append(loss.item())  # ok
        running_loss += loss  # expect: TEN501
        epoch_loss_sum += float(loss)  # ok
        epoch_losses.append(loss.detach())  # ok
        smoothed = loss.detach() if smoothed is None else 0.9 * smoothed + 0.1 * loss.detach()  # ok

    print(f"epoch {epoch}: mean loss {torch.stack(epoch_losses).mean().item():.4f} "
          f"smoothed {smoothed.item():.4f}")

print("all-steps mean (tensor list):", torch.stack(losses).mean().item())
print("all-steps mean (floats):", sum(loss_values) / len(loss_values))
print("running_loss:", running_loss.item(), "float sum:", epoch_loss_sum)
