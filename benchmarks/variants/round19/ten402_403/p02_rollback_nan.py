"""Roll back to the last good weights when the loss blows up."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.out = nn.Linear(4, 1)

    def forward(self, x):
        return self.out(torch.tanh(self.fc(x)))


net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
data = torch.randn(32, 4)
target = torch.randn(32, 1)

last_good = {}
last_good_safe = {k: v.clone() for k, v in net.state_dict().items()}  # ok
rollbacks = 0
for step in range(12):
    opt.zero_grad()
    loss = ((net(data) - target) ** 2).mean()
    if step == 8:
        loss = loss * float("nan")  # simulated blow-up
    loss.backward()
    opt.step()
    if not torch.isfinite(net.out.weight).all():
        bad = sum(torch.isnan(v).sum().item() for v in last_good.values())
        net.load_state_dict(last_good_safe)
        rollbacks += 1
        print("rollback at", step, "nan entries in naive snapshot:", bad)
    else:
        last_good = {k: v for k, v in net.state_dict().items()}  # expect: TEN402
        last_good_safe = {k: v.clone() for k, v in net.state_dict().items()}  # ok
print("rollbacks", rollbacks, "finite now:", bool(torch.isfinite(net.out.weight).all()))
