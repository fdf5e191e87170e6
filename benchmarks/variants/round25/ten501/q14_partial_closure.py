import functools

import torch
import torch.nn as nn

torch.manual_seed(0)


def log_line(step, value):
    return f"step={step} loss={float(value):.4f}"


def make_printer(value, prefix="val"):
    def _print():
        return f"{prefix}: {float(value):.4f}"
    return _print


class Deferred:
    """Collects work to be executed at the end of the epoch."""

    def __init__(self):
        self.jobs = []

    def later(self, fn):
        self.jobs.append(fn)

    def flush(self):
        out = [job() for job in self.jobs]
        self.jobs.clear()
        return out


model = nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
deferred, deferred_ok = Deferred(), Deferred()
printers, printers_ok = [], []

for epoch in range(2):
    for step in range(6):
        x = torch.randn(20, 8)
        loss = (model(x).squeeze(1) - x[:, 0]).abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        deferred.later(functools.partial(log_line, step, loss))  # expect: TEN501
        deferred_ok.later(functools.partial(log_line, step, loss.item()))  # ok
        printers.append(make_printer(loss, prefix=f"e{epoch}"))  # expect: TEN501
        printers_ok.append(make_printer(loss.detach(), prefix=f"e{epoch}"))  # ok
    print("\n".join(deferred_ok.flush()[-2:]))
    deferred.flush()

print(printers[-1](), printers_ok[0]())
