from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def main(steps=30, window=25):
    model = nn.Sequential(nn.Linear(5, 20), nn.SiLU(), nn.Linear(20, 5))
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    recent = deque(maxlen=window)
    recent_ok = deque(maxlen=window)
    recent_grad = deque(maxlen=window)
    recent_w = deque(maxlen=window)
    for step in range(steps):
        x = torch.randn(8, 5)
        loss = F.mse_loss(model(x), x.flip(1))
        opt.zero_grad()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        recent.append(loss)  # expect: TEN501
        recent_ok.append(loss.item())  # ok
        recent_grad.append(gn)  # ok
        recent_w.append(model[0].weight.abs().mean())  # expect: TEN501
        if step % 10 == 9:
            smooth = sum(recent_ok) / len(recent_ok)
            print(f"step {step} smoothed {smooth:.4f} grad {float(sum(recent_grad)) / len(recent_grad):.3f}")
    return torch.stack(list(recent)).mean().item()


print(main())
