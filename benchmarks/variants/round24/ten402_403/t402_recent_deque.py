"""Keep the last few snapshots in a deque to roll back after a divergence (NaN guard)."""
import collections
import io

import torch
import torch.nn as nn

torch.manual_seed(0)


class RollbackBuffer:
    def __init__(self, maxlen=3):
        self.recent = collections.deque(maxlen=maxlen)
        self.recent_bytes = collections.deque(maxlen=maxlen)

    def push(self, model):
        self.recent.append(model.state_dict())  # expect: TEN402

    def push_bytes(self, model):
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)  # ok
        self.recent_bytes.append(buf.getvalue())  # ok

    def oldest(self, from_bytes):
        if from_bytes:
            return torch.load(io.BytesIO(self.recent_bytes[0]))
        return self.recent[0]


def train(from_bytes):
    torch.manual_seed(3)
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    rb = RollbackBuffer()
    x = torch.randn(32, 4)
    y = x.sum(1, keepdim=True)
    rollbacks = 0
    for step in range(20):
        scale = 30.0 if step == 12 else 1.0
        loss = nn.functional.mse_loss(model(x * scale), y * scale)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if model.weight.abs().max() > 5:
            model.load_state_dict(rb.oldest(from_bytes))
            rollbacks += 1
        else:
            rb.push(model)
            rb.push_bytes(model)
    with torch.no_grad():
        return rollbacks, nn.functional.mse_loss(model(x), y).item()


if __name__ == "__main__":
    for fb in (False, True):
        r, l = train(fb)
        print(f"from_bytes={fb} rollbacks {r} loss {l:.6f}")
