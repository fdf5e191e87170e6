# K-fold cross-validation notebook export: one model object, reset between folds.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)
N, D, K = 120, 8, 4
X = torch.randn(N, D)
Y = X @ torch.randn(D, 1) + 0.3 * torch.randn(N, 1)


def kfold_indices(n, k):
    perm = torch.randperm(n)
    folds = perm.chunk(k)
    for i in range(k):
        val_idx = folds[i]
        train_idx = torch.cat([folds[j] for j in range(k) if j != i])
        yield train_idx, val_idx


model = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, 1))
init_weights = model.state_dict().copy()  # expect: TEN402

fold_scores = []
start_losses = []
for fold, (tr, va) in enumerate(kfold_indices(N, K)):
    model.load_state_dict(init_weights)  # fresh model for every fold
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    with torch.no_grad():
        start_losses.append(F.mse_loss(model(X[va]), Y[va]).item())
    for epoch in range(60):
        optimizer.zero_grad()
        loss = F.mse_loss(model(X[tr]), Y[tr])
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        val = F.mse_loss(model(X[va]), Y[va]).item()
    fold_scores.append(val)
    print(f"fold {fold}: val mse {val:.4f} (val mse before training {start_losses[-1]:.4f})")

print(f"CV mse: {sum(fold_scores) / K:.4f}")
