"""Train a small MLP on synthetic Gaussian blobs and print a loss curve."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_blobs(n=256, dim=16, classes=4):
    centers = torch.randn(classes, dim) * 3
    y = torch.randint(0, classes, (n,))
    x = centers[y] + torch.randn(n, dim)
    return x, y


class MLP(nn.Module):
    def __init__(self, dim, hidden, classes):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(dim, hidden),
            nn.ReLU(),
            nn.Linear(hidden, classes),
        )

    def forward(self, x):
        return self.net(x)


def main():
    torch.manual_seed(0)
    x, y = make_blobs()
    model = MLP(16, 32, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)

    batch_size = 32
    steps_per_epoch = x.size(0) // batch_size
    running_loss = 0.0
    loss_curve = []
    acc_curve = []
    lr_curve = []

    for epoch in range(3):
        perm = torch.randperm(x.size(0))
        for i in range(0, x.size(0), batch_size):
            idx = perm[i:i + batch_size]
            logits = model(x[idx])
            loss = F.cross_entropy(logits, y[idx])

            opt.zero_grad()
            loss.backward()
            opt.step()

            running_loss += loss  # expect: TEN501
            loss_curve.append(loss)  # expect: TEN501
            acc_curve.append((logits.argmax(dim=1) == y[idx]).float().mean())  # ok

        lr_curve.append(sched.get_last_lr()[0])  # ok
        sched.step()
        seen = (epoch + 1) * steps_per_epoch
        print(f"epoch {epoch}: mean loss so far {running_loss.item() / seen:.4f}")

    last_acc = torch.stack(acc_curve[-steps_per_epoch:]).mean().item()
    print(f"final epoch acc {last_acc:.3f}, lr schedule {lr_curve}")
    print("curve:", [round(v.item(), 3) for v in loss_curve[::steps_per_epoch]])


if __name__ == "__main__":
    main()
