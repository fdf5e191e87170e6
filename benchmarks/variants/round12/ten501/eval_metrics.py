"""Evaluation metrics and detached training statistics (no graph-keeping accumulators)."""
import torch
import torch.nn.functional as F


class ConfusionMatrix:
    def __init__(self, num_classes):
        self.n = num_classes
        self.mat = torch.zeros(num_classes, num_classes, dtype=torch.long)

    def update(self, preds, target):
        idx = target * self.n + preds
        self.mat += torch.bincount(idx, minlength=self.n ** 2).reshape(self.n, self.n)

    def accuracy(self):
        return (self.mat.diag().sum() / self.mat.sum().clamp(min=1)).item()


def collect(model, loader, num_classes=10):
    model.eval()
    cm = ConfusionMatrix(num_classes)
    all_probs, all_targets, losses = [], [], []
    with torch.inference_mode():
        for x, y in loader:
            logits = model(x)
            cm.update(logits.argmax(1), y)  # ok
            all_probs.append(logits.softmax(1))  # ok
            all_targets.append(y)  # ok
            losses.append(F.cross_entropy(logits, y, reduction="none"))  # ok
    return cm, torch.cat(all_probs), torch.cat(all_targets), torch.cat(losses)


def train_and_collect(model, loader, optimizer, num_classes=10):
    model.train()
    cm = ConfusionMatrix(num_classes)
    scores = []
    embeddings = torch.empty(0, model.dim)
    epoch_loss = torch.zeros(())
    for x, y in loader:
        emb = model.encode(x)
        logits = model.classify(emb)
        loss = F.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scores.extend(logits.detach().max(1).values.tolist())  # ok
        embeddings = torch.cat((embeddings, emb.detach()), 0)  # ok
        cm.update(logits.argmax(1), y)  # ok
        epoch_loss += loss.detach() * len(y)  # ok
    return cm.accuracy(), scores, embeddings, epoch_loss.item() / len(loader.dataset)


def expected_calibration_error(probs, targets, n_bins=15):
    conf, pred = probs.max(1)
    bins = torch.linspace(0, 1, n_bins + 1)
    ece = torch.zeros(())
    for lo, hi in zip(bins[:-1], bins[1:]):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            ece += m.float().mean() * ((pred[m] == targets[m]).float().mean() - conf[m].mean()).abs()  # ok
    return ece.item()
