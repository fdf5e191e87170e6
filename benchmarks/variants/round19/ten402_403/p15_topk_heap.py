"""Keep the top-k checkpoints in a heap and average them at the end."""
import heapq
import io
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

K = 3
model = nn.Linear(5, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
X, Y = torch.randn(30, 5), torch.randn(30, 1)
Xv, Yv = torch.randn(10, 5), torch.randn(10, 1)

heap, heap_ok, blobs = [], [], []
for step in range(10):
    opt.zero_grad()
    ((model(X) - Y) ** 2).mean().backward()
    opt.step()
    with torch.no_grad():
        score = -((model(Xv) - Yv) ** 2).mean().item()
    heapq.heappush(heap, (score, step, model.state_dict()))  # expect: TEN402
    heapq.heappush(heap_ok, (score, step, {k: v.clone() for k, v in model.state_dict().items()}))  # ok
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    blobs.append(buf.getvalue())
    if len(heap) > K:
        heapq.heappop(heap)
        heapq.heappop(heap_ok)

avg = {k: sum(sd[k] for _, _, sd in heap) / K for k in heap[0][2]}
avg_ok = {k: sum(sd[k] for _, _, sd in heap_ok) / K for k in heap_ok[0][2]}
first = torch.load(io.BytesIO(blobs[0]))
print("top-k steps", sorted(s for _, s, _ in heap_ok))
print("avg gap", (avg["weight"] - avg_ok["weight"]).abs().sum().item(), "first ckpt norm", first["weight"].norm().item())
