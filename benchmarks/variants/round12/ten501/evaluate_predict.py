"""Inference helpers shared by the evaluation scripts."""
import torch
import torch.nn.functional as F


def predict(model, loader):
    model.eval()
    outputs = []
    for x, _ in loader:
        outputs.append(model(x))  # expect: TEN501
    return torch.cat(outputs)


@torch.no_grad()
def predict_nograd(model, loader):
    model.eval()
    outputs = []
    for x, _ in loader:
        outputs.append(model(x))  # ok
    return torch.cat(outputs)


def predict_proba(model, loader):
    model.eval()
    probs = []
    with torch.inference_mode():
        for x, _ in loader:
            probs.append(model(x).softmax(-1))  # ok
    return torch.cat(probs)


def evaluate(model, loader, criterion):
    model.eval()
    total = 0.0
    for x, y in loader:
        total += criterion(model(x), y)  # expect: TEN501
    return total / len(loader)


def evaluate_detached(model, loader, criterion):
    model.eval()
    total, n = 0.0, 0
    for x, y in loader:
        out = model(x)
        total += criterion(out, y).item() * len(y)  # ok
        n += len(y)
    return total / n


def embed_dataset(model, loader):
    model.eval()
    feats, labels = [], []
    with torch.set_grad_enabled(False):
        for x, y in loader:
            feats.append(F.normalize(model.backbone(x), dim=-1))  # ok
            labels.append(y)  # ok
    return torch.cat(feats), torch.cat(labels)


def knn_accuracy(model, train_loader, test_loader, k=20):
    bank, bank_labels = embed_dataset(model, train_loader)
    correct, total = 0, 0
    for x, y in test_loader:
        with torch.no_grad():
            q = F.normalize(model.backbone(x), dim=-1)
        sim = q @ bank.t()
        idx = sim.topk(k, dim=1).indices
        pred = bank_labels[idx].mode(dim=1).values
        correct += (pred == y).sum().item()  # ok
        total += y.numel()
    return correct / total
