"""Linear probing on a frozen feature extractor, with a sanity check that it stayed frozen."""
import copy

import torch
from torch import nn
import torch.nn.functional as F


def feature_extractor():
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
    )


class LinearProbe(nn.Module):
    def __init__(self, backbone, n_cls=3):
        super().__init__()
        self.backbone = backbone.eval().requires_grad_(False)
        self.head = nn.Linear(16, n_cls)

    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()
        return self

    def forward(self, x):
        with torch.no_grad():
            feats = self.backbone(x)
        return self.head(feats)


def probe(epochs=4, seed=0, restarts=2):
    torch.manual_seed(seed)
    backbone = feature_extractor()
    model = LinearProbe(backbone)
    frozen_state = backbone.state_dict()  # ok
    frozen_params = list(backbone.parameters())  # ok
    head_init = copy.deepcopy(model.head.state_dict())  # ok
    x = torch.randn(48, 3, 8, 8)
    y = torch.randint(0, 3, (48,))
    results = []
    for r in range(restarts):
        model.head.load_state_dict(head_init)
        opt = torch.optim.SGD(model.head.parameters(), lr=0.5)
        model.train()
        for _ in range(epochs):
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
        with torch.no_grad():
            results.append(F.cross_entropy(model(x), y).item())
    unchanged = all(torch.equal(frozen_state[k], v) for k, v in backbone.state_dict().items())
    no_grads = all(p.grad is None for p in frozen_params)
    return results, unchanged, no_grads, frozen_state, backbone


if __name__ == "__main__":
    results, unchanged, no_grads, _, _ = probe()
    print("restart losses", [round(r, 4) for r in results])
    print("backbone unchanged:", unchanged, "no grads:", no_grads)
