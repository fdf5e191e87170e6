"""Module-level bookkeeping used by the notebook helpers."""
import torch
import torch.nn as nn

_LOSS_LOG = []
_GRAD_NORMS = []
_ACTIVATION_STATS = {}
_PARAM_NORMS = {}
_STEP = 0


def record_activation_stats(name, tensor):
    _ACTIVATION_STATS.setdefault(name, []).append(tensor.detach().abs().mean())


def training_step(model, batch, optimizer, max_norm=1.0):
    global _STEP
    x, y = batch
    hidden = model.encoder(x)
    logits = model.head(hidden)
    loss = nn.functional.cross_entropy(logits, y)
    optimizer.zero_grad()
    loss.backward()
    gnorm = nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()

    _LOSS_LOG.append(loss)  # expect: TEN501
    _GRAD_NORMS.append(gnorm)  # ok
    record_activation_stats("hidden", hidden)  # ok
    _ACTIVATION_STATS.setdefault("logit_mean", []).append(logits.mean())  # expect: TEN501
    _STEP += 1
    return loss.item()


def monitor_parameters(model, weight_decay=1e-4):
    """Called once per step from the notebook to plot weight growth."""
    l2 = 0.0
    for name, p in model.named_parameters():
        _PARAM_NORMS.setdefault(name, []).append(p.norm())  # expect: TEN501
        _PARAM_NORMS.setdefault(name + ".data", []).append(p.detach().norm().item())  # ok
        if p.grad is not None:
            _PARAM_NORMS.setdefault(name + ".grad", []).append(p.grad.norm())  # ok
        l2 = l2 + p.pow(2).sum()  # ok
    return weight_decay * l2


def loss_curve():
    return [l.item() for l in _LOSS_LOG]
