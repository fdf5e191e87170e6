"""Discounted returns and GAE for a batch of rollouts (time along dim 1)."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def returns_loop(rewards, dones, gamma=0.9):
    ret = torch.zeros_like(rewards)
    ret[:, -1] = rewards[:, -1]  # ok
    for t in reversed(range(rewards.shape[1] - 1)):
        ret[:, t] = rewards[:, t] + gamma * (1 - dones[:, t]) * ret[:, t + 1]  # ok
    return ret


def one_step_bootstrap(rewards, gamma=0.9):
    """r_t + gamma * r_{t+1}: two-step truncated return."""
    r = rewards.clone()
    r[:, :-1].add_(r[:, 1:], alpha=gamma)  # expect: TEN403
    return r


def one_step_bootstrap_expr(rewards, gamma=0.9):
    r = rewards.clone()
    r[:, :-1] += gamma * r[:, 1:]  # ok
    return r


def gae(rewards, values, dones, gamma=0.9, lam=0.95):
    adv = torch.zeros_like(rewards)
    last = torch.zeros(rewards.shape[0])
    for t in reversed(range(rewards.shape[1])):
        nxt = values[:, t + 1] if t + 1 < values.shape[1] else torch.zeros_like(last)
        delta = rewards[:, t] + gamma * nxt * (1 - dones[:, t]) - values[:, t]
        last = delta + gamma * lam * (1 - dones[:, t]) * last
        adv[:, t] = last  # ok
    return adv


def normalize_rows(x):
    x = x.clone()
    x.sub_(x.mean(1, keepdim=True)).div_(x.std(1, keepdim=True) + 1e-8)  # ok
    return x


if __name__ == "__main__":
    rew = torch.randn(2, 16)
    dn = (torch.rand(2, 16) < 0.1).float()
    val = torch.randn(2, 16)
    print("returns", returns_loop(rew, dn)[0, :4].tolist())
    a, b = one_step_bootstrap(rew), one_step_bootstrap_expr(rew)
    print("bootstrap in-place vs expr", (a - b).abs().max().item())
    print("gae", normalize_rows(gae(rew, val, dn))[0, :4].tolist())
