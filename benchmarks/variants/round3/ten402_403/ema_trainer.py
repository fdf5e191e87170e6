"""Exponential moving average of weights, evaluated by swapping EMA weights in and out."""
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
                self.shadow[name] = param.data.clone()

    @torch.no_grad()
    def update(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad:
                self.shadow[name].mul_(self.decay).add_(param.data, alpha=1.0 - self.decay)

    def apply_shadow(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad:
                self.backup[name] = param.data  # expect: TEN402
                param.data.copy_(self.shadow[name])

    def restore(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad:
                param.data.copy_(self.backup[name])
        self.backup = {}


class SmallConvNet(nn.Module):
    def __init__(self, n_classes=100):
        super().__init__()
        self.c1 = nn.Conv2d(3, 64, 3, padding=1)
        self.c2 = nn.Conv2d(64, 128, 3, padding=1)
        self.c3 = nn.Conv2d(128, 256, 3, padding=1)
        self.fc = nn.Linear(256, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.adaptive_avg_pool2d(F.relu(self.c3(x)), 1).flatten(1)
        return self.fc(x)


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct = n = 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        correct += (model(x).argmax(-1) == y).sum().item()
        n += y.size(0)
    return correct / n


def train(train_loader, val_loader, epochs=100, device="cuda"):
    model = SmallConvNet().to(device)
    ema = EMA(model, decay=0.999)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema.update()

        raw_acc = evaluate(model, val_loader, device)
        ema.apply_shadow()
        ema_acc = evaluate(model, val_loader, device)
        ema.restore()
        print(f"epoch {epoch}: acc={raw_acc:.4f} ema_acc={ema_acc:.4f}")
    return model, ema
