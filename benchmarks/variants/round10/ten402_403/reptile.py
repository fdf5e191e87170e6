"""Reptile (Nichol et al., 2018) for few-shot classification."""
import copy

import torch
import torch.nn.functional as F


def adapt(model, task, steps, lr, device):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    for _ in range(steps):
        x, y = task.sample_batch()
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


def batched_meta_step(model, tasks, inner_steps, inner_lr, eps, device):
    """Average the adapted-minus-initial deltas over several tasks, then move towards them."""
    start = copy.deepcopy(model.state_dict())  # ok
    deltas = {k: torch.zeros_like(v, dtype=torch.float32) for k, v in start.items()}
    for task in tasks:
        model.load_state_dict(start)
        adapt(model, task, inner_steps, inner_lr, device)
        adapted = model.state_dict()  # ok
        for k in deltas:
            deltas[k] += adapted[k].float() - start[k].float()
    model.load_state_dict({k: start[k] + eps * deltas[k] / len(tasks) for k in start})


def meta_train(model, task_sampler, meta_iters=100_000, meta_batch=1, inner_steps=5,
               inner_lr=1e-3, meta_lr=1.0, device="cuda", log_every=1000):
    model.to(device)
    for it in range(meta_iters):
        eps = meta_lr * (1.0 - it / meta_iters)
        if meta_batch > 1:
            batched_meta_step(model, [task_sampler.sample() for _ in range(meta_batch)],
                              inner_steps, inner_lr, eps, device)
            continue

        task = task_sampler.sample()
        meta_weights = [p.data for p in model.parameters()]  # expect: TEN402
        adapt(model, task, inner_steps, inner_lr, device)
        with torch.no_grad():
            for p, w0 in zip(model.parameters(), meta_weights):
                p.copy_(w0 + eps * (p - w0))

        if it % log_every == 0:
            print(f"meta-iter {it}: eps={eps:.3f}")
    return model


def meta_test(model, tasks, steps=50, lr=1e-3, device="cuda"):
    init = copy.deepcopy(model.state_dict())  # ok
    accs = []
    for task in tasks:
        model.load_state_dict(init)
        adapt(model, task, steps, lr, device)
        model.eval()
        with torch.no_grad():
            xq, yq = task.query()
            pred = model(xq.to(device)).argmax(-1)
            accs.append((pred == yq.to(device)).float().mean().item())
    model.load_state_dict(init)
    return sum(accs) / len(accs)
