"""A hand-rolled Trainer class that keeps a history dict on self."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ConvNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(8, n_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


class Trainer:
    def __init__(self, model, optimizer, scheduler=None, max_grad_norm=1.0):
        self.model = model
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.max_grad_norm = max_grad_norm
        self.criterion = nn.CrossEntropyLoss()
        self.history = {"loss": [], "acc": [], "val_loss": []}
        self.lr_history = []
        self.grad_norms = []
        self.global_step = 0

    def _step(self, x, y):
        self.optimizer.zero_grad(set_to_none=True)
        logits = self.model(x)
        loss = self.criterion(logits, y)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
        self.optimizer.step()
        return loss, logits, norm

    def fit(self, train_loader, val_loader, epochs=2):
        for epoch in range(epochs):
            self.model.train()
            for x, y in train_loader:
                loss, logits, norm = self._step(x, y)
                acc = (logits.argmax(-1) == y).float().mean().item()
                self.history["loss"].append(loss)  # expect: TEN501
                self.history["acc"].append(acc)  # ok
                self.grad_norms.append(norm)  # ok
                self.lr_history.append(self.optimizer.param_groups[0]["lr"])  # ok
                self.global_step += 1  # ok
            if self.scheduler is not None:
                self.scheduler.step()
            self.history["val_loss"].append(self.validate(val_loader))  # ok

    @torch.no_grad()
    def validate(self, loader):
        self.model.eval()
        losses = [self.criterion(self.model(x), y) for x, y in loader]
        return torch.stack(losses).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    xs, ys = torch.randn(48, 1, 8, 8), torch.randint(0, 3, (48,))
    train_dl = DataLoader(TensorDataset(xs, ys), batch_size=12)
    val_dl = DataLoader(TensorDataset(xs[:24], ys[:24]), batch_size=12)
    model = ConvNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    trainer = Trainer(model, opt, sched)
    trainer.fit(train_dl, val_dl)
    print(len(trainer.history["loss"]), trainer.history["val_loss"])
