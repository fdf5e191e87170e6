"""Full-batch logistic regression fitted with LBFGS, recording every closure call."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def toy_problem(n=120, d=5, seed=3):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, generator=g)
    y = (x @ w + 0.3 * torch.randn(n, generator=g) > 0).float()
    return x, y


def fit(x, y, max_steps=4, l2=1e-3):
    model = nn.Linear(x.size(1), 1)
    opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5, history_size=5)
    trace, eval_values, step_losses = [], [], []
    accs, snapshots, param_norms = [], [], []
    n_calls = 0

    def closure():
        nonlocal n_calls
        opt.zero_grad()
        logits = model(x).squeeze(-1)
        loss = F.binary_cross_entropy_with_logits(logits, y)
        loss = loss + l2 * model.weight.pow(2).sum()
        loss.backward()
        n_calls += 1
        trace.append(loss)  # expect: TEN501
        eval_values.append(loss.item())  # ok
        return loss

    for step in range(max_steps):
        ret = opt.step(closure)
        step_losses.append(ret)  # expect: TEN501
        with torch.no_grad():
            acc = ((model(x).squeeze(-1) > 0).float() == y).float().mean()
        accs.append(acc)  # ok
        snapshots.append(model.weight.detach().clone())  # ok
        param_norms.append(model.weight.norm())  # expect: TEN501
    return model, {"trace": trace, "evals": eval_values, "steps": step_losses,
                   "acc": accs, "snapshots": snapshots, "norms": param_norms, "calls": n_calls}


def refine_scalar(init=0.0, iters=3):
    """1-D problem solved with a functional closure; keeps only python floats."""
    theta = torch.tensor([init], requires_grad=True)
    opt = torch.optim.LBFGS([theta], lr=1.0, max_iter=4)
    values = []

    def closure():
        opt.zero_grad()
        f = (theta - 2.0).pow(2).sum() + 0.1 * theta.abs().sum()
        f.backward()
        values.append(f.detach().item())  # ok
        return f

    for _ in range(iters):
        opt.step(closure)
    return theta.detach(), values


if __name__ == "__main__":
    x, y = toy_problem()
    model, logs = fit(x, y)
    print(f"calls={logs['calls']} final_acc={logs['acc'][-1].item():.3f}")
    print(refine_scalar())
