"""Full-batch L-BFGS fitting plus a module that tracks per-class loss statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def fit_lbfgs(model, x, y, steps=50):
    optimizer = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=20, history_size=10)
    losses = []
    losses_f = []
    losses_d = []

    def closure():
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        return loss

    for _ in range(steps):
        loss = optimizer.step(closure)
        losses.append(loss)  # expect: TEN501
        losses_f.append(float(loss))  # ok
        losses_d.append(loss.detach())  # ok
    return losses, losses_f, losses_d


class ClassBalancedCE(nn.Module):
    """Cross-entropy that keeps running per-class loss statistics in buffers."""

    def __init__(self, num_classes, momentum=0.9):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_loss", torch.zeros(()))
        self.register_buffer("class_loss_sum", torch.zeros(num_classes))
        self.register_buffer("class_count", torch.zeros(num_classes))
        self.register_buffer("class_loss_sum_safe", torch.zeros(num_classes))
        self.register_buffer("running_loss_safe", torch.zeros(()))

    def forward(self, logits, target):
        per_sample = F.cross_entropy(logits, target, reduction="none")
        loss = per_sample.mean()
        self.running_loss.mul_(self.momentum).add_((1 - self.momentum) * loss)  # expect: TEN501
        self.class_loss_sum.index_add_(0, target, per_sample)  # expect: TEN501
        self.class_count.index_add_(0, target, torch.ones_like(per_sample))  # ok
        self.class_loss_sum_safe.index_add_(0, target, per_sample.detach())  # ok
        with torch.no_grad():
            self.running_loss_safe.mul_(self.momentum).add_((1 - self.momentum) * loss)  # ok
        return loss

    def class_means(self):
        return self.class_loss_sum_safe / self.class_count.clamp(min=1)


def train(model, loader, epochs=10, num_classes=10):
    criterion = ClassBalancedCE(num_classes)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(epochs):
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, criterion.class_means().tolist(), criterion.running_loss_safe.item())
