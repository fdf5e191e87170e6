import copy
import torch
import torch.nn as nn

torch.manual_seed(0)

X = torch.randn(300, 8)
Y = (X @ torch.randn(8, 3)).argmax(1)
Xv, Yv = X[200:], Y[200:]
X, Y = X[:200], Y[:200]

model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))
# "pretraining"
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(20):
    opt.zero_grad()
    nn.functional.cross_entropy(model(X), Y).backward()
    opt.step()
pretrained = copy.deepcopy(model.state_dict())  # ok

ingredients = []
for lr in (0.02, 0.05, 0.1, 0.2):
    model.load_state_dict(pretrained)
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for _ in range(30):
        opt.zero_grad()
        nn.functional.cross_entropy(model(X), Y).backward()
        opt.step()
    with torch.no_grad():
        acc = (model(Xv).argmax(1) == Yv).float().mean().item()
    print(f"lr {lr}: val acc {acc:.4f}")
    ingredients.append(model.state_dict())  # expect: TEN402

soup = {k: torch.stack([sd[k] for sd in ingredients]).mean(0) for k in pretrained}
model.load_state_dict(soup)
with torch.no_grad():
    print(f"uniform soup val loss {nn.functional.cross_entropy(model(Xv), Yv).item():.6f}")
