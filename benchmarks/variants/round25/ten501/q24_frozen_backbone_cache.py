"""Linear-probe fine-tuning with a frozen backbone and a per-sample cache."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Probe(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Linear(48, 24), nn.ReLU())
        for p in self.backbone.parameters():
            p.requires_grad = False
        self.head = nn.Linear(24, 3)
        self.feat_cache = {}
        self.head_out_cache = {}

    def forward(self, x, idx):
        feats = self.backbone(x)
        out = self.head(feats)
        for i, key in enumerate(idx.tolist()):
            self.feat_cache[key] = feats[i]  # ok
            self.head_out_cache[key] = out[i]  # expect: TEN501
        return out


def main():
    X = torch.randn(60, 12)
    Y = torch.randint(0, 3, (60,))
    model = Probe()
    opt = torch.optim.SGD(model.head.parameters(), lr=0.1)
    for epoch in range(3):
        perm = torch.randperm(60)
        for j in range(0, 60, 20):
            idx = perm[j:j + 20]
            loss = F.cross_entropy(model(X[idx], idx), Y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, round(loss.item(), 4), len(model.feat_cache))
    print("cached feat norm", round(torch.stack(list(model.feat_cache.values())).norm().item(), 3))


main()
