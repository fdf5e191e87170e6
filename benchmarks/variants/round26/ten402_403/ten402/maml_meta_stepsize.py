import torch
import torch.nn as nn
from torch.func import functional_call, grad

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 1))
meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
inner_lr = 0.05


def task_batch():
    a = torch.rand(1) * 2 + 0.5
    b = torch.rand(1) * 3
    xs, xq = torch.rand(10, 1) * 6 - 3, torch.rand(10, 1) * 6 - 3
    return (xs, a * torch.sin(xs + b)), (xq, a * torch.sin(xq + b))


def loss_fn(params, x, y):
    return nn.functional.mse_loss(functional_call(model, params, (x,)), y)


meta_moves, ref_moves = [], []
for it in range(25):
    params = dict(model.named_parameters())
    before = [p.detach() for p in model.parameters()]  # expect: TEN402
    before_ref = [p.detach().clone() for p in model.parameters()]  # ok
    meta_loss = 0.0
    for _ in range(4):
        (xs, ys), (xq, yq) = task_batch()
        g = grad(loss_fn)(params, xs, ys)
        fast = {k: params[k] - inner_lr * g[k] for k in params}
        meta_loss = meta_loss + loss_fn(fast, xq, yq)
    meta_opt.zero_grad()
    (meta_loss / 4).backward()
    meta_opt.step()
    meta_moves.append(sum((p.detach() - b).norm() for p, b in zip(model.parameters(), before)).item())
    ref_moves.append(sum((p.detach() - b).norm() for p, b in zip(model.parameters(), before_ref)).item())

print("meta step sizes (first 5)", [round(m, 6) for m in meta_moves[:5]])
print("reference step sizes    ", [round(m, 6) for m in ref_moves[:5]])
print(f"final meta loss {meta_loss.item() / 4:.6f}")
