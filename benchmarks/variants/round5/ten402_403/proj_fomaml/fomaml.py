"""First-order MAML on a toy family of linear-regression tasks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from weight_stash import WeightStash


def sample_tasks(n_tasks, dim=5, shots=10, generator=None):
    tasks = []
    for _ in range(n_tasks):
        w = torch.randn(dim, 1, generator=generator)
        xs, xq = torch.randn(shots, dim, generator=generator), torch.randn(shots, dim, generator=generator)
        tasks.append(((xs, xs @ w), (xq, xq @ w)))
    return tasks


def fomaml(model, iterations=20, tasks_per_batch=4, inner_steps=3, inner_lr=0.05, meta_lr=1e-2, seed=0):
    g = torch.Generator().manual_seed(seed)
    meta_opt = torch.optim.Adam(model.parameters(), lr=meta_lr)
    stash = WeightStash()
    init = [p.detach().clone() for p in model.parameters()]  # ok
    for it in range(iterations):
        meta_grads = [torch.zeros_like(p) for p in model.parameters()]
        for (xs, ys), (xq, yq) in sample_tasks(tasks_per_batch, generator=g):
            stash.stash(model)
            inner_opt = torch.optim.SGD(model.parameters(), lr=inner_lr)
            for _ in range(inner_steps):
                inner_opt.zero_grad()
                F.mse_loss(model(xs), ys).backward()
                inner_opt.step()
            model.zero_grad()
            F.mse_loss(model(xq), yq).backward()
            for mg, p in zip(meta_grads, model.parameters()):
                mg += p.grad / tasks_per_batch
            stash.restore(model)
        meta_opt.zero_grad()
        for p, mg in zip(model.parameters(), meta_grads):
            p.grad = mg
        meta_opt.step()
    drift = sum((p.detach() - p0).norm().item() for p, p0 in zip(model.parameters(), init))
    return model, drift


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Linear(5, 1)
    before = net.weight.detach().clone()
    stash = WeightStash()
    stash.stash(net)
    with torch.no_grad():
        net.weight.add_(1.0)  # stands in for an inner-loop update
    stash.restore(net)
    print("restore brings back the meta-parameters:", torch.equal(net.weight.detach(), before))
    _, drift = fomaml(net)
    print(f"distance from init after meta-training: {drift:.3f}")
