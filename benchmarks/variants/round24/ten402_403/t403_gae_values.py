"""Bootstrapped value targets and GAE for a rollout, computed with tensor slicing."""
import torch

torch.manual_seed(0)


def next_values_alias(values, last_value):
    next_values = values
    next_values[:-1] = values[1:]  # expect: TEN403
    next_values[-1] = last_value
    return next_values


def next_values_copy(values, last_value):
    next_values = values.clone()
    next_values[:-1] = values[1:]  # ok
    next_values[-1] = last_value
    return next_values


def discounted_returns(rewards, last_value, gamma=0.9):
    returns = torch.empty(len(rewards) + 1)
    returns[-1] = last_value
    for t in reversed(range(len(rewards))):
        returns[t:t + 1] = rewards[t] + gamma * returns[t + 1:t + 2]  # ok
    return returns[:-1]


def gae(rewards, values, last_value, next_fn, gamma=0.9, lam=0.95):
    nv = next_fn(values.clone(), last_value)
    deltas = rewards + gamma * nv - values
    adv = torch.zeros_like(rewards)
    run = 0.0
    for t in reversed(range(len(rewards))):
        run = deltas[t] + gamma * lam * run
        adv[t] = run
    return adv


if __name__ == "__main__":
    rewards = torch.randn(10)
    values = torch.randn(10)
    print(f"returns {discounted_returns(rewards, 0.5).sum().item():.6f}")
    for fn in (next_values_alias, next_values_copy):
        try:
            print(fn.__name__, f"{gae(rewards, values, 0.5, fn).sum().item():.6f}")
        except RuntimeError as e:
            print(fn.__name__, "RuntimeError:", str(e)[:60])
