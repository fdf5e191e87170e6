"""First-order-ish MAML on sine regression with functional fast weights."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
w = torch.randn(1, 8, requires_grad=True)
v = torch.randn(8, 1, requires_grad=True)
meta_opt = torch.optim.Adam([w, v], lr=1e-3)


def fwd(x, params):
    a, b = params
    return torch.tanh(x @ a) @ b


meta_hist, meta_hist_ok = [], []
for meta_it in range(3):
    task_losses = []
    for task in range(2):
        amp = 1.0 + task
        xs, xq = torch.rand(5, 1), torch.rand(5, 1)
        inner = F.mse_loss(fwd(xs, (w, v)), amp * torch.sin(xs))
        ga, gb = torch.autograd.grad(inner, (w, v), create_graph=True)
        fast = (w - 0.1 * ga, v - 0.1 * gb)
        task_losses.append(F.mse_loss(fwd(xq, fast), amp * torch.sin(xq)))  # ok
    meta_loss = torch.stack(task_losses).mean()
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
    meta_hist.append(meta_loss)  # expect: TEN501
    meta_hist_ok.append(meta_loss.item())  # ok
print(len(meta_hist), meta_hist_ok[-1])
