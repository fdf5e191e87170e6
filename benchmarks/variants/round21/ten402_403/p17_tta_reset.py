"""Test-time adaptation with episodic reset: TENT (entropy minimisation on BN affine params)
and BN-statistics adaptation that must be reset between target domains."""
import copy
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def source_model():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(8, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 3))
    g = torch.Generator().manual_seed(1)
    x = torch.randn(512, 8, generator=g)
    y = (x[:, :3] - x[:, 3:6]).argmax(1)
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    for _ in range(60):
        opt.zero_grad()
        F.cross_entropy(m(x), y).backward()
        opt.step()
    return m


def target_batches(shift, n=4, seed=5):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        x = torch.randn(64, 8, generator=g)
        out.append((x * 1.5 + shift, (x[:, :3] - x[:, 3:6]).argmax(1)))
    return out


class Tent:
    def __init__(self, model, episodic=True, deep=False):
        self.model = model
        params = [p for m in model.modules() if isinstance(m, nn.BatchNorm1d) for p in m.parameters()]  # ok
        self.optimizer = torch.optim.SGD(params, lr=0.5, momentum=0.9)
        self.episodic = episodic
        if deep:
            self.model_state = copy.deepcopy(model.state_dict())  # ok
            self.optimizer_state = copy.deepcopy(self.optimizer.state_dict())  # ok
        else:
            self.model_state = OrderedDict(model.state_dict())  # expect: TEN402
            self.optimizer_state = copy.deepcopy(self.optimizer.state_dict())  # ok

    def reset(self):
        self.model.load_state_dict(self.model_state, strict=True)
        self.optimizer.load_state_dict(self.optimizer_state)

    def forward(self, x):
        if self.episodic:
            self.reset()
        self.model.train()
        for _ in range(3):
            logits = self.model(x)
            ent = -(logits.softmax(1) * logits.log_softmax(1)).sum(1).mean()
            self.optimizer.zero_grad()
            ent.backward()
            self.optimizer.step()
        self.model.eval()
        with torch.no_grad():
            return self.model(x)


class BNStatsAdapter:
    """Re-estimate BN running statistics on each target domain, then restore the source stats."""

    def __init__(self, model, clone):
        self.model = model
        self.bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm1d)]
        if clone:
            self.saved = [(m.running_mean.clone(), m.running_var.clone()) for m in self.bns]  # ok
        else:
            self.saved = [(m.running_mean, m.running_var) for m in self.bns]  # expect: TEN402

    @torch.no_grad()
    def adapt(self, batches):
        self.model.train()
        for x, _ in batches:
            self.model(x)
        self.model.eval()

    @torch.no_grad()
    def reset(self):
        for m, (mean, var) in zip(self.bns, self.saved):
            m.running_mean.copy_(mean)
            m.running_var.copy_(var)


def acc(logits, y):
    return (logits.argmax(1) == y).float().mean().item()


if __name__ == "__main__":
    base = source_model()
    for deep in (False, True):
        tent = Tent(copy.deepcopy(base), deep=deep)
        accs = [acc(tent.forward(x), y) for x, y in target_batches(shift=0.7)]
        bn_w = tent.model[1].weight.detach()
        print(f"Tent deep={deep}: per-batch acc={[round(a, 4) for a in accs]} |bn.weight - source|="
              f"{(bn_w - base[1].weight.detach()).norm().item():.4f}")
    for clone in (False, True):
        model = copy.deepcopy(base)
        ad = BNStatsAdapter(model, clone)
        res = []
        for shift in (1.0, -1.0):
            ad.adapt(target_batches(shift))
            with torch.no_grad():
                res.append(sum(acc(model(x), y) for x, y in target_batches(shift, seed=6)) / 4)
            ad.reset()
        with torch.no_grad():
            src_x = torch.randn(256, 8, generator=torch.Generator().manual_seed(1))
            src_acc = acc(model(src_x), (src_x[:, :3] - src_x[:, 3:6]).argmax(1))
        print(f"BN-adapt clone={clone}: target accs={[round(a, 4) for a in res]} source acc after reset={src_acc:.4f} "
              f"running_mean[:3] after reset={[round(v, 4) for v in model[1].running_mean[:3].tolist()]}")
