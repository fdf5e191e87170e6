"""State-dict uses that are fine: saved at once, used after training, keys only, write-through."""
import copy
import io
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


def train(model, data, epochs=2):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(epochs):
        for x, y in data:
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
    return model


def save_every_epoch(model, data, out_dir="/tmp/_ten40x_ckpt", epochs=3):
    os.makedirs(out_dir, exist_ok=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    best = float("inf")
    for epoch in range(epochs):
        for x, y in data:
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
        loss = sum(F.mse_loss(model(x), y).item() for x, y in data)
        state = model.state_dict()  # ok: TEN402
        torch.save(state, os.path.join(out_dir, f"epoch{epoch}.pt"))
        if loss < best:
            best = loss
            torch.save({"model": model.state_dict(), "optim": opt.state_dict()},
                       os.path.join(out_dir, "best.pt"))
    model.load_state_dict(torch.load(os.path.join(out_dir, "best.pt"))["model"])


def export_after_training(model, data):
    train(model, data)
    final = model.state_dict()  # ok: TEN402
    buf = io.BytesIO()
    torch.save(final, buf)
    return final


def convert_checkpoint(model):
    """Rename keys for another codebase; no training involved."""
    sd = model.state_dict()  # ok: TEN402
    renamed = {k.replace("0.", "encoder."): v for k, v in sd.items()}  # ok: TEN402
    return renamed


def copy_weights_in_place(dst, src):
    """Write-through on purpose: the live dict is the target."""
    sd = dst.state_dict()
    other = src.state_dict()  # ok: TEN402
    for k in sd:
        sd[k].copy_(other[k])


def count_keys_then_train(model, data):
    sd = model.state_dict()  # ok: TEN402
    n_keys = len(sd)
    has_bias = "bias" in sd
    names = list(sd.keys())
    train(model, data)
    print(n_keys, has_bias, names)


def deep_snapshot_loop(model, data, epochs=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    best, best_sd, best_opt = float("inf"), None, None
    for _ in range(epochs):
        for x, y in data:
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
        loss = sum(F.mse_loss(model(x), y).item() for x, y in data)
        if loss < best:
            best = loss
            best_sd = copy.deepcopy(model.state_dict())  # ok: TEN402
            best_opt = copy.deepcopy(opt.state_dict())  # ok: TEN402
    model.load_state_dict(best_sd)
    opt.load_state_dict(best_opt)


def fresh_optimizer_snapshot(model):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    initial_opt = opt.state_dict()  # ok: TEN402
    return initial_opt


def ensemble_from_files(paths, make_model):
    models = []
    for p in paths:
        m = make_model()
        m.load_state_dict(torch.load(p))
        models.append(m)
    avg = {k: torch.stack([m.state_dict()[k].float() for m in models]).mean(0) for k in models[0].state_dict()}
    return avg


def snapshot_then_eval_only(model, data):
    sd = model.state_dict()  # ok: TEN402
    model.eval()
    with torch.no_grad():
        out = [model(x) for x, _ in data]
    model.load_state_dict(sd)
    return out


def clone_snapshot_then_finetune(model, data):
    frozen = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok: TEN402
    train(model, data)
    model.load_state_dict(frozen)


if __name__ == "__main__":
    data = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(2)]
    save_every_epoch(nn.Linear(3, 1), data)
    export_after_training(nn.Linear(3, 1), data)
    convert_checkpoint(nn.Sequential(nn.Linear(3, 1)))
    copy_weights_in_place(nn.Linear(3, 1), nn.Linear(3, 1))
    count_keys_then_train(nn.Linear(3, 1), data)
    deep_snapshot_loop(nn.Linear(3, 1), data)
    fresh_optimizer_snapshot(nn.Linear(3, 1))
    snapshot_then_eval_only(nn.Linear(3, 1), data)
    clone_snapshot_then_finetune(nn.Linear(3, 1), data)
