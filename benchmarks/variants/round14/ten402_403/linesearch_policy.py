"""Backtracking line search on a softmax policy (TRPO-flavoured surrogate)."""
from collections import OrderedDict

import torch
from torch import nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters


def surrogate(policy, obs, act, adv, old_logp):
    logp = torch.log_softmax(policy(obs), -1).gather(1, act[:, None]).squeeze(1)
    return (torch.exp(logp - old_logp) * adv).mean()


def mean_kl(policy, obs, old_logits):
    old = torch.log_softmax(old_logits, -1)
    new = torch.log_softmax(policy(obs), -1)
    return (old.exp() * (old - new)).sum(-1).mean().item()


def accept(policy, obs, act, adv, old_logp, old_logits, base, max_kl=0.02):
    with torch.no_grad():
        gain = surrogate(policy, obs, act, adv, old_logp).item() > base
        return gain and mean_kl(policy, obs, old_logits) < max_kl


def apply_step(policy, step):
    offset = 0
    with torch.no_grad():
        for p in policy.parameters():
            n = p.numel()
            p.add_(step[offset:offset + n].view_as(p))
            offset += n


def line_search_state(policy, full_step, obs, act, adv, old_logp, fracs=(1.0, 0.5, 0.25, 0.125)):
    old_logits = policy(obs).detach()
    old_state = OrderedDict(policy.state_dict())  # expect: TEN402
    base = surrogate(policy, obs, act, adv, old_logp).item()
    for frac in fracs:
        policy.load_state_dict(old_state)
        apply_step(policy, frac * full_step)
        if accept(policy, obs, act, adv, old_logp, old_logits, base):
            return frac
    policy.load_state_dict(old_state)
    return 0.0


def line_search_flat(policy, full_step, obs, act, adv, old_logp, fracs=(1.0, 0.5, 0.25, 0.125)):
    old_logits = policy(obs).detach()
    old = parameters_to_vector(policy.parameters()).detach()  # ok
    base = surrogate(policy, obs, act, adv, old_logp).item()
    for frac in fracs:
        vector_to_parameters(old + frac * full_step, policy.parameters())
        if accept(policy, obs, act, adv, old_logp, old_logits, base):
            return frac
    vector_to_parameters(old, policy.parameters())
    return 0.0


def run(search):
    torch.manual_seed(0)
    policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))
    obs = torch.randn(256, 4)
    with torch.no_grad():
        act = torch.distributions.Categorical(logits=policy(obs)).sample()
        old_logp = torch.log_softmax(policy(obs), -1).gather(1, act[:, None]).squeeze(1)
    adv = torch.randn(256)
    start = parameters_to_vector(policy.parameters()).detach().clone()  # ok
    loss = surrogate(policy, obs, act, adv, old_logp)
    grad = torch.autograd.grad(loss, list(policy.parameters()))
    full_step = 8.0 * torch.cat([g.flatten() for g in grad])
    frac = search(policy, full_step, obs, act, adv, old_logp)
    moved = (parameters_to_vector(policy.parameters()).detach() - start).norm().item()
    expected = (frac * full_step).norm().item()
    print(f"{search.__name__}: accepted frac {frac}, moved {moved:.4f} (expected {expected:.4f})")


if __name__ == "__main__":
    run(line_search_state)
    run(line_search_flat)
