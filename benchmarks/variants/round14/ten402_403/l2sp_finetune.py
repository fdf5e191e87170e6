"""Fine-tuning with an L2-SP penalty that pulls weights toward the pretrained ones."""
import torch
from torch import nn


def pretrained_backbone():
    torch.manual_seed(0)
    body = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
    with torch.no_grad():
        for p in body.parameters():
            p.mul_(1.5)
    return body


class L2SPRegularizer:
    def __init__(self, backbone, alpha=0.1):
        self.backbone = backbone
        self.alpha = alpha
        self.anchor = {n: p.detach() for n, p in backbone.named_parameters()}  # expect: TEN402

    def __call__(self):
        reg = 0.0
        for n, p in self.backbone.named_parameters():
            reg = reg + (p - self.anchor[n]).pow(2).sum()
        return self.alpha * reg


class L2SPRegularizerFixed(L2SPRegularizer):
    def __init__(self, backbone, alpha=0.1):
        self.backbone = backbone
        self.alpha = alpha
        self.anchor = {n: p.detach().clone() for n, p in backbone.named_parameters()}  # ok


class FrozenStatsProbe:
    """Reads the running weight norms for logging only; nothing is restored."""

    def __init__(self, backbone):
        self.params = dict(backbone.named_parameters())  # either

    def norms(self):
        return {n: round(p.detach().norm().item(), 3) for n, p in self.params.items()}


def finetune(reg_cls, steps=25):
    backbone = pretrained_backbone()
    head = nn.Linear(16, 2)
    model = nn.Sequential(backbone, head)
    reg = reg_cls(backbone, alpha=0.05)
    probe = FrozenStatsProbe(backbone)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    x, y = torch.randn(128, 8), torch.randint(0, 2, (128,))
    for step in range(steps):
        task = nn.functional.cross_entropy(model(x), y)
        penalty = reg()
        loss = task + penalty
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{reg_cls.__name__}: task {task.item():.4f} penalty {penalty.detach().item():.5f} norms {probe.norms()['0.weight']}")


if __name__ == "__main__":
    finetune(L2SPRegularizer)
    finetune(L2SPRegularizerFixed)
