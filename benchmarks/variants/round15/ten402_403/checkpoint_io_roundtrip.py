"""Periodic checkpointing to disk / memory and resuming; every snapshot is serialised or cloned."""
import io
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def save_checkpoint(path, model, opt, epoch):
    torch.save({"model": model.state_dict(), "optim": opt.state_dict(), "epoch": epoch}, path)  # ok


def load_checkpoint(path, model, opt):
    ckpt = torch.load(path)  # ok
    model.load_state_dict(ckpt["model"])
    opt.load_state_dict(ckpt["optim"])
    return ckpt["epoch"]


def state_to_bytes(model):
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    return buf.getvalue()


def main():
    model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = torch.randn(64, 5), torch.randn(64, 1)
    keys = list(model.state_dict().keys())  # ok
    n_params = sum(p.numel() for p in model.parameters())  # ok
    shapes = {k: tuple(v.shape) for k, v in model.state_dict().items()}  # ok
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "last.pt")
        blobs = []
        for epoch in range(6):
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
            save_checkpoint(path, model, opt, epoch)
            blobs.append(state_to_bytes(model))  # ok
        best_blob = blobs[2]
        restored = torch.load(io.BytesIO(best_blob))  # ok
        epoch = load_checkpoint(path, model, opt)
        for _ in range(3):
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
    model.load_state_dict(restored)
    print(len(keys), n_params, shapes["0.weight"], "resumed at", epoch)


if __name__ == "__main__":
    main()
