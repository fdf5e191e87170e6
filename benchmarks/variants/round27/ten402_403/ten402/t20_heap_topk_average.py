import heapq
import io
import torch
import torch.nn as nn

torch.manual_seed(0)

X = torch.randn(100, 6)
Y = (X[:, :2].sum(1, keepdim=True) > 0).float()
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.8, momentum=0.9)
K = 3
topk, topk_bytes = [], []
for epoch in range(20):
    opt.zero_grad()
    nn.functional.binary_cross_entropy_with_logits(model(X), Y).backward()
    opt.step()
    with torch.no_grad():
        val = -nn.functional.binary_cross_entropy_with_logits(model(X[:30]), Y[:30]).item()
    heapq.heappush(topk, (val, epoch, model.state_dict()))  # expect: TEN402
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    heapq.heappush(topk_bytes, (val, epoch, buf.getvalue()))
    if len(topk) > K:
        heapq.heappop(topk)
        heapq.heappop(topk_bytes)


def average(states):
    return {k: torch.stack([s[k] for s in states]).mean(0) for k in states[0]}


print("kept epochs", sorted(e for _, e, _ in topk))
for tag, states in (("refs", [s for _, _, s in topk]),
                    ("bytes", [torch.load(io.BytesIO(b)) for _, _, b in topk_bytes])):
    model.load_state_dict(average(states))
    with torch.no_grad():
        l = nn.functional.binary_cross_entropy_with_logits(model(X[:30]), Y[:30]).item()
    print(f"{tag}: top-{K} averaged val loss {l:.5f}")
