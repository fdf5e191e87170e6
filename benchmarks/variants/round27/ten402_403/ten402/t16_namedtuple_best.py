from collections import namedtuple
import torch
import torch.nn as nn

torch.manual_seed(0)

Ckpt = namedtuple("Ckpt", ["score", "epoch", "state"])

X = torch.randn(90, 7)
Y = (X[:, 2] > 0.3).float()[:, None]
model = nn.Sequential(nn.Linear(7, 10), nn.ReLU(), nn.Linear(10, 1))
opt = torch.optim.SGD(model.parameters(), lr=1.5)
best = Ckpt(-1.0, -1, None)
best2 = Ckpt(-1.0, -1, None)
for epoch in range(25):
    opt.zero_grad()
    loss = nn.functional.binary_cross_entropy_with_logits(model(X), Y)
    loss.backward()
    opt.step()
    with torch.no_grad():
        score = ((model(X) > 0).float() == Y).float().mean().item() - 0.01 * epoch
    if score > best.score:
        best = Ckpt(score, epoch, {k: v.contiguous() for k, v in model.state_dict().items()})  # expect: TEN402
        best2 = Ckpt(score, epoch, {k: v.contiguous().clone() for k, v in model.state_dict().items()})  # ok

for c in (best, best2):
    model.load_state_dict(c.state)
    with torch.no_grad():
        acc = ((model(X) > 0).float() == Y).float().mean().item()
    print(f"best epoch {c.epoch} score {c.score:.4f} reloaded acc {acc:.4f}")
