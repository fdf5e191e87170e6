"""Keep the top-k checkpoints in a heap and average them at the end; optional reset-to-init."""
import heapq
import torch
import torch.nn as nn
import torch.nn.functional as F


class TopKAverager:
    def __init__(self, model, k=3):
        self.k = k
        self.heap = []
        self.initial = dict(model.named_parameters())  # expect: TEN402
        self.initial_copy = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok

    def offer(self, score, step, model):
        item = (score, step, model.state_dict())  # expect: TEN402
        if len(self.heap) < self.k:
            heapq.heappush(self.heap, item)
        elif score > self.heap[0][0]:
            heapq.heapreplace(self.heap, item)

    def averaged(self):
        states = [s for _, _, s in self.heap]
        return {k: sum(s[k] for s in states) / len(states) for k in states[0]}


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 20), nn.ReLU(), nn.Linear(20, 3))
x, y = torch.randn(90, 4), torch.randint(0, 3, (90,))
xv, yv = torch.randn(90, 4), torch.randint(0, 3, (90,))
keeper = TopKAverager(net)
opt = torch.optim.SGD(net.parameters(), lr=0.5)
for step in range(30):
    opt.zero_grad()
    F.cross_entropy(net(x), y).backward()
    opt.step()
    with torch.no_grad():
        keeper.offer(-F.cross_entropy(net(xv), yv).item(), step, net)
print("kept steps", sorted(s for _, s, _ in keeper.heap))
net.load_state_dict(keeper.averaged())
with torch.no_grad():
    print("averaged val loss", round(F.cross_entropy(net(xv), yv).item(), 6))
    drift = sum((p - keeper.initial[n]).norm().item() for n, p in net.named_parameters())
    drift_c = sum((p - keeper.initial_copy[n]).norm().item() for n, p in net.named_parameters())
print("drift from init", round(drift, 6), "(copy)", round(drift_c, 6))
