"""Transfer-learning regularizers that pull weights toward the pretrained start.

L2-SP (Li et al. 2018) and an EWC-style penalty, as found in
fine-tuning toolkits: the anchor must stay at the pretrained values.
"""
import torch
from torch import nn


class L2SP(nn.Module):
    def __init__(self, backbone, alpha=0.01, beta=0.01):
        super().__init__()
        self.backbone = backbone
        self.alpha = alpha
        self.beta = beta
        self.source_weights = [p.detach() for p in backbone.parameters()]  # expect: TEN402

    def forward(self, head):
        sp = sum(((p - p0) ** 2).sum() for p, p0 in zip(self.backbone.parameters(), self.source_weights))
        new = sum((p ** 2).sum() for p in head.parameters())
        return 0.5 * self.alpha * sp + 0.5 * self.beta * new


class EWCPenalty:
    def __init__(self, model, fisher, lam=100.0):
        self.model = model
        self.fisher = fisher
        self.lam = lam
        self.star = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok

    def penalty(self):
        total = 0.0
        for n, p in self.model.named_parameters():
            total = total + (self.fisher[n] * (p - self.star[n]) ** 2).sum()
        return 0.5 * self.lam * total


if __name__ == "__main__":
    torch.manual_seed(0)
    backbone = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
    head = nn.Linear(16, 2)
    reg = L2SP(backbone)
    fisher = {n: torch.ones_like(p) for n, p in backbone.named_parameters()}
    ewc = EWCPenalty(backbone, fisher)
    opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.5)
    x, y = torch.randn(32, 8), torch.randint(0, 2, (32,))
    for step in range(5):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(head(backbone(x)), y) + reg(head)
        loss.backward()
        opt.step()
    with torch.no_grad():
        drift = sum(((p - p0) ** 2).sum() for p, p0 in zip(backbone.parameters(), reg.source_weights))
        print("L2-SP drift term:", float(drift), "EWC penalty:", float(ewc.penalty()))
