"""Plain script-style classifier training loop (module level, no functions)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(64, 10)
Y = (X[:, 0] > 0).long()
model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)

train_losses = []
train_losses_f = []
epoch_history = {"loss": [], "acc": []}
grad_norms = []
running_loss_bad = 0.0

for epoch in range(3):
    running_loss = 0.0
    correct = 0
    for i in range(0, 64, 16):
        xb, yb = X[i:i + 16], Y[i:i + 16]
        opt.zero_grad()
        logits = model(xb)
        loss = F.cross_entropy(logits, yb)
        loss.backward()
        opt.step()
        train_losses.append(loss)  # expect: TEN501
        train_losses_f.append(loss.item())  # ok
        running_loss += loss  # expect: TEN501
        running_loss_bad = running_loss_bad + loss.detach()  # ok
        correct += (logits.argmax(dim=1) == yb).sum()  # ok
        grad_norms.append(model[0].weight.grad.norm())  # ok
    epoch_history["loss"].append(running_loss / 4)  # expect: TEN501
    epoch_history["acc"].append(correct / 64.0)  # ok

print("epochs", len(epoch_history["loss"]), "last", float(epoch_history["loss"][-1]),
      "acc", float(epoch_history["acc"][-1]), "n", len(train_losses), sum(train_losses_f) / len(train_losses_f),
      float(running_loss_bad), float(sum(grad_norms)))
