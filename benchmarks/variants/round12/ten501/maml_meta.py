"""Second-order MAML for few-shot classification, using torch.func.functional_call."""
import torch
import torch.nn.functional as F
from torch.func import functional_call


def inner_adapt(model, params, x, y, steps, lr):
    for _ in range(steps):
        loss = F.cross_entropy(functional_call(model, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        params = {n: p - lr * g for (n, p), g in zip(params.items(), grads)}
    return params


def meta_train(model, task_sampler, meta_opt, meta_batch=4, iterations=1000, inner_steps=1, inner_lr=0.4):
    meta_losses = []
    meta_accs = []
    for it in range(iterations):
        meta_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(meta_batch):
            (xs, ys), (xq, yq) = task_sampler()
            params = dict(model.named_parameters())
            adapted = inner_adapt(model, params, xs, ys, inner_steps, inner_lr)
            logits_q = functional_call(model, adapted, (xq,))
            task_loss = F.cross_entropy(logits_q, yq)
            meta_loss += task_loss  # ok
            meta_accs.append((logits_q.argmax(1) == yq).float().mean().item())  # ok
        meta_loss = meta_loss / meta_batch
        meta_loss.backward()
        meta_opt.step()
        meta_losses.append(meta_loss)  # expect: TEN501
        if it % 100 == 0:
            print(f"iter {it}: meta-loss {meta_loss.item():.4f}")
    return meta_losses, meta_accs


def meta_test(model, task_sampler, n_tasks=100, inner_steps=5, inner_lr=0.4):
    accs = []
    for _ in range(n_tasks):
        (xs, ys), (xq, yq) = task_sampler()
        params = {n: p.detach().requires_grad_() for n, p in model.named_parameters()}
        adapted = inner_adapt(model, params, xs, ys, inner_steps, inner_lr)
        with torch.no_grad():
            logits_q = functional_call(model, adapted, (xq,))
        accs.append((logits_q.argmax(1) == yq).float().mean())  # ok
    return torch.stack(accs).mean().item()
