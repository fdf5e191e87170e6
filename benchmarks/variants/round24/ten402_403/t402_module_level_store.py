"""Module-level stash of named weight snapshots (warm-start / revert utilities)."""
import torch
import torch.nn as nn

torch.manual_seed(0)

_STORE = {}


def stash(name, model):
    _STORE[name] = model.state_dict()  # expect: TEN402


def stash_copy(name, model):
    _STORE[name] = {k: v.clone() for k, v in model.state_dict().items()}  # ok


def revert(name, model):
    model.load_state_dict(_STORE[name])


def checksum(name):
    return sum(v.double().sum().item() for v in _STORE[name].values())


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(16, 4)
    y = torch.randn(16, 1)
    stash("init", model)  # either: TEN402
    stash_copy("init_copy", model)
    for phase in range(2):
        for _ in range(5):
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        stash_copy(f"phase{phase}", model)
    print("checksums", {n: round(checksum(n), 6) for n in _STORE})
    revert("init", model)
    with torch.no_grad():
        print(f"loss after revert(init) {nn.functional.mse_loss(model(x), y).item():.6f}")
    revert("init_copy", model)
    with torch.no_grad():
        print(f"loss after revert(init_copy) {nn.functional.mse_loss(model(x), y).item():.6f}")
