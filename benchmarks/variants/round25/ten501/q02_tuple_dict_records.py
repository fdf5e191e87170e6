import torch
from torch import nn

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
X = torch.randn(96, 6)
Y = torch.randint(0, 3, (96,))

history = []
history_ok = []
records = []
records_ok = []

for step in range(12):
    idx = torch.randint(0, 96, (24,))
    logits = net(X[idx])
    ce = nn.functional.cross_entropy(logits, Y[idx])
    reg = 1e-3 * sum(p.pow(2).sum() for p in net.parameters())
    loss = ce + reg
    opt.zero_grad()
    loss.backward()
    opt.step()

    history.append((ce, reg))  # expect: TEN501
    history_ok.append((ce.item(), reg.item()))  # ok
    records.append({"step": step, "loss": loss, "lr": opt.param_groups[0]["lr"]})  # expect: TEN501
    records_ok.append({"step": step, "loss": float(loss), "lr": opt.param_groups[0]["lr"]})  # ok

print("last ce/reg:", history_ok[-1])
print("mean loss:", sum(r["loss"] for r in records_ok) / len(records_ok))
print("records kept:", len(records), len(history))
