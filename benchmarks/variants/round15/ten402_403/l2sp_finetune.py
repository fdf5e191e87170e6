"""Fine-tuning with an L2-SP penalty that pulls the backbone towards its starting point."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(10, 32), nn.GELU(), nn.Linear(32, 32), nn.GELU())
        self.head = nn.Linear(32, 3)

    def forward(self, x):
        return self.head(self.backbone(x))


class L2SP:
    def __init__(self, model, alpha=0.1):
        self.alpha = alpha
        self.anchor = [p.data for p in model.backbone.parameters()]  # expect: TEN402

    def penalty(self, model):
        return self.alpha * sum(((p - a) ** 2).sum() for p, a in zip(model.backbone.parameters(), self.anchor))


class L2SPFixed(L2SP):
    def __init__(self, model, alpha=0.1):
        self.alpha = alpha
        self.anchor = [p.detach().clone() for p in model.backbone.parameters()]  # ok


def finetune(reg_cls, steps=25):
    model = Net()
    reg = reg_cls(model)
    head_init = [p.detach().clone() for p in model.head.parameters()]  # ok
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.0)
    x, y = torch.randn(96, 10), torch.randint(0, 3, (96,))
    pen = torch.tensor(0.0)
    for _ in range(steps):
        opt.zero_grad()
        pen = reg.penalty(model)
        loss = F.cross_entropy(model(x), y) + pen
        loss.backward()
        opt.step()
    drift = sum((p.detach() - h).norm().item() for p, h in zip(model.head.parameters(), head_init))
    return pen.item(), drift


if __name__ == "__main__":
    print("penalty with live anchor:", finetune(L2SP))
    print("penalty with cloned anchor:", finetune(L2SPFixed))
