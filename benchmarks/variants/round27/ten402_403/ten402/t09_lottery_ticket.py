import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

X = torch.randn(256, 10)
y = (X[:, :3].sum(1) > 0).long()

net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
init_state = net.state_dict()  # expect: TEN402
theta0 = copy.deepcopy(net.state_dict())  # ok


def train(model, masks=None, epochs=30):
    opt = torch.optim.SGD(model.parameters(), lr=0.3)
    for _ in range(epochs):
        opt.zero_grad()
        F.cross_entropy(model(X), y).backward()
        opt.step()
        if masks:
            with torch.no_grad():
                for name, p in model.named_parameters():
                    if name in masks:
                        p.mul_(masks[name])


def accuracy(model):
    with torch.no_grad():
        return (model(X).argmax(1) == y).float().mean().item()


train(net)
print(f"dense acc {accuracy(net):.4f}")

masks = {}
for name, p in net.named_parameters():
    if p.dim() == 2:
        thr = p.detach().abs().flatten().kthvalue(int(0.8 * p.numel())).values
        masks[name] = (p.detach().abs() > thr).float()

# rewind to the original initialisation, keep the mask
net.load_state_dict(init_state)
with torch.no_grad():
    for name, p in net.named_parameters():
        if name in masks:
            p.mul_(masks[name])
rewind_gap = sum((net.state_dict()[k] * masks.get(k, 1) - theta0[k] * masks.get(k, 1)).abs().sum() for k in theta0)
print(f"distance of rewound weights from theta0 {rewind_gap.item():.5f}")
train(net, masks, epochs=10)
print(f"ticket acc after 10 epochs {accuracy(net):.4f}")
