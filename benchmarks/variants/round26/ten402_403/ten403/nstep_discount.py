import torch

torch.manual_seed(0)

gamma, n = 0.9, 3
rewards = torch.randint(0, 3, (4, 12)).float()  # (envs, time)


def nstep_returns_inplace(r, gamma, n):
    g = r.clone()
    for k in range(1, n):
        g[:, :-k].add_(r[:, k:], alpha=gamma ** k)  # ok
    return g


def discounted_prefix_inplace(r, gamma):
    """Running discounted sum from the start of the episode, computed 'in one go'."""
    acc = r.clone()
    acc[:, 1:].add_(acc[:, :-1], alpha=gamma)  # expect: TEN403
    return acc


def discounted_prefix_loop(r, gamma):
    acc = r.clone()
    for t in range(1, r.shape[1]):
        acc[:, t] += gamma * acc[:, t - 1]  # ok
    return acc


def bootstrap_shift(values):
    v = values.clone()
    v[:, :-1] = gamma * v[:, 1:]  # ok
    return v


print("n-step  env0", [round(x, 4) for x in nstep_returns_inplace(rewards, gamma, n)[0].tolist()])
a = discounted_prefix_inplace(rewards, gamma)
b = discounted_prefix_loop(rewards, gamma)
print("prefix (one op) env0", [round(x, 4) for x in a[0].tolist()])
print("prefix (loop)   env0", [round(x, 4) for x in b[0].tolist()])
print("bootstrap env0", [round(x, 4) for x in bootstrap_shift(rewards)[0].tolist()])
