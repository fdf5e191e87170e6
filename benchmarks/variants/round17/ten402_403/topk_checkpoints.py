"""Keep the k best checkpoints in memory; average them at the end."""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TopKKeeper:
    """Holds (score, state) pairs, lowest score first."""

    def __init__(self, k):
        self.k = k
        self.entries = []

    def offer(self, score, model):
        if len(self.entries) < self.k or score < self.entries[-1][0]:
            self.entries.append((score, model.state_dict()))  # expect: TEN402
            self.entries.sort(key=lambda e: e[0])
            del self.entries[self.k:]

    def averaged(self):
        keys = self.entries[0][1].keys()
        return {k: sum(sd[k] for _, sd in self.entries) / len(self.entries) for k in keys}


class SerializedKeeper(TopKKeeper):
    """Same idea, but every kept state is serialized to bytes."""

    def offer(self, score, model):
        if len(self.entries) < self.k or score < self.entries[-1][0]:
            blob = io.BytesIO()
            torch.save(model.state_dict(), blob)  # ok
            self.entries.append((score, blob.getvalue()))  # ok
            self.entries.sort(key=lambda e: e[0])
            del self.entries[self.k:]

    def averaged(self):
        states = [torch.load(io.BytesIO(b)) for _, b in self.entries]  # ok
        return {k: torch.stack([s[k] for s in states]).mean(0) for k in states[0]}


def run(keeper):
    torch.manual_seed(3)
    net = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 3))
    opt = torch.optim.Adam(net.parameters(), lr=5e-2)
    x = torch.randn(128, 10)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()
    for step in range(30):
        opt.zero_grad()
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        keeper.offer(loss.item() + 0.05 * (step % 3), net)
    last_shapes = {k: tuple(v.shape) for k, v in net.state_dict().items()}  # ok
    avg = keeper.averaged()
    net.load_state_dict(avg)
    with torch.no_grad():
        acc = (net(x).argmax(1) == y).float().mean().item()
    return acc, len(last_shapes)


if __name__ == "__main__":
    print("live-state keeper acc", run(TopKKeeper(3)))
    print("serialized keeper acc", run(SerializedKeeper(3)))
