"""Exponential moving average of weights, swapped in for evaluation."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EMA:
    def __init__(self, model, decay=0.999):
        self.model = model
        self.decay = decay
        self.shadow = {}
        self.backup = {}
        for name, param in model.named_parameters():
            if param.requires_grad:
                self.shadow[name] = param.data.clone()  # ok

    @torch.no_grad()
    def update(self):
        for name, param in self.model.named_parameters():
            if name in self.shadow:
                self.shadow[name].mul_(self.decay).add_(param.data, alpha=1.0 - self.decay)

    def apply_shadow(self):
        for name, param in self.model.named_parameters():
            if name in self.shadow:
                self.backup[name] = param.data  # expect: TEN402
                param.data.copy_(self.shadow[name])

    def restore(self):
        for name, param in self.model.named_parameters():
            if name in self.backup:
                param.data.copy_(self.backup[name])
        self.backup = {}


def run(model, loader, epochs=2):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ema = EMA(model, decay=0.99)
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema.update()

        ema.apply_shadow()
        model.eval()
        with torch.no_grad():
            acc = sum((model(x).argmax(1) == y).float().mean().item() for x, y in loader)
        print(f"epoch {epoch}: ema acc {acc / len(loader):.3f}")
        ema.restore()  # training continues from the raw weights
    return ema


if __name__ == "__main__":
    torch.manual_seed(3)
    net = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 2))
    loader = [(torch.randn(20, 12), torch.randint(0, 2, (20,))) for _ in range(6)]
    run(net, loader)
