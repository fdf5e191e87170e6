"""DeepFM click-through-rate model with epoch-level AUC."""
import torch
import torch.nn as nn


def roc_auc(scores, labels):
    order = torch.argsort(scores, descending=True)
    labels = labels[order].float()
    tp = torch.cumsum(labels, 0)
    fp = torch.cumsum(1 - labels, 0)
    tpr = tp / tp[-1].clamp(min=1)
    fpr = fp / fp[-1].clamp(min=1)
    return torch.trapz(tpr, fpr).item()


class DeepFM(nn.Module):
    def __init__(self, field_dims, k=16):
        super().__init__()
        self.offsets = torch.tensor([0] + list(torch.tensor(field_dims).cumsum(0)[:-1]))
        n = sum(field_dims)
        self.lin = nn.Embedding(n, 1)
        self.emb = nn.Embedding(n, k)
        self.mlp = nn.Sequential(nn.Linear(len(field_dims) * k, 128), nn.ReLU(), nn.Linear(128, 1))

    def forward(self, x):
        x = x + self.offsets
        e = self.emb(x)
        fm = 0.5 * (e.sum(1).pow(2) - e.pow(2).sum(1)).sum(1, keepdim=True)
        return (self.lin(x).sum(1) + fm + self.mlp(e.flatten(1))).squeeze(1)


def log_metrics(store, **metrics):
    for key, val in metrics.items():
        store.setdefault(key, []).append(val)


def train_epoch(model, loader, opt, store):
    model.train()
    crit = nn.BCEWithLogitsLoss()
    scores, labels = [], []
    for x, y in loader:
        logit = model(x)
        loss = crit(logit, y.float())
        opt.zero_grad()
        loss.backward()
        opt.step()
        scores.append(torch.sigmoid(logit))  # expect: TEN501
        labels.append(y)  # ok
        log_metrics(store, bce=loss, pos_rate=y.float().mean())  # expect: TEN501
    return roc_auc(torch.cat(scores).detach(), torch.cat(labels))


def validate(model, loader):
    model.eval()
    scores, labels = [], []
    for x, y in loader:
        scores.append(torch.sigmoid(model(x)))  # expect: TEN501
        labels.append(y)  # ok
    return roc_auc(torch.cat(scores).detach(), torch.cat(labels))


def validate_fast(model, loader, store):
    model.eval()
    scores, labels = [], []
    with torch.inference_mode():
        for x, y in loader:
            s = torch.sigmoid(model(x))
            scores.append(s)  # ok
            labels.append(y)  # ok
            log_metrics(store, val_mean_score=s.mean())  # ok
    return roc_auc(torch.cat(scores), torch.cat(labels))
