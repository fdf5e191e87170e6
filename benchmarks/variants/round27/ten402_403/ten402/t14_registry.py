import torch
import torch.nn as nn

torch.manual_seed(0)

CHECKPOINTS = {}


def register(tag, module):
    CHECKPOINTS[tag] = module.state_dict()  # expect: TEN402


def register_copy(tag, module):
    CHECKPOINTS[tag] = {k: v.detach().clone() for k, v in module.state_dict().items()}  # ok


net = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.2)
X = torch.randn(30, 3)
Y = X.prod(1, keepdim=True)

for stage in range(3):
    for _ in range(15):
        opt.zero_grad()
        nn.functional.mse_loss(net(X), Y).backward()
        opt.step()
    register(f"stage{stage}", net)
    register_copy(f"stage{stage}_copy", net)

CHECKPOINTS["final"] = net.state_dict()  # ok
for tag in sorted(CHECKPOINTS):
    probe = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1))
    probe.load_state_dict(CHECKPOINTS[tag])
    with torch.no_grad():
        print(f"{tag:12s} loss {nn.functional.mse_loss(probe(X), Y).item():.6f}")
