"""Weight averaging utilities done right: every kept state is an independent copy."""
import copy
import io

import torch
from torch import nn
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn


def serialize(model: nn.Module) -> bytes:
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    return buf.getvalue()


def deserialize(model: nn.Module, blob: bytes) -> None:
    model.load_state_dict(torch.load(io.BytesIO(blob)))


class RunningAverage:
    def __init__(self, model: nn.Module):
        self.n = 1
        self.avg = {k: v.detach().clone().float()  # ok
                    for k, v in model.state_dict().items() if v.is_floating_point()}

    @torch.no_grad()
    def add(self, model: nn.Module):
        self.n += 1
        for k, v in model.state_dict().items():
            if k in self.avg:
                self.avg[k] += (v.float() - self.avg[k]) / self.n


def train_swa(model, loader, epochs=30, swa_start=20):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    swa_model = AveragedModel(model)
    ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.999))
    swa_sched = SWALR(opt, swa_lr=0.05)
    blobs = []
    for epoch in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
            ema_model.update_parameters(model)
        if epoch >= swa_start:
            swa_model.update_parameters(model)
            swa_sched.step()
            blobs.append(serialize(model))
    torch.optim.swa_utils.update_bn(loader, swa_model)
    return swa_model, ema_model, blobs


def last_k_average(model, loader, k=5, steps=1000):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    kept = []
    for step, (x, y) in zip(range(steps), loader):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        if step >= steps - k:
            kept.append(copy.deepcopy(model.state_dict()))  # ok
    avg = {name: sum(s[name] for s in kept) / len(kept)
           for name, t in kept[0].items() if t.is_floating_point()}
    model.load_state_dict(avg, strict=False)
    return model
