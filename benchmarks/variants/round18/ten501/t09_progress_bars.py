"""tqdm-like progress bars that receive the loss as a postfix."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Bar:
    """Tiny tqdm stand-in: set_postfix() replaces the displayed postfix."""

    def __init__(self, iterable=None, desc="", total=None):
        self.iterable = iterable
        self.desc = desc
        self.total = total if total is not None else (len(iterable) if iterable is not None else 0)
        self.n = 0
        self.postfix = {}

    def __iter__(self):
        for item in self.iterable:
            yield item
            self.n += 1

    def update(self, n=1):
        self.n += n

    def set_postfix(self, refresh=True, **kwargs):
        self.postfix = dict(kwargs)

    def set_postfix_str(self, s):
        self.postfix = {"": s}

    def format_meter(self):
        post = ", ".join(f"{k}={v}" for k, v in self.postfix.items())
        return f"{self.desc}: {self.n}/{self.total} [{post}]"


class RecordingBar(Bar):
    """A bar that also remembers every postfix it was given (for a final summary)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.records = []

    def set_postfix(self, refresh=True, **kwargs):
        super().set_postfix(refresh=refresh, **kwargs)
        self.records.append(kwargs)


model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]

epoch_bar = RecordingBar(total=2, desc="epochs")
epoch_bar_clean = RecordingBar(total=2, desc="epochs-clean")
lines = []
for epoch in range(2):
    bar = Bar(batches, desc=f"epoch {epoch}")
    for xb, yb in bar:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        bar.set_postfix(loss=loss)  # either
        bar.set_postfix_str(f"loss={loss.item():.3f}")  # ok
        epoch_bar.set_postfix(loss=loss, refresh=False)  # expect: TEN501
        epoch_bar_clean.set_postfix(loss=loss.item())  # ok
        lines.append(bar.format_meter())  # ok
    epoch_bar.update()
    epoch_bar_clean.update()

print(lines[-1], "| records:", len(epoch_bar.records), len(epoch_bar_clean.records))
