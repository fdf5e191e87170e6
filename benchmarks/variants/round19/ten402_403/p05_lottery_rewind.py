"""Lottery-ticket style magnitude pruning with weight rewinding to init."""
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

net = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 2))
theta0 = copy.copy(net.state_dict())  # expect: TEN402
theta0_ok = {k: v.clone() for k, v in net.state_dict().items()}  # ok
X = torch.randn(50, 10)
y = torch.randint(0, 2, (50,))


def train(model, steps=15):
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.cross_entropy(model(X), y).backward()
        opt.step()


train(net)
masks = {}
for name, p in net.named_parameters():
    if p.dim() == 2:
        thr = p.abs().flatten().kthvalue(int(0.5 * p.numel())).values
        masks[name] = (p.abs() > thr).float()

# rewind: the winning ticket = init weights * mask
rewound = {k: (theta0[k] * masks[k] if k in masks else theta0[k]) for k in theta0}
rewound_ok = {k: (theta0_ok[k] * masks[k] if k in masks else theta0_ok[k]) for k in theta0_ok}
d = sum((rewound[k] - rewound_ok[k]).abs().sum().item() for k in rewound)
net.load_state_dict(rewound_ok)
print("distance between naive and true rewind:", round(d, 4))
