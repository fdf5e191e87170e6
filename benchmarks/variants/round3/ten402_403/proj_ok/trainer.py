"""Trainer that wires the callbacks from callbacks.py together."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import EarlyStopping, ModelEMA, SWACollector


class Trainer:
    def __init__(self, model, lr=0.1, epochs=90, swa_start=60, device="cuda"):
        self.model = model.to(device)
        self.device = device
        self.epochs = epochs
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4)
        self.sched = torch.optim.lr_scheduler.CosineAnnealingLR(self.opt, epochs)
        self.stopper = EarlyStopping(patience=15)
        self.ema = ModelEMA(self.model)
        self.swa = SWACollector(swa_start)

    @torch.no_grad()
    def accuracy(self, loader):
        self.model.eval()
        hit = tot = 0
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            hit += (self.model(x).argmax(1) == y).sum().item()
            tot += y.numel()
        return hit / tot

    def train_epoch(self, loader):
        self.model.train()
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            loss = F.cross_entropy(self.model(x), y)
            self.opt.zero_grad(set_to_none=True)
            loss.backward()
            self.opt.step()
            self.ema.update(self.model)
        self.sched.step()

    def fit(self, train_loader, val_loader):
        for epoch in range(self.epochs):
            self.train_epoch(train_loader)
            self.swa.on_epoch_end(epoch, self.model)
            acc = self.accuracy(val_loader)
            self.ema.swap_in(self.model)
            ema_acc = self.accuracy(val_loader)
            self.ema.swap_out(self.model)
            print(f"epoch {epoch}: acc={acc:.4f} ema={ema_acc:.4f}")
            if self.stopper.step(acc, self.model, self.opt):
                print("early stop")
                break

        self.stopper.restore(self.model, self.opt)
        best = self.accuracy(val_loader)
        if self.swa.avg is not None:
            self.swa.write_into(self.model)
            swa_acc = self.accuracy(val_loader)
            print(f"best={best:.4f} swa={swa_acc:.4f}")
        torch.save(self.model.state_dict(), "final.pt")
        return self.model


if __name__ == "__main__":
    net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 512), nn.ReLU(), nn.Linear(512, 10))
    Trainer(net, epochs=3, swa_start=1, device="cpu")
