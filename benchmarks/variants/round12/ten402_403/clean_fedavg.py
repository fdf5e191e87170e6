"""Plain FedAvg with per-client model copies (reference implementation, no bugs)."""
import copy
from typing import Dict, List, Tuple

import torch
import torch.nn.functional as F

State = Dict[str, torch.Tensor]


def local_train(global_model, loader, epochs=1, lr=0.01) -> Tuple[State, int]:
    model = copy.deepcopy(global_model)  # ok
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
    return model.state_dict(), len(loader.dataset)


def fedavg(results: List[Tuple[State, int]]) -> State:
    total = sum(n for _, n in results)
    out = {}
    for k, ref in results[0][0].items():
        if ref.is_floating_point():
            out[k] = sum(s[k] * (n / total) for s, n in results)
        else:
            out[k] = ref.clone()
    return out


def run(global_model, client_loaders, rounds=50, frac=0.1, seed=0):
    g = torch.Generator().manual_seed(seed)
    history = []
    for r in range(rounds):
        m = max(1, int(frac * len(client_loaders)))
        chosen = torch.randperm(len(client_loaders), generator=g)[:m].tolist()
        before = {k: v.detach().clone() for k, v in global_model.state_dict().items()}  # ok
        results = [local_train(global_model, client_loaders[i]) for i in chosen]
        global_model.load_state_dict(fedavg(results))
        delta = sum((global_model.state_dict()[k].float() - before[k].float()).norm() ** 2
                    for k in before) ** 0.5
        history.append(delta.item())
    return history


def personalise(global_model, loader, steps=20):
    head_init = {n: p.detach().clone() for n, p in global_model.named_parameters()  # ok
                 if n.startswith("head.")}
    model = copy.deepcopy(global_model)
    opt = torch.optim.SGD([p for n, p in model.named_parameters() if n.startswith("head.")], lr=0.05)
    for step, (x, y) in zip(range(steps), loader):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    moved = {n: (p.detach() - head_init[n]).norm().item()
             for n, p in model.named_parameters() if n in head_init}
    return model, moved
