"""Lottery-ticket iterative magnitude pruning with late rewinding (Frankle et al. 2019):
train, prune 40% of the smallest weights, rewind survivors to their values at iteration k."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

REWIND_ITER = 5


def train(model, masks, x, y, iters, on_iter=None):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for it in range(iters):
        if on_iter is not None:
            on_iter(it)
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
        with torch.no_grad():
            for n, p in model.named_parameters():
                if n in masks:
                    p.mul_(masks[n])


def imp(rewind_mode, rounds=2):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))
    init_state = copy.deepcopy(model.state_dict())  # ok
    g = torch.Generator().manual_seed(3)
    x = torch.randn(256, 20, generator=g)
    y = (x[:, :4] ** 2).argmax(1)
    masks = {n: torch.ones_like(p) for n, p in model.named_parameters() if p.dim() == 2}
    saved = {}

    def grab(it):
        if it != REWIND_ITER:
            return
        if rewind_mode == "comp":
            saved["rewind"] = {k: v for k, v in model.state_dict().items()}  # expect: TEN402
        else:
            saved["rewind"] = copy.deepcopy(model.state_dict())  # ok

    for r in range(rounds):
        train(model, masks, x, y, iters=40, on_iter=grab if r == 0 else None)
        with torch.no_grad():
            acc_dense = (model(x).argmax(1) == y).float().mean().item()
        for n, p in model.named_parameters():
            if n in masks:
                alive = p.detach().abs()[masks[n].bool()]
                thr = alive.kthvalue(int(0.4 * alive.numel())).values
                masks[n] = masks[n] * (p.detach().abs() > thr).float()
        model.load_state_dict(saved["rewind"])
        with torch.no_grad():
            for n, p in model.named_parameters():
                if n in masks:
                    p.mul_(masks[n])
            acc_rewound = (model(x).argmax(1) == y).float().mean().item()
        drift = sum((model.state_dict()[k] - init_state[k]).norm().item() for k in init_state)
        print(f"  {rewind_mode:5s} round {r}: acc_trained={acc_dense:.4f} acc_right_after_rewind={acc_rewound:.4f} "
              f"|rewound - init|={drift:.4f}")


if __name__ == "__main__":
    imp("comp")
    imp("copy")
