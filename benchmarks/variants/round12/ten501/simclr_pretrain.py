"""SimCLR pretraining with an online kNN monitor."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def nt_xent(z1, z2, temperature=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    n = z1.size(0)
    sim = z @ z.t() / temperature
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(sim, targets)


class SimCLR(nn.Module):
    def __init__(self, encoder, feat_dim=512, proj_dim=128):
        super().__init__()
        self.encoder = encoder
        self.projector = nn.Sequential(nn.Linear(feat_dim, feat_dim), nn.ReLU(), nn.Linear(feat_dim, proj_dim))

    def forward(self, x):
        return self.projector(self.encoder(x))


@torch.no_grad()
def build_bank(model, loader):
    feats, labels = [], []
    for x, y in loader:
        feats.append(F.normalize(model.encoder(x), dim=1))  # ok
        labels.append(y)  # ok
    return torch.cat(feats), torch.cat(labels)


def pretrain(model, loader, memory_loader, test_loader, epochs=100, lr=0.3):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-6)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    history = {"loss": [], "knn": []}
    best_knn = 0.0
    for epoch in range(epochs):
        model.train()
        total_loss, total_num = 0.0, 0
        for (x1, x2), _ in loader:
            loss = nt_xent(model(x1), model(x2))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_num += x1.size(0)
            total_loss += loss.item() * x1.size(0)  # ok
        scheduler.step()
        history["loss"].append(total_loss / total_num)  # ok

        model.eval()
        bank, bank_labels = build_bank(model, memory_loader)
        correct, seen = 0, 0
        with torch.no_grad():
            for x, y in test_loader:
                q = F.normalize(model.encoder(x), dim=1)
                pred = bank_labels[(q @ bank.t()).topk(1, dim=1).indices.squeeze(1)]
                correct += (pred == y).sum()  # ok
                seen += y.size(0)
        knn_acc = correct.item() / seen
        history["knn"].append(knn_acc)  # ok
        best_knn = max(best_knn, knn_acc)
    return history, best_knn
