"""Trains a small CNN and restores the best weights recorded by BestKeeper."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from keeper import BestKeeper


class SmallCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 16, 3, padding=1)
        self.bn = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16 * 7 * 7, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.bn(self.c2(x))), 2)
        return self.fc(x.flatten(1))


@torch.no_grad()
def validate(model, batches):
    model.eval()
    hits = n = 0
    for x, y in batches:
        hits += (model(x).argmax(-1) == y).sum().item()
        n += len(y)
    return {"val_acc": hits / n}


def main(train_batches, val_batches, epochs=3):
    model = SmallCNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    keeper = BestKeeper("val_acc")
    step = 0
    for epoch in range(epochs):
        model.train()
        for x, y in train_batches:
            loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
        sched.step()
        if keeper.update(model, validate(model, val_batches), step):
            print(f"epoch {epoch}: new best {keeper.value:.3f}")
    best_step = keeper.load_into(model)
    print(f"restored weights from step {best_step}", keeper.summary())
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    fake = [(torch.randn(8, 1, 28, 28), torch.randint(0, 10, (8,))) for _ in range(3)]
    main(fake, fake[:1])
