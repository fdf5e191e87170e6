"""Guarding a fragile training loop against NaN/inf losses with closures."""
import io

import torch
from torch import nn


def make_guard(model, mode="live"):
    saved = {}
    blob = io.BytesIO()

    def save():
        if mode == "live":
            saved.update(model.state_dict())  # expect: TEN402
        elif mode == "clone":
            saved.update({k: v.detach().clone() for k, v in model.state_dict().items()})  # ok
        else:
            blob.seek(0)
            blob.truncate()
            torch.save(model.state_dict(), blob)  # ok

    def restore():
        if mode == "bytes":
            blob.seek(0)
            model.load_state_dict(torch.load(blob))
        else:
            model.load_state_dict(saved)

    return save, restore


class Unstable(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x, poison=False):
        out = self.fc(x)
        return out * float("nan") if poison else out


def run(mode):
    torch.manual_seed(0)
    model = Unstable()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    save, restore = make_guard(model, mode)
    x, y = torch.randn(32, 4), torch.randn(32, 1)
    skipped = 0
    for step in range(12):
        save()
        loss = nn.functional.mse_loss(model(x, poison=(step % 5 == 4)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if not all(torch.isfinite(p).all() for p in model.parameters()):
            restore()
            skipped += 1
    finite = all(torch.isfinite(p).all().item() for p in model.parameters())
    print(f"[{mode}] skipped {skipped} bad steps, weights finite at the end: {finite}")


if __name__ == "__main__":
    for mode in ("live", "clone", "bytes"):
        run(mode)
