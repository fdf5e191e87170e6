"""Fine-tuning with the L2-SP regulariser (penalise drift from pretrained weights)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self, d_in=20, d_hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_hidden)

    def forward(self, x):
        return F.gelu(self.fc2(F.gelu(self.fc1(x))))


class FineTuneModel(nn.Module):
    def __init__(self, backbone, n_classes):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Linear(backbone.fc2.out_features, n_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


class L2SP:
    """alpha/2 * ||w - w0||^2 on the backbone, beta/2 * ||w||^2 on the head."""

    def __init__(self, model, alpha=1e-2, beta=1e-4):
        self.alpha = alpha
        self.beta = beta
        self.anchor = {n: p.detach() for n, p in model.backbone.named_parameters()}  # expect: TEN402
        self.head_params = list(model.head.parameters())  # ok: live params, not a snapshot

    def penalty(self, model):
        sp = sum(
            (p - self.anchor[name]).pow(2).sum()
            for name, p in model.backbone.named_parameters()
        )
        wd = sum(p.pow(2).sum() for p in self.head_params)
        return 0.5 * self.alpha * sp + 0.5 * self.beta * wd

    def drift(self, model):
        return {
            name: (p.detach() - self.anchor[name]).norm().item()
            for name, p in model.backbone.named_parameters()
        }


def finetune(model, batches, steps=100, lr=1e-3):
    reg = L2SP(model)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for step in range(steps):
        x, y = batches[step % len(batches)]
        task = F.cross_entropy(model(x), y)
        loss = task + reg.penalty(model)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return reg.drift(model)


if __name__ == "__main__":
    torch.manual_seed(0)
    pretrained = Backbone()
    model = FineTuneModel(pretrained, n_classes=4)
    data = [(torch.randn(16, 20), torch.randint(0, 4, (16,))) for _ in range(5)]
    print(finetune(model, data, steps=20))
