# %% [markdown]
# # Fitting a noisy sine with a small MLP

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(42)
np.random.seed(42)

# %%
N = 2000
X = np.random.uniform(-2 * np.pi, 2 * np.pi, size=(N, 1)).astype(np.float32)
y = np.sin(X) + 0.1 * np.random.randn(N, 1).astype(np.float32)
idx = np.random.permutation(N)
train_idx, val_idx = idx[:1600], idx[1600:]
X_train, y_train = torch.from_numpy(X[train_idx]), torch.from_numpy(y[train_idx])
X_val, y_val = torch.from_numpy(X[val_idx]), torch.from_numpy(y[val_idx])

# %%
model = nn.Sequential(
    nn.Linear(1, 64), nn.Tanh(),
    nn.Linear(64, 64), nn.Tanh(),
    nn.Linear(64, 1),
)
loss_fn = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
n_epochs = 3000

# %%
train_losses, val_losses = [], []
grad_norms = []
for epoch in range(n_epochs):
    model.train()
    y_pred = model(X_train)
    loss = loss_fn(y_pred, y_train)
    optimizer.zero_grad()
    loss.backward()
    grad_norms.append(torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0))  # ok
    optimizer.step()
    train_losses.append(loss)  # expect: TEN501

    model.eval()
    with torch.no_grad():
        val_pred = model(X_val)
        val_loss = loss_fn(val_pred, y_val)
    val_losses.append(val_loss)  # ok

    if epoch % 500 == 0:
        print(f"epoch {epoch}: train {loss.item():.4f}  val {val_loss.item():.4f}")

# %%
fig, ax = plt.subplots(1, 2, figsize=(12, 4))
ax[0].plot(torch.stack(train_losses).detach().numpy(), label="train")
ax[0].plot([v.item() for v in val_losses], label="val")
ax[0].set_yscale("log")
ax[0].legend()
ax[1].plot([g.item() for g in grad_norms])
ax[1].set_title("grad norm")
plt.show()

# %%
xs = torch.linspace(-2 * np.pi, 2 * np.pi, 500).unsqueeze(1)
with torch.no_grad():
    ys = model(xs)
plt.scatter(X_val.numpy(), y_val.numpy(), s=3, alpha=0.4)
plt.plot(xs.numpy(), ys.numpy(), color="red")
plt.show()
