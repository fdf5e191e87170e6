"""Regularisers that keep fine-tuned weights close to a reference point."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class L2SP:
    """L2 penalty towards the pre-trained starting point (Li et al., 2018)."""

    def __init__(self, model: nn.Module, alpha=0.01, beta=0.01, head_prefix="fc."):
        self.alpha, self.beta = alpha, beta
        self.head_prefix = head_prefix
        self.start_point = {n: p.detach() for n, p in model.named_parameters()  # expect: TEN402
                            if not n.startswith(head_prefix)}

    def penalty(self, model: nn.Module):
        sp, head = 0.0, 0.0
        for n, p in model.named_parameters():
            if n in self.start_point:
                sp = sp + (p - self.start_point[n]).pow(2).sum()
            else:
                head = head + p.pow(2).sum()
        return 0.5 * self.alpha * sp + 0.5 * self.beta * head


class EWC:
    """Elastic weight consolidation for a sequence of tasks."""

    def __init__(self, model: nn.Module, lam=100.0):
        self.model = model
        self.lam = lam
        self.means = {}
        self.fisher = {}

    def consolidate(self, loader, n_batches=50):
        fisher = {n: torch.zeros_like(p) for n, p in self.model.named_parameters()}  # ok
        self.model.eval()
        for i, (x, y) in enumerate(loader):
            if i >= n_batches:
                break
            self.model.zero_grad()
            F.nll_loss(F.log_softmax(self.model(x), -1), y).backward()
            for n, p in self.model.named_parameters():
                if p.grad is not None:
                    fisher[n] += p.grad.detach().pow(2) / n_batches
        self.fisher = fisher
        self.means = dict(self.model.named_parameters())  # expect: TEN402

    def penalty(self):
        if not self.means:
            return torch.zeros(())
        loss = 0.0
        for n, p in self.model.named_parameters():
            loss = loss + (self.fisher[n] * (p - self.means[n]).pow(2)).sum()
        return 0.5 * self.lam * loss


class FrozenAnchorL2SP(L2SP):
    def __init__(self, model, alpha=0.01, beta=0.01, head_prefix="fc."):
        super().__init__(model, alpha, beta, head_prefix)
        self.start_point = {n: p.detach().clone() for n, p in model.named_parameters()  # ok
                            if not n.startswith(head_prefix)}


def train_tasks(model, task_loaders, epochs=2):
    ewc = EWC(model, lam=400.0)
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    for t, loader in enumerate(task_loaders):
        for _ in range(epochs):
            for x, y in loader:
                loss = F.cross_entropy(model(x), y) + ewc.penalty()
                opt.zero_grad()
                loss.backward()
                opt.step()
        ewc.consolidate(loader)
        print(f"finished task {t}")
