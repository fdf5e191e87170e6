"""Evaluation utilities that gather predictions over a whole loader."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
N_CLASSES = 4


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
        self.classifier = nn.Linear(32, N_CLASSES)

    def forward(self, x):
        return self.classifier(self.backbone(x))


def evaluate(model, loader):
    model.eval()
    all_logits = torch.empty(0, N_CLASSES)
    all_labels = torch.empty(0, dtype=torch.long)
    preds = []
    confmat = torch.zeros(N_CLASSES, N_CLASSES, dtype=torch.long)
    for x, y in loader:
        logits = model(x)
        all_logits = torch.cat([all_logits, logits])  # expect: TEN501
        all_labels = torch.cat([all_labels, y])  # ok
        preds.extend(logits.argmax(1).tolist())  # ok
        confmat += torch.bincount(y * N_CLASSES + logits.argmax(1), minlength=N_CLASSES ** 2).view(N_CLASSES, N_CLASSES)  # ok
    nll = nn.functional.cross_entropy(all_logits, all_labels).item()
    acc = (torch.tensor(preds) == all_labels).float().mean().item()
    return {"nll": nll, "acc": acc, "confmat": confmat}


def predict_proba(model, loader):
    model.eval()
    outs = []
    with torch.inference_mode():
        for x, _ in loader:
            outs.append(model(x).softmax(-1))  # ok
    return torch.cat(outs)


def collect_embeddings(model, loader):
    feats = []
    for x, _ in loader:
        feats.append(model.backbone(x).detach().cpu().numpy())  # ok
    return np.concatenate(feats)


def main():
    x = torch.randn(400, 10)
    y = (x[:, :N_CLASSES] + 0.3 * torch.randn(400, N_CLASSES)).argmax(1)
    train = DataLoader(TensorDataset(x[:300], y[:300]), batch_size=50, shuffle=True)
    test = DataLoader(TensorDataset(x[300:], y[300:]), batch_size=25)
    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        model.train()
        for xb, yb in train:
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        metrics = evaluate(model, test)
        print(f"epoch {epoch}: nll {metrics['nll']:.3f} acc {metrics['acc']:.3f}")
    probs = predict_proba(model, test)
    emb = collect_embeddings(model, test)
    print(probs.shape, emb.shape, metrics["confmat"].diag().tolist())


if __name__ == "__main__":
    main()
