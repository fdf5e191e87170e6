"""Hand-rolled stochastic weight averaging with a cyclic learning rate and BN recalibration."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def cyclic_lr(step, cycle, lr_max, lr_min):
    t = (step % cycle) / cycle
    return lr_max - (lr_max - lr_min) * t


class ManualSWA:
    def __init__(self):
        self.avg = None
        self.n = 0

    @torch.no_grad()
    def collect(self, model):
        current = model.state_dict()  # ok: consumed immediately below
        if self.avg is None:
            self.avg = {k: v.clone() for k, v in current.items()}  # ok
        else:
            for k, v in current.items():
                if v.dtype.is_floating_point:
                    self.avg[k].mul_(self.n / (self.n + 1)).add_(v, alpha=1.0 / (self.n + 1))
                else:
                    self.avg[k].copy_(v)
        self.n += 1

    def apply_to(self, model):
        model.load_state_dict(self.avg)


@torch.no_grad()
def recalibrate_bn(model, batches):
    moms = {}
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.reset_running_stats()
            moms[m] = m.momentum
            m.momentum = None
    model.train()
    for x, _ in batches:
        model(x)
    for m, mom in moms.items():
        m.momentum = mom


def train_swa(model, batches, epochs=8, swa_start=4, cycle=None, lr_max=0.05, lr_min=0.005):
    cycle = cycle or len(batches)
    opt = torch.optim.SGD(model.parameters(), lr=lr_max, momentum=0.9, weight_decay=5e-4)
    swa = ManualSWA()
    step = 0
    for epoch in range(epochs):
        model.train()
        for x, y in batches:
            if epoch >= swa_start:
                for g in opt.param_groups:
                    g["lr"] = cyclic_lr(step, cycle, lr_max, lr_min)
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
            step += 1
            if epoch >= swa_start and step % cycle == 0:
                swa.collect(model)
    swa.apply_to(model)
    recalibrate_bn(model, batches)
    return swa.n


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 4))
    data = [(torch.randn(16, 10), torch.randint(0, 4, (16,))) for _ in range(4)]
    print("averaged", train_swa(net, data), "snapshots")
