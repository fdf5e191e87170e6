from collections import deque
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Linear(10, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
X = torch.randn(200, 10)
Y = X @ torch.randn(10, 1) + 0.5 * torch.randn(200, 1)

window = deque(maxlen=4)
window64 = deque(maxlen=4)
for step in range(40):
    idx = torch.randint(0, 200, (8,))
    opt.zero_grad()
    nn.functional.mse_loss(model(X[idx]), Y[idx]).backward()
    opt.step()
    window.append({k: v.float() for k, v in model.state_dict().items()})  # expect: TEN402
    window64.append({k: v.double() for k, v in model.state_dict().items()})  # ok

for tag, win in (("float", window), ("double", window64)):
    avg = {k: torch.stack([s[k].float() for s in win]).mean(0) for k in win[0]}
    spread = torch.stack([s["weight"].float() for s in win]).std(0).max().item()
    model_avg = nn.Linear(10, 1)
    model_avg.load_state_dict(avg)
    with torch.no_grad():
        print(f"{tag}: spread {spread:.6f} averaged loss {nn.functional.mse_loss(model_avg(X), Y).item():.6f}")
