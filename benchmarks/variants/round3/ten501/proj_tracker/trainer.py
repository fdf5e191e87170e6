"""Epoch-based trainer (pytorch-template style)."""
import torch
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter

from tracking import EarlyStopping, MetricTracker


def accuracy(output, target):
    with torch.no_grad():
        pred = torch.argmax(output, dim=1)
        return torch.sum(pred == target).item() / len(target)


def top_k_acc(output, target, k=3):
    with torch.no_grad():
        pred = torch.topk(output, k, dim=1)[1]
        return (pred == target.unsqueeze(1)).any(dim=1).float().mean().item()


class Trainer:
    def __init__(self, model, optimizer, train_loader, valid_loader, device, log_dir="runs/exp",
                 lr_scheduler=None, log_step=50):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.valid_loader = valid_loader
        self.device = device
        self.lr_scheduler = lr_scheduler
        self.log_step = log_step
        self.metric_ftns = [accuracy, top_k_acc]
        self.writer = SummaryWriter(log_dir)
        names = [m.__name__ for m in self.metric_ftns]
        self.train_metrics = MetricTracker("loss", *names)
        self.valid_metrics = MetricTracker("loss", *names)
        self.stopper = EarlyStopping(patience=8)

    def _train_epoch(self, epoch):
        self.model.train()
        self.train_metrics.reset()
        for batch_idx, (data, target) in enumerate(self.train_loader):
            data, target = data.to(self.device), target.to(self.device)
            self.optimizer.zero_grad()
            output = self.model(data)
            loss = F.cross_entropy(output, target)
            loss.backward()
            self.optimizer.step()

            self.train_metrics.update("loss", loss, n=data.size(0))
            for met in self.metric_ftns:
                self.train_metrics.update(met.__name__, met(output, target), n=data.size(0))
            if batch_idx % self.log_step == 0:
                print(f"Train Epoch: {epoch} [{batch_idx}/{len(self.train_loader)}] Loss: {loss.item():.6f}")
        log = dict(self.train_metrics.result())
        log.update({"val_" + k: v for k, v in self._valid_epoch().items()})
        if self.lr_scheduler is not None:
            self.lr_scheduler.step()
        return log

    def _valid_epoch(self):
        self.model.eval()
        self.valid_metrics.reset()
        with torch.no_grad():
            for data, target in self.valid_loader:
                data, target = data.to(self.device), target.to(self.device)
                output = self.model(data)
                loss = F.cross_entropy(output, target)
                self.valid_metrics.update("loss", loss.item(), n=data.size(0))
                for met in self.metric_ftns:
                    self.valid_metrics.update(met.__name__, met(output, target), n=data.size(0))
        return self.valid_metrics.result()

    def train(self, epochs):
        for epoch in range(1, epochs + 1):
            log = self._train_epoch(epoch)
            for k, v in log.items():
                self.writer.add_scalar(k, v, epoch)
            print(epoch, {k: round(v, 4) for k, v in log.items()})
            if self.stopper.step(log["val_loss"]):
                print("early stopping")
                break
            torch.save(self.model.state_dict(), "checkpoint-last.pth")
