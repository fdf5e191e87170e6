import copy
import heapq
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.4, momentum=0.8)
X, Xv = torch.randn(60, 6), torch.randn(200, 6)
Y = (X[:, 0] * X[:, 1] > 0).long()
Yv = (Xv[:, 0] * Xv[:, 1] > 0).long()
K = 3
topk, topk_deep = [], []

for epoch in range(30):
    opt.zero_grad()
    nn.functional.cross_entropy(model(X), Y).backward()
    opt.step()
    with torch.no_grad():
        vloss = nn.functional.cross_entropy(model(Xv), Yv).item()
    heapq.heappush(topk, (-vloss, epoch, model.state_dict()))  # expect: TEN402
    heapq.heappush(topk_deep, (-vloss, epoch, copy.deepcopy(model.state_dict())))  # ok
    if len(topk) > K:
        heapq.heappop(topk)
        heapq.heappop(topk_deep)


def averaged_loss(heap):
    states = [s for _, _, s in heap]
    avg = {k: sum(s[k] for s in states) / len(states) for k in states[0]}
    probe = copy.deepcopy(model)
    probe.load_state_dict(avg)
    with torch.no_grad():
        return nn.functional.cross_entropy(probe(Xv), Yv).item()


print("kept epochs", sorted(e for _, e, _ in topk))
print(f"avg of top-{K} (heap A) {averaged_loss(topk):.6f}")
print(f"avg of top-{K} (heap B) {averaged_loss(topk_deep):.6f}")
