"""Collects per-epoch weight snapshots along one fine-tuning run for a uniform soup."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SnapshotCollector:
    def __init__(self, start_epoch=1, every=1):
        self.start_epoch = start_epoch
        self.every = every
        self.snapshots = []
        self.epochs = []

    def maybe_collect(self, model, epoch):
        if epoch < self.start_epoch or (epoch - self.start_epoch) % self.every:
            return
        params = [p.detach() for p in model.parameters()]  # expect: TEN402
        self.snapshots.append(params)
        self.epochs.append(epoch)

    def __len__(self):
        return len(self.snapshots)


def build_model(vocab=500, dim=32, n_classes=3):
    return nn.Sequential(nn.EmbeddingBag(vocab, dim, mode="mean"), nn.Linear(dim, n_classes))


def finetune(model, batches, epochs, collector, lr=0.5):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    for epoch in range(epochs):
        for tokens, labels in batches:
            opt.zero_grad()
            F.cross_entropy(model(tokens), labels).backward()
            opt.step()
        sched.step()
        collector.maybe_collect(model, epoch)
    return collector


def fake_text_batches(n_batches=4, batch=16, length=12, vocab=500):
    out = []
    for _ in range(n_batches):
        tokens = torch.randint(0, vocab, (batch, length))
        labels = tokens[:, 0] % 3
        out.append((tokens, labels))
    return out
