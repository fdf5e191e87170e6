"""GPU training script that keeps host-side copies of the best weights (needs CUDA)."""
import sys

import torch
from torch import nn
import torch.nn.functional as F

device = torch.device("cuda")


def build():
    return nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)


def host_copy(state):
    out = {}
    for k, v in state.items():
        buf = torch.empty(v.shape, dtype=v.dtype, device="cpu", pin_memory=True)
        buf.copy_(v, non_blocking=True)  # ok
        out[k] = buf
    torch.cuda.synchronize()
    return out


def train(epochs=5, seed=0):
    torch.manual_seed(seed)
    model = build()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x = torch.randn(256, 32, device=device)
    y = torch.randint(0, 10, (256,), device=device)
    best_loss, best_host, best_pinned = float("inf"), None, None
    last_host = None
    for epoch in range(epochs):
        for idx in torch.randperm(256, device=device).split(64):
            opt.zero_grad(set_to_none=True)
            F.cross_entropy(model(x[idx]), y[idx]).backward()
            opt.step()
        with torch.no_grad():
            loss = F.cross_entropy(model(x), y).item()
        last_host = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}  # ok
        if loss < best_loss:
            best_loss = loss
            best_host = {k: v.cpu() for k, v in model.state_dict().items()}  # either
            best_pinned = host_copy(model.state_dict())  # ok
    model.load_state_dict(best_host)
    return model, best_loss, last_host, best_pinned


if __name__ == "__main__":
    if not torch.cuda.is_available():
        sys.exit("this script requires a CUDA device")
    model, best_loss, _, _ = train()
    print("best loss", best_loss)
