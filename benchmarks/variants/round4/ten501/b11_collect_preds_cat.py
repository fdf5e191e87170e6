"""Multi-label tagging model; periodically dumps validation logits for threshold tuning."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tagger(nn.Module):
    def __init__(self, d_in=300, n_tags=20):
        super().__init__()
        self.proj = nn.Linear(d_in, 256)
        self.norm = nn.LayerNorm(256)
        self.cls = nn.Linear(256, n_tags)

    def forward(self, x):
        return self.cls(self.norm(F.gelu(self.proj(x))))


def collect_predictions(model, loader, device):
    model.eval()
    all_logits = torch.empty(0, device=device)
    all_labels = torch.empty(0, device=device)
    for feats, labels in loader:
        feats, labels = feats.to(device), labels.to(device)
        logits = model(feats)
        all_logits = torch.cat((all_logits, logits))  # expect: TEN501
        all_labels = torch.cat((all_labels, labels))  # ok
    model.train()
    return all_logits, all_labels


def best_threshold(logits, labels):
    probs = torch.sigmoid(logits)
    best_t, best_f1 = 0.5, -1.0
    for t in torch.linspace(0.1, 0.9, 17):
        pred = (probs > t).float()
        tp = (pred * labels).sum()
        f1 = (2 * tp / (pred.sum() + labels.sum() + 1e-8)).item()
        if f1 > best_f1:
            best_t, best_f1 = t.item(), f1
    return best_t, best_f1


def train(model, train_loader, val_loader, epochs=3, device="cpu"):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for i, (feats, labels) in enumerate(train_loader):
            feats, labels = feats.to(device), labels.to(device)
            loss = F.binary_cross_entropy_with_logits(model(feats), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if i % 100 == 0:
                logits, tgts = collect_predictions(model, val_loader, device)
                t, f1 = best_threshold(logits, tgts)
                print(f"ep {epoch} it {i}: loss {loss.item():.4f} best_t {t:.2f} f1 {f1:.3f}")


if __name__ == "__main__":
    mk = lambda n: [(torch.randn(32, 300), (torch.rand(32, 20) > 0.8).float()) for _ in range(n)]
    train(Tagger(), mk(200), mk(30))
