"""Loss smoothing with a fixed-size deque window, as in many progress bars."""
from collections import deque
import torch
import torch.nn as nn

torch.manual_seed(0)

enc = nn.GRU(3, 8, batch_first=True)
head = nn.Linear(8, 1)
params = list(enc.parameters()) + list(head.parameters())
opt = torch.optim.RMSprop(params, lr=1e-2)
window = deque(maxlen=5)
window_vals = deque(maxlen=5)
grad_norms = deque(maxlen=5)
recent_preds = deque(maxlen=3)

for step in range(14):
    seq = torch.randn(4, 7, 3)
    target = seq.sum(dim=(1, 2)).unsqueeze(1) * 0.1
    _, h = enc(seq)
    pred = head(h[-1])
    loss = (pred - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    window.append(loss)  # expect: TEN501
    window_vals.append(loss.item())  # ok
    grad_norms.append(gn)  # ok
    recent_preds.appendleft(pred)  # expect: TEN501
    if step % 4 == 0:
        print(step, "smooth", round(sum(window_vals) / len(window_vals), 4))

print("window mean", torch.stack(list(window)).mean().item())
print("grad norms", [round(g.item(), 3) for g in grad_norms])
