"""Image classifier training with all the usual bookkeeping done safely."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def main(epochs=3):
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    loader = [(torch.randn(32, 3, 32, 32), torch.randint(0, 10, (32,))) for _ in range(50)]

    ema_loss = None
    loss_curve = []
    detached_losses = []
    for epoch in range(epochs):
        running_loss = 0.0
        total = 0.0
        margin_sum = torch.zeros(())
        for i, (x, y) in enumerate(loader):
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()

            running_loss += loss.item()  # ok
            total = total + float(loss)  # ok
            detached_losses.append(loss.detach())  # ok
            top2 = logits.detach().topk(2, dim=1).values
            margin_sum += (top2[:, 0] - top2[:, 1]).mean()  # ok
            ema_loss = loss.item() if ema_loss is None else 0.9 * ema_loss + 0.1 * loss.item()  # ok
            loss_curve.append(loss.detach().cpu().item())  # ok

            if i % 10 == 9:
                print(f"[{epoch}, {i + 1}] loss {running_loss / 10:.3f} ema {ema_loss:.3f}")
                running_loss = 0.0
        print(f"epoch {epoch}: mean {total / len(loader):.4f} margin {margin_sum.item() / len(loader):.3f}")
    return loss_curve, torch.stack(detached_losses)


if __name__ == "__main__":
    main()
