# keep the last few weight states; on a loss spike, revert k steps back
from collections import deque
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 24), nn.Tanh(), nn.Linear(24, 3))
x = torch.randn(60, 3)
y = torch.roll(x, 1, dims=1) * 2
history = deque(maxlen=4)
losses = []
lr_sched = [0.1] * 12 + [3.0] + [0.1] * 7
for step, lr in enumerate(lr_sched):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    with torch.no_grad():
        new_loss = ((model(x) - y) ** 2).mean().item()
    if losses and new_loss > 2 * losses[-1]:
        model.load_state_dict(history[0])
        print(f"step {step}: spike {new_loss:.4f}, reverted to state from {len(history)} steps ago")
        with torch.no_grad():
            new_loss = ((model(x) - y) ** 2).mean().item()
    history.append(model.state_dict())  # expect: TEN402
    losses.append(new_loss)
print("losses", [round(l, 4) for l in losses[-6:]])
