import torch
from torch import nn
from torch.optim.swa_utils import SWALR, update_bn


class ParamAverager:
    """Running average of the parameters for SWA; swapped in for evaluation and swapped back to keep training."""

    def __init__(self, model: nn.Module):
        self.model = model
        self.n = 0
        self.avg = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
        self._backup = None

    @torch.no_grad()
    def collect(self):
        self.n += 1
        for name, p in self.model.named_parameters():
            self.avg[name].add_(p.detach() - self.avg[name], alpha=1.0 / self.n)

    @torch.no_grad()
    def swap_in(self):
        self._backup = {n: p.data for n, p in self.model.named_parameters()}  # expect: TEN402
        for name, p in self.model.named_parameters():
            p.copy_(self.avg[name])

    @torch.no_grad()
    def swap_out(self):
        for name, p in self.model.named_parameters():
            p.copy_(self._backup[name])
        self._backup = None


def evaluate_swa(model, averager, train_loader, val_fn, device):
    bn_state = {n: b.clone() for n, b in model.named_buffers()}  # ok
    averager.swap_in()
    update_bn(train_loader, model, device=device)
    score = val_fn(model)
    averager.swap_out()
    with torch.no_grad():
        for n, b in model.named_buffers():
            b.copy_(bn_state[n])
    return score


def train(model, train_loader, val_fn, device, epochs=100, swa_start=75, lr=0.1, swa_lr=0.05):
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=swa_start)
    swa_sched = SWALR(opt, swa_lr=swa_lr, anneal_epochs=5)
    averager = ParamAverager(model)
    crit = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            opt.zero_grad()
            crit(model(x), y).backward()
            opt.step()
        if epoch >= swa_start:
            averager.collect()
            swa_sched.step()
            if (epoch - swa_start) % 5 == 0:
                print(f"epoch {epoch} swa acc {evaluate_swa(model, averager, train_loader, val_fn, device):.4f}")
        else:
            sched.step()
    return averager
