# %% [markdown]
# # MLP baseline (synthetic stand-in for MNIST)
# Quick sanity notebook before moving to the conv model.

# %%
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(512, 784)
Y = torch.randint(0, 10, (512,))
train_dl = DataLoader(TensorDataset(X, Y), batch_size=64, shuffle=True)

# %%
model = nn.Sequential(
    nn.Linear(784, 128),
    nn.ReLU(),
    nn.Dropout(0.1),
    nn.Linear(128, 10),
)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()

# %%
epoch_hist = []
for epoch in range(3):
    running_loss = 0.0
    correct = 0
    for xb, yb in train_dl:
        logits = model(xb)
        loss = loss_fn(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()

        running_loss += loss  # expect: TEN501
        correct += (logits.argmax(1) == yb).sum()  # ok
    epoch_hist.append(running_loss.item() / len(train_dl))  # ok
    print(f"epoch {epoch}: loss={epoch_hist[-1]:.4f} acc={correct.item() / len(X):.3f}")

# %%
print(epoch_hist)
