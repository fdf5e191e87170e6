"""Divergence guard: restore the last good snapshot and halve the LR when the loss spikes.
The snapshot implementation is picked by name from a config value."""
import copy
import io

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class RefSnapshot:
    def __init__(self, model):
        self.state = model.state_dict()  # expect: TEN402

    def restore(self, model):
        model.load_state_dict(self.state)


class DeepSnapshot(RefSnapshot):
    def __init__(self, model):
        self.state = copy.deepcopy(model.state_dict())  # ok


class BytesSnapshot:
    def __init__(self, model):
        self.buf = io.BytesIO()
        torch.save(model.state_dict(), self.buf)  # ok

    def restore(self, model):
        self.buf.seek(0)
        model.load_state_dict(torch.load(self.buf))


SNAPSHOT_TYPES = {"ref": RefSnapshot, "deep": DeepSnapshot, "bytes": BytesSnapshot}


def run(config):
    torch.manual_seed(config["seed"])
    x = torch.randn(256, 5)
    y = x @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [3.0]]) + 0.1 * torch.randn(256, 1)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
    lr = config["lr"]
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    snap_type = SNAPSHOT_TYPES[config["snapshot"]]
    snap, good_loss, restores = None, float("inf"), 0
    for epoch in range(12):
        for idx in torch.randperm(256).split(32):
            opt.zero_grad()
            nn.functional.mse_loss(model(x[idx]), y[idx]).backward()
            opt.step()
        with torch.no_grad():
            loss = nn.functional.mse_loss(model(x), y).item()
        if snap is not None and (loss != loss or loss > 1.5 * good_loss):
            snap.restore(model)
            lr *= 0.5
            for g in opt.param_groups:
                g["lr"] = lr
            restores += 1
            continue
        if loss < good_loss:
            good_loss = loss
            snap = snap_type(model)
    with torch.no_grad():
        final = nn.functional.mse_loss(model(x), y).item()
    return restores, good_loss, final


def main():
    for kind in ("ref", "deep", "bytes"):
        restores, good, final = run({"seed": 3, "lr": 0.15, "snapshot": kind})
        print(f"{kind:5s}: {restores} restores, best {good:.4g}, final {final:.4g}")


if __name__ == "__main__":
    main()
