"""Inference helpers used by the eval/export scripts."""
import numpy as np
import torch
import torch.nn.functional as F


def evaluate(model, loader, criterion, device):
    model.eval()
    total_loss, n = 0.0, 0
    all_logits, all_targets = [], []
    with torch.no_grad():
        for images, targets in loader:
            images, targets = images.to(device), targets.to(device)
            logits = model(images)
            loss = criterion(logits, targets)
            total_loss += loss * images.size(0)
            n += images.size(0)
            all_logits.append(logits)
            all_targets.append(targets)
    logits = torch.cat(all_logits)
    targets = torch.cat(all_targets)
    acc = (logits.argmax(1) == targets).float().mean()
    return {"loss": (total_loss / n).item(), "acc": acc.item()}


@torch.no_grad()
def predict_proba(model, loader, device, tta=False):
    model.eval()
    probs = []
    for images, _ in loader:
        images = images.to(device)
        p = F.softmax(model(images), dim=1)
        if tta:
            p = 0.5 * (p + F.softmax(model(torch.flip(images, dims=[3])), dim=1))
        probs.append(p)
    return torch.cat(probs).cpu().numpy()


def extract_embeddings(backbone, loader, device):
    backbone.eval()
    feats, ids = [], []
    with torch.inference_mode():
        for images, idx in loader:
            f = backbone(images.to(device, non_blocking=True))
            feats.append(F.normalize(f.flatten(1), dim=1))
            ids.append(idx)
    return torch.cat(feats), torch.cat(ids)


@torch.no_grad()
def mc_dropout_predict(model, x, n_samples=20):
    """Keep dropout active and average several stochastic passes."""
    model.train()
    samples = torch.empty(0, device=x.device)
    for _ in range(n_samples):
        samples = torch.cat((samples, F.softmax(model(x), dim=-1).unsqueeze(0)))
    model.eval()
    mean = samples.mean(0)
    entropy = -(mean * mean.clamp_min(1e-12).log()).sum(-1)
    return mean, entropy


def knn_accuracy(train_feats, train_labels, test_feats, test_labels, k=20, T=0.07, num_classes=10):
    correct, chunks = 0, torch.split(torch.arange(len(test_feats)), 1024)
    for idx in chunks:
        sim = test_feats[idx] @ train_feats.t()
        w, nn_idx = sim.topk(k, dim=1)
        votes = torch.zeros(len(idx), num_classes, device=sim.device)
        votes.scatter_add_(1, train_labels[nn_idx], (w / T).exp())
        correct += (votes.argmax(1) == test_labels[idx]).sum().item()
    return correct / len(test_feats)


def save_predictions(path, probs, ids):
    np.savez_compressed(path, probs=probs, ids=np.asarray(ids))
