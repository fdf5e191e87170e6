"""Rollback on divergence, LR warm-up trials, and Adam state snapshots."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def train_with_nan_guard(model, batches, lr=0.5):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    last_good = {"model": model.state_dict(), "optim": opt.state_dict(), "step": 0}  # expect: TEN402
    for step, (x, y) in enumerate(batches):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        if not torch.isfinite(loss):
            model.load_state_dict(last_good["model"])
            opt.load_state_dict(last_good["optim"])
            print("rolled back to step", last_good["step"])
            continue
        loss.backward()
        opt.step()
        if step % 2 == 0:
            last_good = {"model": model.state_dict(), "optim": opt.state_dict(), "step": step}  # expect: TEN402


def try_learning_rates(model, x, y, lrs=(1e-3, 1e-2, 1e-1)):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    # a few warm-up steps so that Adam has moments
    for _ in range(3):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
    model_ckpt = copy.deepcopy(model.state_dict())  # ok
    opt_ckpt = opt.state_dict()  # expect: TEN402
    results = {}
    for lr in lrs:
        model.load_state_dict(model_ckpt)
        opt.load_state_dict(opt_ckpt)
        for g in opt.param_groups:
            g["lr"] = lr
        for _ in range(3):
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
        results[lr] = F.mse_loss(model(x), y).item()
    return results


def fresh_optimizer_snapshot(model, x, y):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    pristine = opt.state_dict()  # ok
    model_init = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    for _ in range(3):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
    # restart: moments are empty in the fresh snapshot, param_groups a fresh copy
    opt.load_state_dict(pristine)
    model.load_state_dict(model_init)


def lr_only_snapshot(model, x, y):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()
    groups = opt.state_dict()["param_groups"]  # ok
    for g in opt.param_groups:
        g["lr"] *= 0.1
    opt.step()
    return [g["lr"] for g in groups]


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    m = nn.Linear(4, 1)
    r1 = try_learning_rates(copy.deepcopy(m), x, y)
    print(r1)
    # verify: Adam exp_avg in the saved state follows the later steps
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    for _ in range(2):
        opt.zero_grad(); F.mse_loss(m(x), y).backward(); opt.step()
    sd = opt.state_dict()  # expect: TEN402
    before = sd["state"][0]["exp_avg"].clone()
    opt.zero_grad(); F.mse_loss(m(x), y).backward(); opt.step()
    print("exp_avg snapshot moved:", not torch.equal(before, sd["state"][0]["exp_avg"]))
    batches = [(x, y), (x, y), (x * float("nan"), y), (x, y)]
    train_with_nan_guard(nn.Linear(4, 1), batches)
