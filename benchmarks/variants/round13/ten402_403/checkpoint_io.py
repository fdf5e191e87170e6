"""Saving and resuming training state on disk or in memory."""
import io
import os
import tempfile

import torch
from torch import nn
import torch.nn.functional as F


def save_checkpoint(path, model, optimizer, epoch):
    state = {"model": model.state_dict(), "optim": optimizer.state_dict(), "epoch": epoch}  # ok
    torch.save(state, path)


def load_checkpoint(path, model, optimizer):
    ckpt = torch.load(path, weights_only=True)  # ok
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optim"])
    return ckpt["epoch"]


def to_bytes(model):
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    return buf.getvalue()


def from_bytes(blob):
    return torch.load(io.BytesIO(blob), weights_only=True)


def clone_weights_into(src, dst):
    dst.load_state_dict(src.state_dict())  # ok


class InMemoryResume:
    """Holds the last good state as raw bytes so later steps cannot touch it."""

    def __init__(self):
        self.blob = None

    def save(self, model):
        self.blob = to_bytes(model)  # ok

    def load(self, model):
        model.load_state_dict(from_bytes(self.blob))


def train_steps(model, opt, n, seed):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n):
        x = torch.randn(16, 3, generator=g)
        opt.zero_grad()
        F.mse_loss(model(x), x.sum(1, keepdim=True)).backward()
        opt.step()


def demo():
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    train_steps(model, opt, 5, 0)
    resume = InMemoryResume()
    resume.save(model)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "ckpt.pt")
        save_checkpoint(path, model, opt, epoch=1)
        after_save = model.weight.detach().clone()  # ok
        train_steps(model, opt, 5, 1)
        model2 = nn.Linear(3, 1)
        opt2 = torch.optim.Adam(model2.parameters(), lr=0.1)
        epoch = load_checkpoint(path, model2, opt2)
    twin = nn.Linear(3, 1)
    clone_weights_into(model, twin)
    resume.load(model)
    return after_save, model, model2, twin, epoch


if __name__ == "__main__":
    after_save, model, model2, twin, epoch = demo()
    print("resumed epoch", epoch)
    print("disk checkpoint matches save time:", torch.equal(model2.weight, after_save))
    print("memory checkpoint matches save time:", torch.equal(model.weight, after_save))
