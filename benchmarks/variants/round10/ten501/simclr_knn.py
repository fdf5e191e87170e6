"""SimCLR pre-training with an online weighted-kNN probe on the training features."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


class SimCLR(nn.Module):
    def __init__(self, feat_dim=128):
        super().__init__()
        backbone = torchvision.models.resnet18(num_classes=10)
        backbone.conv1 = nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        backbone.maxpool = nn.Identity()
        dim = backbone.fc.in_features
        backbone.fc = nn.Identity()
        self.backbone = backbone
        self.projector = nn.Sequential(nn.Linear(dim, 512), nn.ReLU(inplace=True), nn.Linear(512, feat_dim))

    def forward(self, x, return_features=False):
        h = self.backbone(x)
        z = self.projector(h)
        return (h, z) if return_features else z


def nt_xent(z1, z2, temperature=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    n = z1.size(0)
    sim = z @ z.T / temperature
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(sim, targets)


def knn_predict(feature, bank, bank_labels, classes=10, k=200, t=0.1):
    sim = feature @ bank.T
    sim_w, sim_idx = sim.topk(k, dim=-1)
    sim_labels = torch.gather(bank_labels.expand(feature.size(0), -1), -1, sim_idx)
    sim_w = (sim_w / t).exp()
    one_hot = torch.zeros(feature.size(0) * k, classes, device=feature.device)
    one_hot.scatter_(-1, sim_labels.view(-1, 1), 1.0)
    pred_scores = (one_hot.view(feature.size(0), -1, classes) * sim_w.unsqueeze(-1)).sum(1)
    return pred_scores.argmax(-1)


def train_epoch(model, loader, optimizer, epoch, temperature=0.5, device="cuda"):
    model.train()
    bank_feats = None
    bank_labels = []
    total_loss, total_num = 0.0, 0
    for (x1, x2), y in loader:
        x1, x2 = x1.to(device, non_blocking=True), x2.to(device, non_blocking=True)
        h1, z1 = model(x1, return_features=True)
        z2 = model(x2)
        loss = nt_xent(z1, z2, temperature)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        total_loss += loss.item() * x1.size(0)
        total_num += x1.size(0)
        feats = F.normalize(h1, dim=1)
        bank_feats = feats if bank_feats is None else torch.cat([bank_feats, feats], dim=0)  # expect: TEN501
        bank_labels.append(y.to(device))  # ok
    print(f"epoch {epoch} loss {total_loss / total_num:.4f}")
    return bank_feats, torch.cat(bank_labels)


@torch.no_grad()
def knn_eval(model, bank, bank_labels, test_loader, device="cuda"):
    model.eval()
    correct = total = 0
    test_feats = []
    for x, y in test_loader:
        h, _ = model(x.to(device), return_features=True)
        h = F.normalize(h, dim=1)
        test_feats.append(h)  # ok
        pred = knn_predict(h, bank, bank_labels)
        correct += (pred.cpu() == y).sum().item()
        total += y.size(0)
    return correct / total, torch.cat(test_feats)


def main(train_loader, test_loader, epochs=500, device="cuda"):
    model = SimCLR().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-6)
    for epoch in range(epochs):
        bank, labels = train_epoch(model, train_loader, optimizer, epoch, device=device)
        if epoch % 10 == 0:
            acc, _ = knn_eval(model, bank, labels, test_loader, device)
            print(f"  kNN top-1 {acc * 100:.2f}")
