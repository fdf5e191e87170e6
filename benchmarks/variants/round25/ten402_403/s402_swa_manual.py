# manual stochastic weight averaging over the last epochs (no torch.optim.swa_utils)
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(200, 4)
y = torch.sin(x.sum(1, keepdim=True)) + 0.1 * torch.randn(200, 1)
net = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=5)

swa_bank = []
tail_norms = []
for epoch in range(20):
    for i in range(0, 200, 25):
        opt.zero_grad()
        ((net(x[i:i + 25]) - y[i:i + 25]) ** 2).mean().backward()
        opt.step()
    sched.step()
    if epoch >= 10 and epoch % 2 == 0:
        swa_bank.append([p.data for p in net.parameters()])  # expect: TEN402
        tail_norms.append([p.data.norm().item() for p in net.parameters()])  # ok

avg = [torch.stack(ws).mean(0) for ws in zip(*swa_bank)]
with torch.no_grad():
    last = ((net(x) - y) ** 2).mean().item()
    for p, a in zip(net.parameters(), avg):
        p.copy_(a)
    swa = ((net(x) - y) ** 2).mean().item()
print(f"last-iterate mse {last:.6f}  swa mse {swa:.6f}")
print("recorded norms", [round(n[0], 4) for n in tail_norms])
