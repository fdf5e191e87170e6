"""Kaggle notebook turned script: K-fold CV with out-of-fold and test predictions."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, D, FOLDS = 40, 6, 4
X = torch.randn(N, D)
y = (X[:, 0] + 0.3 * torch.randn(N) > 0).float()
X_test = torch.randn(10, D)
folds = torch.arange(N) % FOLDS

oof = torch.zeros(N)
oof_ok = torch.zeros(N)
test_preds = torch.zeros(10)
test_preds_ok = torch.zeros(10)
fold_scores = []
for fold in range(FOLDS):
    tr_idx, va_idx = (folds != fold).nonzero().squeeze(1), (folds == fold).nonzero().squeeze(1)
    model = nn.Sequential(nn.Linear(D, 12), nn.ReLU(), nn.Linear(12, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(5):
        logit = model(X[tr_idx]).squeeze(1)
        loss = F.binary_cross_entropy_with_logits(logit, y[tr_idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    p_val = torch.sigmoid(model(X[va_idx]).squeeze(1))
    oof[va_idx] = p_val  # expect: TEN501
    oof_ok[va_idx] = p_val.detach()  # ok
    test_preds += torch.sigmoid(model(X_test).squeeze(1)) / FOLDS  # expect: TEN501
    with torch.no_grad():
        test_preds_ok += torch.sigmoid(model(X_test).squeeze(1)) / FOLDS  # ok
    score = ((p_val > 0.5).float() == y[va_idx]).float().mean()
    fold_scores.append(score)  # ok
print(oof.requires_grad, oof_ok.requires_grad, float(torch.stack(fold_scores).mean()), test_preds_ok[:3])
