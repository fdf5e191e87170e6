"""Linear-probe evaluation of a frozen self-supervised backbone."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score


@torch.no_grad()
def extract_features(backbone, loader, device):
    backbone.eval()
    feats, labels = [], []
    for x, y in loader:
        feats.append(backbone(x.to(device, non_blocking=True)).flatten(1))  # ok
        labels.append(y)
    return torch.cat(feats), torch.cat(labels)


def macro_auroc(probs, targets):
    onehot = F.one_hot(targets, probs.size(1)).numpy()
    return roc_auc_score(onehot, probs.numpy(), average="macro")


def train_probe(train_feats, train_labels, num_classes, epochs=100, batch_size=1024,
                lr=0.1, device="cuda"):
    probe = nn.Linear(train_feats.size(1), num_classes).to(device)
    opt = torch.optim.SGD(probe.parameters(), lr=lr, momentum=0.9, weight_decay=0.0)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    n = train_feats.size(0)
    mean, std = train_feats.mean(0, keepdim=True), train_feats.std(0, keepdim=True) + 1e-6

    for epoch in range(epochs):
        perm = torch.randperm(n, device=train_feats.device)
        epoch_logits, epoch_preds, epoch_targets = [], [], []
        for i in range(0, n, batch_size):
            idx = perm[i:i + batch_size]
            x = (train_feats[idx] - mean) / std
            y = train_labels[idx.cpu()].to(device)
            logits = probe(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            epoch_logits.append(logits)  # expect: TEN501
            epoch_preds.append(logits.argmax(1))  # ok
            epoch_targets.append(y)  # ok
        sched.step()

        if epoch % 10 == 0 or epoch == epochs - 1:
            preds = torch.cat(epoch_preds)
            targets = torch.cat(epoch_targets)
            probs = torch.cat(epoch_logits).softmax(-1)
            acc = (preds == targets).float().mean().item()
            auc = macro_auroc(probs.detach().cpu(), targets.cpu())
            print(f"epoch {epoch}: train acc {acc:.4f} macro-AUROC {auc:.4f}")
    return probe, (mean, std)


@torch.no_grad()
def evaluate_probe(probe, norm, feats, labels, device):
    mean, std = norm
    logits = probe((feats.to(device) - mean) / std)
    return (logits.argmax(1).cpu() == labels).float().mean().item()


def run(backbone, train_loader, test_loader, num_classes, device="cuda"):
    backbone.to(device)
    tr_f, tr_y = extract_features(backbone, train_loader, device)
    te_f, te_y = extract_features(backbone, test_loader, device)
    probe, norm = train_probe(tr_f, tr_y, num_classes, device=device)
    print("linear probe top-1:", evaluate_probe(probe, norm, te_f, te_y, device))
