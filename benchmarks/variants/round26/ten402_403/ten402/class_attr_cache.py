import torch
import torch.nn as nn

torch.manual_seed(0)


class BestWeights:
    score = -1.0
    state = None
    first = None


net = nn.Sequential(nn.Linear(4, 12), nn.ReLU(), nn.Linear(12, 3))
opt = torch.optim.SGD(net.parameters(), lr=0.5)
X = torch.randn(90, 4)
Y = torch.randint(0, 3, (90,))
Xv = torch.randn(90, 4)
Yv = (Xv[:, 0] > 0).long() * 2

BestWeights.first = {k: v.clone() for k, v in net.state_dict().items()}  # ok
for ep in range(25):
    opt.zero_grad()
    nn.functional.cross_entropy(net(X), Y).backward()
    opt.step()
    with torch.no_grad():
        acc = (net(Xv).argmax(1) == Yv).float().mean().item()
    if acc > BestWeights.score:
        BestWeights.score = acc
        BestWeights.state = net.state_dict()  # expect: TEN402

print(f"best acc {BestWeights.score:.4f}")
net.load_state_dict(BestWeights.state)
with torch.no_grad():
    print(f"restored acc {(net(Xv).argmax(1) == Yv).float().mean().item():.4f}")
    print(f"restored val loss {nn.functional.cross_entropy(net(Xv), Yv).item():.6f}")
net.load_state_dict(BestWeights.first)
with torch.no_grad():
    print(f"init val loss {nn.functional.cross_entropy(net(Xv), Yv).item():.6f}")
