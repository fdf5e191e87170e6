"""Center loss for metric learning: class centers updated from the batch embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n_classes, emb_dim = 4, 6


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, emb_dim))
        self.cls = nn.Linear(emb_dim, n_classes)

    def forward(self, x):
        e = self.net(x)
        return e, self.cls(e)


class CenterTracker:
    def __init__(self, alpha=0.5, detach=True):
        self.centers = torch.zeros(n_classes, emb_dim)
        self.alpha = alpha
        self.detach = detach

    def loss(self, emb, y):
        return ((emb - self.centers[y]) ** 2).sum(1).mean()

    def update(self, emb, y):
        if self.detach:
            emb = emb.detach()
        for c in y.unique():
            mask = y == c
            self.centers[c] = (1 - self.alpha) * self.centers[c] + self.alpha * emb[mask].mean(0)


model = Embedder()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
tracker_leaky = CenterTracker(detach=False)
tracker = CenterTracker(detach=True)
embeddings_bank, emb_bank_ok, labels_bank = [], [], []
for step in range(5):
    x, y = torch.randn(12, 10), torch.randint(0, n_classes, (12,))
    emb, logits = model(x)
    loss = F.cross_entropy(logits, y) + 0.1 * tracker.loss(emb, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    tracker.update(emb, y)  # ok
    tracker_leaky.update(emb, y)  # expect: TEN501
    embeddings_bank.append(emb)  # expect: TEN501
    emb_bank_ok.append(emb.detach().cpu())  # ok
    labels_bank.append(y)  # ok
print(tracker.centers.requires_grad, tracker_leaky.centers.requires_grad, len(embeddings_bank))
