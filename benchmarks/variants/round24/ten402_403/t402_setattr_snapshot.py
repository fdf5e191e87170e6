"""Per-submodule snapshots stored as dynamic attributes via setattr/getattr."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(5, 8)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(torch.relu(self.encoder(x)))


class SnapshotManager:
    def __init__(self, model, names):
        self.model = model
        self.names = names

    def take(self, tag):
        for name in self.names:
            module = getattr(self.model, name)
            setattr(self, f"{tag}_{name}", module.state_dict())  # expect: TEN402

    def take_safe(self, tag):
        for name in self.names:
            module = getattr(self.model, name)
            setattr(self, f"{tag}_{name}", copy.deepcopy(module.state_dict()))  # ok

    def restore(self, tag):
        for name in self.names:
            getattr(self.model, name).load_state_dict(getattr(self, f"{tag}_{name}"))


def run(safe):
    torch.manual_seed(7)
    model = Net()
    mgr = SnapshotManager(model, ["encoder", "head"])
    x = torch.randn(20, 5)
    y = torch.randint(0, 2, (20,))
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    mgr.take_safe("pre") if safe else mgr.take("pre")
    for _ in range(8):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    trained = loss.item()
    mgr.restore("pre")
    with torch.no_grad():
        return trained, nn.functional.cross_entropy(model(x), y).item()


if __name__ == "__main__":
    for safe in (False, True):
        a, b = run(safe)
        print(f"safe={safe} trained {a:.6f} after restore {b:.6f}")
