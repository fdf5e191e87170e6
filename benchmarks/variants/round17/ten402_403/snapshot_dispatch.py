"""Several snapshot strategies chosen from a table, compared after training."""
import copy
import io

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


def snap_dict(model):
    return dict(model.state_dict())  # either


def snap_deep(model):
    return copy.deepcopy(model.state_dict())  # ok


def snap_serialized(model):
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    buf.seek(0)
    return torch.load(buf)  # ok


SNAPSHOTTERS = {"dict": snap_dict, "deep": snap_deep, "serialized": snap_serialized}


def main():
    model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 5))
    snaps = {}
    for name, fn in SNAPSHOTTERS.items():
        snaps[name] = fn(model)  # expect: TEN402
    extra = [fn(model) for fn in (snap_deep, snap_serialized)]  # ok
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    x = torch.randn(40, 5)
    for _ in range(10):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), x.flip(1)).backward()
        opt.step()
    for name in SNAPSHOTTERS:
        drift = sum((snaps[name][k] - v).abs().sum().item() for k, v in model.state_dict().items())
        print(f"{name:>10}: distance between snapshot and trained weights = {drift:.4f}")
    print("extra snapshots", len(extra), "distinct:", extra[0]["0.weight"].data_ptr() != model[0].weight.data_ptr())


if __name__ == "__main__":
    main()
