"""Weight-space regularizers for transfer / continual learning: L2-SP and EWC."""
import torch
import torch.nn.functional as F


class L2SP:
    """L2-SP (Li et al., 2018): pull the backbone toward the pre-trained starting point, plain L2 on the new head."""

    def __init__(self, model, alpha=1e-2, beta=1e-4, head_prefix="fc."):
        self.alpha = alpha
        self.beta = beta
        self.is_head = [n.startswith(head_prefix) for n, _ in model.named_parameters()]
        self.anchor = [p.detach() for p in model.parameters()]  # expect: TEN402

    def penalty(self, model):
        sp = head = 0.0
        for p, p0, is_head in zip(model.parameters(), self.anchor, self.is_head):
            if is_head:
                head = head + p.pow(2).sum()
            else:
                sp = sp + (p - p0).pow(2).sum()
        return 0.5 * self.alpha * sp + 0.5 * self.beta * head


class EWC:
    """Elastic weight consolidation with a diagonal empirical Fisher."""

    def __init__(self, model, loader, device, lam=400.0, n_batches=50):
        self.lam = lam
        self.fisher = self._fisher(model, loader, device, n_batches)
        self.star = list(model.parameters())  # expect: TEN402

    @staticmethod
    def _fisher(model, loader, device, n_batches):
        params = list(model.parameters())  # ok
        fisher = [torch.zeros_like(p) for p in params]
        model.eval()
        seen = 0
        for i, (x, y) in enumerate(loader):
            if i >= n_batches:
                break
            model.zero_grad()
            F.cross_entropy(model(x.to(device)), y.to(device)).backward()
            for f, p in zip(fisher, params):
                if p.grad is not None:
                    f += p.grad.detach() ** 2
            seen += 1
        return [f / max(seen, 1) for f in fisher]

    def penalty(self, model):
        loss = 0.0
        for p, p0, f in zip(model.parameters(), self.star, self.fisher):
            loss = loss + (f * (p - p0).pow(2)).sum()
        return 0.5 * self.lam * loss


def train_task(model, loader, device, reg=None, epochs=5, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(epochs):
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            if reg is not None:
                loss = loss + reg.penalty(model)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()


def run_sequence(model, task_loaders, device, lam=400.0):
    reg = None
    drift = []
    for t, loader in enumerate(task_loaders):
        before = [p.detach().clone() for p in model.parameters()]  # ok
        train_task(model, loader, device, reg=reg)
        drift.append(sum((p.detach() - b).norm().item() for p, b in zip(model.parameters(), before)))
        reg = EWC(model, loader, device, lam=lam)
    return drift


def finetune_l2sp(model, loader, device, epochs=10):
    reg = L2SP(model)
    train_task(model, loader, device, reg=reg, epochs=epochs, lr=1e-3)
    return model
