"""A small checkpoint registry keyed by name, used for post-hoc checkpoint averaging."""
import copy
import io

import torch
import torch.nn as nn

torch.manual_seed(0)


class CheckpointRegistry:
    def __init__(self):
        self._items = {}

    def register(self, name, state):
        self._items[name] = state

    def get(self, name):
        return self._items[name]

    def names(self):
        return list(self._items)


REGISTRY = CheckpointRegistry()


def serialize(sd):
    buf = io.BytesIO()
    torch.save(sd, buf)  # ok
    return buf.getvalue()


def train(model, epochs=6):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    x = torch.randn(40, 3)
    y = (x[:, :1] * 2 - x[:, 1:2]).tanh()
    blobs = {}
    for epoch in range(epochs):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if epoch % 2 == 1:
            REGISTRY.register(f"epoch{epoch}", model.state_dict())  # expect: TEN402
            blobs[f"epoch{epoch}"] = serialize(model.state_dict())
    REGISTRY.register("final", copy.deepcopy(model.state_dict()))  # ok
    return blobs


def average(states):
    return {k: torch.stack([s[k].float() for s in states]).mean(0) for k in states[0]}


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
    blobs = train(model)
    names = [n for n in REGISTRY.names() if n != "final"]
    avg_reg = average([REGISTRY.get(n) for n in names])
    avg_blob = average([torch.load(io.BytesIO(blobs[n])) for n in names])
    for n in REGISTRY.names():
        print(n, f"{sum(v.sum().item() for v in REGISTRY.get(n).values()):.6f}")
    print(f"avg from registry {sum(v.sum().item() for v in avg_reg.values()):.6f}")
    print(f"avg from blobs {sum(v.sum().item() for v in avg_blob.values()):.6f}")
