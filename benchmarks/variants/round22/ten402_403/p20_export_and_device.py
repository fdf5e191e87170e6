"""Keeping 'best' weights on the host for later plotting / reloading (CPU-only run)."""
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.4, momentum=0.5)
x = torch.randn(12, 4, device=device)
y = torch.randn(12, 1, device=device)
xv = torch.randn(60, 4, device=device)
yv = torch.randn(60, 1, device=device)

best_val = float("inf")
best_np = best_host = best_dev = best_copy = best_np_copy = None
for epoch in range(25):
    opt.zero_grad()
    ((model(x) - y) ** 2).mean().backward()
    opt.step()
    with torch.no_grad():
        val = ((model(xv) - yv) ** 2).mean().item()
    if val < best_val:
        best_val, best_epoch = val, epoch
        best_np = {k: v.cpu().numpy() for k, v in model.state_dict().items()}  # expect: TEN402
        best_host = {k: v.cpu() for k, v in model.state_dict().items()}  # expect: TEN402
        best_dev = {k: v.to(device) for k, v in model.state_dict().items()}  # expect: TEN402
        best_copy = {k: v.to("cpu", copy=True) for k, v in model.state_dict().items()}  # ok
        best_np_copy = {k: np.array(v.cpu().numpy(), copy=True) for k, v in model.state_dict().items()}  # ok

print(f"best epoch {best_epoch}, best val {best_val:.5f}")
print("live  w[0,:3]", np.round(model[0].weight.detach().cpu().numpy()[0, :3], 5).tolist())
print("np    w[0,:3]", np.round(best_np["0.weight"][0, :3], 5).tolist())
print("np cp w[0,:3]", np.round(best_np_copy["0.weight"][0, :3], 5).tolist())
for name, state in (("host", best_host), ("device", best_dev), ("copy", best_copy)):
    model.load_state_dict(state)
    with torch.no_grad():
        print(f"reload {name:<7} val {((model(xv) - yv) ** 2).mean().item():.5f}")
