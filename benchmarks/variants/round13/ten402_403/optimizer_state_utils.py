"""Utilities for saving, comparing and rewinding optimizer state safely."""
import copy
import io

import torch
from torch import nn
import torch.nn.functional as F


def snapshot_optimizer(opt):
    return copy.deepcopy(opt.state_dict())  # ok


def serialized_optimizer(opt):
    buf = io.BytesIO()
    torch.save(opt.state_dict(), buf)  # ok
    buf.seek(0)
    return torch.load(buf, weights_only=True)  # ok


def current_lrs(opt):
    return [group["lr"] for group in opt.param_groups]  # ok


def moment_norms(opt):
    out = {}
    for i, (p, st) in enumerate(opt.state.items()):
        if "exp_avg" in st:
            out[i] = st["exp_avg"].norm().item()  # ok
    return out


def state_distance(a, b):
    total = 0.0
    for idx, st in a["state"].items():
        for key, val in st.items():
            if torch.is_tensor(val) and val.is_floating_point() and key != "step":
                total += (val - b["state"][idx][key]).pow(2).sum().item()
    return total ** 0.5


class Rewinder:
    """Keeps the model+optimizer state from `every` steps ago for quick rewinds."""

    def __init__(self, model, opt, every=4):
        self.model, self.opt, self.every = model, opt, every
        self.saved = None

    def maybe_save(self, step):
        if step % self.every == 0:
            model_state = {k: v.detach().clone() for k, v in self.model.state_dict().items()}  # ok
            self.saved = (model_state, snapshot_optimizer(self.opt))  # ok

    def rewind(self):
        model_state, opt_state = self.saved
        self.model.load_state_dict(model_state)
        self.opt.load_state_dict(copy.deepcopy(opt_state))  # ok


def demo(steps=10, seed=0):
    torch.manual_seed(seed)
    model = nn.Linear(5, 2)
    opt = torch.optim.AdamW(model.parameters(), lr=0.05)
    rew = Rewinder(model, opt)
    x, y = torch.randn(32, 5), torch.randn(32, 2)
    first = None
    for step in range(1, steps + 1):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        rew.maybe_save(step)
        if step == 2:
            first = serialized_optimizer(opt)
    before = snapshot_optimizer(opt)
    rew.rewind()
    return first, before, snapshot_optimizer(opt), rew


if __name__ == "__main__":
    first, before, after, rew = demo()
    print("distance step2 -> end:", round(state_distance(first, before), 5))
    print("distance end -> rewound:", round(state_distance(before, after), 5))
    print("lrs", current_lrs(rew.opt), "moments", moment_norms(rew.opt))
